"""Axis & Allies Europe's pre-game special cash (digest §1.4 [L250-L251], §9.1).

Before round 1, after the setup, each side gets a one-time sum (option ``special_cash``,
12): Germany its own, the Allies one pot to share.  The edition lists two pre-game steps
(``[turn] pregame``), played by each power in turn order in round 0 (``engine.turn``):

* ``special_cash_purchase``: the power buys with what is left of its side's pot (``buy``);
* ``special_cash_placement``: it places them (``place``) on land or at sea where it already
  has a unit, no factory needed [L250]; units not placed are refunded to the pot.  Then
  it keeps what its ``keep <n>`` orders say for turn 1, and the last power of a side in
  turn order (Germany; the United States for the Allies) keeps whatever is left of the
  pot: it is added to its IPCs for turn 1 [L251] (``SpecialCashKept``).

What each power took from its side's pot (spent or kept) is the per-power state
``special_cash_taken``.  Only ``buy``, ``place``, ``keep`` and standing orders belong in a
pre-game turn; rule ``special_cash`` refuses ``keep`` in the other rounds.
"""

from __future__ import annotations

from ..model.events import Placed, Refunded, SpecialCashKept, SpecialCashOffered
from ..model.orders import StandingChoice
from ..model.units import Domain
from .context import TurnContext
from .production import (factory_problem, not_pending, ordered_purchase, purchase_cost, purchases,
                         record_purchase)
from .steps import step
from .turn_rules import Rule, declare_state, register_rule

TAKEN = declare_state("special_cash_taken", int, per_power=True)
PREGAME_KINDS = frozenset({"buy", "place", "keep", "defend", "nmr", "concede"})


def _side_powers(ctx: TurnContext) -> list[str]:
    rules = ctx.board.rules
    side = rules.side_of(ctx.power)
    return [p for p in rules.turn_order if rules.side_of(p) == side]


def pot_left(ctx: TurnContext) -> int:
    """What is left of the phasing power's side's special cash."""
    total = int(ctx.board.rules.option("special_cash", 0))
    return total - sum(ctx.board.read_state(TAKEN, p, 0) for p in _side_powers(ctx))


def _take(ctx: TurnContext, amount: int) -> None:
    board = ctx.board
    board.write_state(TAKEN, board.read_state(TAKEN, ctx.power, 0) + amount, ctx.power)


@step("special_cash_purchase")
def special_cash_purchase(ctx: TurnContext, dice) -> None:
    """Buy with what is left of the side's special cash (orders other than buy, place, keep
    and standing orders are refused in the pre-game round)."""
    for order in ctx.orders.items:
        if order.kind not in PREGAME_KINDS and not isinstance(order, StandingChoice):
            ctx.error(getattr(order, "line", 0), "not_in_pregame", kind=order.kind)
    ctx.emit(SpecialCashOffered(ctx.power, pot_left(ctx)))
    wanted, line = ordered_purchase(ctx)
    if not wanted:
        return
    cost = purchase_cost(ctx, wanted, line)
    if cost is None:
        return
    have = pot_left(ctx)
    if cost > have:
        ctx.error(line, "special_cash_too_little", cost=cost, ipcs=have, power=ctx.power)
        return
    _take(ctx, cost)
    record_purchase(ctx, wanted, cost, have - cost)


def _placement_problem(ctx: TurnContext, unit_type: str, space: str, present: set[str]) -> str | None:
    board = ctx.board
    ut = board.rules.units[unit_type]
    t = board.map[space]
    why = not_pending(ctx, unit_type)
    if why:
        return why
    if space not in present:
        return "special_cash_no_unit_there"
    if ut.has("factory"):
        return factory_problem(ctx, unit_type, space)
    if t.is_land and ut.domain == Domain.SEA or t.is_sea and ut.domain != Domain.SEA:
        return "special_cash_wrong_domain"
    return None


@step("special_cash_placement")
def special_cash_placement(ctx: TurnContext, dice) -> None:
    """Place the special-cash units where the power had a unit before placing [L250]; refund
    what is not placed to the pot; then the power keeps its share for turn 1 [L251]."""
    board = ctx.board
    present = {p.space for p in board.pieces.values() if p.owner == ctx.power}
    bought = purchases(ctx)
    for order in ctx.orders.places:
        placed: dict[str, int] = {}
        for group in order.units:
            for _ in range(group.count):
                why = _placement_problem(ctx, group.type, order.space, present)
                if why:
                    ctx.error(order.line, why, unit=group.type, space=order.space)
                    break
                board.add_new(group.type, ctx.power, order.space).moved_in.add("place")
                bought.pending[group.type] -= 1
                placed[group.type] = placed.get(group.type, 0) + 1
        if placed:
            ctx.emit(Placed(ctx.power, dict(sorted(placed.items())), order.space))
    left = {k: n for k, n in bought.pending.items() if n > 0}
    if left:
        refund = sum(board.rules.units[k].cost * n for k, n in left.items())
        _take(ctx, -refund)
        bought.pending = {}
        ctx.emit(Refunded(ctx.power, left, refund))
        if ctx.checking:
            ctx.warn(0, "special_cash_not_placed", units=left, ipcs=refund)
    _keep(ctx)


def _keep(ctx: TurnContext) -> None:
    """Add what the power keeps of its side's pot to its IPCs for turn 1: what its ``keep``
    orders say, or, for the side's last power, all that is left [L251]."""
    board = ctx.board
    orders = ctx.orders.of("keep")
    last = _side_powers(ctx)[-1] == ctx.power
    kept = 0
    for order in orders:
        if order.amount > pot_left(ctx) - kept:
            ctx.error(order.line, "special_cash_keep_too_much", amount=order.amount,
                      ipcs=pot_left(ctx) - kept)
        else:
            kept += order.amount
    if last:
        kept = pot_left(ctx)
    if not (kept or orders or last):
        return
    economy = board.rules.powers[ctx.power].economy.key
    _take(ctx, kept)
    board.ipcs[economy] = board.ipcs.get(economy, 0) + kept
    ctx.emit(SpecialCashKept(ctx.power, kept, board.ipcs.get(economy, 0)))


@register_rule
class SpecialCash(Rule):
    name = "special_cash"
    doc = "'keep' (the special cash kept for turn 1) belongs to the pre-game round only."

    def at_step(self, ctx, point, step):
        # a turn of rounds 1+ starts with the edition's first step (round 0 runs its pregame)
        if point == "start" and step == ctx.board.rules.plan.steps[0]:
            for order in ctx.orders.of("keep"):
                ctx.error(order.line, "keep_not_in_pregame")
