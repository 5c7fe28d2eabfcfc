"""Issue 24, AA fire: what the first-round AA step factored out would cost.

Spring 1942's gun rolls a die at each attacking aircraft before round 1 and those hits are
removed at once, so the battle with the gun is a mixture: for every AA result (fighters
lost ``f``, bombers lost ``b``), with chance ``Bin(f; F, 1/6) Bin(b; B, 1/6)``, the battle
*without* the gun started from the attackers that are left.  This script computes the
100-v-100 + 15 aircraft battle of ``bench_issue24.py`` both ways in one process:

* the calculator with the gun (``battle_odds``);
* the same battle without the gun;
* the mixture: the no-gun battle from each of the 66 post-AA positions, each on its own
  (the rows of each start computed once), weighted by the AA result's chance;

and prints their CPU times, P(attacker wins) of the gun battle and of the mixture (they
agree to within the mass both ways pruned, states below 1e-15: the factoring is
exact), and how many attacker states the 66 starts share (the
union of their attacker states against their sum): the starts' battles are disjoint
Markov chains while land units remain (aircraft are lost last, and each AA result fires
differently), so the factoring saves nothing a cache of rows could reuse.

    python benchmarks/bench_aa_factoring.py [--repeat 1] [--small]

``--small``: the 30-v-30 + 4 aircraft battle instead (seconds, not a minute).  A script,
not a test (tests/test_odds_aa_factoring.py checks the mixture on small battles).
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from math import comb
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from adjudicator.engine.combat import BattleSetup, BattleUnit  # noqa: E402
from adjudicator.engine.combat import sweep  # noqa: E402,F401  (numpy loaded before the clock)
from adjudicator.engine.combat.odds import battle_odds  # noqa: E402
from adjudicator.service.games import load_game  # noqa: E402

BIG = ({"infantry": 50, "artillery": 15, "tank": 20}, {"fighter": 10, "bomber": 5},
       {"infantry": 70, "artillery": 10, "tank": 20})
SMALL = ({"infantry": 12, "artillery": 8, "tank": 6}, {"fighter": 3, "bomber": 1},
         {"infantry": 18, "artillery": 4, "tank": 5, "fighter": 3})


def setup_of(game, land: dict, air: dict, dfn: dict, guns: int) -> BattleSetup:
    units = game.ruleset.units

    def side(owner, mix, start):
        out = []
        for key, n in mix.items():
            out += [BattleUnit(start + len(out) + i, units[key], owner) for i in range(n)]
        return tuple(out)

    return BattleSetup("bench", "X", False, "germany", side("germany", {**land, **air}, 1),
                       side("russia", dfn, 1000), stages=game.ruleset.plan.battle_stages,
                       support=((), side("russia", {"aa_gun": guns} if guns else {}, 3000)),
                       unit_types=units)


def binom(n: int, k: int, p: float) -> float:
    return comb(n, k) * p ** k * (1 - p) ** (n - k)


def aa_results(air: dict, value: int = 1, sides: int = 6):
    """((aircraft left per type), chance) for every AA result: one die at each aircraft."""
    p = value / sides
    kinds = list(air)
    out = [({}, 1.0)]
    for kind in kinds:
        out = [({**left, kind: air[kind] - k}, w * binom(air[kind], k, p))
               for left, w in out for k in range(air[kind] + 1)]
    return out


def timed(fn):
    t0 = time.process_time()
    out = fn()
    return time.process_time() - t0, out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--small", action="store_true")
    args = ap.parse_args(argv)
    land, air, dfn = SMALL if args.small else BIG
    game = load_game("aa1942")
    caught: list = []
    run = sweep.Sweep.run

    def keep(self):
        caught.append(self)
        return run(self)

    sweep.Sweep.run = keep
    gc.disable()
    best: dict[str, float] = {}
    for _ in range(args.repeat):
        t_gun, gun = timed(lambda: battle_odds(setup_of(game, land, air, dfn, 1),
                                               method="sweep"))
        t_plain, _ = timed(lambda: battle_odds(setup_of(game, land, air, dfn, 0),
                                               method="sweep"))
        caught.clear()
        t_mix, parts = timed(lambda: [
            (w, battle_odds(setup_of(game, land, left, dfn, 0), method="sweep"))
            for left, w in aa_results(air)])
        mix = sum(w * o.attacker_wins for w, o in parts)
        bound = gun.pruned + sum(w * o.pruned for w, o in parts)
        for name, t in (("gun", t_gun), ("plain", t_plain), ("mix", t_mix)):
            best[name] = min(best.get(name, t), t)
    starts = aa_results(air)
    sets = [set(s.A.states) for s in caught[-len(starts):]]
    union = set().union(*sets)
    total = sum(len(s) for s in sets)
    print(f"{'gun battle':<40} {best['gun'] * 1e3:>9.1f} ms  P(att) {gun.attacker_wins:.15f}")
    print(f"{'no-gun battle':<40} {best['plain'] * 1e3:>9.1f} ms")
    print(f"{'mixture of %d post-AA no-gun battles' % len(starts):<40} "
          f"{best['mix'] * 1e3:>9.1f} ms  P(att) {mix:.15f}  |diff| "
          f"{abs(mix - gun.attacker_wins):.1e} (pruned mass, both ways: {bound:.1e})")
    print(f"gun / no-gun {best['gun'] / best['plain']:.1f}x; mixture / no-gun "
          f"{best['mix'] / best['plain']:.1f}x (target <= 2)")
    print(f"attacker states of the {len(starts)} starts: {total} in all, {len(union)} distinct "
          f"({100 * (1 - len(union) / total):.1f}% shared)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
