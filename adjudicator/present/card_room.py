"""Where a box fits inside a shape: the free room of a space, row by row.

A shape (even-odd rings, as SVG fills them; several shapes are joined) is cut into
horizontal rows ``STEP`` board units apart; each row holds the spans of x that lie inside.
Boxes that must stay clear (a label, its badges) are cut out of the rows they cross.  A box
of a given size then fits at (x, y) when every row from y to y + height holds a span
containing [x, x + width]; ``Room.nearest`` finds the fitting place closest to a wish.
"""

from __future__ import annotations

import math

STEP = 2.0          # rows this far apart (board units); a box is checked on every row it covers
MARGIN = 1.0        # kept clear of the outline on both sides


def _crossings(rings, top: float, rows: int) -> list[list[float]]:
    """Per row (at top + k STEP), the sorted x where the outline of ``rings`` crosses it;
    pairs of them bound the inside (even-odd).  Each edge is visited once."""
    xs: list[list[float]] = [[] for _ in range(rows)]
    for ring in rings:
        for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1]):
            if y0 == y1:
                continue
            low, high = min(y0, y1), max(y0, y1)
            k = max(0, math.ceil((low - top) / STEP))
            while k < rows and top + k * STEP < high:
                y = top + k * STEP
                xs[k].append(x0 + (y - y0) * (x1 - x0) / (y1 - y0))
                k += 1
    for row in xs:
        row.sort()
    return xs


def _union(spans: list[tuple[float, float]]) -> list[tuple[float, float]]:
    out: list[list[float]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return [(a, b) for a, b in out]


def _cut(spans, a: float, b: float):
    out = []
    for x0, x1 in spans:
        if x1 <= a or x0 >= b:
            out.append((x0, x1))
            continue
        if x0 < a:
            out.append((x0, a))
        if x1 > b:
            out.append((b, x1))
    return out


def _meet(left, right):
    """The intersection of two sorted lists of disjoint intervals."""
    out, i, j = [], 0, 0
    while i < len(left) and j < len(right):
        a, b = max(left[i][0], right[j][0]), min(left[i][1], right[j][1])
        if a <= b:
            out.append((a, b))
        if left[i][1] < right[j][1]:
            i += 1
        else:
            j += 1
    return out


def _wide(spans, width: float):
    """The spans at least ``width`` wide: a meet only narrows a span, so a narrower one can
    never hold the box (dropping it early changes no answer)."""
    return [(a, b) for a, b in spans if b - a >= width]


class _Windows:
    """The spans free on every row of a window of ``size`` rows (k .. k + size - 1), at least
    ``width`` wide.  Intersection is associative, so the rows are cut into blocks of
    ``size``: a window is the meet of the tail of one block and the head of the next, both
    computed once per block (two meets per window instead of ``size``)."""

    def __init__(self, rows, width: float, size: int):
        self.rows, self.width, self.size = rows, width, size
        self.tails: dict[int, list] = {}      # row -> meet of the rows from it to its block's end
        self.heads: dict[int, list] = {}      # row -> meet of the rows from its block's start to it

    def _block(self, b: int) -> None:
        lo, hi = b * self.size, min((b + 1) * self.size, len(self.rows))
        acc = None
        for r in range(hi - 1, lo - 1, -1):
            row = _wide(self.rows[r], self.width)
            acc = row if acc is None else _wide(_meet(row, acc), self.width)
            self.tails[r] = acc
        acc = None
        for r in range(lo, hi):
            row = _wide(self.rows[r], self.width)
            acc = row if acc is None else _wide(_meet(acc, row), self.width)
            self.heads[r] = acc

    def free(self, k: int) -> list:
        if k not in self.tails:
            self._block(k // self.size)
        if k % self.size == 0:
            return self.tails[k]
        end = k + self.size - 1
        if end not in self.heads:
            self._block(end // self.size)
        return _wide(_meet(self.tails[k], self.heads[end]), self.width)


def _outward(start: int, lo: int, hi: int):
    """lo..hi, from ``start`` outwards: start, start + 1, start - 1, start + 2, ..."""
    for step in range(max(start - lo, hi - start) + 1):
        if start + step <= hi:
            yield start + step
        if step and start - step >= lo:
            yield start - step


class Room:
    """The free rows of ``shapes`` (a list of rings lists) between x ``lo`` and ``hi``,
    less the ``clear`` boxes (x0, y0, x1, y1)."""

    def __init__(self, shapes, clear=(), lo: float = -math.inf, hi: float = math.inf):
        ys = [y for rings in shapes for ring in rings for _, y in ring]
        self.top = math.floor(min(ys))
        rows = int((max(ys) - self.top) / STEP) + 2
        crossings = [_crossings(rings, self.top, rows) for rings in shapes]
        xs = [x for rings in shapes for ring in rings for x, _ in ring]
        left, right, bottom = min(xs), max(xs), self.top + (rows - 1) * STEP
        clear = [(x0, y0, x1, y1) for x0, y0, x1, y1 in clear     # only the boxes that can
                 if x0 < right and x1 > left                       # cut a row: the rest
                 and y0 - MARGIN <= bottom and y1 + MARGIN >= self.top]   # change nothing
        self.rows = []
        for k in range(rows):
            y = self.top + k * STEP
            spans = _union([s for xs in crossings for s in zip(xs[k][::2], xs[k][1::2])])
            spans = [(max(a, lo) + MARGIN, min(b, hi) - MARGIN) for a, b in spans]
            for x0, y0, x1, y1 in clear:
                if y0 - MARGIN <= y <= y1 + MARGIN:
                    spans = _cut(spans, x0 - MARGIN, x1 + MARGIN)
            self.rows.append([(a, b) for a, b in spans if b > a])
        self.widest = [max((b - a for a, b in row), default=0.0) for row in self.rows]

    def nearest(self, width: float, height: float, want_x: float, want_y: float,
                limit: float = math.inf, y_weight: float = 1.5) -> tuple[float, float, float] | None:
        """(cost, x, y) of the place for a ``width`` x ``height`` box (x, y: its top left)
        closest to (want_x, want_y), cost |dx| + y_weight |dy| below ``limit``; None: it
        fits nowhere (so cheaply).  Rows nearest the wish are tried first."""
        if limit <= 0:
            return None
        span = math.ceil(height / STEP)
        widest = self.widest
        last = len(self.rows) - span - 1
        first = min(max(round((want_y - self.top) / STEP), 0), last)
        best = None
        window = _Windows(self.rows, width, span + 1)
        # rows by their distance from the wish (ties: outwards from ``first``), so the first
        # row too far away ends the search: a wish between two rows is as far from both
        order = sorted(_outward(first, 0, last), key=lambda k: abs(self.top + k * STEP - want_y))
        for k in order:
            y = self.top + k * STEP
            if y_weight * abs(y - want_y) >= (best[0] if best else limit):
                break
            if any(w < width for w in widest[k:k + span + 1]):
                continue
            free = window.free(k)
            for a, b in free:
                if b - a < width:
                    continue
                x = min(max(want_x, a), b - width)
                cost = abs(x - want_x) + y_weight * abs(y - want_y)
                if cost < (best[0] if best else limit):
                    best = (cost, x, y)
        return best
