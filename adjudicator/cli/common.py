"""Helpers shared by the commands: reading files, loading a game directory, printing
problems.  Every error a user can cause becomes a ``PbemError`` with a message."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..model.errors import OrdersSyntaxError, PbemError
from .logs import OutputTee, has_log_file

if TYPE_CHECKING:
    from rich.console import Console

# Exit statuses (docs/cli.md): 0 ok; 1 orders rejected, audit failed, copies diverge (the
# command worked and the answer is "no"); 2 usage error (bad arguments, a missing or
# unreadable file, not a game directory); 3 internal error (a bug); 130 interrupted.
EXIT_OK, EXIT_REJECTED, EXIT_INPUT, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
STDIN = "-"                     # an orders path that means standard input


DEFAULT_RULESET = "aa1941"      # the edition commands use when none is named


def ruleset_option(p, help_extra: str = "") -> None:
    """``--ruleset NAME`` (``--map`` is the old spelling): a registered edition."""
    from .. import editions
    p.add_argument("--ruleset", "--map", dest="ruleset", default=DEFAULT_RULESET,
                   metavar="NAME", help=f"edition: {', '.join(editions.names())} "
                                        f"(default {DEFAULT_RULESET}){help_extra}")


def game_option(p) -> None:
    """``-g/--game DIR`` (default: the current directory)."""
    p.add_argument("-g", "--game", default=".", help="game directory (default: .)")


def console(no_color: bool | None = None, quiet: bool = False) -> Console:
    """stdout.  ``no_color`` None: colours unless NO_COLOR is set (rich reads it).  With
    ``quiet`` or a log file (cli/logs.py) the output goes through the log's tee."""
    from rich.console import Console
    if quiet or has_log_file():
        return Console(file=OutputTee(sys.stdout, quiet), highlight=False,
                       soft_wrap=False, no_color=no_color)
    return Console(highlight=False, soft_wrap=False, no_color=no_color)


def source_name(path: str) -> str:
    """How messages name an orders path: ``stdin`` for ``-``."""
    return "stdin" if path == STDIN else path


def orders_argument(p, help_text: str = "the orders file ('-': standard input)") -> None:
    p.add_argument("orders", help=help_text)


