"""Taktyczne Starcie's mines on the main map and their sealed board layouts
(docs/taktyczne-mines.md).

* ``mine_types`` / ``placement_problem``: mine tokens are bought at the start of the turn
  on any own territory (L27.24, G27): an anti-tank mine on a land area the buyer holds, an
  underwater mine in a sea bordering one (ruling ``mine_sea_where``) with no other player's
  units; they then move like units (L27.25, ``main_turn``) and count 1 point in the stack.
"""

from __future__ import annotations

from ...model.units import Domain
from . import plans


def mine_types(ctx) -> frozenset[str]:
    """The unit types that are mines: the battle board's mine of each battle."""
    rules = plans.board_rules(ctx)
    return frozenset(rules.mines.values()) if rules is not None else frozenset()


def placement_problem(ctx, unit_type, space: str) -> tuple[str, dict] | None:
    """Why ``ctx.power`` cannot place a new mine of ``unit_type`` in ``space`` (L27.24), or
    None: his own land area for an anti-tank mine; a sea bordering his land, without other
    players' units, for an underwater mine."""
    board, power = ctx.board, ctx.power
    where = {"space": space, "unit": unit_type.key}
    if unit_type.domain == Domain.SEA:
        coast = any(board.owners.get(land) == power and board.map[land].is_land
                    for land in board.map.neighbours(space))
        if not board.map[space].is_sea or not coast or any(
                p.owner != power for p in board.on_board(space)):
            return "ts_mine_where", where
        return None
    if not board.map[space].is_land or board.owners.get(space) != power:
        return "ts_mine_where", where
    return None
