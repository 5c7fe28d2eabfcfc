"""Issue 24's exact-odds figures, each as a same-run ratio to a baseline: the previous
version of the calculator (a checkout given with ``--baseline DIR``, e.g. ``git worktree add
/tmp/base main``) and, for AA fire, bombardment and surprise strikes, the same battle without
them (``STEP_PAIRS``).

    python benchmarks/bench_issue24.py [--repeat 3] [--baseline DIR] [--only NAME] [--floor]

Each figure is the CPU time of ``battle_odds`` in a fresh process (the best of
``--repeat``, runs of the two versions interleaved), with the number of states and
P(attacker wins) so that the versions can be seen to agree.  ``--floor`` also prints, for
the current version, how many attacker and defender states the sweep numbered and the CPU
time of the rule functions alone: each attacker state's later-round fire (``later_volleys``
and its hit distribution) computed once, on a fresh board -- work any exact method that
calls the rule functions must do, whatever it does with the results (benchmarks/README.md,
"AA fire") -- and the rule calls the sweep itself made (fire per state, enemy view and
stage; the checks between rounds the traits cannot decide; casualty successors), recorded
and replayed alone on a fresh board: the floor of a sweep that calls them as it does
(benchmarks/README.md, "Sea battles").  A script, not a test.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# name -> (edition, sea, attackers, defenders, defending AA guns[, extra]); extra:
# "bombard" (the attacker's bombarding ships, support units), "drop" (battle steps taken
# out of the edition's stages: the same battle without them)
G40_LAND = ({"infantry": 14, "artillery": 6, "mech_infantry": 4, "tank": 4, "fighter": 6,
             "tactical_bomber": 4, "bomber": 2}, {"infantry": 24, "artillery": 6, "tank": 10})
G40_SEA = ({"submarine": 6, "destroyer": 2, "cruiser": 3, "carrier": 2, "fighter": 3,
            "battleship": 2},
           {"submarine": 4, "cruiser": 3, "carrier": 2, "fighter": 4, "battleship": 2})
BATTLES = {
    "1942 land 100v100 + 15 air": ("aa1942", False,
                                   {"infantry": 50, "artillery": 15, "tank": 20, "fighter": 10,
                                    "bomber": 5},
                                   {"infantry": 70, "artillery": 10, "tank": 20}, 0),
    "1942 land 100v100 + 15 air, AA gun": ("aa1942", False,
                                           {"infantry": 50, "artillery": 15, "tank": 20,
                                            "fighter": 10, "bomber": 5},
                                           {"infantry": 70, "artillery": 10, "tank": 20}, 1),
    "1942 land 30v30 + 4 air, AA gun": ("aa1942", False,
                                        {"infantry": 12, "artillery": 8, "tank": 6,
                                         "fighter": 3, "bomber": 1},
                                        {"infantry": 18, "artillery": 4, "tank": 5,
                                         "fighter": 3}, 1),
    "G40 land 40v40 + 12 air": ("global1940", False, *G40_LAND, 0),
    "G40 land 40v40 + 12 air, 3 AA guns": ("global1940", False, *G40_LAND, 3),
    "1941 sea 40 ships": ("aa1941", True,
                          {"submarine": 6, "destroyer": 5, "carrier": 2, "fighter": 4,
                           "battleship": 3},
                          {"submarine": 5, "destroyer": 5, "carrier": 3, "fighter": 6,
                           "battleship": 2}, 0),
    "1942 sea 30 ships": ("aa1942", True,
                          {"submarine": 5, "destroyer": 4, "cruiser": 3, "carrier": 1,
                           "fighter": 2, "battleship": 2},
                          {"submarine": 4, "destroyer": 4, "cruiser": 2, "carrier": 2,
                           "fighter": 4, "battleship": 1}, 0),
    "G40 land 40v40 + 12 air, 4 ships bombard": ("global1940", False, *G40_LAND, 0,
                                                 {"bombard": {"battleship": 2, "cruiser": 2}}),
    "G40 sea 18v15, surprise strikes": ("global1940", True, *G40_SEA, 0),
    "G40 sea 18v15, no surprise strike": ("global1940", True, *G40_SEA, 0,
                                          {"drop": ["surprise_strike"]}),
}

# (with the first-round or extra step, the same battle without it, what it is)
STEP_PAIRS = (
    ("1942 land 100v100 + 15 air, AA gun", "1942 land 100v100 + 15 air", "the guns"),
    ("G40 land 40v40 + 12 air, 3 AA guns", "G40 land 40v40 + 12 air", "the guns"),
    ("G40 land 40v40 + 12 air, 4 ships bombard", "G40 land 40v40 + 12 air", "bombardment"),
    ("G40 sea 18v15, surprise strikes", "G40 sea 18v15, no surprise strike",
     "the surprise strikes"),
)

CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from adjudicator.engine.combat import BattleSetup, BattleUnit
from adjudicator.engine.combat.odds import battle_odds
from adjudicator.engine.combat import sweep   # numpy, loaded before the clock starts
from adjudicator.service.games import load_game
edition, sea, att, dfn, guns, *extra = json.loads(sys.argv[2])
extra = extra[0] if extra else {}
game = load_game(edition)
defender = "russia" if "russia" in game.ruleset.powers else "ussr"
def units(owner, mix, start):
    out = []
    for key, n in mix.items():
        out += [BattleUnit(start + len(out) + i, game.ruleset.units[key], owner) for i in range(n)]
    return tuple(out)
stages = tuple(tuple(n for n in stage if n not in extra.get("drop", ()))
               for stage in game.ruleset.plan.battle_stages)
setup = BattleSetup("bench", "X", sea, "germany", units("germany", att, 1),
                    units(defender, dfn, 1000), stages=tuple(s for s in stages if s),
                    support=(units("germany", extra.get("bombard", {}), 2000),
                             units(defender, {"aa_gun": guns} if guns else {}, 3000)),
                    unit_types=game.ruleset.units)
floor = len(sys.argv) > 3
if floor:                                   # keep the sweep to count its states
    caught = []
    run = sweep.Sweep.run
    def keep(self):
        caught.append(self)
        return run(self)
    sweep.Sweep.run = keep
    # and record the rule calls it makes: fire per state and enemy view, hit distributions,
    # the checks between rounds where the traits cannot decide, casualty successors
    from adjudicator.engine.combat import sidespace, sweeplevels
    made = {"volleys": [], "fire": [], "routes": [], "hits": []}
    def recorder(fn, log, pick=lambda args: args):
        def rec(*args):
            log.append(pick(args))
            return fn(*args)
        return rec
    lv = sweep.later_volleys
    sweep.later_volleys = sweeplevels.later_volleys = recorder(lv, made["volleys"],
                                                               lambda a: a[1:])
    sidespace.apply_side_hits = recorder(sidespace.apply_side_hits, made["hits"],
                                         lambda a: a[1:])
    fire = sweep.Sweep._fire
    sweep.Sweep._fire = recorder(fire, made["fire"], lambda a: a[1:])
    route = sweep.Sweep._route
    def rec_route(self, a, d, rnd):
        if (a, d, rnd) not in self._routes:
            made["routes"].append((self.A.states[a], self.D.states[d], rnd))
        return route(self, a, d, rnd)
    sweep.Sweep._route = rec_route
t0 = time.process_time()
odds = battle_odds(setup)
out = [time.process_time() - t0, odds.states, odds.attacker_wins]
if floor and not caught:                    # (a small battle: the state chain)
    out += [0, 0, 0.0, 0.0, 0, 0]
elif floor:
    sweep.Sweep._fire = fire                # (what follows is not recorded)
    from adjudicator.engine.combat.board import Board
    from adjudicator.engine.combat.model import ATT
    from adjudicator.engine.combat.steps import later_volleys
    done = caught[-1]
    fresh = sweep.Sweep(Board(setup), 6)
    view, rel = done.D.view_list[int(done.D.view[0])], int(done.D.rel[0])
    stages = [s for s in range(fresh.n_stages) if not fresh.later_silent[s]]
    import gc
    gc.disable()                            # as battle_odds does
    t0 = time.process_time()
    for side in done.A.states:
        for s in stages:
            fresh._fire(later_volleys(fresh.board, ATT, side, view, s), rel)
    out += [len(done.A), len(done.D), time.process_time() - t0]
    from adjudicator.engine.combat.casualties import apply_side_hits
    from adjudicator.engine.combat.model import BattleState
    from adjudicator.engine.combat.rules import decide_before_round, end_of_round
    fresh = sweep.Sweep(Board(setup), 6)
    board = fresh.board
    t0 = time.process_time()
    for args in made["volleys"]:
        lv(board, *args)
    for args in made["fire"]:
        fresh._fire(*args)
    for att, dfn, rnd in made["routes"]:
        state, _ = end_of_round(board, BattleState(att, dfn, rnd))
        if state.outcome is None:
            decide_before_round(board, state)
    for args in made["hits"]:
        apply_side_hits(board, *args)
    out += [time.process_time() - t0, len(made["volleys"]), len(made["routes"])]
print(json.dumps(out))
"""


