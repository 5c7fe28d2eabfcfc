"""Adjudication speed: parse + check + adjudicate each turn of the bundled example game.

    python benchmarks/bench_turn.py [REPEATS]

Prints per-phase times (median over REPEATS runs of the whole round).  A script, not a test.
"""

from __future__ import annotations

import statistics
import sys
import time

from adjudicator.io.hmac_dice import HmacDice
from adjudicator.service.games import initial_state, load_game
from adjudicator.io.parser import parse_orders
from adjudicator.io.paths import TURNS_DIR
from adjudicator.engine.turn import adjudicate, check


def main(repeats: int = 20) -> None:
    started = time.perf_counter()
    game = load_game("aa1941")
    load_time = time.perf_counter() - started
    texts = [p.read_text(encoding="utf-8")
             for p in sorted((TURNS_DIR / "aa1941-example" / "orders").glob("*.txt"))]
    timings = {"parse": [], "check": [], "adjudicate": []}
    for _ in range(repeats):
        state = initial_state(game, "bench")
        totals = dict.fromkeys(timings, 0.0)
        for text in texts:
            t0 = time.perf_counter()
            orders = parse_orders(text, game, power=state.power)
            t1 = time.perf_counter()
            check(game, state, orders)
            t2 = time.perf_counter()
            dice = HmacDice(bytes(32), "bench", state.turn_number, bytes(32))
            state = adjudicate(game, state, orders, dice).state   # includes its own check
            t3 = time.perf_counter()
            totals["parse"] += t1 - t0
            totals["check"] += t2 - t1
            totals["adjudicate"] += t3 - t2
        for k, v in totals.items():
            timings[k].append(v)
    print(f"load_game('aa1941'): {load_time * 1000:.1f} ms")
    print(f"example round ({len(texts)} turns), median of {repeats}:")
    for k, v in timings.items():
        med = statistics.median(v)
        print(f"  {k:<11} {med * 1000:8.2f} ms per round   {med / len(texts) * 1000:7.2f} ms per turn")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
