"""The user's cache folder (``$PBEM_CACHE_DIR``, else ``$XDG_CACHE_HOME/pbem``, else
``~/.cache/pbem``): derived data that only makes ``pbem`` start faster (compiled code of
generated methods, the orders parser's tables).  Every entry is keyed by a hash of what it
was made from, so it is never stale; deleting the folder is always safe.

Cache files are code or pickles, so one is read only from a folder and a file that belong
to this user and that nobody else may write (like ``__pycache__``).  ``PBEM_NO_CACHE=1``
turns the cache off; a folder that cannot be made or is not safe turns it off too,
silently: the cache never makes a command fail."""

from __future__ import annotations

import os
import stat
from pathlib import Path

_FOUND: list[Path | None] = []


def cache_dir() -> Path | None:
    """The cache folder, made (mode 0700) if missing; None when caching is off or the
    folder is not safe to read code from."""
    if not _FOUND:
        _FOUND.append(_make())
    return _FOUND[0]


def forget() -> None:
    """Look for the folder again (tests change the environment)."""
    _FOUND.clear()


def _make() -> Path | None:
    if os.environ.get("PBEM_NO_CACHE"):
        return None
    base = os.environ.get("PBEM_CACHE_DIR")
    if base:
        folder = Path(base)
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        root = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"
        folder = root / "pbem"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        return folder if is_private(folder, directory=True) else None
    except (OSError, RuntimeError):
        return None


def is_private(path: Path, directory: bool = False) -> bool:
    """Whether ``path`` (not a link) is this user's and nobody else can write it."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    kind = stat.S_ISDIR if directory else stat.S_ISREG
    return (kind(st.st_mode) and st.st_uid == os.getuid()
            and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH))


def private_file(name: str) -> Path | None:
    """``name`` in the cache folder if it may be read or written there: it is missing or
    private (None: no cache)."""
    folder = cache_dir()
    if folder is None:
        return None
    path = folder / name
    if os.path.lexists(path) and not is_private(path):
        return None
    return path


def write_private(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically (mode 0600); errors are ignored."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
