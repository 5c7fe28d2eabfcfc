"""Safe file I/O for game files: atomic writes that never clobber, bounded reads that explain.

Every published file is written with ``write_atomic``: the bytes go to a temporary file
in the same directory, are flushed to disk, and only then appear under their real name,
so a crash never leaves a half-written file.  By default an existing file is never
replaced (turn files are append-only).  Every call that changes the disk goes through
``fs`` (the crash-test facade).  Reads accept only regular files (never a FIFO, a device
or a symlink to one) and at most a given number of bytes.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
from pathlib import Path
from typing import Any

from ..model.errors import PbemError, StateFileError
from . import fs
from .limits import MAX_JSON_BYTES, MAX_JSON_DEPTH, MAX_JSON_NUMBER_CHARS


def temp_name(path: Path) -> Path:
    """A fresh hidden temporary name next to ``path`` (same directory, so rename is atomic)."""
    path = Path(path)
    return path.with_name(f".{path.name}.{os.urandom(4).hex()}.tmp")   # secrets.token_hex


def is_temp_name(name: str) -> bool:
    """Whether ``name`` is one of ``temp_name``'s (a file an interrupted write left)."""
    return name.startswith(".") and name.endswith(".tmp")


def write_temp(path: Path, data: bytes, mode: int = 0o644) -> Path:
    """Write ``data`` to a new temporary file next to ``path``, fsync it, return its name."""
    path = Path(path)
    tmp = temp_name(path)
    fd = fs.create_new(tmp, mode)
    try:
        try:
            fs.write_all(fd, data)
            fs.fsync(fd)
        finally:
            fs.close(fd)
        fs.chmod(tmp, mode)  # the umask may have narrowed it
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
            fs.replace(tmp, path)
        else:
            try:
                fs.link(tmp, path)
            except FileExistsError:
                raise PbemError(f"{path} already exists; refusing to overwrite it") from None
            except OSError:
                # File systems without hard links: check-then-rename (small race window).
                if path.exists():
                    raise PbemError(f"{path} already exists; refusing to overwrite it") from None
                fs.replace(tmp, path)
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
    fs.fsync_dir(directory)


def _unlink_quietly(path: Path) -> None:
    try:
        fs.unlink(path)
    except FileNotFoundError:
        pass


@contextlib.contextmanager
def exclusive_lock(path, busy: str):
    """Hold an exclusive lock on the file ``path`` (created, mode 0600) for the block;
    ``PbemError(busy)`` at once if another process holds it (POSIX; elsewhere no lock)."""
    fd = fs.open_lock(path)
    try:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - non-POSIX
            fcntl = None
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise PbemError(busy) from None
        yield
    finally:
        fs.close(fd)


def read_toml(path, what: str, limit: int, error=StateFileError) -> dict:
    """The TOML document in the regular file ``path`` (``read_regular``'s checks and
    bound), UTF-8; anything else raises ``error`` saying where and why."""
    import tomllib      # imported where used: a command that reads no TOML does not load it

    data = read_regular(path, what, limit, error)
    try:
        return tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise error(f"{path}: not valid TOML: {exc}") from None


def read_regular(path, what: str = "file", limit: int = MAX_JSON_BYTES,
                 error=StateFileError) -> bytes:
    """The bytes of the regular file ``path`` (symlinks to one are followed), at most
    ``limit`` of them.  A FIFO, device, socket or directory, a missing or unreadable file
    or one over the limit raises ``error`` saying which -- without blocking on a FIFO or
    reading a device."""
    path = Path(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise error(f"{what} {path}: file not found") from None
    except IsADirectoryError:
        raise error(f"{what} {path}: is a directory, not a file") from None
    except OSError as exc:
        raise error(f"{what} {path}: cannot be read ({exc.strerror or exc})") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise error(f"{what} {path}: is a directory, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise error(f"{what} {path}: is not a regular file (a FIFO, device or socket); "
                        "refusing to read it")
        if info.st_size > limit:
            raise error(f"{what} {path}: {info.st_size} bytes is over the limit of {limit}")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise error(f"{what} {path}: more than the limit of {limit} bytes")
        return b"".join(chunks)
    except OSError as exc:
        raise error(f"{what} {path}: cannot be read ({exc.strerror or exc})") from None
    finally:
        os.close(fd)


def read_bytes(path, what: str = "file", limit: int = MAX_JSON_BYTES) -> bytes:
    """The bytes of ``path``, or a ``StateFileError`` saying why they cannot be read."""
    return read_regular(path, what, limit)


class _NumberTooLong(ValueError):
    pass


def _bounded(convert):
    def parse(text: str):
        if len(text) > MAX_JSON_NUMBER_CHARS:
            raise _NumberTooLong(text)
        value = convert(text)
        if value in (float("inf"), float("-inf")):
            raise _NumberTooLong(text)
        return value
    return parse


def _no_constant(name: str):
    raise _NumberTooLong(name)


def _too_deep(obj: Any, limit: int) -> bool:
    """Whether ``obj`` nests lists/objects deeper than ``limit`` (no recursion)."""
    stack = [(obj, 1)]
    while stack:
        node, depth = stack.pop()
        children = node.values() if isinstance(node, dict) else node
        for child in children:
            if isinstance(child, (dict, list)):
                if depth + 1 > limit:
                    return True
                stack.append((child, depth + 1))
    return False


def loads_json(data: bytes | str, where: str) -> Any:
    """Every JSON the program reads from outside goes through here: UTF-8, numbers of at
    most ``MAX_JSON_NUMBER_CHARS`` characters (no NaN or Infinity), nesting at most
    ``MAX_JSON_DEPTH`` deep.  ``StateFileError`` naming ``where`` and the reason."""
    try:
        text = data.decode("utf-8") if isinstance(data, (bytes, bytearray)) else data
    except UnicodeDecodeError as exc:
        raise StateFileError(f"{where}: not UTF-8 text (bad byte at offset {exc.start})") from None
    try:
        obj = json.loads(text, parse_int=_bounded(int), parse_float=_bounded(float),
                         parse_constant=_no_constant)
    except _NumberTooLong as exc:
        shown = str(exc)[:20] + ("..." if len(str(exc)) > 20 else "")
        raise StateFileError(f"{where}: the number {shown} is out of range (at most "
                             f"{MAX_JSON_NUMBER_CHARS} characters; no NaN or Infinity)") from None
    except json.JSONDecodeError as exc:
        raise StateFileError(
            f"{where}: not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from None
    except RecursionError:
        obj = _TOO_DEEP
    if obj is _TOO_DEEP or isinstance(obj, (dict, list)) and _too_deep(obj, MAX_JSON_DEPTH):
        raise StateFileError(f"{where}: JSON nested too deeply (at most {MAX_JSON_DEPTH} "
                             "levels)")
    return obj


_TOO_DEEP = object()


def parse_json_bytes(data: bytes, path, what: str = "state file") -> dict[str, Any]:
    """Parse ``data`` (the contents of ``path``) as a JSON object, explaining failures."""
    obj = loads_json(data, f"{what} {path}")
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
