"""Prepared game definitions kept between runs (issue 24): reading an edition's data,
building its ``Game``, reading its board geometry and checking it all against the engine
(``service.games.load_game``) was about a sixth of every command's time.  The prepared
game is kept as a pickle in the user's cache folder (``io.usercache``: read only from the
user's own private folder), named by a hash of everything it was made from: the data
folder's files, the grammar's, the package's own modules (path, size and modification
time of each, as Python's ``__pycache__`` does), the options, the edition, the Python version
and the installed attrs.  Any change is another name, so an entry is never stale; an entry
that cannot be read is simply built again.  Only the command line uses it
(``use``): a library caller or a test that changes the engine's
registries at run time always gets a game built afresh."""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

from . import usercache
from .paths import GRAMMAR_DIR

_PACKAGE = Path(__file__).resolve().parent.parent
_FORMAT = b"pbem prepared game 1"

enabled = False             # ``use()``: the command line's games come from the cache


def use(on: bool = True) -> None:
    """Let ``service.games.load_game`` keep prepared games here (the command line: one
    game a command, loaded by nearly every command)."""
    global enabled
    enabled = on


def _stamp_files(h, paths) -> None:
    for path in paths:
        try:
            st = os.stat(path)
        except OSError:
            h.update(f"{path}\0-\n".encode("utf-8", "surrogateescape"))
            continue
        h.update(f"{path}\0{st.st_mtime_ns}\0{st.st_size}\n".encode("utf-8", "surrogateescape"))


def _tree(root: Path, suffix: str) -> list[str]:
    found = []
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = sorted(d for d in subfolders if d != "__pycache__" and not d.startswith("."))
        found += [os.path.join(folder, f) for f in sorted(files) if f.endswith(suffix)]
    return found


def key(directory: Path, data_files, options, edition: str | None) -> str:
    """The entry's name for the game of ``directory`` with ``options``."""
    import attr._make     # attrs itself (its __version__ would import importlib.metadata)

    h = hashlib.blake2b(_FORMAT, digest_size=20)
    h.update(repr((sys.version, str(directory), edition,
                   sorted((k, repr(v)) for k, v in (options or {}).items()))).encode("utf-8"))
    _stamp_files(h, [attr._make.__file__])
    _stamp_files(h, [os.path.join(directory, name) for name in data_files])
    _stamp_files(h, _tree(GRAMMAR_DIR, ".lark"))
    _stamp_files(h, _tree(_PACKAGE, ".py"))
    return f"game-{h.hexdigest()}.pickle"


def load(name: str):
    """The game kept under ``name``, or None."""
    path = usercache.private_file(name)
    if path is None or not usercache.is_private(path):
        return None
    import pickle
    try:
        with open(path, "rb") as f:
            return pickle.load(f)
    except Exception:       # a damaged or foreign entry: build the game again
        return None


def store(name: str, game) -> None:
    """Keep ``game`` under ``name`` (silently nothing when it cannot be kept)."""
    path = usercache.private_file(name)
    if path is None:
        return
    import pickle
    try:
        data = pickle.dumps(game, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:       # something in it does not pickle: not kept
        return
    usercache.write_private(path, data)
    _prune(path.parent)


MAX_ENTRIES = 32            # games kept (each code change makes new ones: the oldest go)


def _prune(folder: Path) -> None:
    try:
        kept = sorted(folder.glob("game-*.pickle"), key=lambda p: p.stat().st_mtime_ns)
        for old in kept[:-MAX_ENTRIES]:
            old.unlink()
    except OSError:
        pass
