"""The ``pbem`` command line.  Every error a user can cause is printed as a message with a
non-zero exit status, never as a traceback.  Each command lives in its own module with a
``register(subparsers)`` function; ``COMMANDS`` lists them in help order."""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from rich.markup import escape

from .. import __version__
from ..model.errors import OrdersSyntaxError, PbemError
from .common import EXIT_INPUT, EXIT_INTERNAL, EXIT_REJECTED, console, error_console

COMMANDS = ("game_commands", "audit_commands", "mail_command", "keys_command", "odds_command",
            "rules_command", "cases_command", "map_command", "tournament_command")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pbem", description="Play-by-email adjudicator for "
                                     "Axis & Allies: text orders, verifiable dice, signed turn files.")
    parser.add_argument("--version", action="version", version=f"pbem {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"{__name__}.{name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    out = console()
    try:
        return args.func(args, out)
    except PbemError as err:
        error_console().print(f"[red bold]error:[/] {escape(str(err))}", markup=True)
        rejected = getattr(err, "problems", None) or isinstance(err, OrdersSyntaxError)
        return EXIT_REJECTED if rejected else EXIT_INPUT
    except KeyboardInterrupt:
        return 130
    except OSError as err:  # a path the user gave cannot be read or written
        if os.environ.get("PBEM_DEBUG"):
            raise
        where = f"{err.filename}: " if err.filename else ""
        error_console().print(f"[red bold]error:[/] {escape(where + (err.strerror or str(err)))}",
                               markup=True)
        return EXIT_INPUT
    except Exception as err:  # a bug, not bad input: say so plainly
        if os.environ.get("PBEM_DEBUG"):
            raise
        error_console().print(f"[red bold]internal error:[/] {escape(type(err).__name__)}: "
                               f"{escape(str(err))}\n"
                               "This is a bug in pbem. Run with PBEM_DEBUG=1 for details.")
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
