"""Board picture speed: ``board_svg`` for a board after a full turn, with its arrows.

    python benchmarks/bench_svg.py [REPEATS] [EDITION]

For aa1941 (the default) it uses the bundled example game's busiest turn (most moves).  An
edition without an example game (Spring 1942) is drawn at its starting position with a
synthetic turn of as many moves: every land stack of the first power to move, then of the
next powers, marches to a neighbouring land territory (combat and noncombat alternating).
Prints the median time of REPEATS renders, first render (path cache cold) shown separately.
Target: under 50 ms.  A script, not a test.
"""

from __future__ import annotations

import statistics
import sys
import time

from adjudicator.io import layout
from adjudicator.io.loader import initial_state, load_game
from adjudicator.io.paths import TURNS_DIR
from adjudicator.io.turnfile import decode_turn_file
from adjudicator.model.events import Loaded, Moved, Unloaded
from adjudicator.present.board_svg import board_svg


def example_turn():
    """(label, state, events) of the 1941 example game's busiest turn."""
    turns = [decode_turn_file(p.read_bytes(), p)
             for _, _, p in layout.list_turns(TURNS_DIR / "aa1941-example" / "game")]
    busiest = max(turns, key=lambda t: sum(isinstance(e, (Moved, Loaded, Unloaded)) for e in t.events))
    return f"turn {busiest.turn_number} ({busiest.power})", busiest.state, busiest.events


def synthetic_turn(game, moves: int):
    """(label, state, events): the starting position and ``moves`` land moves."""
    state = initial_state(game, "bench")
    events = []
    for power in game.ruleset.turn_order:
        for space, units in sorted(state.units.items()):
            if len(events) == moves:
                break
            here = [u for u in units if u.owner == power]
            targets = sorted(n for n in game.map.neighbours(space)
                             if game.map[n].is_land and not game.map[n].impassable)
            if not here or not game.map[space].is_land or not targets:
                continue
            counts: dict[str, int] = {}
            for u in here:
                counts[u.type] = counts.get(u.type, 0) + 1
            phase = "combat" if len(events) % 2 == 0 else "noncombat"
            events.append(Moved(power=power, phase=phase, units=counts, path=(space, targets[0])))
    return f"start + {len(events)} synthetic moves", state, events


def main(repeats: int = 50, edition: str = "aa1941") -> None:
    game = load_game(edition)
    label, state, events = example_turn()
    if edition != "aa1941":
        moves = sum(isinstance(e, (Moved, Loaded, Unloaded)) for e in events)
        label, state, events = synthetic_turn(game, moves)
    moves = sum(isinstance(e, (Moved, Loaded, Unloaded)) for e in events)
    t0 = time.perf_counter()
    svg = board_svg(game, state, events)
    first = time.perf_counter() - t0
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        board_svg(game, state, events)
        times.append(time.perf_counter() - t0)
    print(f"{edition} {label}: {moves} move events, "
          f"{len(game.map.territories)} spaces, SVG {len(svg) / 1024:.0f} KiB")
    print(f"  first render  {first * 1000:7.2f} ms")
    print(f"  median of {repeats} {statistics.median(times) * 1000:7.2f} ms   "
          f"(min {min(times) * 1000:.2f}, max {max(times) * 1000:.2f})")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50, sys.argv[2] if len(sys.argv) > 2 else "aa1941")
