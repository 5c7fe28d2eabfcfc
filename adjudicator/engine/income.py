"""Collect income: an itemised pipeline of income items per economy (digest 1941 §5.6,
Spring 1942 §5.8).  The edition lists its items (``TurnPlan.income``); each item is a
function here (or in a plug-in) of an :class:`IncomeContext` -- the game, the owners, the
power, and while a turn is played the turn context and its dice -- returning an amount for
the power's first economy, or ``[(economy, amount), ...]`` to pay named economies.  Every
line is recorded in an event: ``IncomeCollected`` for the first economy (its ``items``),
``EconomyIncome`` for each other economy paid; the report only reads them.  No income is
collected while the power's capital is in enemy hands (an edition whose capitals are drawn
in the game, ``capitals = "drawn"``, leaves that to its items).

An item that rolls dice (``inc.roll``) cannot be foreseen: it is left out of
``projected_income`` (what reports show as a power's income before collecting), unless it
is registered with ``projected=False`` -- the default, ``projected=True``, says the item
depends only on the board."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import attrs

from ..model.events import EconomyIncome, IncomeCollected
from ..model.game import Game
from .context import TurnContext


@attrs.define
class IncomeContext:
    """What an income item sees.  ``ctx`` and ``dice`` are None when income is projected
    (reports), which gives ``extras`` instead (the state's edition values, as
    ``GameState.extras``); ``dice`` is None when orders are only checked."""

    game: Game
    owners: Mapping[str, str]
    power: str
    ctx: TurnContext | None = None
    dice: Any = None
    extras: Mapping[str, Any] = attrs.field(factory=dict)

    def read_state(self, key: str, default=None):
        """An edition value of the state: the turn's board's, else the projected state's."""
        if self.ctx is not None:
            return self.ctx.board.read_state(key, default=default)
        return self.extras.get(key, default)

    @property
    def economies(self) -> tuple[str, ...]:
        """The keys of the power's economies, its first (main) one first."""
        power = self.game.ruleset.powers[self.power]
        return tuple(e.key for e in power.economies) or (power.economy.key,)

    def roll(self, n: int, label: str) -> tuple[int, ...]:
        """``n`` dice for this item (none when checking or projecting)."""
        if n <= 0:
            return ()
        if self.ctx is not None:
            self.ctx.mode_dependent = True      # no dice when checking: the modes differ
        if self.dice is None:
            return ()
        return tuple(self.dice.roll(n, label))


Item = Callable[[IncomeContext], "int | Iterable[tuple]"]
ITEMS: dict[str, Item] = {}
PROJECTED: set[str] = set()       # items that depend only on the board


def item(name: str, projected: bool = True):
    """Decorator: register an income item under ``name``."""
    def wrap(fn: Item) -> Item:
        ITEMS[name] = fn
        if projected:
            PROJECTED.add(name)
        else:
            PROJECTED.discard(name)
        return fn
    return wrap


@item("territories")
def territories(inc: IncomeContext) -> int:
    """The IPC values of the spaces ``power`` controls (sea zones with a value too)."""
    return inc.game.territory_value(inc.owners, inc.power)


def _lines(inc: IncomeContext, name: str) -> list[tuple[str, str, int]]:
    """``[(economy, item, amount)]`` of one item.  An item may name its own lines: each
    ``(economy, label, amount)`` it returns is a line called ``label`` (one per national
    objective)."""
    found = ITEMS[name](inc)
    if isinstance(found, int):
        return [(inc.economies[0], name, found)]
    return [(entry[0], entry[1], entry[2]) if len(entry) == 3 else (entry[0], name, entry[1])
            for entry in found]


def income_lines(inc: IncomeContext, names: Iterable[str] | None = None) -> list[tuple[str, str, int]]:
    """Every line of ``inc.power``'s income: ``[(economy, item, amount)]``."""
    out: list[tuple[str, str, int]] = []
    for name in inc.game.ruleset.plan.income if names is None else names:
        out += _lines(inc, name)
    return out


def projected_income(game: Game, owners: Mapping[str, str], power: str,
                     extras: Mapping[str, Any] | None = None) -> int:
    """What ``power`` would collect with ``owners`` in control (its capital held) and the
    state's edition values ``extras``, from the items that depend only on the board: what
    reports show as a power's income.  An owner that does not play (a nation) has none."""
    if power not in game.ruleset.powers:
        return 0
    inc = IncomeContext(game, owners, power, extras=extras or {})
    return sum(a for _, _, a in income_lines(
        inc, [n for n in game.ruleset.plan.income if n in PROJECTED]))


def income_items(game: Game, owners: Mapping[str, str], power: str) -> tuple[tuple[str, int], ...]:
    """``((item, amount), ...)`` of ``power``'s projected income with ``owners`` in control."""
    inc = IncomeContext(game, owners, power)
    return tuple((n, a) for _, n, a in income_lines(
        inc, [n for n in game.ruleset.plan.income if n in PROJECTED]))


def income(game: Game, owners: Mapping[str, str], power: str) -> int:
    """What ``power`` would collect with ``owners`` in control (its capital held)."""
    return projected_income(game, owners, power)


def collect_income(ctx: TurnContext, dice: Any = None) -> None:
    board = ctx.board
    power = ctx.power
    economy = board.rules.powers[power].economy.key
    if board.rules.powers[power].capital and not board.capital_held_by_owner(power):
        ctx.emit(IncomeCollected(power, 0, board.ipcs.get(economy, 0), "capital_lost"))
        return
    lines = income_lines(IncomeContext(ctx.game, board.owners, power, ctx, dice))
    paid: dict[str, list[tuple[str, int]]] = {economy: []}
    for key, name, amount in lines:
        paid.setdefault(key, []).append((name, amount))
    for key, items in paid.items():
        amount = sum(a for _, a in items)
        board.ipcs[key] = board.ipcs.get(key, 0) + amount
        if key == economy:
            ctx.emit(IncomeCollected(power, amount, board.ipcs[key], "", tuple(items)))
        else:
            ctx.emit(EconomyIncome(power, key, amount, board.ipcs[key], tuple(items)))
