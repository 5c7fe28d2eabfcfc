"""Taktyczne Starcie's main game as values: the invented main map (both of the text's
relations), the cost table (the text's costs and the house costs), a drawn setup, and the
setup's events (codes and parameters; the words are in ``present.wording``).

"A Taktyczne Starcie variant on an invented map with house costs": the data is read from
``maps/taktyczne/map.toml`` and ``units.toml`` (``io.taktyczne_data``); the battle board is
``model.tactical``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

import attrs

from .board import GameMap
from .events import Event
from .tactical import BattlePlan, BoardEvent, BoardForce

LABEL = "a Taktyczne Starcie variant on an invented map with house costs"

Rulings = tuple[tuple[str, str], ...]


@attrs.frozen
class MainMap:
    """The main map: ``game_map`` holds the areas and the bordering relation (its
    adjacency; the coasts are its land-sea pairs), ``tangent`` the areas touching at a single
    point only (L15), ``cells`` the drawing both relations come from."""

    title: str
    version: int
    game_map: GameMap
    tangent: Mapping[str, frozenset[str]]
    cells: tuple[tuple[str, ...], ...]
    rulings: Rulings = ()

    @property
    def land(self) -> tuple[str, ...]:
        return tuple(sorted(t.key for t in self.game_map.land()))

    @property
    def seas(self) -> tuple[str, ...]:
        return tuple(sorted(t.key for t in self.game_map.seas()))

    def bordering(self, area: str) -> frozenset[str]:
        return self.game_map.neighbours(area)

    def tangent_to(self, area: str) -> frozenset[str]:
        return self.tangent.get(area, frozenset())

    def touching(self, area: str) -> frozenset[str]:
        """Bordering or tangent: a capital's exclusion zone (L19.11) and a nuclear blast's
        reach (L19.59)."""
        return self.bordering(area) | self.tangent_to(area)

    def coasts(self, land: str) -> tuple[str, ...]:
        """The seas a land area borders: where a shipyard there may stand (L27.5, L27.8)."""
        return tuple(self.game_map.coastal_zones(land))


@attrs.frozen
class UnitCost:
    """What one unit costs, which is also its value on the main map (L23.5).  ``house``:
    the seed does not give it (its unit page is missing); ``source`` the text's reference or
    the ruling's key; ``reason`` why this number."""

    key: str
    name: str
    cost: int
    house: bool
    source: str
    reason: str = ""
    value: int | None = None          # the map value when it differs from the cost (ferry, carrier)

    @property
    def map_value(self) -> int:
        return self.cost if self.value is None else self.value


@attrs.frozen
class ObjectPrice:
    """An object's price: ``base`` for the first in an area, ``step`` more for each one
    already there; ``per`` says what is counted (``area``, or ``area_sea`` for shipyards,
    counted separately for each sea the area borders, L27.8).  ``free_in_capital``: the first
    one in a player's capital is given at the start, and the next costs as the second
    elsewhere (the factory, L19.14, L27.7)."""

    key: str
    name: str
    base: int
    step: int
    per: str
    house: bool
    source: str
    reason: str = ""
    free_in_capital: bool = False


@attrs.frozen
class CostTable:
    title: str
    version: int
    units: Mapping[str, UnitCost]
    objects: Mapping[str, ObjectPrice]
    start_points: int
    rulings: Rulings = ()


@attrs.frozen
class Setup:
    """A drawn start: the turn order, each player's capital, points and the free factory
    in the capital (L19.1-L19.14)."""

    order: tuple[str, ...]
    capitals: Mapping[str, str]
    points: Mapping[str, int]
    factories: Mapping[str, str]


# --------------------------------------------------------------------------- setup events

@attrs.frozen
class SetupEvent(Event):
    """An event of the drawn start: kept in the pregame's turn file like any event."""

    kind: ClassVar[str] = "setup_event"


@attrs.frozen
class OrderRolled(SetupEvent):
    """One round of the turn-order roll among ``players`` (a later round re-rolls a tie)."""

    kind: ClassVar[str] = "ts_order_rolled"
    round: int
    rolls: tuple[tuple[str, int], ...]


