"""``pbem map``: the empty board of an edition, with every space's name (for writing orders)."""

from __future__ import annotations

from rich.console import Console

from .common import EXIT_OK
from .pictures import picture_options, save_board


def cmd_map(args, console: Console) -> int:
    from ..service.games import load_game
    game = load_game(args.ruleset)
    if not (args.svg or args.png):
        args.svg = f"{game.ruleset.game_id or args.ruleset}-map.svg"
    save_board(console, args, game, None, title=f"{game.ruleset.title}: the map")
    return EXIT_OK


def register(sub) -> None:
    p = sub.add_parser("map", help="draw an edition's empty board with every space's name")
    p.add_argument("--ruleset", "--map", dest="ruleset", default="aa1941",
                   help="edition under maps/ (default aa1941)")
    picture_options(p)
    p.epilog = "Without --svg or --png the picture is saved as RULESET-map.svg."
    p.set_defaults(func=cmd_map)
