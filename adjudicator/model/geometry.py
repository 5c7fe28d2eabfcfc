"""The board's geometry: where each space is drawn.  Presentation data only: the rules never
read it, and it is not part of a game's content hash.

Coordinates are board units, x to the east, y to the south, inside ``width`` x ``height``.  On a
board that wraps east-west a shape may run past the west or east edge; it is then drawn a
second time one board width over, and both copies are clipped to the board.
"""

from __future__ import annotations

import attrs

from .reprs import attrs_repr

Point = tuple[float, float]

# Average advance of a character in the label font, as a fraction of the font size.  The
# labels use a sans-serif font; 0.62 is a little over DejaVu Sans's average, so boxes are safe.
CHAR_WIDTH = 0.62
LINE_HEIGHT = 1.2


@attrs.frozen(repr=False)
class SpaceShape:
    """One space: its outline (closed rings), its label anchor ``at`` (the centre of the
    label) and the label's lines."""

    __repr__ = attrs_repr
    name: str
    at: Point
    outline: tuple[tuple[Point, ...], ...]
    label: tuple[str, ...]


@attrs.frozen(repr=False)
class Link:
    """Two neighbouring spaces whose shapes do not touch (a canal, a strait), joined on the
    board by a line from ``start`` to ``end``."""

    __repr__ = attrs_repr
    a: str
    b: str
    start: Point
    end: Point


@attrs.frozen(repr=False)
class Geometry:
    __repr__ = attrs_repr
    width: float
    height: float
    wrap_x: bool
    label_size: float
    spaces: dict[str, SpaceShape]
    links: tuple[Link, ...] = ()
    source: str = ""

    def label_box(self, name: str) -> tuple[float, float, float, float]:
        """The box (x0, y0, x1, y1) the label of ``name`` covers."""
        shape = self.spaces[name]
        return label_box(shape.label, shape.at, self.label_size)


def label_box(lines: tuple[str, ...], at: Point, size: float) -> tuple[float, float, float, float]:
    width = max((len(line) for line in lines), default=0) * size * CHAR_WIDTH
    height = len(lines) * size * LINE_HEIGHT
    x, y = at
    return (x - width / 2, y - height / 2, x + width / 2, y + height / 2)


def inside_rings(point: Point, rings) -> bool:
    """Whether ``point`` lies inside a shape drawn as ``rings`` (even-odd, as SVG fills)."""
    x, y = point
    inside = False
    for ring in rings:
        for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1]):
            if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
                inside = not inside
    return inside


def boxes_overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
