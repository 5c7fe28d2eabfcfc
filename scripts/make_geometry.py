"""Make a board's geometry.toml from its places.toml (hand-written longitudes and latitudes).

    pip install -e ".[geometry]"          # scipy, for the Voronoi diagram
    python scripts/make_geometry.py aa1941 [--check] [--preview FILE.svg]

How it works:

1. Every place of places.toml (a space's main point, its further points, each island) is
   projected onto the board: piecewise-linear in longitude and latitude, as [board] says.
2. The board is covered by a fine hexagonal grid of filler points.  Each filler joins the
   space of the nearest seed point, distances divided by a per-space weight (a
   multiplicatively weighted Voronoi diagram: curved, organic borders).  The board wraps
   east-west, so distances and the diagram are periodic in x.
3. A few hundred rounds then nudge the seeds and weights: spaces that are neighbours in
   map.toml are pulled together until their regions touch, spaces that touch but are not
   neighbours are pushed apart, every region's area is drawn towards its target, and every
   seed is held near its geographic place.  Deterministic: the same places give the same file.
4. The border between two regions is extracted from the fillers' Voronoi cells as one chain,
   straightened and rounded (Douglas-Peucker, then Chaikin), so neighbours still fit exactly.
   Islands are small blobs inside their only sea zone; the zone's region grows from the
   island's point too.  An island between several zones is grown like a region (its
   ``reach`` keeps it small).  Each label goes to the most open spot of its region.

The script prints how the picture's neighbours compare with map.toml's adjacency.  Neighbours
that do not touch become ``links`` (drawn as a connecting line); spaces that touch but are not
neighbours are listed, so the places can be nudged.  ``--check`` writes nothing and fails if
geometry.toml is not what the places give.
"""

from __future__ import annotations

import argparse
import heapq
import math
import os
import shutil
import sys
import tempfile
import tomllib
import zlib
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np
import tomlkit
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components
from scipy.spatial import Voronoi, cKDTree

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from adjudicator.io.geometry import GEOMETRY_FILE, parse_geometry  # noqa: E402
from adjudicator.io.loader import DATA_FILES, game_dir, load_game  # noqa: E402
from adjudicator.model.geometry import LINE_HEIGHT, boxes_overlap, label_box  # noqa: E402

PLACES_FILE = "places.toml"
GRID = 8.0             # spacing of the filler grid, board units
TOUCH = 14.0           # board units of shared border two neighbours need to "touch" (fillers)
TOUCH_DRAWN = 10.0     # ... in the drawn, smoothed outlines
GRAZE = 7.0            # ... and two non-neighbours may share at most this much
SEA_SIZE = 1.4         # target area of a sea zone relative to a land territory
ROOM_LAND = 26.0       # room kept below a land label: the owner/IPC row and a row of units
ROOM_SEA = 14.0        # ... below a sea zone's label: a row of units
ROOM_WIDTH = 64.0      # width kept for that room
                       # (a board may set all three: [board] room = [width, land, sea])
FRAME = -1             # neighbour label of the board's north and south edges
GAP = -2               # label of fillers no space may take (between two non-neighbours)
UNSET = -3


def load_map(edition: str):
    """The map alone, read from a copy of the rules' data files: the script must run while
    geometry.toml is missing, stale or broken."""
    directory = game_dir(edition)
    with tempfile.TemporaryDirectory() as tmp:
        for name in DATA_FILES:
            if (directory / name).is_file():      # aliases.toml is optional
                shutil.copy(directory / name, Path(tmp) / name)
        return load_game(tmp).map


# --------------------------------------------------------------------------- places

def drawn_as_island(game_map, name: str) -> bool:
    """An island bordering a single sea zone is drawn as a blob inside that zone; one between
    several zones (Spring 1942's Australia, Japan, Madagascar) is grown like any region."""
    return game_map[name].island and len(game_map.neighbours(name)) == 1


def interpolate(table: list[list[float]], value: float) -> float:
    """Piecewise-linear interpolation in a [[x, y], ...] table sorted by x (either way)."""
    if table[0][0] > table[-1][0]:
        table = table[::-1]
    k = 1
    while k < len(table) - 1 and value > table[k][0]:
        k += 1
    (x0, y0), (x1, y1) = table[k - 1], table[k]
    return y0 + (y1 - y0) * (value - x0) / (x1 - x0)


