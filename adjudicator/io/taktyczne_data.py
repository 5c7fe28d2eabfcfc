"""Read Taktyczne Starcie's main map (``maps/<folder>/map.toml``) and cost table
(``units.toml``) into ``model.taktyczne`` values, with a clear message for every bad value.

The map file is in the format of every edition's ``map.toml`` (read by ``loader.read_map``)
plus ``tangents`` (pairs touching at a single point, L15) and ``[drawing] cells`` (the map as
a grid of cells).  The lists must be exactly the drawing's relations: two areas border when
two of their cells share an edge, and are tangent when they meet only at a corner point.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import attrs

from ..model.errors import DataError
from ..model.game import Game
from typing import TYPE_CHECKING

if TYPE_CHECKING:        # the values are loaded with the first map or table read: loading
    # any game (``service.games``) imports this module, and ``pbem odds`` loads no events
    from ..model.taktyczne import CostTable, MainMap, ObjectPrice, UnitCost
from .loader import read_map
from . import tomlcache
from .paths import MAPS_DIR
from .storage import read_toml

MAP_FILE = "map.toml"
COSTS_FILE = "units.toml"
MAX_BYTES = 200_000
MAX_CELLS = 10_000            # the drawing: far above the 26 x 18 of the invented map
MAX_ENTRIES = 200             # units, objects, rulings
MAX_NUMBER = 10_000
OBJECT_COUNTS = ("area", "area_sea")
DICE_NUMBERS = frozenset(f"{a}{b}" for a in range(1, 7) for b in range(1, 7))


def _read(folder: str | Path, name: str) -> tuple[dict[str, Any], str]:
    directory = Path(folder) if any(c in str(folder) for c in "/\\") else MAPS_DIR / str(folder)
    path = directory / name
    return read_toml(path, "Taktyczne Starcie data", MAX_BYTES, DataError), str(path)


def _rulings(doc: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    listed = doc.get("ruling", [])
    return tuple((str(r.get("key", "")), str(r.get("text", "")))
                 for r in (listed if isinstance(listed, list) else [])[:MAX_ENTRIES]
                 if isinstance(r, dict))


def _number(where: str, table: dict, name: str, low: int = 0, high: int = MAX_NUMBER) -> int:
    value = table.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise DataError(f"{where}: {name} must be a whole number from {low} to {high}, not {value!r}")
    return value


# --------------------------------------------------------------------------- the map

def load_main_map(folder: str | Path = "taktyczne") -> MainMap:
    """The main map of a data folder (a name under ``maps/`` or a path)."""
    doc, where = _read(folder, MAP_FILE)
    return main_map(doc, where)


def cell_relations(cells: tuple[tuple[str, ...], ...]
                   ) -> tuple[set[frozenset[str]], set[frozenset[str]]]:
    """(bordering, tangent) pairs of a drawing: cells sharing an edge border; areas whose
    cells meet only at a corner point, and border nowhere, are tangent (L15)."""
    border: set[frozenset[str]] = set()
    corner: set[frozenset[str]] = set()
    for r, row in enumerate(cells):
        for c, area in enumerate(row):
            for other in (cells[r + 1][c] if r + 1 < len(cells) else area,
                          row[c + 1] if c + 1 < len(row) else area):
                if other != area:
                    border.add(frozenset((area, other)))
            if r + 1 < len(cells) and c + 1 < len(row):
                block = {area, row[c + 1], cells[r + 1][c], cells[r + 1][c + 1]}
                corner.update(frozenset(p) for p in itertools.combinations(sorted(block), 2))
    return border, corner - border


def main_map(doc: dict[str, Any], where: str = MAP_FILE) -> MainMap:
    """``MainMap`` from a parsed map document; ``where`` names it in errors."""
    from ..model.taktyczne import MainMap
    game_map = read_map(doc, where)
    cells = _cells(doc, where)
    names = set(game_map.territories)
    drawn = {a for row in cells for a in row}
    if drawn != names:
        missing = sorted(names - drawn)
        unknown = sorted(drawn - names)
        raise DataError(f"{where}: [drawing] cells must hold every area and no other "
                        f"(not drawn: {', '.join(missing) or 'none'}; unknown: {', '.join(unknown) or 'none'})")
    land = {t.key for t in game_map.land()}
    if land != DICE_NUMBERS:
        raise DataError(f"{where}: the land areas must be named by the 36 numbers of two dice, "
                        f"11 to 66 with both digits 1-6 (L19.5-L19.8); not so: "
                        f"{', '.join(sorted(land ^ DICE_NUMBERS))}")
    tangent: dict[str, set[str]] = {k: set() for k in names}
    listed = doc.get("tangents", [])
    if not isinstance(listed, list) or len(listed) > MAX_CELLS:
        raise DataError(f"{where}: tangents must be a list of pairs of areas")
    for i, pair in enumerate(listed):
        if (not isinstance(pair, list) or len(pair) != 2 or not all(p in names for p in pair)
                or pair[0] == pair[1]):
            raise DataError(f"{where}: tangents[{i}] {pair!r} is not a pair of two areas of the map")
        tangent[pair[0]].add(pair[1])
        tangent[pair[1]].add(pair[0])
    border, touch = cell_relations(cells)
    listed_border = {frozenset((a, b)) for a, ns in game_map.adjacency.items() for b in ns}
    listed_touch = {frozenset((a, b)) for a, ns in tangent.items() for b in ns}
    for what, lists, drawing in (("connections", listed_border, border),
                                 ("tangents", listed_touch, touch)):
        if lists != drawing:
            extra = sorted("-".join(sorted(p)) for p in lists - drawing)
            absent = sorted("-".join(sorted(p)) for p in drawing - lists)
            raise DataError(f"{where}: {what} differ from the drawing (listed but not drawn: "
                            f"{', '.join(extra) or 'none'}; drawn but not listed: {', '.join(absent) or 'none'})")
    return MainMap(title=str(doc.get("title", "")), version=_number(where, doc, "version", 1, 1000),
                   game_map=game_map, tangent={k: frozenset(v) for k, v in tangent.items()},
                   cells=cells, rulings=_rulings(doc))


def _cells(doc: dict[str, Any], where: str) -> tuple[tuple[str, ...], ...]:
    drawing = doc.get("drawing")
    text = drawing.get("cells") if isinstance(drawing, dict) else None
    if not isinstance(text, str):
        raise DataError(f"{where}: [drawing] cells is missing: the map's grid of cells")
    rows = tuple(tuple(line.split()) for line in text.splitlines() if line.strip())
    if not rows or len({len(r) for r in rows}) != 1 or len(rows) * len(rows[0]) > MAX_CELLS:
        raise DataError(f"{where}: [drawing] cells must be rows of equal length, "
                        f"at most {MAX_CELLS} cells in all")
    return rows


# --------------------------------------------------------------------------- the costs

def load_costs(folder: str | Path = "taktyczne") -> CostTable:
    """The cost table of a data folder (a name under ``maps/`` or a path)."""
    doc, where = _read(folder, COSTS_FILE)
    return cost_table(doc, where)


def with_costs(game: Game) -> Game:
    """``game`` with its folder's cost table attached (``Game.costs``) when its units.toml
    prices objects (Taktyczne Starcie's); other games unchanged."""
    path = Path(game.source_dir) / COSTS_FILE
    try:        # the loader has read and parsed this text already (tomlcache keeps it)
        doc = tomlcache.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return game
    if not isinstance(doc.get("object"), dict):
        return game
    return attrs.evolve(game, costs=cost_table(doc, str(path)))


def cost_table(doc: dict[str, Any], where: str = COSTS_FILE) -> CostTable:
    """``CostTable`` from a parsed cost document; ``where`` names it in errors."""
    from ..model.taktyczne import CostTable
    units = _entries(doc, "unit", where)
    objects = _entries(doc, "object", where)
    return CostTable(
        title=str(doc.get("title", "")), version=_number(where, doc, "version", 1, 1000),
        units={k: _unit(f"{where}: unit.{k}", k, e) for k, e in units.items()},
        objects={k: _object(f"{where}: object.{k}", k, e) for k, e in objects.items()},
        start_points=_number(where, doc, "start_points"), rulings=_rulings(doc))


def _entries(doc: dict[str, Any], name: str, where: str) -> dict[str, Any]:
    table = doc.get(name)
    if not isinstance(table, dict) or not 1 <= len(table) <= MAX_ENTRIES:
        raise DataError(f"{where}: [{name}.<key>] tables are missing (1 to {MAX_ENTRIES})")
    return table


def _text(where: str, entry: dict, name: str) -> str:
    value = entry.get(name)
    if not isinstance(value, str) or not value.strip():
        raise DataError(f"{where}: {name} must be a text")
    return value


def _common(where: str, entry: Any) -> tuple[str, bool, str, str]:
    if not isinstance(entry, dict):
        raise DataError(f"{where}: not a table")
    house = entry.get("house", False)
    if not isinstance(house, bool):
        raise DataError(f"{where}: house must be true or false")
    reason = entry.get("reason", "")
    if house and not (isinstance(reason, str) and reason.strip()):
        raise DataError(f"{where}: a house cost needs its reason")
    return _text(where, entry, "name"), house, _text(where, entry, "source"), str(reason)


def _unit(where: str, key: str, entry: Any) -> UnitCost:
    from ..model.taktyczne import UnitCost
    name, house, source, reason = _common(where, entry)
    value = _number(where, entry, "value") if "value" in entry else None
    return UnitCost(key=key, name=name, cost=_number(where, entry, "cost", 1), house=house,
                    source=source, reason=reason, value=value)


def _object(where: str, key: str, entry: Any) -> ObjectPrice:
    from ..model.taktyczne import ObjectPrice
    name, house, source, reason = _common(where, entry)
    per = entry.get("per", "area")
    if per not in OBJECT_COUNTS:
        raise DataError(f"{where}: per must be one of {', '.join(OBJECT_COUNTS)}, not {per!r}")
    free = entry.get("free_in_capital", False)
    if not isinstance(free, bool):
        raise DataError(f"{where}: free_in_capital must be true or false")
    return ObjectPrice(key=key, name=name, base=_number(where, entry, "base", 1),
                       step=_number(where, entry, "step") if "step" in entry else 0, per=per,
                       house=house, source=source, reason=reason, free_in_capital=free)