@attrs.frozen
class TurnOrderSet(SetupEvent):
    kind: ClassVar[str] = "ts_turn_order"
    order: tuple[str, ...]


@attrs.frozen
class CapitalRolled(SetupEvent):
    """Two dice naming an area; ``outcome`` ``capital``, or why the player rolls again:
    ``taken`` (another player drew it first, L19.10) or ``near`` (it borders or touches
    ``other``'s capital, L19.11)."""

    kind: ClassVar[str] = "ts_capital_rolled"
    player: str
    dice: tuple[int, int]
    area: str
    outcome: str
    other: str = ""


@attrs.frozen
class CapitalAssigned(SetupEvent):
    """The house cap on re-rolls reached: the player takes the lowest free area (ruling
    ``draw_cap``; with this map's figures it practically never happens)."""

    kind: ClassVar[str] = "ts_capital_assigned"
    player: str
    area: str
    rolls: int


@attrs.frozen
class StartGranted(SetupEvent):
    """The start a player gets: the points (L19.12) and the free factory in the capital
    (L19.14, L27.7)."""

    kind: ClassVar[str] = "ts_start_granted"
    player: str
    points: int
    factory: str


# --------------------------------------------------------------------------- main-turn events

@attrs.frozen
class BoardBattleFought(Event):
    """A battle of the main map fought on the tactical board (L31): who attacked ``area``
    (``board`` ``land`` or ``sea``), each side's force and the plan it used (side names
    ``model.tactical.ATTACKER``/``DEFENDER``), exactly the board's events in order, the
    winning power ("" for none), the battle turns played, and what each power lost on the
    main map (unit ids or types).  ``live``: played battle turn by battle turn by mail."""

    kind: ClassVar[str] = "ts_board_battle"
    area: str
    board: str
    attacker: str
    defender: str
    forces: tuple[tuple[str, BoardForce], ...]
    plans: tuple[tuple[str, BattlePlan], ...]
    board_events: tuple[BoardEvent, ...]
    winner: str
    turns: int
    losses: tuple[tuple[str, tuple[str, ...]], ...]
    live: bool = False


@attrs.frozen
class MainMapUnitsTaken(Event):
    """An area attacked that held only main-map units (L19.43-L19.44): empty ferries and
    carriers ``captured`` (the attacker's default, ruling capture_empty), loaded ferries and
    AA guns ``destroyed`` ({unit type: count})."""

    kind: ClassVar[str] = "ts_main_map_taken"
    area: str
    attacker: str
    defender: str
    captured: dict[str, int]
    destroyed: dict[str, int]


@attrs.frozen
class PlayerEliminated(Event):
    """``player`` has no unit and no area left (L19.49); ``by`` (who took his last area or
    unit) takes his ``points`` (L19.48, ruling G32)."""

    kind: ClassVar[str] = "ts_player_eliminated"
    player: str
    by: str
    points: int


@attrs.frozen
class TurnLimitReached(Event):
    """The tournament turn limit (option ``turn_limit``, ruling turn_limit): after round
    ``round`` the game ends; ``standings`` ``(player, land areas, points)`` best first;
    ``winner`` "" for a tie at the top (a draw)."""

    kind: ClassVar[str] = "ts_turn_limit"
    round: int
    standings: tuple[tuple[str, int, int], ...]
    winner: str


# --------------------------------------------------------------------------- economy events

@attrs.frozen
class UnitsRecruited(Event):
    """Units bought at the start of a turn and placed in ``space`` (L19.16, L27.2)."""

    kind: ClassVar[str] = "ts_recruited"
    power: str
    space: str
    units: tuple[tuple[str, int], ...]
    cost: int
    points_left: int


@attrs.frozen
class ObjectBuilt(Event):
    """An object (or a carrier) bought at the end of a turn (L19.16, L27.2-L27.8):
    ``what`` in ``space`` (a shipyard over the sea ``over``) for ``price`` points."""

    kind: ClassVar[str] = "ts_built"
    power: str
    what: str
    space: str
    price: int
    points_left: int
    over: str = ""
