"""Issue 11's targets, measured in one run, with before/after ratios.

    python benchmarks/bench_issue11.py [--turns 200] [--old-odds] [--repeat 3] [--only odds|turns|startup]

Exact odds (each battle: time, peak memory traced by tracemalloc -- numpy's arrays
included --, states, pruned mass; with --old-odds also the calculator it replaced,
tests/odds_reference.py, on the same battle and the agreement between the two):
100v100 land, "100 inf, 50 tank, 30 ftr, 20 bmr" vs "150 inf, 40 tank, 30 ftr", a 40-ship
sea battle and Spring 1942 battles (artillery, AA gun, bombardment).

Turn engine, on a long game from benchmarks/long_game.py: ``verify`` of the whole game,
adjudication per turn early and late, with the WorkingBoard indexes and without (a scan
of every piece, as before), ``adjudicate`` after ``check`` with and without re-checking,
and ``process`` of one more turn at turn 5 and at the end with the verified-prefix cache
and without.  Startup: ``pbem --help`` against a bare ``python -c pass`` and against the
full parser (what ``--help`` built before).  A script, not a test.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from adjudicator.engine.combat import BattleSetup, BattleUnit  # noqa: E402
from adjudicator.engine.combat.odds import battle_odds  # noqa: E402
from adjudicator.service.games import load_game  # noqa: E402


def best_of(fn, repeat: int) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


# --------------------------------------------------------------------------- odds

def _units(game, owner, mix, start):
    out = []
    for key, n in mix.items():
        out += [BattleUnit(start + len(out) + i, game.ruleset.units[key], owner) for i in range(n)]
    return tuple(out)


def battles():
    g41, g42 = load_game("aa1941"), load_game("aa1942")

    def setup(game, name, att, dfn, sea=False, ships=None, guns=None, seaborne=None):
        a = _units(game, "germany", att, 1)
        if seaborne:
            a += tuple(BattleUnit(u.uid + 500, u.type, u.owner, seaborne=True)
                       for u in _units(game, "germany", seaborne, 0))
        support = (_units(game, "germany", ships or {}, 2000), _units(game, "russia"
                   if "russia" in game.ruleset.powers else "ussr", guns or {}, 3000))
        d_owner = "russia" if "russia" in game.ruleset.powers else "ussr"
        return name, BattleSetup(name, "X", sea, "germany", a, _units(game, d_owner, dfn, 1000),
                                 stages=game.ruleset.plan.battle_stages, support=support,
                                 unit_types=game.ruleset.units)

    yield setup(g41, "1941 land 100v100 (target < 100 ms)",
                {"infantry": 60, "tank": 30, "fighter": 10},
                {"infantry": 70, "tank": 20, "fighter": 10})
    yield setup(g41, "1941 land 200v220 (target < 1 s)",
                {"infantry": 100, "tank": 50, "fighter": 30, "bomber": 20},
                {"infantry": 150, "tank": 40, "fighter": 30})
    yield setup(g41, "1941 sea 40 ships (target < 200 ms)",
                {"submarine": 6, "destroyer": 5, "carrier": 2, "fighter": 4, "battleship": 3},
                {"submarine": 5, "destroyer": 5, "carrier": 3, "fighter": 6, "battleship": 2},
                sea=True)
    yield setup(g42, "1942 land 30v30 art+AA",
                {"infantry": 12, "artillery": 8, "tank": 6, "fighter": 3, "bomber": 1},
                {"infantry": 18, "artillery": 4, "tank": 5, "fighter": 3}, guns={"aa_gun": 1})
    yield setup(g42, "1942 amphibious + bombard",
                {"infantry": 4, "tank": 2, "fighter": 2},
                {"infantry": 8, "artillery": 2, "tank": 2}, ships={"battleship": 1, "cruiser": 2},
                seaborne={"infantry": 4, "artillery": 2}, guns={"aa_gun": 1})
    yield setup(g42, "1942 sea 30 ships",
                {"submarine": 5, "destroyer": 4, "cruiser": 3, "carrier": 1, "fighter": 2,
                 "battleship": 2},
                {"submarine": 4, "destroyer": 4, "cruiser": 2, "carrier": 2, "fighter": 4,
                 "battleship": 1}, sea=True)


def bench_odds(args) -> None:
    print("== exact odds")
    print(f"{'battle':<38} {'ms':>8} {'peak MB':>8} {'states':>7} {'pruned':>8}"
          + (f" {'old ms':>9} {'ratio':>6} {'max diff':>9}" if args.old_odds else ""))
    for name, setup in battles():
        seconds, odds = best_of(lambda: battle_odds(setup), args.repeat)
        tracemalloc.start()
        battle_odds(setup)
        peak = tracemalloc.get_traced_memory()[1] / 1e6
        tracemalloc.stop()
        line = (f"{name:<38} {seconds * 1e3:>8.1f} {peak:>8.1f} {odds.states:>7} "
                f"{odds.pruned:>8.1e}")
        if args.old_odds:
            from odds_reference import reference_odds
            old_s, old = best_of(lambda: reference_odds(setup), 1)
            diff = max(abs(old.outcome(f) - odds.outcome(f))
                       for f in ("attacker_wins", "defender_wins", "both_destroyed",
                                 "attacker_retreats", "stalemate", "captured"))
            line += f" {old_s * 1e3:>9.0f} {old_s / seconds:>6.1f} {diff:>9.1e}"
        print(line, flush=True)


# --------------------------------------------------------------------------- turns

def _scan_at(self, space, include_cargo=False):
    return [p for p in self.pieces.values()
            if p.space == space and (include_cargo or p.carried_by is None)]


def _scan_cargo(self, carrier):
    return [p for p in self.pieces.values() if p.carried_by == carrier.uid]


def _replay_times(directory: Path, game, first: int, last: int, repeat: int) -> float:
    """Median seconds to parse + check + adjudicate turns first..last (1-based) of a game."""
    from adjudicator.engine.turn import adjudicate, check
    from adjudicator.io.hmac_dice import HmacDice
    from adjudicator.io.layout import list_turns
    from adjudicator.io.parser import parse_orders
    from adjudicator.io.turnfile import dice_digest, read_turn_file, read_game_file
    gf, _ = read_game_file(directory / "game.json")
    turns = [read_turn_file(path)[0] for _, _, path in list_turns(directory)]
    states = [gf.initial_state] + [t.state for t in turns]
    times = []
    for n in range(first, last + 1):
        tf, state = turns[n - 1], states[n - 1]
        orders = parse_orders(tf.orders, game, power=state.power)

        def one():
            check(game, state, orders)
            dice = HmacDice(bytes.fromhex(tf.seed), state.game_id, state.turn_number,
                            dice_digest(gf, tf), sides=gf.dice_sides, algorithm=gf.dice)
            return adjudicate(game, state, orders, dice)
        times.append(best_of(one, repeat)[0])
    return statistics.median(times)


def bench_turns(args) -> None:
    from long_game import acceptable_orders, make_long_game, plan_orders

    from adjudicator.engine import turn, working
    from adjudicator.service import gamedir, verified_cache
    from adjudicator.service.audit import verify_game
    game = load_game("aa1941")
    print(f"== turn engine (long game of {args.turns} turns, benchmarks/long_game.py)")
    with tempfile.TemporaryDirectory() as tmp:
        long_dir = Path(tmp) / "long"
        t0 = time.perf_counter()
        played = make_long_game(long_dir, args.turns)
        print(f"generated {played} turns in {time.perf_counter() - t0:.1f} s")
        seconds, report = best_of(lambda: verify_game(long_dir), args.repeat)
        print(f"pbem verify of {report.turns_checked} turns: {seconds:.2f} s "
              f"({seconds / report.turns_checked * 1e3:.1f} ms/turn; target < 0.8 s) ok={report.ok}")
        window = min(20, played // 4)
        rows = {}
        for label, patch in (("indexes (now)", False), ("scan every piece (before)", True)):
            saved = working.WorkingBoard.at, working.WorkingBoard.cargo_of
            if patch:
                working.WorkingBoard.at, working.WorkingBoard.cargo_of = _scan_at, _scan_cargo
            try:
                early = _replay_times(long_dir, game, 1, window, args.repeat)
                late = _replay_times(long_dir, game, played - window + 1, played, args.repeat)
            finally:
                working.WorkingBoard.at, working.WorkingBoard.cargo_of = saved
            rows[label] = (early, late)
            print(f"check + adjudicate per turn, {label:<26}: turns 1-{window} "
                  f"{early * 1e3:6.2f} ms, turns {played - window + 1}-{played} "
                  f"{late * 1e3:6.2f} ms (late/early {late / early:.2f})")
        now, before = rows["indexes (now)"], rows["scan every piece (before)"]
        print(f"  ratio before/after, late turns: {before[1] / now[1]:.2f}")
        rechecks = {}
        real_checked_before = turn._checked_before
        for label in ("check once (now)", "check again inside adjudicate (before)"):
            if label.startswith("check again"):
                turn._checked_before = lambda *a: None
            try:
                rechecks[label] = _replay_times(long_dir, game, played - window + 1, played,
                                                args.repeat)
            finally:
                turn._checked_before = real_checked_before
            print(f"check + adjudicate per late turn, {label}: {rechecks[label] * 1e3:.2f} ms")
        now_s, before_s = rechecks.values()
        print(f"  ratio before/after: {before_s / now_s:.2f}")

        seeds = gamedir.demo_seeds("long-game")
        for at, directory in (("turn 5", None), (f"turn {played}", long_dir)):
            if directory is None:
                directory = Path(tmp) / "short"
                make_long_game(directory, 5)
            for label, cache in (("cache", True), ("no cache (before)", False)):
                copy = Path(tmp) / f"copy-{at}-{cache}".replace(" ", "")
                shutil.copytree(directory, copy)
                state = gamedir.current_state(copy)[0]
                text = acceptable_orders(game, state, plan_orders(game, state))
                if not cache:
                    verified_cache.forget(copy)
                t0 = time.perf_counter()
                gamedir.process_turn(copy, game, text.encode(), seeds=seeds)
                print(f"pbem process at {at:<9} {label:<18}: "
                      f"{(time.perf_counter() - t0) * 1e3:7.1f} ms")


# --------------------------------------------------------------------------- startup

def bench_startup(args) -> None:
    def run(cmd):
        times = []
        for _ in range(max(5, args.repeat * 3)):
            t0 = time.perf_counter()
            subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
            times.append(time.perf_counter() - t0)
        return statistics.median(times)
    py = sys.executable
    bare = run([py, "-c", "pass"])
    script = Path(py).parent / "pbem"          # the installed entry point, if there is one
    quick = run([str(script), "--help"] if script.exists() else
                [py, "-c", "import sys\nfrom adjudicator.cli import main\nsys.exit(main())",
                 "--help"])
    full = run([py, "-c", "from adjudicator.cli import build_parser\nimport io, contextlib\n"
                          "with contextlib.redirect_stdout(io.StringIO()):\n"
                          "    try:\n        build_parser().parse_args(['--help'])\n"
                          "    except SystemExit:\n        pass"])
    print("== startup (median wall time)")
    print(f"python -c pass: {bare * 1e3:.0f} ms; pbem --help: {quick * 1e3:.0f} ms "
          f"({quick / bare:.2f}x bare; target < 2x); full parser (before): {full * 1e3:.0f} ms "
          f"(before/after {full / quick:.1f})")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--turns", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--old-odds", action="store_true",
                    help="also time the old calculator (tens of seconds on the big battles)")
    ap.add_argument("--only", choices=["odds", "turns", "startup"])
    args = ap.parse_args(argv)
    for name, fn in (("startup", bench_startup), ("odds", bench_odds), ("turns", bench_turns)):
        if args.only in (None, name):
            fn(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
