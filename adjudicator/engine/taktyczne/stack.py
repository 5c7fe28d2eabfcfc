"""The 12-point stack (L19.17): the units in an area are worth at most 12 points, each unit
its cost (L23.5) except ferries and carriers, worth 0 (L27.12, L27.15); units aboard a ferry
or carrier do not count towards the sea's total (L27.20)."""

from __future__ import annotations

STACK_LIMIT = 12        # L19.17 (game.toml option stack_limit)


def unit_value(game, unit_type: str) -> int:
    """A unit's points on the main map: its map value in the cost table, else its cost."""
    costs = game.costs
    if costs is not None and unit_type in costs.units:
        return costs.units[unit_type].map_value
    return game.ruleset.units[unit_type].cost


def stack_limit(game) -> int:
    return int(game.ruleset.option("stack_limit", STACK_LIMIT))


def stack_points(ctx, space: str) -> int:
    """The points the units in ``space`` are worth now (cargo not counted)."""
    return sum(unit_value(ctx.game, p.type) for p in ctx.board.on_board(space))
