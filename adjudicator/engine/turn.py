"""One power's turn, adjudicated: ``adjudicate(game, state, orders, dice) -> TurnResult``.

Pure: no I/O, no clock, no global randomness.  The same inputs always give the same
result, which is what makes replay and audit exact.

Phases (digest §5): purchase, combat move, conduct combat, noncombat move, mobilize,
collect income; then standing orders are stored, victory is checked and the turn passes.
``check`` runs the same phases with battles settled optimistically (every attacking die
hits), so every order is validated against the position it will meet in the best case;
orders that battles made impossible are skipped (and reported) when the turn is played.
"""

from __future__ import annotations

import attrs

from . import aircraft

from . import battles

from . import movement

from . import production
from .context import Problem, TurnContext
from ..model.dice import DiceSource
from ..model.errors import PbemError
from ..model.events import Event, StandingOrdersChanged, TurnStarted, VictoryDeclared
from ..model.game import Game
from ..model.orders import DefenceOrder, OrderSet, StandingOrders
from ..model.state import GameState
from .working import WorkingBoard

__all__ = ["Problem", "TurnResult", "OrdersRejected", "check", "adjudicate", "planned_battles"]


@attrs.frozen
class TurnResult:
    state: GameState
    events: tuple[Event, ...]
    problems: tuple[Problem, ...] = ()


class OrdersRejected(PbemError):
    """The orders break the rules; ``problems`` lists every error (and warning)."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        errors = [p for p in problems if p.severity == "error"]
        super().__init__(f"{len(errors)} error(s) in the orders:\n" + "\n".join(str(p) for p in errors))


def check(game: Game, state: GameState, orders: OrderSet) -> list[Problem]:
    """Every problem with ``orders`` for the power whose turn it is (no errors: valid)."""
    ctx = _play(game, state, orders, None)
    return sorted(ctx.problems, key=lambda p: (p.line, p.severity))


def adjudicate(game: Game, state: GameState, orders: OrderSet, dice: DiceSource) -> TurnResult:
    """Play the turn.  Raises ``OrdersRejected`` if ``check`` finds any error."""
    problems = check(game, state, orders)
    if any(p.severity == "error" for p in problems):
        raise OrdersRejected(problems)
    ctx = _play(game, state, orders, dice)
    return TurnResult(_final_state(ctx, state), tuple(ctx.events), tuple(problems))


def planned_battles(game: Game, state: GameState, orders: OrderSet) -> list:
    """The combat engine's setups for every battle the orders' combat moves would start."""
    ctx = _context(game, state, orders, None)
    if not _preflight(ctx, state):
        return []
    production.purchase(ctx)
    for order in orders.combat:
        movement.run_order(ctx, order)
    return battles.planned_setups(ctx)


def _preflight(ctx: TurnContext, state: GameState) -> bool:
    if state.winner is not None:
        ctx.error(0, f"the game is over: the {state.winner} have won")
        return False
    if ctx.orders.power is not None and ctx.orders.power != state.power:
        ctx.error(0, f"it is {ctx.name(state.power)}'s turn, these orders are for "
                     f"{ctx.name(ctx.orders.power)}")
        return False
    return True


def _context(game: Game, state: GameState, orders: OrderSet, dice: DiceSource | None) -> TurnContext:
    ctx = TurnContext(game, WorkingBoard(game, state), orders, "check" if dice is None else "play",
                      standing_orders=dict(state.standing_orders))
    ctx.hostile_at_start = battles.start_hostile_zones(ctx)
    return ctx


def _play(game: Game, state: GameState, orders: OrderSet, dice: DiceSource | None) -> TurnContext:
    ctx = _context(game, state, orders, dice)
    board = ctx.board
    if not _preflight(ctx, state):
        return ctx
    ctx.emit(TurnStarted(state.power, state.round, board.ipcs.get(state.power, 0)))
    production.purchase(ctx)
    for order in orders.combat:
        movement.run_order(ctx, order)
    aircraft.check_combat_moves(ctx)
    _check_directives(ctx)
    battles.conduct_combat(ctx, dice)
    for order in orders.noncombat:
        movement.run_order(ctx, order)
    production.mobilize(ctx)
    aircraft.land_aircraft(ctx)
    production.collect_income(ctx)     # nothing (and says why) while the capital is held
    _store_standing_orders(ctx)
    return ctx


def _check_directives(ctx: TurnContext) -> None:
    """Battle lines must name a battle the combat moves start, and a retreat destination
    the rules allow (an adjacent space an attacking unit came from)."""
    board = ctx.board
    for directive in ctx.orders.battles:
        space = directive.space
        if not battles.battle_needed(ctx, space):
            ctx.warn(directive.line, f"no battle in {space} follows from your combat moves; "
                                     "this directive has no effect")
            continue
        attackers, _ = battles.participants(ctx, space)
        legal = battles.retreat_options(ctx, space, attackers)
        for cond in directive.retreat:
            if cond.destination is None or cond.destination in legal:
                continue
            if not board.map.adjacent(space, cond.destination):
                ctx.error(directive.line, f"retreat destination {cond.destination} is not adjacent to {space}")
            elif legal and legal != (space,):
                ctx.warn(directive.line, f"no attacking unit comes from {cond.destination}, so "
                                         f"the retreat will go to {legal[0]} instead "
                                         f"(legal: {', '.join(legal)})")
            else:
                ctx.warn(directive.line, f"units attacking {space} cannot retreat to "
                                         f"{cond.destination}; only aircraft can break off")


def _store_standing_orders(ctx: TurnContext) -> None:
    if not ctx.orders.defences:
        return
    power = ctx.power
    old = ctx.standing_orders.get(power, StandingOrders())
    replaced = {d.space for d in ctx.orders.defences}
    kept = tuple(d for d in old.defences if d.space not in replaced)
    new = tuple(DefenceOrder(d.space, d.loss_order, d.submerge) for d in ctx.orders.defences)
    ctx.standing_orders[power] = StandingOrders(kept + new)
    ctx.emit(StandingOrdersChanged(power, len(ctx.orders.defences)))


def _victory(ctx: TurnContext) -> str | None:
    board = ctx.board
    for rule in board.rules.victory:
        if rule.check_after != ctx.power:
            continue
        held = tuple(c for c in rule.capitals
                     if board.rules.powers.get(board.owners.get(c, ""), None) is not None
                     and board.rules.side_of(board.owners[c]) == rule.side)
        if len(held) >= rule.count:
            ctx.emit(VictoryDeclared(rule.side, held))
            return rule.side
    return None


def _final_state(ctx: TurnContext, state: GameState) -> GameState:
    board = ctx.board
    winner = _victory(ctx)
    order = board.rules.turn_order
    index = order.index(state.power)
    next_power = order[(index + 1) % len(order)]
    next_round = state.round + (1 if index + 1 == len(order) else 0)
    return GameState(
        game_id=state.game_id, map_id=state.map_id, round=next_round, power=next_power,
        owners=dict(sorted(board.owners.items())), units=board.to_units(),
        ipcs=dict(sorted(board.ipcs.items())),
        standing_orders=dict(sorted(ctx.standing_orders.items())),
        winner=winner, turn_number=state.turn_number + 1)
