"""The game state between turns: who owns what, where every unit is, who has which IPCs.

A ``GameState`` is a plain value.  The engine never mutates one; it builds a new one.
Units are stored individually (``Unit``), grouped only when written to a file.

Editions extend the state without new fields: a unit carries ``damage`` (hits or damage
points it has taken that persist, e.g. a factory's bombing damage) and ``flags`` (named
marks that persist between turns), ``relations`` overrides
the war/allied relation the sides imply (``"a|b"`` with the keys sorted), and ``extras``
holds per-edition values (plain JSON-able data, e.g. tokens or history) under named keys
(written by the engine through ``WorkingBoard.write_state``: per edition, or per power
under the key as ``{power: value}``).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import attrs

from .reprs import attrs_repr
from .standing_orders import StandingOrders


@attrs.frozen(repr=False)
class Unit:
    """One piece on the board.  ``cargo`` holds what a transport or carrier is carrying;
    ``flags`` the persistent per-unit marks an edition's rules set (sorted names, e.g.
    "submerged", "frozen"; written by the engine through ``WorkingBoard.set_flag``)."""

    __repr__ = attrs_repr
    type: str
    owner: str
    cargo: tuple["Unit", ...] = ()
    damage: int = 0
    flags: tuple[str, ...] = ()

    def with_cargo(self, cargo: tuple["Unit", ...]) -> "Unit":
        return attrs.evolve(self, cargo=tuple(cargo))


@attrs.frozen(repr=False)
class GameState:
    __repr__ = attrs_repr
    game_id: str
    map_id: str
    round: int                              # 1-based game round
    power: str                              # whose turn is next
    owners: dict[str, str]                  # land territory -> controlling power (absent: neutral)
    units: dict[str, tuple[Unit, ...]]      # space -> units there (empty spaces omitted)
    ipcs: dict[str, int]                    # economy (= power key by default) -> unspent IPCs
    standing_orders: dict[str, StandingOrders] = attrs.field(factory=dict)  # power -> its standing orders
    winner: str | None = None               # side that has won, once decided
    turn_number: int = 1                    # 1-based count of power-turns played so far + 1
    relations: dict[str, str] = attrs.field(factory=dict)   # "a|b" -> "war"/"allied"/"neutral"
    extras: dict[str, Any] = attrs.field(factory=dict)      # per-edition data, JSON-able

    def units_at(self, space: str) -> tuple[Unit, ...]:
        return self.units.get(space, ())

    def owner(self, territory: str) -> str | None:
        return self.owners.get(territory)

    def unit_counts(self, include_cargo: bool = True) -> Counter:
        """Counter of (owner, type) over the whole board."""
        counts: Counter = Counter()
        for units in self.units.values():
            for unit in units:
                counts[(unit.owner, unit.type)] += 1
                if include_cargo:
                    for c in unit.cargo:
                        counts[(c.owner, c.type)] += 1
        return counts