class Places:
    """places.toml, checked against the map: every space exactly once."""

    def __init__(self, directory: Path, game_map):
        doc = tomllib.loads((directory / PLACES_FILE).read_text(encoding="utf-8"))
        self.board = doc["board"]
        self.width, self.height = float(self.board["width"]), float(self.board["height"])
        self.label_size = float(self.board.get("label_size", 11))
        self.entries: dict[str, dict] = {}
        problems = []
        for raw in doc["space"]:
            name = raw["name"]
            if name not in game_map.territories:
                problems.append(f"unknown space {name!r}")
            elif name in self.entries:
                problems.append(f"{name!r} listed twice")
            self.entries[name] = raw
        problems += [f"{n!r} missing" for n in game_map.territories if n not in self.entries]
        for name, raw in self.entries.items():
            if name in game_map.territories and ("island" in raw) != drawn_as_island(game_map, name):
                problems.append(f"{name!r}: 'island' must be given exactly for islands that "
                                "border one sea zone (an island between several is grown as a region)")
        if problems:
            sys.exit(f"{directory / PLACES_FILE}: " + "; ".join(problems))

    def point(self, lonlat) -> tuple[float, float]:
        lon, lat = lonlat
        cut = self.board["cut"]
        lon = (lon - cut) % 360 + cut
        return (interpolate(self.board["lon"], lon) * self.width,
                interpolate(self.board["lat"], lat) * self.height)


def wrap_dx(dx, width):
    return dx - width * np.round(dx / width)


# --------------------------------------------------------------------------- the filler grid

class Grid:
    """Hexagonal filler points over the board, their Voronoi diagram (periodic east-west,
    mirrored at the north and south edges) and the filler adjacency with border lengths."""

    def __init__(self, width: float, height: float, spacing: float = GRID):
        self.width, self.height = width, height
        dy = spacing * math.sqrt(3) / 2
        rows = int(height / dy)
        dy = height / rows
        cols = int(round(width / spacing))
        dx = width / cols
        ys, xs = np.mgrid[0:rows, 0:cols].astype(float)
        xs = (xs + 0.5 * (ys % 2) + 0.25) * dx
        ys = (ys + 0.5) * dy
        self.points = np.column_stack([xs.ravel(), ys.ravel()])
        n = self.n = len(self.points)
        shifted = [self.points, self.points + (width, 0), self.points - (width, 0)]
        base = np.vstack(shifted)
        band = 3 * dy
        top = base[base[:, 1] < band] * (1, -1)
        bottom = base[base[:, 1] > height - band] * (1, -1) + (0, 2 * height)
        self.vor = Voronoi(np.vstack([base, top, bottom]))
        self.copies = 3 * n
        # filler adjacency (originals only, each pair once) and its border lengths
        rp = self.vor.ridge_points
        rv = np.array(self.vor.ridge_vertices)
        keep = (rp < self.copies).all(axis=1) & (rv >= 0).all(axis=1) & ((rp < n).any(axis=1))
        a, b = rp[keep, 0] % n, rp[keep, 1] % n
        verts = self.vor.vertices
        length = np.hypot(*(verts[rv[keep, 0]] - verts[rv[keep, 1]]).T)
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        key = lo.astype(np.int64) * n + hi
        _, first = np.unique(key, return_index=True)
        self.edge_a, self.edge_b, self.edge_len = lo[first], hi[first], length[first]
        self.cell_area = width * height / n

    def neighbour_lists(self) -> list[list[tuple[int, float]]]:
        if not hasattr(self, "_nbrs"):
            nbrs = [[] for _ in range(self.n)]
            for a, b, length in zip(self.edge_a.tolist(), self.edge_b.tolist(), self.edge_len.tolist()):
                nbrs[a].append((b, length))
                nbrs[b].append((a, length))
            self._nbrs = nbrs
        return self._nbrs

    def graph(self, same: np.ndarray):
        """Sparse graph of the filler edges where ``same`` is true."""
        a, b = self.edge_a[same], self.edge_b[same]
        return coo_matrix((np.ones(len(a)), (a, b)), shape=(self.n, self.n))


# --------------------------------------------------------------------------- seeds and layout

