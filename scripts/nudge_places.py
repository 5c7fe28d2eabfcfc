"""Nudge a board's places.toml until neighbours touch: a helper for scripts/make_geometry.py.

    python scripts/nudge_places.py global1940 [--rounds 3] [--at 0.3]

Each round builds the geometry (make_geometry.build), takes every link it had to draw
between neighbours that do not touch (canals excepted: they stay links), and gives both
ends a further place (``more``) on the link's line, ``--at`` of the way from each end,
turned back into a longitude and latitude through the board's projection: each region
grows towards its neighbour until they meet.  A place that would lie in a third space is
left out: it would grow a detached piece of its region there.  The round is kept if the count of such links
fell, else undone and the script stops.  Then run make_geometry.py to write geometry.toml
and look at the picture: a place may pull a region oddly far.
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from pathlib import Path

import tomlkit

sys.path.insert(0, str(Path(__file__).resolve().parent))

import make_geometry  # noqa: E402

from adjudicator.model.geometry import inside_rings  # noqa: E402


def unproject(table: list[list[float]], value: float) -> float:
    """The inverse of make_geometry.interpolate for a monotonic table."""
    return make_geometry.interpolate(sorted([y, x] for x, y in table), value)


def links(edition: str, canals: set) -> tuple[list[dict], dict]:
    """The links of the geometry the places give (canals aside), and that geometry."""
    text, _notes = make_geometry.build(edition)
    geometry = tomllib.loads(text)
    return [link for link in geometry["links"] if frozenset(link["between"]) not in canals], geometry


def _outlines(geometry: dict) -> dict[str, list]:
    return {sp["name"]: [[tuple(map(float, p.split(","))) for p in ring.split()] for ring in sp["outline"]]
            for sp in geometry["space"]}


def nudged(text: str, found: list[dict], at: float, geometry: dict) -> str:
    """``text`` with further places for both ends of every link in ``found``; a place that
    would lie in a third space is left out (it would grow a detached piece there)."""
    shapes = _outlines(geometry)
    doc = tomlkit.parse(text)
    board = doc["board"]
    width, height = float(board["width"]), float(board["height"])
    entries = {e["name"]: e for e in doc["space"]}
    for link in found:
        x0, y0, x1, y1 = link["line"]
        for name, f in zip(link["between"], (at, 1 - at)):
            entry = entries[name]
            if "island" in entry:           # an island blob has no further places
                continue
            x, y = x0 + (x1 - x0) * f, y0 + (y1 - y0) * f
            if any(inside_rings((x + dx, y), rings) for other, rings in shapes.items()
                   if other not in link["between"] for dx in (0.0, width, -width)):
                continue
            point = [round(unproject(board["lon"], (x % width) / width), 1),
                     round(unproject(board["lat"], y / height), 1)]
            if "more" in entry:
                entry["more"].append(point)
            else:
                entry["more"] = [point]
    out = tomlkit.dumps(doc)
    return re.sub(r"([\[ ,])\+(\d)", r"\1\2", out).replace("]]}", "]] }")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("edition")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--at", type=float, default=0.3, help="where on a link's line the places go")
    args = parser.parse_args(argv)
    path = make_geometry.game_dir(args.edition) / make_geometry.PLACES_FILE
    canals = {frozenset(c.zones) for c in make_geometry.load_map(args.edition).canals}
    found, geometry = links(args.edition, canals)
    print(f"links between neighbours that do not touch (canals aside): {len(found)}")
    for _ in range(args.rounds):
        before = path.read_text(encoding="utf-8")
        path.write_text(nudged(before, found, args.at, geometry), encoding="utf-8")
        now, after = links(args.edition, canals)
        print(f"after a round: {len(now)}")
        if len(now) >= len(found):
            path.write_text(before, encoding="utf-8")
            print("no better: undone")
            break
        found, geometry = now, after
    for link in found:
        print("still a link:", " / ".join(link["between"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