def read_text(path: str, what: str, limit: int | None = None) -> str:
    """A regular file's text (UTF-8, exactly as written: line endings are the orders
    reader's business), at most ``limit`` bytes (default: the orders limit); ``-``:
    standard input."""
    data = read_bytes(path, what, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise PbemError(f"{what} {source_name(path)} is not UTF-8 text (byte {err.start})") from None


def print_problems(console: Console, problems, path: str, game=None) -> None:
    from ..present.wording import problem_text
    from .markup import escape
    for p in problems:
        colour = "red" if p.severity == "error" else "yellow"
        where = f"{path}:{p.line}: " if p.line else f"{path}: "
        console.print(f"[{colour}]{escape(where)}{p.severity}:[/] {escape(problem_text(p, game))}",
                      markup=True, highlight=False, soft_wrap=True)


def print_syntax_errors(console: Console, err: OrdersSyntaxError, path: str) -> int:
    """Every error of an orders file that does not parse, each with its line and column."""
    from .markup import escape
    errors = getattr(err, "errors", None) or [err]
    for e in errors:
        console.print(f"[red]{escape(path)}: error:[/] {escape(str(e))}", markup=True,
                      highlight=False, soft_wrap=True)
    console.print(f"[red bold]{len(errors)} error(s)[/]: the orders would be rejected.")
    return EXIT_REJECTED


def check_state(game, state, where: str) -> None:
    """Refuse a corrupt or hand-edited state before the engine trips over it."""
    from ..engine.state_check import state_problems
    problems = state_problems(game, state)
    if problems:
        more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
        raise PbemError(f"{where}: the game state is corrupt: " + "; ".join(problems[:5]) + more)


def check_report_path(path: str | None, force: bool) -> None:
    """Refuse a report path that cannot be written before anything is processed."""
    if not path:
        return
    p = Path(path)
    if p.suffix.lower() not in (".html", ".htm", ".txt"):
        raise PbemError(f"cannot tell the report format from {p.name!r}: use .txt or .html")
    if p.exists() and not force:
        raise PbemError(f"{p} already exists; pass --force to overwrite it")
    if not (p.parent if str(p.parent) else Path(".")).is_dir():
        raise PbemError(f"cannot write {p}: directory {p.parent} does not exist")


def save_report(path: str, *args, overwrite: bool = False, **kwargs) -> None:
    """Write the report (format from the extension) atomically: never half-written."""
    from ..io.storage import write_atomic
    from ..present.report import report_document
    try:
        content = report_document(path, *args, **kwargs)
    except ValueError as err:
        raise PbemError(str(err)) from None
    write_atomic(Path(path), content.encode("utf-8"), overwrite=overwrite)


def game_of(game_dir: str, command: str = "COMMAND"):
    """The game definition a game directory was created with (same data, same options).
    ``command``: the pbem command line to suggest with a pinned release if this
    installation has another engine or other rules."""
    from ..service import gamedir
    from ..io import versions
    from ..service.games import load_game
    info, _ = gamedir.read_game(game_dir)
    game = load_game(info.ruleset, options=info.options)
    why = versions.mismatch(info.engine, info.rules_hash, game.content_hash)
    if why is not None:
        raise PbemError(f"{game_dir}: {why}. Use the release that made the game: "
                        f"{versions.pinned(info.program, command)}")
    return game


def chosen_turn(game_dir: str, wanted: int | None) -> tuple[list, int]:
    """The game's turn files ``(number, power, path)`` and the index of turn ``wanted`` (None:
    the last); a clear error when none was processed or there is no such turn."""
    from ..io import layout
    turns = layout.list_turns(game_dir)
    if not turns:
        raise PbemError(f"{game_dir}: no turn has been processed yet")
    numbers = [n for n, _, _ in turns]
    wanted = wanted or numbers[-1]
    if wanted not in numbers:
        raise PbemError(f"{game_dir}: no turn {wanted} (turns {numbers[0]}-{numbers[-1]} exist)")
    return turns, numbers.index(wanted)


def load_game_dir(game_dir: str, command: str = "COMMAND"):
    from ..service import gamedir
    game = game_of(game_dir, command)
    state, _ = gamedir.current_state(game_dir)
    check_state(game, state, game_dir)
    return game, state


def read_bytes(path: str, what: str, limit: int | None = None) -> bytes:
    """A regular file's bytes (never a FIFO or device), at most ``limit`` bytes (default:
    the orders limit); ``-`` reads standard input (as much, no more)."""
    from ..io.orders_text import MAX_ORDERS_BYTES
    from ..io.storage import read_regular
    limit = MAX_ORDERS_BYTES if limit is None else limit
    if path == STDIN:
        return _read_stdin(what, limit)
    if not Path(path).exists() and not Path(path).is_symlink():
        raise PbemError(f"{what} {path} does not exist")
    return read_regular(path, what, limit, PbemError)


def _read_stdin(what: str, limit: int) -> bytes:
    stream = sys.stdin
    if stream is None:
        raise PbemError(f"no standard input to read the {what} from")
    if stream.isatty():
        error_console().print(f"Reading the {what} from standard input (end with Ctrl-D).")
    data = getattr(stream, "buffer", stream).read(limit + 1)
    if isinstance(data, str):
        data = data.encode("utf-8")
    if len(data) > limit:
        raise PbemError(f"the {what} on standard input is larger than {limit} bytes")
    return data


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not a positive number")
    return value


def percentage(text: str) -> float:
    """``--warn-below``: a percentage, ``50`` or ``50%`` (0 to 100), as a fraction.  A bare
    number below 1 is refused: it used to be a fraction (0.5), and reading it as 0.5%
    would silently change what it means."""
    raw = text.strip()
    number = raw[:-1].strip() if raw.endswith("%") else raw
    try:
        value = float(number)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a percentage (e.g. 50 or 50%)") from None
    if not 0 <= value <= 100 or value != value:
        raise argparse.ArgumentTypeError(f"{text!r} is not a percentage from 0 to 100")
    if 0 < value < 1 and not raw.endswith("%"):
        raise argparse.ArgumentTypeError(
            f"{text!r}: give a percentage, e.g. {value * 100:g} for {value * 100:g}% "
            f"(write {text}% if you mean {text} percent)")
    return value / 100


def error_console(no_color: bool | None = None) -> Console:
    """stderr, one message per line (long lines are not wrapped, so they stay greppable)."""
    from rich.console import Console
    return Console(stderr=True, highlight=False, soft_wrap=True, no_color=no_color)

