"""``pbem odds``: exact battle odds."""

from __future__ import annotations

from rich.console import Console

from .common import positive_int, ruleset_option

def _max_error(text: str) -> float:
    import argparse
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError("must be between 0 and 1, e.g. 1e-4")
    return value


def cmd_odds(args, console: Console) -> int:
    from .planning import odds_command
    return odds_command(args, console)


def register(sub) -> None:
    p = sub.add_parser("odds", help='exact battle odds: pbem odds "3 inf, 1 tank" vs "4 inf"')
    p.add_argument("attackers", help='units as in orders: "3 inf, 1 tank", "2x inf + 1 arm", '
                                     '"1 cv (2 ftr), 1 dd", "1 trn (2 inf)"')
    p.add_argument("vs", choices=["vs"], metavar="vs")
    p.add_argument("defenders", help="the defending units (a carrier's fighters defend)")
    kind = p.add_mutually_exclusive_group()
    kind.add_argument("--land", action="store_true", help="land battle (default)")
    kind.add_argument("--sea", action="store_true", help="sea battle")
    p.add_argument("--retreat", help='retreat condition, e.g. "attackers < 3" or "after round 2"')
    p.add_argument("--from-sea", metavar="UNITS",
                   help='amphibious assault: attackers landing from transports (they cannot retreat), e.g. "2 inf"')
    p.add_argument("--paratroopers", metavar="UNITS",
                   help='attackers that came by air (Global 1940\'s Paratroopers): the AA guns '
                        'fire at them as at aircraft, e.g. "2 inf"')
    p.add_argument("--attacker-tech", metavar="TECHS",
                   help='technologies the attacker holds (Global 1940\'s research), e.g. '
                        '"heavy bombers, jet fighters"')
    p.add_argument("--defender-tech", metavar="TECHS",
                   help='technologies the defender holds, e.g. "radar"')
    p.add_argument("--attacker-losses", metavar="TYPES", help='attacker loss order, e.g. "inf, tank, ftr"')
    p.add_argument("--defender-losses", metavar="TYPES", help="defender loss order")
    p.add_argument("--attacker-subs", choices=["fire", "submerge"], help="attacking submarines' choice")
    p.add_argument("--defender-submerge", choices=["never", "always", "losing"], default="losing",
                   help="defending submarines' policy (default: losing)")
    p.add_argument("--bombard", metavar="SHIPS",
                   help='ships bombarding an amphibious assault (with --from-sea), e.g. "1 bb"')
    p.add_argument("--low-luck", action="store_true",
                   help="Low Luck dice: each group's attack / 6 hits for sure, one die for the rest")
    p.add_argument("--max-error", type=_max_error, metavar="E",
                   help="trade exactness for speed: every probability within E (e.g. 1e-4)")
    ruleset_option(p)
    p.add_argument("--monte-carlo", type=positive_int, metavar="RUNS",
                   help="also run RUNS seeded simulations (a progress bar when it takes a while)")
    p.add_argument("--json", action="store_true", help="print the result as JSON (docs/json.md)")
    p.set_defaults(func=cmd_odds)

