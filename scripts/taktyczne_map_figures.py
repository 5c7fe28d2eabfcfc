"""Print the balance figures of Taktyczne Starcie's invented main map (docs/taktyczne-map.md):
the capital draw's re-roll chances and expected rolls, and the distances between the drawn
capitals, exactly over every sequence of draws, for 2, 3 and 4 players.

    python scripts/taktyczne_map_figures.py [players ...]

Four players take a few minutes (about 600,000 sequences)."""

from __future__ import annotations

import sys
from collections import Counter

from adjudicator.engine.taktyczne.balance import draw_figures, land_neighbours
from adjudicator.io.taktyczne_data import load_main_map


def main(argv: list[str]) -> None:
    main_map = load_main_map()
    counts = land_neighbours(main_map)
    coastal = sum(1 for a in main_map.land if main_map.coasts(a))
    print(f"land neighbours per land area: {dict(sorted(Counter(counts.values()).items()))}")
    print(f"coastal land areas: {coastal} of {len(main_map.land)}")
    for players in [int(a) for a in argv] or [2, 3, 4]:
        f = draw_figures(main_map, players)
        print(f"\n{players} players")
        print("  re-roll chance per roll, by drawer:", ", ".join(f"{r:.3f}" for r in f.reroll))
        print("  expected rolls, by drawer:        ", ", ".join(f"{r:.3f}" for r in f.expected_rolls))
        print("  fewest free areas, by drawer:     ", ", ".join(map(str, f.fewest_free)))
        for name in ("nearest", "nearest_any", "pairs", "share"):
            s = getattr(f, name)
            print(f"  {name:12} min {s.low:g}  mean {s.mean:.2f}  max {s.high:g}")
        print(f"  chance some player's share is under 3 areas: {f.small_share:.4f}")


if __name__ == "__main__":
    main(sys.argv[1:])
