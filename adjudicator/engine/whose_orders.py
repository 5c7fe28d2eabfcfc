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
    """The other power whose orders ``orders`` look like, or None.  Moves and loads are
    compared with the board at the start of the turn: one that the power to move could
    make means the orders are its own; one whose units nobody has there tells nothing (they
    may get there during the turn); every other one names the powers that have its units.
    Foreign orders are at least ``MIN_MOVES`` such moves, all of one other power."""
    candidates: set[str] | None = None
    telling = 0
    for order in orders.of("move", "load"):
        space = order.path[0] if order.kind == "move" else order.origin
        counts = _counts_at(state, space)

        def has_all(power: str) -> bool:
            return all(counts[(power, g.type)] >= g.count for g in order.units)
        if has_all(state.power):
            return None
        owners = {power for power in turn_order if power != state.power and has_all(power)}
        if not owners:
            continue
        telling += 1
        candidates = owners if candidates is None else candidates & owners
        if not candidates:
            return None
    if telling < MIN_MOVES or candidates is None or len(candidates) != 1:
        return None
    return next(iter(candidates))
