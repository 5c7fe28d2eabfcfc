"""Benchmark the exact battle-odds calculator against Monte Carlo.

    python benchmarks/bench_odds.py [--runs N] [--repeat K] [--max-size S] [--no-sea]
                                    [--no-global]

For mixed land battles from 2-vs-2 up to 40-vs-40 (and a few sea battles), prints the time
of ``odds.battle_odds`` (best of K, one core) beside N Monte Carlo runs of the real dice
driver (``odds.monte_carlo``), with P(attacker wins) from both.  Then Global 1940's own
(issue 22), with its battle stages: a 40-vs-40 land battle with mechanized infantry and
tactical bombers (artillery raising infantry and mechanized infantry, tanks and fighters
raising tactical bombers: the combined-arms pairings), the same with an AA gun, and a
Pacific sea battle whose defenders include three aircraft scrambled from an air base (the
turn engine moves scrambled aircraft into the zone: in the battle they are defenders at
sea, not aboard a carrier, that never retreat).  A script, not a test.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from adjudicator.engine.combat import BattleSetup, BattleUnit  # noqa: E402
from adjudicator.engine.combat.odds import battle_odds, monte_carlo  # noqa: E402


def unit_types():
    try:
        from adjudicator.service.games import load_game
        return load_game("aa1941").ruleset.units
    except Exception:                       # the loader is not there: use the test's copy
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
        from test_combat import aa1941_units
        return aa1941_units()


UNITS = unit_types()


def build(owner: str, mix: dict[str, int], start: int) -> tuple[BattleUnit, ...]:
    out = []
    for key, n in mix.items():
        for _ in range(n):
            out.append(BattleUnit(start + len(out), UNITS[key], owner))
    return tuple(out)


def split(n: int, shares: dict[str, float]) -> dict[str, int]:
    """``n`` units split by ``shares``; rounding left-overs go to the first type."""
    mix = {k: int(n * s) for k, s in shares.items()}
    first = next(iter(shares))
    mix[first] += n - sum(mix.values())
    return {k: v for k, v in mix.items() if v}


LAND_ATT = {"infantry": 0.5, "tank": 0.25, "fighter": 0.15, "bomber": 0.10}
LAND_DEF = {"infantry": 0.65, "tank": 0.2, "fighter": 0.15}
SEA_ATT = {"destroyer": 0.3, "submarine": 0.3, "fighter": 0.2, "battleship": 0.2}
SEA_DEF = {"destroyer": 0.3, "submarine": 0.2, "carrier": 0.2, "fighter": 0.2, "battleship": 0.1}


def battle(n: int, is_sea: bool) -> BattleSetup:
    att = build("germany", split(n, SEA_ATT if is_sea else LAND_ATT), 1)
    dfn = build("ussr", split(n, SEA_DEF if is_sea else LAND_DEF), 1000)
    return BattleSetup(f"{'sea' if is_sea else 'land'} {n}v{n}", "X", is_sea, "germany",
                       att, dfn, unit_types=UNITS)


# Global 1940 (issue 22): 40 a side, every combined-arms pairing present.
G40_LAND_ATT = {"infantry": 10, "mech_infantry": 8, "artillery": 8, "tank": 6,
                "fighter": 3, "tactical_bomber": 4, "bomber": 1}
G40_LAND_DEF = {"infantry": 16, "mech_infantry": 6, "artillery": 6, "tank": 6,
                "fighter": 3, "tactical_bomber": 3}
# Japan attacks a US fleet next to an air base; its owner's standing order "scramble ...: yes"
# sends up to three of the base's aircraft (the best defenders first) into the zone.
G40_SEA_ATT = {"battleship": 1, "cruiser": 2, "destroyer": 3, "submarine": 2, "carrier": 2,
               "fighter": 2, "tactical_bomber": 2}
G40_SEA_DEF = {"battleship": 1, "cruiser": 1, "destroyer": 2, "carrier": 1, "fighter": 2}
G40_SCRAMBLED = {"fighter": 2, "tactical_bomber": 1}


def global_battles() -> list[BattleSetup]:
    """Global 1940's benchmark battles, from its own units and battle stages."""
    from adjudicator.service.games import load_game
    game = load_game("global1940")
    units, stages = game.ruleset.units, game.ruleset.plan.battle_stages

    def side(owner: str, mix: dict[str, int], start: int) -> tuple[BattleUnit, ...]:
        return tuple(BattleUnit(start + i, units[key], owner)
                     for i, key in enumerate(k for k, n in mix.items() for _ in range(n)))

    land = dict(space="Ukraine", is_sea=False, attacker="germany", stages=stages,
                unit_types=units, attackers=side("germany", G40_LAND_ATT, 1),
                defenders=side("ussr", G40_LAND_DEF, 1000))
    gun = side("ussr", {"aa_gun": 1}, 2000)
    sea_defenders = side("usa", G40_SEA_DEF, 1000) + side("usa", G40_SCRAMBLED, 1100)
    return [
        BattleSetup("g40 land 40v40", **land),
        BattleSetup("g40 land +AA", support=((), gun), **land),
        BattleSetup("g40 sea scramble", "Sea Zone 26", True, "japan",
                    side("japan", G40_SEA_ATT, 1), sea_defenders, stages=stages,
                    unit_types=units),
    ]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=2000, help="Monte Carlo runs per battle")
    ap.add_argument("--repeat", type=int, default=3, help="exact timings: best of this many")
    ap.add_argument("--max-size", type=int, default=40)
    ap.add_argument("--no-sea", action="store_true")
    ap.add_argument("--no-global", action="store_true", help="without Global 1940's battles")
    args = ap.parse_args(argv)
    sizes = [n for n in (2, 5, 10, 15, 20, 25, 30, 35, 40) if n <= args.max_size]
    rows = [(n, False) for n in sizes]
    if not args.no_sea:
        rows += [(n, True) for n in (2, 4, 8, 12, 16) if n <= args.max_size]
    print(f"{'battle':<16} {'states':>7} {'exact ms':>9} {f'MC {args.runs} ms':>12} "
          f"{'P(win) exact':>13} {'P(win) MC':>10} {'sum-1':>9}")
    setups = [battle(n, is_sea) for n, is_sea in rows]
    if not args.no_global:
        setups += global_battles()
    for setup in setups:
        best = float("inf")
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            exact = battle_odds(setup)
            best = min(best, time.perf_counter() - t0)
        t0 = time.perf_counter()
        mc = monte_carlo(setup, args.runs, seed=setup.battle_id)
        mc_time = time.perf_counter() - t0
        print(f"{setup.battle_id:<16} {exact.states:>7} {best * 1e3:>9.1f} {mc_time * 1e3:>12.0f} "
              f"{exact.attacker_wins:>13.4f} {mc.attacker_wins:>10.4f} {exact.total - 1:>9.1e}")


if __name__ == "__main__":
    main()
