"""The ``pbem`` command line.  Every error a user can cause is printed as a message with a
non-zero exit status, never as a traceback (the statuses: ``common.EXIT_*``, documented in
docs/cli.md).  Each command lives in its own module with a ``register(subparsers)``
function; ``COMMANDS`` lists them in help order.  ``pbem CMD`` builds only the parser of
the module that registers CMD (``quick_help.COMMAND_MODULES``): the others' arguments,
and the imports their registration needs, cost every command otherwise."""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from .logs import add_options as add_log_options, configure as configure_logs, log, shown_error
from .quick_help import (
    COMMAND_MODULES, NO_COLOR_HELP, command_of, is_quick, summary_parser, top_parser,
)

COMMANDS = ("game_commands", "correct_command", "audit_commands", "mail_command", "keeper_command",
            "player_command", "keys_command", "odds_command", "rules_command", "cases_command", "map_command",
            "completion_command", "tournament_command", "mines_command")

def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The full parser, or with ``command`` only the commands of the module that registers
    it (enough to parse a command line that names it); a module whose ``register`` takes
    the command too (``register(sub, command)``) builds that command's parser alone."""
    parser, sub = top_parser()
    modules = COMMANDS if command is None else (COMMAND_MODULES[command],)
    for name in modules:
        register = importlib.import_module(f"{__name__}.{name}").register
        if command is not None and register.__code__.co_argcount > 1:
            register(sub, command)          # a module that can build one command's parser
        else:
            register(sub)
    _everywhere(sub)
    return parser


def _everywhere(sub) -> None:
    """``--no-color`` after any command too (``pbem check ORDERS --no-color``)."""
    for command in sub.choices.values():
        command.add_argument("--no-color", dest="no_color", action="store_true",
                             default=argparse.SUPPRESS, help=NO_COLOR_HELP)
        add_log_options(command, suppress=True)
        for action in command._subparsers._group_actions if command._subparsers else ():
            if isinstance(action, argparse._SubParsersAction):
                _everywhere(action)


def _json_error(args, kind: str, message: str, status: int) -> None:
    """With ``--json``, a failure is a JSON object on stdout too, for programs."""
    if getattr(args, "json", False):
        import json
        sys.stdout.write(json.dumps({"schema": 1, "command": args.command, "error": {
            "kind": kind, "message": message, "exit_status": status}}, indent=2) + "\n")


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    if is_quick(words):
        summary_parser().parse_args(argv)           # prints the help or version and exits
    from .common import EXIT_INPUT, console, error_console
    parser = build_parser(command_of(words))
    args = parser.parse_args(argv)
    no_color = True if args.no_color else None      # None: rich reads NO_COLOR itself

    def errors():                                   # rich is loaded only to show an error
        return error_console(no_color)

    try:
        configure_logs(args.log_verbosity, args.log_quiet, args.log_file)
    except OSError as err:
        from rich.markup import escape
        errors().print(f"[red bold]error:[/] --log-file {escape(args.log_file)}: "
                       f"{escape(err.strerror or str(err))}", markup=True)
        return EXIT_INPUT
    if getattr(args, "plain_output", False):       # a few plain lines: no rich (plain_output)
        from .plain_output import PlainOutput
        out = PlainOutput(no_color, quiet=args.log_quiet)
    else:
        out = console(no_color, quiet=args.log_quiet)
    log.info("pbem %s started", args.command)
    from ..io import gamecache
    gamecache.use()                     # the command's game kept between runs (io.gamecache)
    try:
        status = _run(args, out, errors)
    finally:
        gamecache.use(False)            # not for a library caller in the same process
    log.info("pbem %s ended with exit status %d", args.command, status)
    return status


def _run(args, out, errors) -> int:
    """``args.func``, its failures as messages on ``errors()`` (a console)."""
    from ..model.errors import OrdersSyntaxError, PbemError
    from .common import EXIT_INPUT, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_REJECTED
    try:
        return args.func(args, out)
    except PbemError as err:
        from rich.markup import escape
        shown_error(str(err))
        errors().print(f"[red bold]error:[/] {escape(str(err))}", markup=True)
        rejected = getattr(err, "problems", None) or isinstance(err, OrdersSyntaxError)
        status = EXIT_REJECTED if rejected else EXIT_INPUT
        _json_error(args, "rejected" if rejected else "usage", str(err), status)
        return status
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except OSError as err:  # a path the user gave cannot be read or written
        if os.environ.get("PBEM_DEBUG"):
            raise
        from rich.markup import escape
        where = f"{err.filename}: " if err.filename else ""
        shown_error(where + (err.strerror or str(err)))
        errors().print(f"[red bold]error:[/] {escape(where + (err.strerror or str(err)))}",
                     markup=True)
        _json_error(args, "usage", where + (err.strerror or str(err)), EXIT_INPUT)
        return EXIT_INPUT
    except Exception as err:  # a bug, not bad input: say so plainly
        if os.environ.get("PBEM_DEBUG"):
            raise
        from rich.markup import escape
        log.debug("internal error", exc_info=True)
        shown_error(f"internal error: {type(err).__name__}: {err}")
        errors().print(f"[red bold]internal error:[/] {escape(type(err).__name__)}: "
                     f"{escape(str(err))}\n"
                     "This is a bug in pbem. Run with PBEM_DEBUG=1 for details.")
        _json_error(args, "internal", f"{type(err).__name__}: {err}", EXIT_INTERNAL)
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
