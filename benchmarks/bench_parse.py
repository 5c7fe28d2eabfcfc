"""Parsing speed of orders as players write them.

    python benchmarks/bench_parse.py [repeats]

Times ``parse_orders_partial`` on the forum corpus (tests/data/forum_orders) and on 200-line
files of one kind of line each: canonical moves, moves with '-' arrows, and the worst case,
a line whose six hyphens give 64 readings that all fail (every reading is parsed and its
names resolved, with suggestions).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from adjudicator.io.parser import parse_orders_partial
from adjudicator.service.games import load_game

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "data" / "forum_orders"
LINES = {
    "canonical move": "move 1 tank Eastern Europe -> Karelia -> Archangel",
    "'-' arrows and aliases": "move 1 tank EEur-Kar-Arch",
    "6 hyphens, nothing resolves": "move 1 tank a-b-c-d-e-f-g",
}


def timed(text: str, game, power: str, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        parse_orders_partial(text, game, power)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main(repeats: int = 5) -> None:
    games = {name: load_game(name) for name in ("aa1941", "aa1942")}
    print(f"median of {repeats}:")
    for post in sorted(CORPUS.glob("*.txt")):
        edition, power, _ = post.stem.split("-", 2)
        text = post.read_text(encoding="utf-8")
        seconds = timed(text, games[edition], power, repeats)
        print(f"  {post.name:<36} {len(text.splitlines()):3d} lines  {seconds * 1000:7.2f} ms")
    for label, line in LINES.items():
        text = "combat:\n" + "\n".join([line] * 200)
        seconds = timed(text, games["aa1941"], "germany", repeats)
        print(f"  200 x {label:<30} {seconds * 1000:8.1f} ms  {seconds / 200 * 1000:6.2f} ms/line")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