class Layout:
    """Seeds, their spaces and weights, and the filler labels they give."""

    def __init__(self, places: Places, game_map, grid: Grid):
        self.places, self.grid, self.map = places, grid, game_map
        self.spaces = [n for n in places.entries if "island" not in places.entries[n]]
        self.index = {n: k for k, n in enumerate(self.spaces)}
        points, owner, roles = [], [], []
        for name, raw in places.entries.items():
            if "island" in raw:
                zone = next(iter(game_map.neighbours(name)))
                points.append(places.point(raw["at"]))
                owner.append(self.index[zone])
                roles.append((name, "island"))
                continue
            main = places.point(raw["at"])
            for k, lonlat in enumerate([raw["at"], *raw.get("more", [])]):
                x, y = places.point(lonlat)
                x += places.width * round((main[0] - x) / places.width)
                points.append((x, y))
                owner.append(self.index[name])
                roles.append((name, "main" if k == 0 else "more"))
        self.seeds = np.array(points, dtype=float)
        self.anchor = self.seeds.copy()
        self.owner = np.array(owner)
        self.roles = roles
        self.weights = np.ones(len(self.spaces))
        sizes = np.array([places.entries[n].get("size", SEA_SIZE if game_map[n].is_sea else 1.0)
                          for n in self.spaces])
        self.target = sizes / sizes.sum() * grid.n
        # how far (board units) a region may grow from its points: keeps an island that is grown
        # as a region (one between several sea zones) island-sized
        self.reach = [float(places.entries[n].get("reach", math.inf)) for n in self.spaces]
        self.wanted = np.zeros((len(self.spaces),) * 2, dtype=bool)
        for a in self.spaces:
            for b in game_map.neighbours(a):
                if b in self.index:
                    self.wanted[self.index[a], self.index[b]] = True

    def grow(self) -> np.ndarray:
        """Grow every region from its seeds over the filler graph (multi-source Dijkstra,
        each space at its own speed, none further than its ``reach``).  A filler never joins a
        space if a neighbouring filler already belongs to a space that is not its neighbour in
        map.toml: such places stay empty (GAP) unless a space compatible with all around them
        takes them afterwards."""
        g = self.grid
        nbrs = g.neighbour_lists()
        ok = self.wanted | np.eye(len(self.spaces), dtype=bool)
        ok_sets = [set(np.nonzero(row)[0]) for row in ok]
        label = [UNSET] * g.n
        tree = cKDTree(np.column_stack([g.points[:, 0], g.points[:, 1]]), boxsize=[g.width, 1e9])
        _, start = tree.query(np.column_stack([self.seeds[:, 0] % g.width, self.seeds[:, 1]]))
        speed, reach = self.weights, self.reach
        heap = [(0.0, int(f), int(s)) for f, s in zip(start, self.owner)]
        heapq.heapify(heap)
        while heap:
            d, f, s = heapq.heappop(heap)
            if label[f] != UNSET or d > reach[s]:
                continue
            allowed = ok_sets[s]
            if any(label[h] >= 0 and label[h] not in allowed for h, _ in nbrs[f]):
                continue
            label[f] = s
            for h, length in nbrs[f]:
                if label[h] == UNSET:
                    heapq.heappush(heap, (d + length / speed[s], h, s))
        # fill what is left with a space compatible with everything around it
        changed = True
        while changed:
            changed = False
            for f in range(g.n):
                if label[f] != UNSET:
                    continue
                around = {label[h] for h, _ in nbrs[f] if label[h] >= 0}
                fits = [s for s in around if around <= ok_sets[s]]
                if fits:
                    label[f] = min(fits)
                    changed = True
        labels = np.array([GAP if v == UNSET else v for v in label])
        return self.absorb_specks(labels)

    def absorb_specks(self, labels: np.ndarray, largest: int = 3) -> np.ndarray:
        """Gaps of a few fillers only (where three or more regions meet) would show as dots:
        give each to the region it borders most.  The contact this makes is a point, not a
        border (shorter than GRAZE)."""
        g = self.grid
        gap = labels == GAP
        if not gap.any():
            return labels
        both = gap[g.edge_a] & gap[g.edge_b]
        count, comp = connected_components(g.graph(both), directed=False)
        sizes = np.bincount(comp[gap], minlength=count)
        around: dict[int, Counter] = defaultdict(Counter)     # gap component -> label -> border
        for a, b, length in zip(g.edge_a.tolist(), g.edge_b.tolist(), g.edge_len.tolist()):
            if gap[a] and not gap[b]:
                around[comp[a]][labels[b]] += length
            elif gap[b] and not gap[a]:
                around[comp[b]][labels[a]] += length
        for c, border in around.items():
            if sizes[c] > largest:
                continue
            def harm(lab):      # border the speck would give ``lab`` with non-neighbours
                return sum(n for other, n in border.items()
                           if other >= 0 and other != lab and not self.wanted[lab, other])
            choices = [lab for lab in border if lab >= 0]
            if choices:
                labels[(comp == c) & gap] = min(choices, key=lambda lab: (harm(lab), -border[lab], lab))
        return labels

    def balance(self, rounds: int) -> np.ndarray:
        """Grow, then adjust each space's speed towards its target area; a few rounds."""
        labels = self.grow()
        for _ in range(rounds):
            area = np.bincount(labels[labels >= 0], minlength=len(self.spaces)).astype(float)
            self.weights *= np.clip((self.target / np.maximum(area, 1)) ** 0.5, 0.7, 1.4)
            self.weights = np.clip(self.weights, 0.3, 3.0)
            labels = self.grow()
        return labels

    def borders(self, labels: np.ndarray) -> np.ndarray:
        g, s = self.grid, len(self.spaces)
        la, lb = labels[g.edge_a], labels[g.edge_b]
        diff = (la != lb) & (la >= 0) & (lb >= 0)
        m = np.zeros((s, s))
        np.add.at(m, (la[diff], lb[diff]), g.edge_len[diff])
        return m + m.T

    def mismatches(self, labels):
        m = self.borders(labels)
        missing = self.wanted & (m < TOUCH)
        spurious = ~self.wanted & (m > GRAZE)
        np.fill_diagonal(spurious, False)
        return m, list(zip(*np.nonzero(np.triu(missing)))), list(zip(*np.nonzero(np.triu(spurious))))


