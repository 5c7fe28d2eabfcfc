"""The game state between turns: who owns what, where every unit is, who has which IPCs.

A ``GameState`` is a plain value.  The engine never mutates one; it builds a new one.
Units are stored individually (``Unit``), grouped only when written to a file.
"""

from __future__ import annotations

from collections import Counter

import attrs

from .orders import StandingOrders


@attrs.frozen
class Unit:
    """One piece on the board.  ``cargo`` holds what a transport or carrier is carrying;
    ``loaded_this_turn`` is never persisted (cargo is loaded on the owner's turn)."""

    type: str
    owner: str
    cargo: tuple["Unit", ...] = ()

    def with_cargo(self, cargo: tuple["Unit", ...]) -> "Unit":
        return attrs.evolve(self, cargo=tuple(cargo))


@attrs.frozen
class GameState:
    game_id: str
    map_id: str
    round: int                              # 1-based game round
    power: str                              # whose turn is next
    owners: dict[str, str]                  # land territory -> controlling power (absent: neutral)
    units: dict[str, tuple[Unit, ...]]      # space -> units there (empty spaces omitted)
    ipcs: dict[str, int]                    # power -> unspent IPCs
    standing_orders: dict[str, StandingOrders] = attrs.field(factory=dict)  # power -> its standing orders
    winner: str | None = None               # side that has won, once decided
    turn_number: int = 1                    # 1-based count of power-turns played so far + 1

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
