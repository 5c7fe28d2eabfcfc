"""Safe file I/O for game files: atomic writes that never clobber, JSON reads that explain.

Every published file is written with ``write_atomic``: the bytes go to a temporary file
in the same directory, are flushed to disk, and only then appear under their real name,
so a crash never leaves a half-written file.  By default an existing file is never
replaced (turn files are append-only).
"""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path
from typing import Any

from ..model.errors import PbemError, StateFileError


def temp_name(path: Path) -> Path:
    """A fresh hidden temporary name next to ``path`` (same directory, so rename is atomic)."""
    path = Path(path)
    return path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")


def write_temp(path: Path, data: bytes, mode: int = 0o644) -> Path:
    """Write ``data`` to a new temporary file next to ``path``, fsync it, return its name."""
    path = Path(path)
    tmp = temp_name(path)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)  # the umask may have narrowed it
    except BaseException:
        _unlink_quietly(tmp)
        raise
    return tmp


def commit_temp(tmp: Path, path: Path, overwrite: bool = False) -> None:
    """Give the temporary file ``tmp`` its real name ``path``.

    Without ``overwrite`` this is a hard link + unlink, which fails atomically if ``path``
    already exists (no window in which another writer's file could be replaced)."""
    tmp, path = Path(tmp), Path(path)
    try:
        if overwrite:
            os.replace(tmp, path)
        else:
            try:
                os.link(tmp, path)
            except FileExistsError:
                raise PbemError(f"{path} already exists; refusing to overwrite it") from None
            except OSError:
                # File systems without hard links: check-then-rename (small race window).
                if path.exists():
                    raise PbemError(f"{path} already exists; refusing to overwrite it") from None
                os.replace(tmp, path)
            _unlink_quietly(tmp)
    except BaseException:
        _unlink_quietly(tmp)
        raise
    fsync_dir(path.parent)


def write_atomic(path, data: bytes, overwrite: bool = False, mode: int = 0o644) -> Path:
    """Write ``data`` to ``path`` atomically.  Refuses to replace an existing file unless
    ``overwrite`` is true (raises ``PbemError``).  ``mode`` sets the file permissions."""
    path = Path(path)
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError("write_atomic wants bytes")
    if not overwrite and path.exists():
        raise PbemError(f"{path} already exists; refusing to overwrite it")
    if not path.parent.is_dir():
        raise PbemError(f"cannot write {path}: directory {path.parent} does not exist")
    tmp = write_temp(path, bytes(data), mode)
    commit_temp(tmp, path, overwrite=overwrite)
    return path


def fsync_dir(directory: Path) -> None:
    """Make a rename in ``directory`` durable (best effort; not all platforms allow it)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _unlink_quietly(path: Path) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def read_bytes(path, what: str = "file") -> bytes:
    """The bytes of ``path``, or a ``StateFileError`` saying why they cannot be read."""
    path = Path(path)
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise StateFileError(f"{what} {path}: file not found") from None
    except IsADirectoryError:
        raise StateFileError(f"{what} {path}: is a directory, not a file") from None
    except OSError as exc:
        raise StateFileError(f"{what} {path}: cannot be read ({exc.strerror or exc})") from None


def parse_json_bytes(data: bytes, path, what: str = "state file") -> dict[str, Any]:
    """Parse ``data`` (the contents of ``path``) as a JSON object, explaining failures."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise StateFileError(f"{what} {path}: not UTF-8 text (bad byte at offset {exc.start})") from None
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StateFileError(
            f"{what} {path}: not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from None
    except RecursionError:
        raise StateFileError(f"{what} {path}: JSON nested too deeply") from None
    if not isinstance(obj, dict):
        raise StateFileError(
            f"{what} {path}: expected a JSON object at the top level, found {_json_type(obj)}")
    return obj


def read_json(path, what: str = "state file") -> dict[str, Any]:
    """Read a JSON object from ``path``; ``StateFileError`` (with the path and the reason:
    missing, not JSON with line/column, wrong shape) instead of a traceback."""
    return parse_json_bytes(read_bytes(path, what), Path(path), what)


def _json_type(obj: Any) -> str:
    if isinstance(obj, list):
        return "a list"
    if isinstance(obj, str):
        return "a string"
    if isinstance(obj, bool):
        return "a boolean"
    if isinstance(obj, (int, float)):
        return "a number"
    if obj is None:
        return "null"
    return type(obj).__name__


def load_state(path):
    """Read a ``GameState`` from a state file.  Also accepts a turn file (its ``state``)
    or a game file (its ``initial_state``)."""
    from . import codec

    data = read_json(path, "state file")
    if "schema_version" in data and isinstance(data.get("state"), dict):
        data = data["state"]
    elif "schema_version" in data and isinstance(data.get("initial_state"), dict):
        data = data["initial_state"]
    try:
        return codec.decode_state(data)
    except codec.DecodeError as exc:
        raise StateFileError(f"state file {path}: {exc}") from None


def save_state(path, state, overwrite: bool = False) -> Path:
    """Write ``state`` to ``path`` as canonical JSON (atomic; no overwrite by default)."""
    from . import codec

    return write_atomic(path, codec.canonical_json(codec.encode_state(state)), overwrite=overwrite)
