"""Read the tactical battle board's data (``maps/<folder>/board.toml``) into
``model.tactical.BoardRules``, with a clear message for every bad value."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..model.errors import DataError
from . import tomlcache
from .paths import MAPS_DIR

if TYPE_CHECKING:       # loaded with the first board read: every game's loading asks for one
    from ..model.tactical import BoardRules, Formation, PieceKind

BOARD_FILE = "board.toml"
MAX_BYTES = 200_000
MAX_SIDE = 60            # columns, rows: far above the text's 13 x 20
MAX_KINDS = 40
_OWN_SQUARE = re.compile(r"^[A-Z]([1-9]|[1-9][0-9])$")


def load_board(folder: str | Path = "taktyczne") -> BoardRules:
    """The board rules of a data folder (a name under ``maps/`` or a path)."""
    directory = Path(folder) if any(c in str(folder) for c in "/\\") else MAPS_DIR / str(folder)
    path = directory / BOARD_FILE
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise DataError(f"{path}: cannot read the battle board ({exc.strerror})") from None
    if len(raw) > MAX_BYTES:
        raise DataError(f"{path}: {len(raw)} bytes, more than the {MAX_BYTES} a board file may have")
    try:
        doc = tomlcache.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise DataError(f"{path}: not a TOML file: {exc}") from None
    return board_rules(doc, str(path))


def board_rules(doc: dict[str, Any], where: str = BOARD_FILE) -> BoardRules:
    """``BoardRules`` from a parsed board document; ``where`` names it in errors."""
    from ..model.tactical import BoardRules
    reader = _Reader(where)
    geometry = reader.table(doc, "geometry")
    columns = reader.number(geometry, "geometry.columns", 1, 26)
    rows = reader.number(geometry, "geometry.rows", 2, MAX_SIDE)
    per_side = reader.number(geometry, "geometry.rows_per_side", 1, MAX_SIDE)
    if per_side * 2 != rows:
        raise DataError(f"{where}: geometry.rows_per_side ({per_side}) must be half of geometry.rows ({rows})")
    deploy = reader.number(geometry, "geometry.deploy_rows", 1, per_side)
    mine_rows = reader.pair(geometry, "geometry.mine_rows", 1, per_side)
    movement = reader.table(doc, "movement")
    points = reader.number(movement, "movement.points", 0, MAX_SIDE)
    if movement.get("orthogonal_only") is not True:
        raise DataError(f"{where}: movement.orthogonal_only must be true (the only movement the engine plays)")
    fire = reader.table(doc, "fire")
    to_hit = fire.get("to_hit")
    if (not isinstance(to_hit, list) or not 1 <= len(to_hit) <= MAX_SIDE
            or not all(isinstance(n, int) and 1 <= n <= 6 for n in to_hit)):
        raise DataError(f"{where}: fire.to_hit must be a list of rolls 1..6 by gap")
    cap = reader.number(fire, "fire.battle_turn_cap", 1, 1000)
    units = reader.table(doc, "units")
    if not units or len(units) > MAX_KINDS:
        raise DataError(f"{where}: [units] must list 1..{MAX_KINDS} kinds")
    kinds = {key: reader.kind(key, entry, per_side) for key, entry in units.items()}
    mines = reader.table(doc, "mines")
    if not all(isinstance(v, str) and k in ("land", "sea") for k, v in mines.items()):
        raise DataError(f"{where}: [mines] maps 'land' and 'sea' to a mine's name")
    rows_of = {"front": (1, deploy), "guns": (1, deploy), "mines": mine_rows}
    formations = {key: reader.formation(key, entry, columns, rows_of)
                  for key, entry in reader.table(doc, "formations").items()}
    listed = doc.get("ruling", [])
    rulings = tuple((str(r.get("key", "")), str(r.get("text", "")))
                    for r in (listed if isinstance(listed, list) else []) if isinstance(r, dict))
    return BoardRules(columns=columns, rows=rows, rows_per_side=per_side, deploy_rows=deploy,
                      mine_rows=mine_rows, move_points=points, to_hit=tuple(to_hit),
                      battle_turn_cap=cap, kinds=kinds, mines=dict(mines),
                      formations=formations, rulings=rulings,
                      version=reader.number(doc, "version", 1, 1000),
                      title=str(doc.get("title", "")),
                      interpreter=reader.number(doc, "interpreter", 1, 1000))


class _Reader:
    def __init__(self, where: str):
        self.where = where

    def table(self, doc: dict, key: str) -> dict:
        value = doc.get(key)
        if not isinstance(value, dict):
            raise DataError(f"{self.where}: [{key}] is missing or not a table")
        return value

    def number(self, table: dict, name: str, low: int, high: int) -> int:
        value = table.get(name.rpartition(".")[2])
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise DataError(f"{self.where}: {name} must be a whole number from {low} to {high}, not {value!r}")
        return value

    def pair(self, table: dict, name: str, low: int, high: int) -> tuple[int, int]:
        value = table.get(name.rpartition(".")[2])
        if (not isinstance(value, list) or len(value) != 2
                or not all(isinstance(n, int) and low <= n <= high for n in value) or value[0] > value[1]):
            raise DataError(f"{self.where}: {name} must be [first, last] rows within {low}..{high}")
        return value[0], value[1]

    def kind(self, key: str, entry: Any, per_side: int) -> PieceKind:
        from ..model.tactical import ZONES, PieceKind
        name = f"units.{key}"
        if not isinstance(entry, dict):
            raise DataError(f"{self.where}: [{name}] is not a table")
        zone = entry.get("zone", "line")
        if zone not in ZONES:
            raise DataError(f"{self.where}: {name}.zone '{zone}' is none of {', '.join(ZONES)}")
        battle = entry.get("battle")
        if battle not in ("land", "sea"):
            raise DataError(f"{self.where}: {name}.battle must be 'land' or 'sea'")
        hit = self.number(entry, f"{name}.hit", 0, 6) if "hit" in entry else 0
        if zone != "line" and not hit:
            raise DataError(f"{self.where}: {name} fires by zone and needs a fixed 'hit' roll 1..6")
        rank = self.number(entry, f"{name}.rank", 0, 20) if "rank" in entry else 0
        confined = (self.pair(entry, f"{name}.confined", 1, per_side)
                    if "confined" in entry else None)
        short = entry.get("short", key[:2].upper())
        if not isinstance(short, str) or len(short) != 2:
            raise DataError(f"{self.where}: {name}.short must be two letters")
        return PieceKind(key=key, name=str(entry.get("name", key)), battle=battle, short=short,
                         shots=self.number(entry, f"{name}.shots", 1, 20), zone=zone,
                         rank=rank, hit=hit, confined=confined,
                         fires_through=bool(entry.get("fires_through", False)),
                         holds_ground=bool(entry.get("holds_ground", True)))

    def formation(self, key: str, entry: Any, columns: int,
                  rows_of: dict[str, tuple[int, int]]) -> Formation:
        from ..model.tactical import Formation
        if not isinstance(entry, dict):
            raise DataError(f"{self.where}: [formations.{key}] is not a table")
        lists = {}
        for part, (low, high) in rows_of.items():
            squares = entry.get(part, [])
            if not isinstance(squares, list):
                raise DataError(f"{self.where}: formations.{key}.{part} must be a list of squares")
            bad = [s for s in squares if not isinstance(s, str) or not _OWN_SQUARE.match(s)
                   or ord(s[0]) - 65 >= columns or not low <= int(s[1:]) <= high]
            if bad or len(set(squares)) != len(squares):
                raise DataError(f"{self.where}: formations.{key}.{part} must list distinct own squares "
                                f"in rows {low}-{high} such as 'G{high}' "
                                f"(bad: {', '.join(map(str, bad)) or 'a repeated square'})")
            lists[part] = tuple(squares)
        return Formation(key=key, front=lists["front"], guns=lists["guns"], mines=lists["mines"])
