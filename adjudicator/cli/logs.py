"""Logging for unattended runs (cron, systemd timers): ``-v``/``-q`` and ``--log-file``.

Every run logs to the ``pbem`` logger: the command and its exit status (INFO), errors
(ERROR), and, with ``--log-file``, each line the command prints (INFO), so a cron job's log
has a timestamp and a level on every line.  On the terminal (stderr) only warnings and
errors show, ``-v`` adds INFO and ``-vv`` DEBUG; ``-q`` silences the normal output (stdout)
and leaves errors.  Under systemd (``JOURNAL_STREAM`` set) stderr lines carry the journal's
level prefix instead of a timestamp (the journal adds its own).
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from typing import TextIO

LOGGER = "pbem"
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
DATE_FORMAT = "%Y-%m-%dT%H:%M:%S%z"
_JOURNAL_LEVELS = {10: 7, 20: 6, 30: 4, 40: 3, 50: 2}     # logging's DEBUG..CRITICAL

# The ``pbem`` logger once a run can log something (``configure``).  The CLI logs INFO and
# DEBUG lines and errors it has already printed: without ``-v`` or a log file none of them
# goes anywhere, and ``logging`` is not even imported (issue 24: about a third of a bare
# interpreter's start-up).
_logger = None
_quiet = False


def _ignore(*args, **kwargs) -> None:
    return None


class _Log:
    """``log.info(...)`` and the like: to the ``pbem`` logger when ``configure`` gave it a
    destination; INFO and DEBUG are dropped otherwise, and a warning or an error sets up
    the default one (stderr) first."""

    def __getattr__(self, level: str):
        if _logger is None:
            if level in ("debug", "info"):
                return _ignore
            _attach(0, _quiet, None)
        return getattr(_logger, level)


log = _Log()


def add_options(parser: argparse.ArgumentParser, suppress: bool = False) -> None:
    """``-v``/``-q``/``--log-file`` on ``parser`` (``suppress``: after a command, where an
    option not given must not overwrite the one given before the command; a command's own
    ``-v`` keeps its meaning there)."""
    taken = parser._option_string_actions
    default = {"default": argparse.SUPPRESS} if suppress else {}
    flags = [f for f in ("-v", "--verbose") if f not in taken]
    if flags:
        parser.add_argument(*flags, dest="log_verbosity", action="count",
                            **(default or {"default": 0}),
                            help="log what happens on stderr (-vv: more detail)")
    if "-q" not in taken:
        parser.add_argument("-q", "--quiet", dest="log_quiet", action="store_true",
                            **(default or {"default": False}),
                            help="print nothing but errors (for cron)")
    parser.add_argument("--log-file", metavar="PATH", **(default or {"default": None}),
                        help="append a log with a timestamp and level on every line, "
                             "including what the command prints")


def configure(verbose: int = 0, quiet: bool = False, log_file: str | None = None) -> None:
    """Attach the handlers for one run (replacing those of an earlier run in-process).
    Without ``verbose`` or ``log_file`` nothing is attached until something worth showing
    on stderr (a warning or an error) is logged."""
    global _logger, _quiet
    _quiet = quiet
    if _logger is not None:
        for handler in list(_logger.handlers):
            _logger.removeHandler(handler)
            handler.close()
        _logger = None
    if verbose or log_file:
        _attach(verbose, quiet, log_file)


def _attach(verbose: int, quiet: bool, log_file: str | None) -> None:
    global _logger
    import logging

    class JournalFormatter(logging.Formatter):
        def format(self, record: logging.LogRecord) -> str:
            return f"<{_JOURNAL_LEVELS.get(record.levelno, 6)}>{super().format(record)}"

    logger = logging.getLogger(LOGGER)
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    terminal = logging.StreamHandler(sys.stderr)
    terminal.setLevel(logging.ERROR if quiet else
                      {0: logging.WARNING, 1: logging.INFO}.get(verbose, logging.DEBUG))
    if os.environ.get("JOURNAL_STREAM"):
        terminal.setFormatter(JournalFormatter("%(name)s: %(message)s"))
    else:
        terminal.setFormatter(logging.Formatter(FORMAT, DATE_FORMAT))
    terminal.addFilter(lambda record: not getattr(record, "shown", False))
    logger.addHandler(terminal)
    _logger = logger
    if log_file:
        path = os.path.expanduser(log_file)
        handler = logging.FileHandler(path, encoding="utf-8")   # OSError: the CLI reports it
        handler.setLevel(logging.DEBUG if verbose > 1 else logging.INFO)
        handler.setFormatter(logging.Formatter(FORMAT, DATE_FORMAT))
        logger.addHandler(handler)


def shown_error(message: str) -> None:
    """An error already printed on stderr: to the log file only."""
    if _logger is not None:
        _logger.error("%s", message, extra={"shown": True})


def has_log_file() -> bool:
    if _logger is None:
        return False
    import logging
    return any(isinstance(h, logging.FileHandler) for h in _logger.handlers)


class OutputTee(io.TextIOBase):
    """What the command prints: to ``stream`` (unless ``quiet``) and, line by line, to the
    log at INFO (when a log file is open)."""

    def __init__(self, stream: TextIO, quiet: bool) -> None:
        self._stream, self._quiet, self._pending = stream, quiet, ""

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return not self._quiet and self._stream.isatty()

    def fileno(self) -> int:
        return self._stream.fileno()

    @property
    def encoding(self):  # type: ignore[override]
        return getattr(self._stream, "encoding", "utf-8")

    def write(self, text: str) -> int:
        if not self._quiet:
            self._stream.write(text)
        if has_log_file():
            *lines, self._pending = (self._pending + text).split("\n")
            for line in lines:
                if line.strip():
                    log.info("%s", line.rstrip())
        return len(text)

    def flush(self) -> None:
        if self._pending.strip() and has_log_file():
            log.info("%s", self._pending.rstrip())
        self._pending = ""
        if not self._quiet:
            self._stream.flush()
