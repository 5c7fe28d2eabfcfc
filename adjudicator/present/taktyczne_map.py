"""Taktyczne Starcie's main map as a board picture: the outlines of its drawing's cells in
the format of ``geometry.toml`` (``io.geometry``), so the picture is the drawing the
relations come from.  ``scripts/taktyczne_geometry.py`` writes it to
``maps/taktyczne/geometry.toml``."""

from __future__ import annotations

from typing import Any

CELL = 40                 # board units per cell
LABEL_SIZE = 12

Cells = tuple[tuple[str, ...], ...]
Point = tuple[int, int]


def drawing_geometry(cells: Cells, cell: int = CELL) -> dict[str, Any]:
    """A ``geometry.toml`` document: each area's outline (its cells' boundary, as closed
    rings) and its label in the cell nearest the middle of its cells."""
    areas = sorted({a for row in cells for a in row})
    return {"width": len(cells[0]) * cell, "height": len(cells) * cell, "wrap": "none",
            "label_size": LABEL_SIZE, "links": [],
            "space": [{"name": a, "at": _label_at(cells, a, cell),
                       "outline": [" ".join(f"{x * cell},{y * cell}" for x, y in ring)
                                   for ring in _rings(cells, a)]} for a in areas]}


def _label_at(cells: Cells, area: str, cell: int) -> list[float]:
    mine = [(r, c) for r, row in enumerate(cells) for c, a in enumerate(row) if a == area]
    mr = sum(r for r, _ in mine) / len(mine)
    mc = sum(c for _, c in mine) / len(mine)
    r, c = min(mine, key=lambda p: ((p[0] - mr) ** 2 + (p[1] - mc) ** 2, p))
    return [(c + 0.5) * cell, (r + 0.5) * cell]


def _rings(cells: Cells, area: str) -> list[list[Point]]:
    """The boundary of an area's cells, clockwise on the screen, as closed rings with the
    corners only (straight runs merged)."""
    def other(r: int, c: int) -> bool:
        return not (0 <= r < len(cells) and 0 <= c < len(cells[0])) or cells[r][c] != area

    edges: dict[Point, list[Point]] = {}
    for r, row in enumerate(cells):
        for c, a in enumerate(row):
            if a != area:
                continue
            for (dr, dc), start, end in (((-1, 0), (c, r), (c + 1, r)),
                                         ((0, 1), (c + 1, r), (c + 1, r + 1)),
                                         ((1, 0), (c + 1, r + 1), (c, r + 1)),
                                         ((0, -1), (c, r + 1), (c, r))):
                if other(r + dr, c + dc):
                    edges.setdefault(start, []).append(end)
    rings = []
    while edges:
        start = min(edges)
        ring = [start]
        here = start
        while True:
            ends = edges[here]
            there = ends.pop(0)
            if not ends:
                del edges[here]
            if there == start:
                break
            ring.append(there)
            here = there
        rings.append(_corners(ring))
    return rings


def _corners(ring: list[Point]) -> list[Point]:
    n = len(ring)
    keep = []
    for i, (x, y) in enumerate(ring):
        (px, py), (nx, ny) = ring[i - 1], ring[(i + 1) % n]
        if (x - px) * (ny - y) != (y - py) * (nx - x):
            keep.append((x, y))
    return keep
