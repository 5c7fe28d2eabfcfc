"""Collect income: an itemised pipeline of income items per economy (digest 1941 §5.6,
Spring 1942 §5.8).  The edition lists its items (``TurnPlan.income``); each item is a
function here returning an amount, and the ``IncomeCollected`` event records every line.
No income is collected while the power's capital is in enemy hands."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..model.events import IncomeCollected
from ..model.game import Game
from .context import TurnContext

ITEMS: dict[str, Callable[[Game, Mapping[str, str], str], int]] = {}


def item(name: str):
    def wrap(fn):
        ITEMS[name] = fn
        return fn
    return wrap


@item("territories")
def territories(game: Game, owners: Mapping[str, str], power: str) -> int:
    """The IPC values of the territories ``power`` controls."""
    return game.territory_value(owners, power)


def income_items(game: Game, owners: Mapping[str, str], power: str) -> tuple[tuple[str, int], ...]:
    """``((item, amount), ...)`` of ``power``'s income with ``owners`` in control."""
    return tuple((name, ITEMS[name](game, owners, power)) for name in game.ruleset.plan.income)


def income(game: Game, owners: Mapping[str, str], power: str) -> int:
    """What ``power`` would collect with ``owners`` in control (its capital held)."""
    return sum(amount for _, amount in income_items(game, owners, power))


def collect_income(ctx: TurnContext) -> None:
    board = ctx.board
    power = ctx.power
    economy = board.rules.powers[power].economy.key
    if not board.capital_held_by_owner(power):
        ctx.emit(IncomeCollected(power, 0, board.ipcs.get(economy, 0), "capital_lost"))
        return
    items = income_items(ctx.game, board.owners, power)
    amount = sum(a for _, a in items)
    board.ipcs[economy] = board.ipcs.get(economy, 0) + amount
    ctx.emit(IncomeCollected(power, amount, board.ipcs[economy], "", items))
