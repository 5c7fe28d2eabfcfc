"""``pbem rules``: rule options and recorded rulings, in plain words (``--sources``: as
recorded, with seed line numbers and digest sections)."""

from __future__ import annotations


from rich.console import Console
from rich.markup import escape

from .common import (
    ruleset_option, EXIT_OK,
)


def cmd_rules(args, console: Console) -> int:
    from ..service.games import load_game
    game = load_game(args.ruleset)
    console.print(f"[bold]{game.ruleset.title}[/] ({game.content_hash})")
    from ..model.rules import ENGINE_OPTIONS
    for name, value in sorted({**ENGINE_OPTIONS, **game.ruleset.options}.items()):
        shown = str(value).lower() if isinstance(value, bool) else value
        where = " (any edition)" if name in ENGINE_OPTIONS else ""
        console.print(f"  option {name} = {shown}{where}")
    console.print(f"  (set an option for a new game: pbem new DIR --ruleset "
                  f"{args.ruleset} --option NAME=VALUE)")
    console.print("  Low Luck rulings (subs, first strike, AA fire, two-hit units): "
                  "docs/low-luck.md")
    from ..present.rulings import plain_ruling
    if game.ruleset.rulings:
        console.print("Rulings: where the rulebook is silent, unclear or disagrees with other "
                      "sources, this is how pbem plays"
                      + ("." if args.sources else
                         " (pbem rules --sources adds the rulebook lines and digest sections "
                         "behind each)."))
    for i, ruling in enumerate(game.ruleset.rulings, 1):
        console.print(f"  {i:2}. {escape(ruling if args.sources else plain_ruling(ruling))}",
                      highlight=False)
    _edition_rules(game, console)
    return EXIT_OK


def _edition_rules(game, console: Console) -> None:
    """The edition's own rules (``[turn] rules``) and the standing orders they declared,
    each with its documented default.  Nothing for an edition without them."""
    from ..engine import turn_rules
    for name in game.ruleset.plan.rules:
        doc = getattr(turn_rules.get_rule(name), "doc", "")
        console.print(f"  rule {name}: {doc}", markup=False)
    kinds = set(game.ruleset.plan.order_kinds)
    for kind in turn_rules.standing_kinds().values():
        if (kind.name in kinds or not kinds) and kind.values:
            console.print(f"  standing order {kind.name}: one of {', '.join(kind.values)}; "
                          f"default {kind.default}. {kind.doc}", markup=False)
        elif kind.name in kinds or not kinds:
            console.print(f"  standing order {kind.name}: {kind.doc}", markup=False)


def register(sub) -> None:
    p = sub.add_parser("rules", help="list rule options and the rulings recorded in the map data")
    ruleset_option(p)
    p.add_argument("--sources", action="store_true",
                   help="show each ruling as recorded, with the seed rulebook's line numbers "
                        "([L727]) and the digest's sections (§4.1)")
    p.set_defaults(func=cmd_rules)