# --------------------------------------------------------------------------- outlines

def region_rings(grid: Grid, labels: np.ndarray, home_x: np.ndarray):
    """Every region's boundary as rings of (Voronoi vertex, neighbour label); a region that
    crosses the seam is kept whole in the copy nearest its home x."""
    n, w = grid.n, grid.width
    shift = np.round((home_x[np.maximum(labels, 0)] - grid.points[:, 0]) / w).astype(int)
    shift[labels < 0] = 0
    home_copy = np.select([shift == 0, shift == 1, shift == -1], [0, 1, 2])
    total = len(grid.vor.points)
    point_label = np.full(total, FRAME)
    member = np.zeros(total, dtype=bool)
    for c in range(3):
        point_label[c * n:(c + 1) * n] = labels
        member[c * n:(c + 1) * n] = (home_copy == c) & (labels >= 0)
    edges: dict[int, dict[int, tuple[int, int]]] = defaultdict(dict)
    verts = grid.vor.vertices
    pts = grid.vor.points
    for (p, q), (v0, v1) in zip(grid.vor.ridge_points, grid.vor.ridge_vertices):
        for a, b in ((p, q), (q, p)):
            if not member[a]:
                continue
            if member[b] and point_label[b] == point_label[a]:
                continue
            if v0 < 0 or v1 < 0:
                raise SystemExit("unbounded region: the filler grid does not cover the board")
            s0, s1 = v0, v1
            e = verts[s1] - verts[s0]
            f = pts[a] - verts[s0]
            if e[0] * f[1] - e[1] * f[0] < 0:
                s0, s1 = s1, s0
            edges[point_label[a]][s0] = (s1, point_label[b])
    rings = {}
    for lab, out in edges.items():
        todo, result = dict(out), []
        while todo:
            v = next(iter(todo))
            ring = []
            while v in todo:
                nxt, other = todo.pop(v)
                ring.append((v, other))
                v = nxt
            result.append(ring)
        rings[lab] = result
    return rings


def simplify(chain, tolerance):
    """Ramer-Douglas-Peucker on an open chain; both ends stay."""
    if len(chain) < 3:
        return list(chain)
    (x0, y0), (x1, y1) = chain[0], chain[-1]
    dx, dy = x1 - x0, y1 - y0
    length = math.hypot(dx, dy)
    far, k = -1.0, 0
    for i in range(1, len(chain) - 1):
        px, py = chain[i]
        d = (abs(dx * (py - y0) - dy * (px - x0)) / length if length > 1e-9
             else math.hypot(px - x0, py - y0))
        if d > far:
            far, k = d, i
    if far <= tolerance:
        return [chain[0], chain[-1]]
    return simplify(chain[:k + 1], tolerance)[:-1] + simplify(chain[k:], tolerance)


