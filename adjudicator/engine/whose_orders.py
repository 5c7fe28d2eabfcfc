"""Orders sent on the wrong power's turn, recognised by the units they move.

A file without a ``power:`` header cannot say whose it is, so a player who sends his orders
on another power's turn would get one "none of yours is there" error per move.  When every
move and load names units that the power whose turn it is does not have at its start, and
one other power has them all, the orders are that power's: the turn is refused with one
error saying so instead.
"""

from __future__ import annotations

from collections import Counter

from ..model.orders import OrderSet
from ..model.state import GameState

MIN_MOVES = 2        # one move is one error anyway; two or more make the pattern clear


def _counts_at(state: GameState, space: str) -> Counter:
    """(owner, type) -> count of the units in ``space``, cargo included."""
    counts: Counter = Counter()
    for unit in state.units_at(space):
        counts[(unit.owner, unit.type)] += 1
        for carried in unit.cargo:
            counts[(carried.owner, carried.type)] += 1
    return counts


def foreign_owner(state: GameState, orders: OrderSet, turn_order: tuple[str, ...]) -> str | None:
    """The other power whose orders ``orders`` look like, or None.  Only moves and loads
    count (their start is where the units must be); any of them that the power to move can
    make, or one that no single other power could, means the orders are not foreign."""
    movements = [(o.path[0] if o.kind == "move" else o.origin, o.units)
                 for o in orders.of("move", "load")]
    if len(movements) < MIN_MOVES:
        return None
    candidates: set[str] | None = None
    for space, groups in movements:
        counts = _counts_at(state, space)
        if all(counts[(state.power, g.type)] >= g.count for g in groups):
            return None
        owners = {owner for owner in turn_order if owner != state.power
                  and all(counts[(owner, g.type)] >= g.count for g in groups)}
        candidates = owners if candidates is None else candidates & owners
        if not candidates:
            return None
    return min(candidates, key=turn_order.index) if len(candidates) == 1 else None
