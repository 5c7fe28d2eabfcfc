"""What ``pbem process`` has verified before (issue 11): a verified-prefix cache.

Before each turn ``pbem process`` verifies every published file (``gamedir``).  When that
audit passes, the digest of every file it read (the exact bytes it checked) is written to
``.secret/verified.json``, and each turn the process then publishes is added with the
digests of the bytes it wrote.  The next run re-reads and hashes the published files
(``game.json``, its signature, everything in ``turns/`` and ``orders/`` the audit would
read) and skips the audit only when the files are exactly those, with exactly those
digests, verified by this same program, engine and rules: any file changed, added, removed
or renamed, or another program or rules, and the whole game is verified again.  Hashing is
far cheaper than checking signatures and orders, so a turn at turn 200 costs about what a
turn at turn 5 costs.  The cache is never published and never trusted beyond equality: a
missing, unreadable or malformed cache is simply a full verification."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

from .. import ENGINE_VERSION
from ..io import versions
from ..io.layout import GAME_FILE, ORDERS_DIR, SECRET_DIR, TURNS_DIR, sig_path
from ..io.storage import loads_json, read_regular, write_atomic
from ..io.turnfile import file_digest
from ..model.errors import PbemError

CACHE_FILE = "verified.json"
MAX_CACHE_BYTES = 64 * 1024 * 1024
MAX_PUBLISHED_FILE_BYTES = 256 * 1024 * 1024


def cache_path(directory: Path) -> Path:
    return Path(directory) / SECRET_DIR / CACHE_FILE


def cache_key(game, parse: Callable | None, canonical: Callable | None) -> dict[str, str]:
    """What the verification depended on besides the files."""
    def name(fn) -> str:
        return "" if fn is None else f"{getattr(fn, '__module__', '')}.{getattr(fn, '__qualname__', repr(fn))}"
    return {"program": versions.PROGRAM, "engine": ENGINE_VERSION,
            "rules": getattr(game, "content_hash", ""), "parse": name(parse),
            "canonical": name(canonical)}


def published_digests(directory: Path) -> dict[str, str] | None:
    """``{path: digest}`` of the files an audit of ``directory`` reads (None: one could not
    be read, so nothing can be skipped)."""
    directory = Path(directory)
    names = [GAME_FILE, sig_path(Path(GAME_FILE)).as_posix()]
    for sub in (TURNS_DIR, ORDERS_DIR):
        folder = directory / sub
        if folder.is_dir():
            names += [f"{sub}/{e.name}" for e in sorted(folder.iterdir())
                      if not e.name.startswith(".")]
        elif folder.exists() or folder.is_symlink():
            return None
    found = {}
    for name in names:
        try:
            found[name] = file_digest(read_regular(directory / name, name,
                                                   MAX_PUBLISHED_FILE_BYTES))
        except (PbemError, OSError):
            return None
    return found


def _load(directory: Path) -> dict | None:
    path = cache_path(directory)
    try:
        doc = loads_json(read_regular(path, "verified cache", MAX_CACHE_BYTES), str(path))
    except (PbemError, OSError):
        return None
    if (not isinstance(doc, dict) or not isinstance(doc.get("key"), dict)
            or not isinstance(doc.get("files"), dict)):
        return None
    return doc


def still_verified(directory: Path, key: dict[str, str]) -> bool:
    """Whether the published files are exactly those verified before under ``key``."""
    doc = _load(directory)
    if doc is None or doc["key"] != key:
        return False
    return doc["files"] == published_digests(directory)


def record(directory: Path, key: dict[str, str], files: dict[str, str]) -> None:
    """Remember ``files`` (path -> digest of the bytes checked) as verified under ``key``."""
    data = json.dumps({"key": key, "files": dict(sorted(files.items()))}, indent=0,
                      sort_keys=True).encode("utf-8")
    write_atomic(cache_path(directory), data, overwrite=True, mode=0o600)


def add(directory: Path, key: dict[str, str], files: dict[str, str]) -> None:
    """Add files this program has just published to a cache recorded under ``key`` (no
    cache, or another key: nothing is added, and the next run verifies everything)."""
    doc = _load(directory)
    if doc is None or doc["key"] != key:
        return
    record(directory, key, {**doc["files"], **files})


def forget(directory: Path) -> None:
    """Drop the cache (the next run verifies everything)."""
    try:
        cache_path(directory).unlink()
    except FileNotFoundError:
        pass