def chaikin(points, closed: bool, rounds: int = 3):
    for _ in range(rounds):
        out = [] if closed else [points[0]]
        count = len(points) if closed else len(points) - 1
        for i in range(count):
            (x0, y0), (x1, y1) = points[i], points[(i + 1) % len(points)]
            out.append((0.75 * x0 + 0.25 * x1, 0.75 * y0 + 0.25 * y1))
            out.append((0.25 * x0 + 0.75 * x1, 0.25 * y0 + 0.75 * y1))
        if not closed:
            out.append(points[-1])
        points = out
    return points


def smooth_chain(chain, closed=False):
    straight = simplify(chain, GRID * 0.6)
    if closed:
        straight = straight[:-1]
    return simplify(chaikin(straight, closed), 0.25) if not closed else \
        simplify(chaikin(straight, True) + chaikin(straight, True)[:1], 0.25)[:-1]


def smooth_ring(ring, vertices, width: float | None = None):
    """Smooth a ring chain by chain (a chain: the border with one neighbour); junctions stay.
    With ``width`` (the board's, for the seam) every chain is smoothed in one canonical
    direction, so both neighbours draw exactly the same border: the simplification breaks ties
    by order, and smoothing a chain from its two ends can differ enough to leave a sliver."""
    coords = [tuple(map(float, vertices[v])) for v, _ in ring]
    breaks = [k for k in range(len(ring)) if ring[k][1] != ring[k - 1][1]]
    if not breaks:
        return smooth_chain(coords + coords[:1], closed=True)
    out = []
    for a, b in zip(breaks, breaks[1:] + [breaks[0] + len(ring)]):
        chain = [coords[k % len(ring)] for k in range(a, b + 1)]
        if ring[a][1] == FRAME:
            out.extend(simplify(chain, 0.01)[:-1])
        elif width is not None and canonical(chain[-1], width) < canonical(chain[0], width):
            out.extend(smooth_chain(chain[::-1])[::-1][:-1])
        else:
            out.extend(smooth_chain(chain)[:-1])
    return out


def canonical(point, width: float) -> tuple[float, float]:
    """A point's place on the wrapping board, the same from every copy of it."""
    return (round(point[0] % width, 3) % width, round(point[1], 3))


def island_blob(center, rx, ry, angle, name):
    """An ellipse with a slight, deterministic wobble, so islands do not look stamped."""
    seed = zlib.crc32(name.encode())
    phases = [(seed >> s & 0xFF) / 255 * 2 * math.pi for s in (0, 8, 16)]
    cx, cy = center
    ca, sa = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    out = []
    for k in range(28):
        t = 2 * math.pi * k / 28
        r = 1 + 0.10 * math.sin(3 * t + phases[0]) + 0.07 * math.sin(5 * t + phases[1]) \
            + 0.05 * math.sin(2 * t + phases[2])
        x, y = rx * r * math.cos(t), ry * r * math.sin(t)
        out.append((cx + x * ca - y * sa, cy + x * sa + y * ca))
    return out


def outline_borders(outlines, width) -> dict[frozenset, float]:
    """Length of border each pair of spaces shares in the drawn outlines (a shared border is
    one chain of points both draw, in opposite directions, maybe a board width apart)."""
    def key(x, y):
        return (round(x, 1), round(y, 1))
    drawn = {}
    for name, rings in outlines.items():
        for ring in rings:
            for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1]):
                for dx in (0.0, width, -width):
                    drawn[(key(x0 + dx, y0), key(x1 + dx, y1))] = name
    lengths: dict[frozenset, float] = defaultdict(float)
    for name, rings in outlines.items():
        for ring in rings:
            for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1]):
                other = drawn.get((key(x1, y1), key(x0, y0)))
                if other is not None and other != name:
                    lengths[frozenset((name, other))] += math.hypot(x1 - x0, y1 - y0) / 2
    return lengths


