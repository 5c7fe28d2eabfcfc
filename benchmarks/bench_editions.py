"""Every registered edition side by side: a whole turn, and a 30-vs-30 battle's exact odds.

    python benchmarks/bench_editions.py [--repeat K] [--rounds R]

For each edition with an example game in turns/, times parse, check and adjudicate of every
turn of its published example round, with the dice it was played with (median of K rounds);
an edition without the A&A units (Taktyczne Starcie) has no 30-vs-30 battle.
An edition without one (Global 1940) is played by benchmarks/long_game.py for R rounds
(default 8: a mid-game position, every power at war) and its last round is timed the same way,
with its busiest turn (the most check + adjudicate time) shown too; "x1941" is the ratio of
check + adjudicate to the first edition's in the same run.  Then the exact odds of a 30-vs-30 land battle
built from the edition's own units (1942: with artillery supporting infantry and an AA gun
firing at the attacking aircraft; 1941 has neither; Europe 1999: AA dice the attacker
allocates, ussr attacking germany).  Europe's example round has a convoy capture, an
overflight shot, an escorted raid and the Middle East payment.  A script, not a test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import tempfile
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from adjudicator.editions import names as edition_names  # noqa: E402
from adjudicator.engine.combat import BattleSetup, BattleUnit  # noqa: E402
from adjudicator.engine.combat.odds import battle_odds  # noqa: E402
from adjudicator.engine.turn import adjudicate, check  # noqa: E402
from adjudicator.io.corrections import is_correction_statement  # noqa: E402
from adjudicator.io.hmac_dice import HmacDice  # noqa: E402
from adjudicator.io.parser import parse_orders  # noqa: E402
from adjudicator.io.paths import TURNS_DIR  # noqa: E402
from adjudicator.io.turnfile import dice_digest  # noqa: E402
from adjudicator.service.gamedir import read_game, read_turn  # noqa: E402
from adjudicator.service.games import initial_state, load_game  # noqa: E402

# 30 units a side; artillery and AA guns only where the edition has them.
ATTACK = {"infantry": 12, "artillery": 8, "tank": 6, "fighter": 3, "bomber": 1}
DEFENCE = {"infantry": 18, "artillery": 4, "tank": 5, "fighter": 3}
GUNS = {"aa_gun": 1}


def turn_times(directory: Path, edition: str, repeats: int,
               timed_from: int = 1) -> dict[str, float]:
    """Median seconds per turn for parse, check and adjudicate over the turns of the game in
    ``directory`` from round ``timed_from`` on, each turn with the dice it was played with (so
    every battle goes as it went); the earlier turns are played but not timed.  ``busiest``:
    the largest check + adjudicate of one turn (its median over the repeats)."""
    game = load_game(edition)
    gf, _ = read_game(directory)
    turns = [read_turn(directory, path, gf) for path in sorted((directory / "turns").glob("*.json"))]
    runs: dict[str, list[float]] = {"parse": [], "check": [], "adjudicate": [], "busiest": []}
    for _ in range(repeats):
        state = initial_state(game, gf.game_id)
        totals = dict.fromkeys(("parse", "check", "adjudicate"), 0.0)
        busiest = 0.0
        timed = 0
        for tf in turns:
            if is_correction_statement(tf.orders):     # the game master's edit, not a turn
                state = tf.state
                continue
            t0 = time.perf_counter()
            orders = parse_orders(tf.orders, game, power=state.power)
            t1 = time.perf_counter()
            check(game, state, orders)
            t2 = time.perf_counter()
            dice = HmacDice(bytes.fromhex(tf.seed), state.game_id, state.turn_number,
                            dice_digest(gf, tf), sides=gf.dice_sides, algorithm=gf.dice)
            state = adjudicate(game, state, orders, dice).state
            t3 = time.perf_counter()
            if tf.round >= timed_from:
                timed += 1
                totals["parse"] += t1 - t0
                totals["check"] += t2 - t1
                totals["adjudicate"] += t3 - t2
                busiest = max(busiest, t3 - t1)
        for key, value in totals.items():
            runs[key].append(value / timed)
        runs["busiest"].append(busiest)
    return {key: statistics.median(values) for key, values in runs.items()}


def edition_turns(edition: str, repeats: int, rounds: int, tmp: Path) -> dict[str, float]:
    """``turn_times`` of the edition's example round, or of the last of ``rounds`` rounds of
    a long game played for the occasion."""
    directory = TURNS_DIR / f"{edition}-example" / "game"
    if directory.is_dir():
        return turn_times(directory, edition, repeats)
    from long_game import make_long_game
    game = load_game(edition)
    directory = tmp / edition
    make_long_game(directory, rounds * len(game.ruleset.turn_order), edition)
    return turn_times(directory, edition, repeats, timed_from=rounds)


def _units(game, mix: dict[str, int], owner: str, start: int) -> tuple[BattleUnit, ...]:
    types = game.ruleset.units
    out: list[BattleUnit] = []
    for key, count in mix.items():
        if key not in types:
            key = "infantry"                     # the edition lacks it: an infantry instead
        out += [BattleUnit(start + len(out) + i, types[key], owner) for i in range(count)]
    return tuple(out)


def battle_30v30(game) -> BattleSetup:
    """30 attackers against 30 defenders (+ an AA gun where the edition has one)."""
    attacker, defender = game.ruleset.turn_order[1], game.ruleset.turn_order[0]
    space = next(t.key for t in game.map.territories.values() if not t.is_sea)
    guns = _units(game, GUNS, defender, 2000) if "aa_gun" in game.ruleset.units else ()
    return BattleSetup(battle_id="30v30", space=space, is_sea=False, attacker=attacker,
                       attackers=_units(game, ATTACK, attacker, 1),
                       defenders=_units(game, DEFENCE, defender, 1000),
                       stages=game.ruleset.plan.battle_stages, support=((), guns),
                       unit_types=game.ruleset.units)


def odds_time(game, repeats: int) -> tuple[float, float, int, float]:
    """(best seconds, peak MiB, states, P(attacker wins)) of the 30v30 battle's exact odds."""
    setup = battle_30v30(game)
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        odds = battle_odds(setup, sides=game.ruleset.dice_sides)
        best = min(best, time.perf_counter() - t0)
    tracemalloc.start()
    battle_odds(setup, sides=game.ruleset.dice_sides)
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return best, peak, odds.states, odds.attacker_wins


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5, help="rounds (turns) / odds runs per edition")
    ap.add_argument("--rounds", type=int, default=8,
                    help="rounds of the long game of an edition without an example round")
    args = ap.parse_args(argv)
    print(f"{'edition':<10} {'load ms':>8} {'parse':>8} {'check':>8} {'adjud.':>8} "
          f"{'busiest':>8} {'x1941':>6}   "
          f"{'30v30 odds ms':>13} {'peak MiB':>9} {'states':>7} {'P(att wins)':>11}")
    baseline = None
    with tempfile.TemporaryDirectory() as tmp:
        for edition in edition_names():
            t0 = time.perf_counter()
            game = load_game(edition)
            load = time.perf_counter() - t0
            turns = edition_turns(edition, args.repeat, args.rounds, Path(tmp))
            if "infantry" not in game.ruleset.units:
                # Taktyczne Starcie: no dice battle of A&A units (its board odds: its own bench)
                cells = [f"{turns[k] * 1e3:8.1f}" for k in ("parse", "check", "adjudicate", "busiest")]
                print(f"{edition:<10} {load * 1e3:8.0f} {' '.join(cells)} {'':>6}   {'-':>13}")
                continue
            seconds, peak, states, wins = odds_time(game, args.repeat)
            work = turns["check"] + turns["adjudicate"]
            baseline = baseline or work
            cells = [f"{turns[k] * 1e3:8.1f}" for k in ("parse", "check", "adjudicate", "busiest")]
            print(f"{edition:<10} {load * 1e3:8.0f} {' '.join(cells)} {work / baseline:6.2f}   "
                  f"{seconds * 1e3:13.1f} {peak:9.1f} {states:>7} {wins:11.4f}")
    print("parse/check/adjudicate: median ms per turn over the edition's example round (or the "
          f"last of {args.rounds} long-game rounds); busiest: check + adjudicate of its "
          "slowest turn")


if __name__ == "__main__":
    main()