def run(root: Path, spec, floor: bool = False) -> tuple:
    out = subprocess.run([sys.executable, "-c", CHILD, str(root), json.dumps(spec)]
                         + (["floor"] if floor else []),
                         capture_output=True, text=True, check=True, cwd=root).stdout
    return tuple(json.loads(out.splitlines()[-1]))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--baseline", metavar="DIR", help="a checkout of the version to compare")
    ap.add_argument("--only", help="battles whose name contains this")
    ap.add_argument("--floor", action="store_true",
                    help="also count the states and time the rule functions alone")
    args = ap.parse_args(argv)
    versions = [("now", ROOT)] + ([("base", Path(args.baseline).resolve())]
                                  if args.baseline else [])
    print("== exact odds, CPU ms (best of %d, fresh process each)" % args.repeat)
    head = f"{'battle':<38} {'ms':>8} {'states':>8} {'P(att)':>14}"
    if args.baseline:
        head += f" {'base ms':>8} {'base/now':>8} {'|diff|':>8}"
    print(head)
    best: dict[str, float] = {}
    floors: dict[str, tuple] = {}
    for name, spec in BATTLES.items():
        if args.only and args.only not in name:
            continue
        got: dict[str, tuple] = {}
        for _ in range(args.repeat):
            for label, root in versions:
                t, states, p = run(root, spec)
                if label not in got or t < got[label][0]:
                    got[label] = (t, states, p)
        t, states, p = got["now"]
        best[name] = t
        line = f"{name:<38} {t * 1e3:>8.1f} {states:>8} {p:>14.12f}"
        if args.baseline:
            bt, _, bp = got["base"]
            line += f" {bt * 1e3:>8.1f} {bt / t:>8.2f} {abs(bp - p):>8.1e}"
        print(line, flush=True)
        if args.floor:
            _, _, _, n_att, n_def, rules, calls, n_vols, n_routes = run(ROOT, spec, floor=True)
            floors[name] = (n_att, rules)
            print(f"{'':<4}{n_att} attacker x {n_def} defender states; the rule functions "
                  f"alone, once per attacker state: {rules * 1e3:.1f} ms", flush=True)
            print(f"{'':<4}the rule calls this sweep made ({n_vols} volleys per state, enemy "
                  f"view and stage, {n_routes} checks between rounds, hit distributions, "
                  f"casualty successors), replayed alone: {calls * 1e3:.1f} ms", flush=True)
    for with_gun, without, what in STEP_PAIRS:
        if with_gun in best and without in best:
            print(f"{with_gun} / without {what} (target <= 2): "
                  f"{best[with_gun] / best[without]:.1f}")
        if with_gun in floors and without in best:
            (n_gun, rules), (n_plain, _) = floors[with_gun], floors[without]
            print(f"    attacker states {n_gun / n_plain:.0f}x; the rule functions alone "
                  f"{rules / best[without]:.1f}x the whole battle without {what}")
    sea, land = "1941 sea 40 ships", "1942 land 100v100 + 15 air"
    if sea in best and land in best:
        print(f"{sea} / {land} (no TripleA here; a land battle of as many states): "
              f"{best[sea] / best[land]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