def closest(grid: Grid, labels, a: int, b: int) -> tuple[float, float, float, float]:
    """The shortest line from region ``a`` to region ``b`` (filler to filler)."""
    pa, pb = grid.points[labels == a], grid.points[labels == b]
    dist, k = cKDTree(pb, boxsize=[grid.width, 1e9]).query(pa)
    i = int(np.argmin(dist))
    (x0, y0), (x1, y1) = pa[i], pb[k[i]]
    x1 = x0 + float(wrap_dx(x1 - x0, grid.width))
    return (x0, y0, x1, y1)


def room_box(lines, at, size, land: bool, room=(ROOM_WIDTH, ROOM_LAND, ROOM_SEA)):
    """The label's box grown downwards (and widened) to keep room for the owner/IPC row and
    a row or two of units, which the picture draws below the label."""
    x0, y0, x1, y1 = label_box(tuple(lines), at, size)
    room_width, room_land, room_sea = room
    below = room_land if land else room_sea
    half = max((x1 - x0) / 2, room_width / 2)
    return (at[0] - half, y0, at[0] + half, y1 + below)


def spot_candidates(grid: Grid, labels, lab, home, obstacles, keep=400):
    """Points of a region, best first: far from its border and from ``obstacles`` (islands),
    and near ``home`` (its main place)."""
    same = labels[grid.edge_a] == labels[grid.edge_b]
    border = np.zeros(grid.n, dtype=bool)
    border[grid.edge_a[~same]] = True
    border[grid.edge_b[~same]] = True
    pts = grid.points
    walls = np.vstack([pts[border], *([np.array(obstacles)] if len(obstacles) else [])])
    walls[:, 0] %= grid.width
    tree = cKDTree(walls, boxsize=[grid.width, 1e9])
    inside = np.nonzero(labels == lab)[0]
    clear, _ = tree.query(np.column_stack([pts[inside, 0] % grid.width, pts[inside, 1]]))
    edge_room = np.minimum(pts[inside, 1], grid.height - pts[inside, 1])
    clear = np.minimum(clear, edge_room)
    d = np.hypot(wrap_dx(pts[inside, 0] - home[0], grid.width), pts[inside, 1] - home[1])
    score = np.minimum(clear, 40.0) - 0.1 * d
    order = np.argsort(-score, kind="stable")[:keep]
    return [(float(pts[inside[k], 0]), float(pts[inside[k], 1])) for k in order]


def place_labels(places, game_map, grid, labels, layout, where, islands_in, size):
    """Greedy placement: islands first (beside their island), then regions from the smallest;
    each label takes its best spot whose room box overlaps no box placed before it."""
    width, height = grid.width, grid.height
    room = tuple(float(v) for v in places.board.get("room", (ROOM_WIDTH, ROOM_LAND, ROOM_SEA)))
    placed: dict[str, tuple] = {}
    boxes: list[tuple] = []
    blobs = [tuple(np.min(b, axis=0)) + tuple(np.max(b, axis=0))
             for blist in islands_in.values() for b in map(np.array, blist)]

    def fits(box) -> bool:
        if box[0] < 0 or box[2] > width or box[1] < 0 or box[3] > height:
            return False
        return not any(boxes_overlap(box, other) for other in boxes)

    cells = cKDTree(np.column_stack([grid.points[:, 0] % width, grid.points[:, 1]]),
                    boxsize=[width, 1e9])

    def own(at, region) -> bool:
        """Whether the anchor ``at`` lies in ``region`` (None: any place will do)."""
        return region is None or labels[cells.query((at[0] % width, at[1]))[1]] == region

    def choose(name, options, land, pad_blobs: bool, region=None):
        lines = places.entries[name].get("text", name).split("|")
        dx, dy = places.entries[name].get("label", (0, 0))
        first = None
        for at in options:
            at = ((at[0] + dx) % width, at[1] + dy)
            box = room_box(lines, at, size, land, room)
            if first is None:
                first = (at, box)
            if fits(box) and own(at, region) and not (pad_blobs and any(boxes_overlap(box, b) for b in blobs)):
                break
        else:
            at, box = first
            print(f"label of {name}: no free spot; placed over others")
        placed[name] = at
        boxes.append(box)

    for name, raw in places.entries.items():
        if "island" not in raw:
            continue
        x, y = where[name, "island"]
        rx, ry, angle = raw["island"]
        a = math.radians(angle)
        hx = math.hypot(rx * math.cos(a), ry * math.sin(a)) * 1.15     # the blob's half extents
        hy = math.hypot(rx * math.sin(a), ry * math.cos(a)) * 1.15
        lines = raw.get("text", name).split("|")
        half_h = len(lines) * size * LINE_HEIGHT / 2
        half_w = max(len(t) for t in lines) * size * 0.31
        sides = {"below": (x, y + hy + half_h + 2), "right": (x + hx + half_w + 4, y - 8),
                 "left": (x - hx - half_w - 4, y - 8), "above": (x, y - hy - half_h - room[1] - 2),
                 "on": (x, y - half_h)}      # on the island itself: one large enough to hold it
        side = raw.get("label_side", "below")
        if side not in sides:
            sys.exit(f"{name}: label_side must be one of {', '.join(sides)}, not {side!r}")
        options = [sides[side]] + [at for key, at in sides.items() if key not in (side, "on")]
        options += [(x + ox, y + hy + half_h + 2) for ox in (-30, 30, -50, 50)]
        choose(name, options, True, False)
    regions = [n for n in places.entries if "island" not in places.entries[n]]
    area = {n: int(np.sum(labels == layout.index[n])) for n in regions}
    for name in sorted(regions, key=lambda n: area[n]):
        lab = layout.index[name]
        obstacles = [p for blob in islands_in[lab] for p in blob]
        options = [(x, y - 8) for x, y in spot_candidates(grid, labels, lab, where[name, "main"], obstacles)]
        choose(name, options, game_map[name].is_land and not game_map[name].impassable, True, lab)
    return placed


