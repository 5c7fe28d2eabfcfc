"""Every file-system call that changes a game directory goes through this module.

One small facade so that the crash-safety tests can stop the program at any of them: with
``PBEM_CRASH_BEFORE=N`` (or ``PBEM_CRASH_AFTER=N``) in the environment the process exits
at once with status ``CRASH_STATUS`` just before (after) the N-th call, counted from 1 at
program start -- no clean-up runs, as in a crash or ``kill -9``.  With
``PBEM_CRASH_RAISE=interrupt`` (or ``eio``) the call raises ``KeyboardInterrupt`` (or
``OSError(EIO)``) there instead, once, as Ctrl-C or a failing disk would: the program's
own clean-up runs, and at exit it writes ``pbem-fs: raised`` (or ``not raised``: the
program made fewer calls) to stderr.  The variables are read here and nowhere else; without them the calls
are the plain ``os`` functions.
"""

from __future__ import annotations

import errno
import os

CRASH_STATUS = 86
RAISE_MODES = ("interrupt", "eio")


def _env_number(name: str) -> int:
    value = os.environ.get(name, "")
    return int(value) if value.isdigit() else 0


_calls = 0
_before = _env_number("PBEM_CRASH_BEFORE")
_after = _env_number("PBEM_CRASH_AFTER")
_raise = os.environ.get("PBEM_CRASH_RAISE", "")
_raised = False


def _crash() -> None:
    global _raised
    if _raise in RAISE_MODES:
        _raised = True
        if _raise == "interrupt":
            raise KeyboardInterrupt
        raise OSError(errno.EIO, os.strerror(errno.EIO))
    os._exit(CRASH_STATUS)


def _report() -> None:
    os.write(2, b"\npbem-fs: raised\n" if _raised else b"\npbem-fs: not raised\n")


if _raise in RAISE_MODES and (_before or _after):
    import atexit
    atexit.register(_report)


def _step(call):
    """Run ``call`` as file-system call number ``_calls + 1``, crashing around it if asked."""
    global _calls
    _calls += 1
    if _calls == _before:
        _crash()
    result = call()
    if _calls == _after:
        _crash()
    return result


def mkdir(path, mode: int = 0o777, exist_ok: bool = False) -> None:
    def call():
        try:
            os.mkdir(path, mode)
        except FileExistsError:
            if not (exist_ok and os.path.isdir(path)):
                raise
    _step(call)


def create_new(path, mode: int = 0o644) -> int:
    """A new file opened for writing; fails if ``path`` exists."""
    return _step(lambda: os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _CLOEXEC, mode))


def open_lock(path) -> int:
    """The lock file, created if missing (mode 0600)."""
    return _step(lambda: os.open(path, os.O_RDWR | os.O_CREAT | _CLOEXEC, 0o600))


def write_all(fd: int, data: bytes) -> None:
    def call():
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    _step(call)


def fsync(fd: int) -> None:
    _step(lambda: os.fsync(fd))


def close(fd: int) -> None:
    _step(lambda: os.close(fd))


def chmod(path, mode: int) -> None:
    _step(lambda: os.chmod(path, mode))


def link(source, target) -> None:
    _step(lambda: os.link(source, target))


def replace(source, target) -> None:
    _step(lambda: os.replace(source, target))


def unlink(path) -> None:
    _step(lambda: os.unlink(path))


def fsync_dir(directory) -> None:
    """Make the renames in ``directory`` durable (best effort: not every platform can)."""
    def call():
        try:
            fd = os.open(directory, os.O_RDONLY | _CLOEXEC)
        except OSError:
            return
        try:
            os.fsync(fd)
        except OSError:
            pass
        finally:
            os.close(fd)
    _step(call)


_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
