"""Read and check ``geometry.toml``, the shapes of a game's board picture.

The file is optional: an edition without it simply has no picture.  It is checked like the
other game data: every space of the map placed exactly once, no unknown names, numbers within
bounds, labels inside the board and not overlapping.  All problems are reported together in
one :class:`DataError`, each naming the file and the entry.

Format (written by ``scripts/make_geometry.py``)::

    width = 2000            # board units
    height = 1000
    wrap = "east-west"      # or "none"
    label_size = 11         # font size of the space names, board units
    links = [{ between = ["A", "B"], line = [x0, y0, x1, y1] }]   # neighbours whose
                            # shapes do not touch (canals, straits), joined by a drawn line
    [[space]]
    name = "Karelia"        # exactly as in map.toml
    at = [812.5, 160.0]     # centre of the label
    label = "Karelia"       # optional; "|" breaks a line (default: the name)
    outline = ["x,y x,y x,y ..."]   # closed rings; x may pass the edges of a wrapping board
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import attrs

from . import tomlcache
from ..model.board import GameMap
from ..model.errors import DataError
from ..model.game import Game
from ..model.geometry import Geometry, Link, SpaceShape, boxes_overlap, label_box

GEOMETRY_FILE = "geometry.toml"
MAX_BYTES = 4_000_000          # the whole file
MAX_SIDE = 100_000.0           # width and height
MAX_POINTS = 20_000            # per space
MAX_LABEL = 60                 # characters per label line


def with_geometry(game: Game, directory: str | Path) -> Game:
    """``game`` with the geometry of its folder attached (None when the folder has none)."""
    return attrs.evolve(game, geometry=read_geometry(directory, game.map))


_cache: dict[tuple, Geometry] = {}


def read_geometry(directory: str | Path, game_map: GameMap) -> Geometry | None:
    """The checked geometry of a game folder, or None if it has no ``geometry.toml``.
    A file already read for the same map, unchanged since, is not parsed again."""
    path = Path(directory) / GEOMETRY_FILE
    try:
        stat = path.stat()
    except FileNotFoundError:
        return None
    pairs = frozenset((a, b) for a, ns in game_map.adjacency.items() for b in ns)
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size, tuple(game_map.territories), pairs)
    if key not in _cache:
        if len(_cache) > 8:
            _cache.clear()
        _cache[key] = _read(path, stat.st_size, game_map)
    return _cache[key]


def _read(path: Path, size: int, game_map: GameMap) -> Geometry:
    if size > MAX_BYTES:
        raise DataError(f"{path}: {size} bytes; a geometry file may have at most {MAX_BYTES}")
    try:
        doc = tomlcache.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:           # tomllib.TOMLDecodeError or UnicodeDecodeError
        raise DataError(f"{path}: not valid TOML: {exc}") from None
    return parse_geometry(doc, game_map, str(path))


def parse_geometry(doc: dict[str, Any], game_map: GameMap, source: str = GEOMETRY_FILE) -> Geometry:
    """Check a parsed geometry document against ``game_map``; raise one DataError listing
    every problem."""
    checker = _Checker(Path(source).name)
    geometry = checker.geometry(doc, game_map, source)
    if checker.problems:
        n = len(checker.problems)
        head = f"{n} problem{'s' if n != 1 else ''} in board geometry {source}:"
        raise DataError("\n".join([head, *(f"  - {p}" for p in checker.problems)]))
    return geometry


class _Checker:
    def __init__(self, file: str):
        self.file = file
        self.problems: list[str] = []

    def err(self, entry: str, message: str) -> None:
        self.problems.append(f"{self.file}: {entry}: {message}")

    def number(self, entry: str, value: Any, what: str, low: float, high: float) -> float | None:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            self.err(entry, f"{what} must be a number, not {value!r}")
            return None
        if not low <= value <= high:
            self.err(entry, f"{what} {value} is outside {low:g}..{high:g}")
            return None
        return float(value)

    def geometry(self, doc: dict, game_map: GameMap, source: str) -> Geometry:
        width = self.number("width", doc.get("width"), "width", 1, MAX_SIDE) or 1.0
        height = self.number("height", doc.get("height"), "height", 1, MAX_SIDE) or 1.0
        size = self.number("label_size", doc.get("label_size", 11), "label_size", 1, min(width, height) / 4) or 11.0
        wrap = doc.get("wrap", "none")
        if wrap not in ("none", "east-west"):
            self.err("wrap", f"must be 'none' or 'east-west', not {wrap!r}")
        wrap_x = wrap == "east-west"
        spaces: dict[str, SpaceShape] = {}
        raw_spaces = doc.get("space", [])
        if not isinstance(raw_spaces, list):
            self.err("space", "must be an array of tables ([[space]])")
            raw_spaces = []
        for i, raw in enumerate(raw_spaces):
            shape = self.space(i, raw, game_map, width, height, size, wrap_x)
            if shape is None:
                continue
            if shape.name in spaces:
                self.err(f"space '{shape.name}'", f"placed twice (also space[{list(spaces).index(shape.name)}])")
                continue
            spaces[shape.name] = shape
        for name in game_map.territories:
            if name not in spaces and not any(f"space '{name}'" in p for p in self.problems):
                self.err(f"space '{name}'", "not placed: every territory and sea zone of map.toml needs an entry")
        self.labels(spaces, width, height, size)
        links = self.links(doc.get("links", []), game_map, width, height, wrap_x)
        return Geometry(width=width, height=height, wrap_x=wrap_x, label_size=size,
                        spaces=spaces, links=links, source=source)

    def space(self, i, raw, game_map, width, height, size, wrap_x) -> SpaceShape | None:
        if not isinstance(raw, dict):
            self.err(f"space[{i}]", "must be a table")
            return None
        name = raw.get("name")
        if not isinstance(name, str):
            self.err(f"space[{i}]", f"'name' must be a string, not {name!r}")
            return None
        entry = f"space '{name}'"
        if name not in game_map.territories:
            self.err(entry, "unknown space: not a territory or sea zone of map.toml")
            return None
        unknown = sorted(set(raw) - {"name", "at", "label", "outline"})
        if unknown:
            self.err(entry, f"unknown field(s): {', '.join(unknown)}")
        at = self.point(entry, raw.get("at"), "at", (0, width), (0, height))
        label = raw.get("label", name)
        lines: tuple[str, ...] = ()
        if not isinstance(label, str) or not label.strip():
            self.err(entry, f"'label' must be a non-empty string, not {label!r}")
        else:
            lines = tuple(line.strip() for line in label.split("|"))
            if any(not line or len(line) > MAX_LABEL for line in lines) or len(lines) > 3:
                self.err(entry, f"label {label!r}: 1 to 3 non-empty lines of at most {MAX_LABEL} characters")
                lines = ()
        x_range = (-width, 2 * width) if wrap_x else (0, width)
        outline = self.outline(entry, raw.get("outline"), x_range, (0, height))
        if at is None or not lines or outline is None:
            return None
        return SpaceShape(name=name, at=at, outline=outline, label=lines)

    def point(self, entry, value, what, xr, yr):
        if not (isinstance(value, list) and len(value) == 2):
            self.err(entry, f"'{what}' must be [x, y], not {value!r}")
            return None
        x = self.number(entry, value[0], f"{what} x", *xr)
        y = self.number(entry, value[1], f"{what} y", *yr)
        return None if x is None or y is None else (x, y)

    def outline(self, entry, value, xr, yr):
        if not (isinstance(value, list) and value and all(isinstance(r, str) for r in value)):
            self.err(entry, "'outline' must be a non-empty list of rings (\"x,y x,y ...\")")
            return None
        rings, total = [], 0
        for k, ring in enumerate(value):
            tokens = ring.split()
            try:
                pairs = [token.split(",") for token in tokens]
                xs = [float(x) for x, _ in pairs]
                ys = [float(y) for _, y in pairs]
            except ValueError:
                bad = next(t for t in tokens if not _is_point(t))
                self.err(entry, f"outline ring {k}: {bad[:30]!r} is not a point 'x,y'")
                return None
            total += len(xs)
            if len(xs) < 3:
                self.err(entry, f"outline ring {k} has {len(xs)} points; a ring needs at least 3")
                return None
            if not all(map(math.isfinite, xs + ys)) or min(xs) < xr[0] or max(xs) > xr[1] \
                    or min(ys) < yr[0] or max(ys) > yr[1]:
                self.err(entry, f"outline ring {k}: a point lies outside the board")
                return None
            rings.append(tuple(zip(xs, ys)))
        if total > MAX_POINTS:
            self.err(entry, f"outline has {total} points; at most {MAX_POINTS} allowed")
            return None
        return tuple(rings)

    def labels(self, spaces: dict[str, SpaceShape], width, height, size) -> None:
        boxes = {name: label_box(s.label, s.at, size) for name, s in spaces.items()}
        for name, (x0, y0, x1, y1) in boxes.items():
            if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
                self.err(f"space '{name}'", "label runs off the board")
        items = sorted(boxes.items(), key=lambda kv: kv[1][0])
        for i, (a, box_a) in enumerate(items):
            for b, box_b in items[i + 1:]:
                if box_b[0] >= box_a[2]:
                    break
                if boxes_overlap(box_a, box_b):
                    self.err(f"space '{a}'", f"label overlaps the label of '{b}'")

    def links(self, value, game_map: GameMap, width, height, wrap_x) -> tuple[Link, ...]:
        if not isinstance(value, list):
            self.err("links", "must be a list of { between = [A, B], line = [x0, y0, x1, y1] }")
            return ()
        result = []
        x_range = (-width, 2 * width) if wrap_x else (0, width)
        for i, raw in enumerate(value):
            entry = f"links[{i}]"
            pair = raw.get("between") if isinstance(raw, dict) else None
            if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) for p in pair)):
                self.err(entry, f"'between' must be a pair of space names, not {pair!r}")
                continue
            a, b = pair
            bad = [p for p in pair if p not in game_map.territories]
            if bad:
                self.err(entry, f"unknown space '{bad[0]}'")
                continue
            if not game_map.adjacent(a, b):
                self.err(entry, f"'{a}' and '{b}' are not neighbours in map.toml")
                continue
            line = raw.get("line")
            if not (isinstance(line, list) and len(line) == 4):
                self.err(entry, f"'line' must be [x0, y0, x1, y1], not {line!r}")
                continue
            start = self.point(entry, line[:2], "line start", x_range, (0, height))
            end = self.point(entry, line[2:], "line end", x_range, (0, height))
            if start and end:
                result.append(Link(a, b, start, end))
        return tuple(result)


def _is_point(token: str) -> bool:
    parts = token.split(",")
    try:
        return len(parts) == 2 and all(math.isfinite(float(p)) for p in parts)
    except ValueError:
        return False
