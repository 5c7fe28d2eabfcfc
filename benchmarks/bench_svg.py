"""Board picture speed: ``board_svg`` for a board after a full turn, with its arrows.

    python benchmarks/bench_svg.py [REPEATS] [EDITION]

Uses the edition's bundled example game (default aa1941; aa1942 for Spring 1942), its busiest
turn (most moves), and prints the median time of REPEATS renders, first render (path cache
cold) shown separately.  Target: under 50 ms.  A script, not a test.
"""

from __future__ import annotations

import statistics
import sys
import time

from adjudicator.io import layout
from adjudicator.service.games import load_game
from adjudicator.io.paths import TURNS_DIR
from adjudicator.io.turnfile import decode_turn_file
from adjudicator.model.events import Loaded, Moved, Unloaded
from adjudicator.present.board_svg import board_svg


def main(repeats: int = 50, edition: str = "aa1941") -> None:
    game = load_game(edition)
    turns = [decode_turn_file(p.read_bytes(), p)
             for _, _, p in layout.list_turns(TURNS_DIR / f"{edition}-example" / "game")]
    busiest = max(turns, key=lambda t: sum(isinstance(e, (Moved, Loaded, Unloaded)) for e in t.events))
    moves = sum(isinstance(e, (Moved, Loaded, Unloaded)) for e in busiest.events)
    t0 = time.perf_counter()
    svg = board_svg(game, busiest.state, busiest.events)
    first = time.perf_counter() - t0
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        board_svg(game, busiest.state, busiest.events)
        times.append(time.perf_counter() - t0)
    print(f"{edition} turn {busiest.turn_number} ({busiest.power}): {moves} move events, "
          f"{len(game.map.territories)} spaces, SVG {len(svg) / 1024:.0f} KiB")
    print(f"  first render  {first * 1000:7.2f} ms")
    print(f"  median of {repeats} {statistics.median(times) * 1000:7.2f} ms   "
          f"(min {min(times) * 1000:.2f}, max {max(times) * 1000:.2f})")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50, sys.argv[2] if len(sys.argv) > 2 else "aa1941")
