"""``pbem --help`` and ``pbem --version`` without loading the commands (issue 11: under
twice a bare Python start).  The top-level parser's arguments live here, shared with the
full parser (``cli.build_parser``); ``COMMAND_SUMMARIES`` repeats each command's one-line
help and ``COMMAND_MODULES`` names the module that registers it (``pbem CMD`` loads only
that one, issue 24); a test checks both against what the commands register."""

from __future__ import annotations

import argparse

from .. import __version__
from .logs import add_options as add_log_options

DESCRIPTION = ("Play-by-email adjudicator for Axis & Allies: text orders, verifiable dice, "
               "signed turn files.")
NO_COLOR_HELP = "no colours (also when the NO_COLOR environment variable is set)"

# Which module registers each command: ``pbem CMD`` builds that module's parser only.
COMMAND_MODULES: dict[str, str] = {
    "new": "game_commands", "show": "game_commands", "check": "game_commands",
    "process": "game_commands", "correct": "correct_command", "report": "game_commands", "demo": "game_commands",
    "verify": "audit_commands", "compare": "audit_commands", "mail": "mail_command",
    "status": "mail_command", "keeper": "keeper_command", "keys": "keys_command",
    "odds": "odds_command", "rules": "rules_command", "cases": "cases_command",
    "map": "map_command", "completion": "completion_command",
    "tournament": "tournament_command", "player": "player_command", "mines": "mines_command",
}

COMMAND_SUMMARIES: tuple[tuple[str, str], ...] = (
    ("new", "start a game in a new directory"),
    ("show", "show the board (as tables, or as a picture with --svg/--png)"),
    ("check", "check orders against the current position; changes nothing"),
    ("process", "adjudicate orders and write the signed turn file"),
    ("report", "print the report of a processed turn"),
    ("demo", "play a bundled example game and print every report"),
    ("correct", "game master: correct a mistaken turn with a signed correction turn (undo, "
                "set units, IPCs, owners)"),
    ("verify", "audit a whole game: signatures, chain, seeds, dice, replay"),
    ("compare", "find the first published file where two copies of a game differ, with both "
                "signatures"),
    ("mail", "play by email: run the game master's inbox, send orders, fetch results"),
    ("status", "whose turn, since when, and the last turn in one line"),
    ("keeper", "dice keepers: join a game without a game master, check your copy"),
    ("player", "the players of a game: list them, add or change an address or name"),
    ("keys", "key management"),
    ("odds", 'exact battle odds: pbem odds "3 inf, 1 tank" vs "4 inf"'),
    ("rules", "list rule options and the rulings recorded in the map data"),
    ("cases", "run the rules cases of an edition (conformance tests)"),
    ("map", "draw an edition's empty board with every space's name"),
    ("completion", "print a shell completion script (bash, zsh, tcsh)"),
    ("tournament", "run a tournament: pairings, bids, deadlines, NMR, standings, ratings"),
    ("mines", "Taktyczne Starcie: seal your board mine squares, reveal them when a battle needs them"),
)


def top_parser() -> tuple[argparse.ArgumentParser, argparse._SubParsersAction]:
    """The ``pbem`` parser with its own options and an empty set of commands."""
    parser = argparse.ArgumentParser(prog="pbem", description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"pbem {__version__}")
    parser.add_argument("--no-color", dest="no_color", action="store_true",
                        help=NO_COLOR_HELP)
    add_log_options(parser)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    return parser, sub


def summary_parser() -> argparse.ArgumentParser:
    """A parser that knows the commands by name and summary only: enough for the help."""
    parser, sub = top_parser()
    for name, text in COMMAND_SUMMARIES:
        sub.add_parser(name, help=text)
    return parser


def command_of(argv: list[str]) -> str | None:
    """The command ``argv`` names (its first word that is not an option), if pbem has it."""
    for word in argv:
        if not word.startswith("-"):
            return word if word in COMMAND_MODULES else None
    return None


def is_quick(argv: list[str]) -> bool:
    """Whether ``argv`` asks only for the top-level help or the version."""
    return len(argv) == 1 and argv[0] in ("-h", "--help", "--version")
