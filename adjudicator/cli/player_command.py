"""``pbem player``: the players of a game -- list them, set a player's address and name."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from .common import EXIT_OK, game_option

PLAYER_HELP = "the players of a game: list them, add or change an address or name"


def _records(directory):
    from ..service import gamedir
    from ..service.addresses import read_book, with_addresses
    gf, _ = gamedir.read_game(directory)
    return gf, with_addresses(gf, directory), read_book(directory)


def _line(game, power: str, record, booked: bool) -> str:
    name = game.ruleset.powers[power].name if power in game.ruleset.powers else power
    who = (f"{record.name} <{record.email}>" if record.name and record.email
           else record.email or record.name or "no address")
    signed = "orders signed with their key" if record.key else "unsigned orders"
    where = " (address book)" if booked else ""
    return f"  {name:<16} {who}{where}; {signed}"


def cmd_player_list(args, console: Console) -> int:
    from ..service.games import load_game
    gf, merged, book = _records(args.game)
    game = load_game(gf.ruleset, options=gf.options)
    console.print(f"Players of {escape(gf.game_id)}:")
    order = [p for p in game.ruleset.turn_order if p in merged.players]
    for power in order + [p for p in merged.players if p not in order]:
        record = merged.players[power]
        console.print(escape(_line(game, power, record, power in book)), highlight=False)
    return EXIT_OK


def cmd_player_set(args, console: Console) -> int:
    from ..io.names import Names
    from ..service.addresses import book_path, set_address
    from ..service.games import load_game
    gf, _merged, _book = _records(args.game)
    game = load_game(gf.ruleset, options=gf.options)
    power = Names(game).resolve_power(args.power)
    record = set_address(args.game, gf, power, args.email, args.name)
    console.print(escape(_line(game, power, record, True).strip()), highlight=False)
    console.print(escape(f"Saved in {book_path(args.game)}: pbem process and pbem mail run "
                         "mail this player there from now on. The signed game.json is not "
                         "changed (an address decides where mail goes, nothing in the game)."),
                  soft_wrap=True, highlight=False)
    return EXIT_OK


def register(sub) -> None:
    p = sub.add_parser("player", help=PLAYER_HELP)
    psub = p.add_subparsers(dest="player_command", required=True, metavar="ACTION")
    s = psub.add_parser("set", help="add or change a player's mail address or name "
                                    "(kept beside game.json, which stays as signed)")
    s.add_argument("power", metavar="POWER", help="the power they play, e.g. ussr or Germany")
    s.add_argument("--email", metavar="ADDRESS", help="their mail address, e.g. ivan@example.org")
    s.add_argument("--name", metavar="NAME", help="their name, as mails greet them")
    game_option(s)
    s.set_defaults(func=cmd_player_set)
    ls = psub.add_parser("list", help="every power: its player's address and whether their "
                                      "orders must be signed")
    game_option(ls)
    ls.set_defaults(func=cmd_player_list)