# --------------------------------------------------------------------------- building

def fmt(v: float) -> str:
    text = f"{v:.1f}"
    return text[:-2] if text.endswith(".0") else text


def build(edition: str, rounds: int | None = None) -> tuple[str, list[str]]:
    directory = game_dir(edition)
    game_map = load_map(edition)
    places = Places(directory, game_map)
    width, height, size = places.width, places.height, places.label_size
    grid = Grid(width, height)
    layout = Layout(places, game_map, grid)
    rounds = places.board.get("balance", 0) if rounds is None else rounds
    symmetric = bool(places.board.get("symmetric_borders", False))
    labels = layout.balance(rounds)
    where = {role: tuple(p) for role, p in zip(layout.roles, layout.seeds) if role[1] != "more"}
    home_x = np.array([where[n, "main"][0] for n in layout.spaces])
    rings = region_rings(grid, labels, home_x)
    borders, missing, spurious = layout.mismatches(labels)

    outlines, islands_in = {}, defaultdict(list)
    for name, raw in places.entries.items():
        if "island" in raw:
            rx, ry, angle = raw["island"]
            blob = island_blob(where[name, "island"], rx, ry, angle, name)
            outlines[name] = [blob]
            zone = layout.index[next(iter(game_map.neighbours(name)))]
            islands_in[zone].append(blob)
        else:
            outlines[name] = [smooth_ring(r, grid.vor.vertices, width if symmetric else None)
                              for r in rings[layout.index[name]]]

    # judge by the final, smoothed outlines: what a reader of the picture sees
    drawn = outline_borders(outlines, width)
    final = {k: drawn.get(frozenset((layout.spaces[k[0]], layout.spaces[k[1]])), 0.0)
             for k in zip(*np.nonzero(np.triu(np.ones_like(layout.wanted))))}
    missing = [k for k, v in final.items() if layout.wanted[k] and v < TOUCH_DRAWN]
    spurious = [k for k, v in final.items() if not layout.wanted[k] and k[0] != k[1] and v > GRAZE]
    notes = [f"touch but are not neighbours: {layout.spaces[a]} / {layout.spaces[b]} "
             f"({final[a, b]:.0f} units)" for a, b in spurious]
    links = []
    for a, b in missing:
        names = (layout.spaces[a], layout.spaces[b])
        if any(game_map[n].impassable for n in names):
            notes.append(f"neighbours that do not touch (no link: impassable): {names[0]} / {names[1]}")
            continue
        links.append((*names, closest(grid, labels, a, b)))
        notes.append(f"neighbours that do not touch (drawn as a link): {names[0]} / {names[1]}")
    for name, raw in places.entries.items():
        if "island" in raw:
            zone = layout.index[next(iter(game_map.neighbours(name)))]
            x, y = where[name, "island"]
            _, k = cKDTree(grid.points).query([x % width, y], k=12)
            if any(labels[i] != zone for i in np.atleast_1d(k)):
                notes.append(f"island {name} may reach out of its sea zone")

    anchors = place_labels(places, game_map, grid, labels, layout, where, islands_in, size)

    lines = [
        f"# {edition}: the board picture's shapes.  GENERATED by scripts/make_geometry.py from",
        "# places.toml (longitudes and latitudes); edit places.toml and re-run, do not edit this.",
        "# Read and checked by adjudicator/io/geometry.py (the format is described there).",
        "",
        f"width = {fmt(width)}",
        f"height = {fmt(height)}",
        'wrap = "east-west"',
        f"label_size = {fmt(size)}",
        "links = [",
        *(f'  {{ between = [{quote(a)}, {quote(b)}], line = [{", ".join(fmt(v) for v in line)}] }},'
          for a, b, line in links),
        "]",
    ]
    for name, raw in places.entries.items():
        x, y = anchors[name]
        lines += ["", "[[space]]", f"name = {quote(name)}", f"at = [{fmt(x)}, {fmt(y)}]"]
        if raw.get("text", name) != name:
            lines.append(f"label = {quote(raw['text'])}")
        lines.append("outline = [")
        for ring in outlines[name]:
            lines.append('  "' + " ".join(f"{fmt(px)},{fmt(py)}" for px, py in ring) + '",')
        lines.append("]")
    return "\n".join(lines) + "\n", notes


