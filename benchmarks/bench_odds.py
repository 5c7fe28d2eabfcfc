"""Benchmark the exact battle-odds calculator against Monte Carlo.

    python benchmarks/bench_odds.py [--runs N] [--repeat K] [--max-size S] [--no-sea]

For mixed land battles from 2-vs-2 up to 40-vs-40 (and a few sea battles), prints the time
of ``odds.battle_odds`` (best of K, one core) beside N Monte Carlo runs of the real dice
driver (``odds.monte_carlo``), with P(attacker wins) from both.  A script, not a test.
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


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=2000, help="Monte Carlo runs per battle")
    ap.add_argument("--repeat", type=int, default=3, help="exact timings: best of this many")
    ap.add_argument("--max-size", type=int, default=40)
    ap.add_argument("--no-sea", action="store_true")
    args = ap.parse_args(argv)
    sizes = [n for n in (2, 5, 10, 15, 20, 25, 30, 35, 40) if n <= args.max_size]
    rows = [(n, False) for n in sizes]
    if not args.no_sea:
        rows += [(n, True) for n in (2, 4, 8, 12, 16) if n <= args.max_size]
    print(f"{'battle':<14} {'states':>7} {'exact ms':>9} {f'MC {args.runs} ms':>12} "
          f"{'P(win) exact':>13} {'P(win) MC':>10} {'sum-1':>9}")
    for n, is_sea in rows:
        setup = battle(n, is_sea)
        best = float("inf")
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            exact = battle_odds(setup)
            best = min(best, time.perf_counter() - t0)
        t0 = time.perf_counter()
        mc = monte_carlo(setup, args.runs, seed=setup.battle_id)
        mc_time = time.perf_counter() - t0
        print(f"{setup.battle_id:<14} {exact.states:>7} {best * 1e3:>9.1f} {mc_time * 1e3:>12.0f} "
              f"{exact.attacker_wins:>13.4f} {mc.attacker_wins:>10.4f} {exact.total - 1:>9.1e}")


if __name__ == "__main__":
    main()