def quote(text: str) -> str:
    """A TOML string, quoted and escaped by the TOML library (a name or label with a quote,
    a backslash or a newline stays valid TOML)."""
    return tomlkit.string(text).as_string()


def preview(text: str, game_map, path: Path) -> None:
    """A bare drawing of the shapes, links and labels, for judging a layout by eye
    (PREVIEW_VIEW="x y w h" zooms)."""
    doc = tomllib.loads(text)
    w, h = doc["width"], doc["height"]
    view = os.environ.get("PREVIEW_VIEW", f"0 0 {w} {h}")
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{view}" width="{w}" height="{h}">',
           f'<rect width="{w}" height="{h}" fill="#fff"/>']
    centre = {}
    for sp in sorted(doc["space"], key=lambda sp: game_map[sp["name"]].island):
        t = game_map[sp["name"]]
        fill = "#bcd9ee" if t.is_sea else "#ddd" if t.impassable else "#e8d9b0"
        for dx in (0, w, -w):
            for ring in sp["outline"]:
                pts = " ".join(f"{float(a) + dx:.1f},{b}" for a, b in (p.split(",") for p in ring.split()))
                out.append(f'<polygon points="{pts}" fill="{fill}" stroke="#555" stroke-width="0.6"/>')
        centre[sp["name"]] = sp["at"]
    for link in doc["links"]:
        x0, y0, x1, y1 = link["line"]
        out.append(f'<line x1="{x0}" y1="{y0}" x2="{x1}" y2="{y1}" stroke="red" stroke-width="1.5"/>')
    for sp in doc["space"]:
        x, y = sp["at"]
        lines = sp.get("label", sp["name"]).split("|")
        for k, line in enumerate(lines):
            yy = y + (k - (len(lines) - 1) / 2) * 13 + 4
            out.append(f'<text x="{x}" y="{yy}" font-size="11" font-family="DejaVu Sans" '
                       f'text-anchor="middle">{line}</text>')
    out.append("</svg>")
    path.write_text("\n".join(out), encoding="utf-8")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("edition", nargs="?", default="aa1941")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; fail if geometry.toml is not what places.toml gives")
    parser.add_argument("--preview", metavar="SVG", help="also draw the bare shapes into this file")
    parser.add_argument("--balance", type=int, metavar="N",
                        help="rounds of area balancing (default: places.toml [board] balance)")
    args = parser.parse_args(argv)
    text, notes = build(args.edition, args.balance)
    for note in notes:
        print(note)
    game_map = load_map(args.edition)
    target = game_dir(args.edition) / GEOMETRY_FILE
    if args.preview:
        preview(text, game_map, Path(args.preview))
    parse_geometry(tomllib.loads(text), game_map, str(target))    # raises on any problem
    if args.check:
        same = target.exists() and target.read_text(encoding="utf-8") == text
        print("geometry.toml is up to date" if same else "geometry.toml is stale: re-run without --check")
        return 0 if same else 1
    target.write_text(text, encoding="utf-8")
    print(f"wrote {target} ({len(text)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
