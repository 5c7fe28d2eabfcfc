"""One power's turn, adjudicated: ``adjudicate(game, state, orders, dice) -> TurnResult``.

Pure: no I/O, no clock, no global randomness.  The same inputs always give the same
result, which is what makes replay and audit exact.

The turn runs the edition's steps (``TurnPlan.steps``, implemented in ``engine.steps``;
``TurnPlan.pregame`` in round 0, the pre-game round of an edition that has one), then
the standing orders are stored, victory is checked and the turn passes.  ``check`` runs
the same steps with battles settled optimistically (every attacking die hits), so
every order is validated against the position it will meet in the best case; orders
that battles made impossible are skipped (and reported) when the turn is played.
"""

from __future__ import annotations

import weakref
from typing import Any

import attrs

from ..model.dice import DiceSource
from ..model.errors import PbemError
from ..model.events import Event, StandingOrdersChanged, TurnStarted
from ..model.game import Game
from ..model.orders import DefenceOrder, OrderSet, StandingChoice, StandingOrders
from ..model.problems import Problem
from ..model.state import GameState
from .battles import planned_setups, start_zones
from .collector import collector_paused
from .movement import run_order
from .raids import declare_raids
from .statements import announce_statements, check_statements, conceded_to
from .context import Resume, TurnContext
from .errors import TurnPaused
from .steps import STEPS
from .turn_rules import check_standing_choices, rules_with
from .victory import check_victory
from .whose_orders import foreign_owner
from .working import WorkingBoard

__all__ = ["Problem", "TurnResult", "OrdersRejected", "check", "checked_events", "adjudicate",
           "planned_battles"]


@attrs.frozen
class TurnResult:
    state: GameState
    events: tuple[Event, ...]
    problems: tuple[Problem, ...] = ()


class OrdersRejected(PbemError):
    """The orders break the rules; ``problems`` lists every error (and warning)."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        errors = [p for p in problems if p.is_error]
        super().__init__(f"{len(errors)} error(s) in the orders: "
                         + "; ".join(f"line {p.line}: {p.code}" for p in errors))


def check(game: Game, state: GameState, orders: OrderSet) -> list[Problem]:
    """Every problem with ``orders`` for the power whose turn it is (no errors: valid)."""
    with collector_paused():
        ctx = _play(game, state, orders, None)
        problems = _checked(ctx, game, state, orders)
        del ctx         # the board freed before collection resumes (see engine.collector)
    return problems


def _checked(ctx: TurnContext, game: Game, state: GameState, orders: OrderSet) -> list[Problem]:
    """The problems the check ``ctx`` found, in order, remembered for ``adjudicate``."""
    problems = sorted(ctx.problems, key=lambda p: (p.line, p.severity))
    _remember_check(game, state, orders, tuple(problems))
    return problems


def checked_events(game: Game, state: GameState, orders: OrderSet) -> tuple[Event, ...]:
    """The events of the turn as ``check`` plays it (no dice: a battle is the attacker's
    best case): what a check shows besides its problems, such as Taktyczne Starcie's board
    battles with the forces and plans they would be fought with."""
    with collector_paused():
        ctx = _play(game, state, orders, None)
        events = tuple(ctx.events)
        del ctx
    return events


# The last few checks (``check`` is pure and its inputs are frozen, so equal inputs give the
# same problems): ``adjudicate`` right after a caller's own ``check`` of the same orders does
# not check them again, and still never plays orders with an error.
_CHECKED: list[tuple[weakref.ref, GameState, OrderSet, tuple[Problem, ...]]] = []
_CHECKED_KEEP = 4


def _remember_check(game: Game, state: GameState, orders: OrderSet,
                    problems: tuple[Problem, ...]) -> None:
    _CHECKED.insert(0, (weakref.ref(game), state, orders, problems))
    del _CHECKED[_CHECKED_KEEP:]


def _checked_before(game: Game, state: GameState, orders: OrderSet) -> list[Problem] | None:
    for ref, seen_state, seen_orders, problems in _CHECKED:
        if (ref() is game and (seen_state is state or seen_state == state)
                and (seen_orders is orders or seen_orders == orders)):
            return list(problems)
    return None


def adjudicate(game: Game, state: GameState, orders: OrderSet, dice: DiceSource) -> TurnResult:
    """Play the turn.  Raises ``OrdersRejected`` if ``check`` finds any error (the check is
    not run again when the same orders were just checked in the same position).

    A turn the check played without anything that depends on the mode (no battle, no die,
    nothing that asked whether it was checking: ``TurnContext.mode_dependent``) is not
    played again: the check's board and events are the play's."""
    result = None
    with collector_paused():
        problems = _checked_before(game, state, orders)
        if problems is None:
            ctx = _play(game, state, orders, None)
            problems = _checked(ctx, game, state, orders)
            if not ctx.mode_dependent and not any(p.is_error for p in problems):
                result = _result(ctx, state, problems)
                if ctx.mode_dependent:          # victory or the last step asked the mode
                    result = None
            del ctx     # the board freed before collection resumes (see engine.collector)
        if any(p.is_error for p in problems):
            raise OrdersRejected(problems)
        if result is None:
            ctx = _play(game, state, orders, dice)
            result = _result(ctx, state, problems)
            del ctx
    return result


def _result(ctx: TurnContext, state: GameState, problems: list[Problem]) -> TurnResult:
    return TurnResult(_final_state(ctx, state), tuple(ctx.events), tuple(problems))


def planned_battles(game: Game, state: GameState, orders: OrderSet) -> list:
    """The combat engine's setups for every battle the orders' combat moves would start,
    with what the edition's rules add before the first battle as the turn plays them
    (``at_step`` at the end of the combat move and the start of Conduct Combat: Global
    1940's paratroopers dropped, the defenders' aircraft scrambled by their standing
    orders).  None for an edition whose turn has no ``conduct_combat`` step (Taktyczne
    Starcie fights its own battles: ``checked_events``)."""
    if "conduct_combat" not in game.ruleset.plan.steps:
        return []
    ctx = _context(game, state, orders, None)
    if not _preflight(ctx, state):
        return []
    triggers: tuple[Any, ...] = rules_with(game.ruleset, "at_step")
    for point, step in (("start", "purchase"), (None, "purchase"), ("end", "purchase"),
                        ("start", "combat_move")):      # as _play: declarations of war first
        if point is None:
            STEPS[step](ctx, None)
        else:
            for rule in triggers:
                rule.at_step(ctx, point, step)
    for order in orders.combat:
        run_order(ctx, order)
    declare_raids(ctx)
    for point, step in (("end", "combat_move"), ("start", "conduct_combat")):
        for rule in triggers:
            rule.at_step(ctx, point, step)
    return planned_setups(ctx)


def _preflight(ctx: TurnContext, state: GameState) -> bool:
    if state.winner is not None:
        ctx.error(0, "game_over", side=state.winner)
        return False
    if ctx.orders.power is not None and ctx.orders.power != state.power:
        ctx.error(0, "wrong_power", power=state.power, orders_for=ctx.orders.power)
        return False
    other = foreign_owner(state, ctx.orders, ctx.game.ruleset.turn_order)
    if other is not None:          # one error, not one per move checked as the wrong power
        ctx.error(0, "orders_of_another_power", power=state.power, orders_for=other)
        return False
    return True


def _context(game: Game, state: GameState, orders: OrderSet, dice: DiceSource | None) -> TurnContext:
    ctx = TurnContext(game, WorkingBoard(game, state), orders, "check" if dice is None else "play",
                      standing_orders=dict(state.standing_orders), dice=dice)
    ctx.hostile_at_start, ctx.contested_at_start = start_zones(ctx.board)
    return ctx


def _play(game: Game, state: GameState, orders: OrderSet, dice: DiceSource | None) -> TurnContext:
    ctx = _context(game, state, orders, dice)
    if not _preflight(ctx, state):
        return ctx
    ctx.emit(TurnStarted(state.power, state.round,
                         ctx.board.ipcs.get(game.ruleset.powers[state.power].economy.key, 0)))
    check_statements(ctx)
    announce_statements(ctx)
    steps = turn_steps(game, state, ctx)
    resume = _pending(ctx)
    if resume is not None:          # a paused turn's own turn file (a live battle's turn)
        if resume is _STILL_PAUSED:
            return ctx
        steps = _resume(ctx, resume, state)
    else:
        check_standing_choices(ctx)
    triggers: tuple[Any, ...] = rules_with(game.ruleset, "at_step")   # rules that define at_step
    for name in steps:
        ctx.step = name
        for rule in triggers:
            rule.at_step(ctx, "start", name)
        try:
            STEPS[name](ctx, dice)
        except TurnPaused:
            ctx.paused = True
            return ctx
        for rule in triggers:
            rule.at_step(ctx, "end", name)
    _store_standing_orders(ctx)
    return ctx


_STILL_PAUSED = object()


def _pending(ctx: TurnContext):
    """What an edition rule's ``pending_turn`` hook made of this turn: None (a turn like
    any), ``_STILL_PAUSED`` (the rule played it and the paused turn still waits) or the
    ``Resume`` of the paused turn."""
    hooks: tuple[Any, ...] = rules_with(ctx.game.ruleset, "pending_turn")
    for rule in hooks:
        taken = rule.pending_turn(ctx, ctx.dice)
        if taken is True:
            ctx.paused = True
            return _STILL_PAUSED
        if taken is not None and taken is not False:
            return taken
    return None


def _resume(ctx: TurnContext, resume: Resume, state: GameState) -> tuple[str, ...]:
    """Go on with the paused turn of ``resume.power``: its orders, from its paused step."""
    ctx.board.power = resume.power
    ctx.orders = resume.orders
    ctx.resume = resume
    steps = turn_steps(ctx.game, attrs.evolve(state, power=resume.power), ctx)
    return steps[steps.index(resume.step):] if resume.step in steps else ()


def turn_steps(game: Game, state: GameState, ctx: TurnContext | None = None) -> tuple[str, ...]:
    """The steps of this turn: the edition's pre-game steps in round 0, else its steps and,
    in the last turn of a round, its round-end steps."""
    plan = game.ruleset.plan
    if state.round == 0:
        return plan.pregame
    return plan.steps + (plan.round_end if _ends_round(game, state, ctx) else ())


def _ends_round(game: Game, state: GameState, ctx: TurnContext | None) -> bool:
    """Whether this turn is the last of its round: as an edition rule's ``next_turn`` says
    (the order of play it keeps), else for the last power of the data's turn order."""
    if ctx is not None:
        hooks: tuple[Any, ...] = rules_with(game.ruleset, "next_turn")
        for rule in hooks:
            found = rule.next_turn(ctx, state.power, state.round)
            if found is not None:
                return found[1] != state.round
    order = game.ruleset.turn_order
    return order.index(state.power) + 1 == len(order)


def _store_standing_orders(ctx: TurnContext) -> None:
    """This turn's standing orders replace the power's earlier ones for the same space
    (defence orders) or the same kind and space (the edition's own kinds)."""
    defences, choices = ctx.orders.defences, ctx.orders.standing_choices
    if not defences and not choices:
        return
    power = ctx.power
    old = ctx.standing_orders.get(power, StandingOrders())
    replaced = {d.space for d in defences}
    kept = tuple(d for d in old.defences if d.space not in replaced)
    new = tuple(DefenceOrder(d.space, d.loss_order, d.submerge, landing=d.landing)
                for d in defences)
    chosen = {(c.name, c.space) for c in choices}
    kept_choices = tuple(c for c in old.choices if (c.name, c.space) not in chosen)
    new_choices = tuple(StandingChoice(c.name, c.space, c.value) for c in choices)
    ctx.standing_orders[power] = StandingOrders(kept + new, kept_choices + new_choices)
    ctx.emit(StandingOrdersChanged(power, len(defences) + len(choices)))


def _next_turn(ctx: TurnContext, state: GameState, order: tuple[str, ...],
               index: int) -> tuple[str, int]:
    """Who plays next, in which round: an edition rule's ``next_turn`` (an order of play
    kept in the state), else the next power of the data's turn order."""
    hooks: tuple[Any, ...] = rules_with(ctx.game.ruleset, "next_turn")
    for rule in hooks:
        found = rule.next_turn(ctx, state.power, state.round)
        if found is not None:
            return found
    last_in_round = index + 1 == len(order)
    return order[(index + 1) % len(order)], state.round + (1 if last_in_round else 0)


def _final_state(ctx: TurnContext, state: GameState) -> GameState:
    board = ctx.board
    order = board.rules.turn_order
    if ctx.paused:                  # the turn goes on in a later turn file: no victory yet
        next_power, next_round, winner = ctx.next_power or state.power, state.round, state.winner
    else:
        mover = state if ctx.power == state.power else attrs.evolve(state, power=ctx.power)
        index = order.index(mover.power)    # a paused turn that went on: its power's
        next_power, next_round = _next_turn(ctx, mover, order, index)
        last_in_round = next_round != state.round
        winner = conceded_to(ctx) or check_victory(ctx, state.round, last_in_round)
    return GameState(
        game_id=state.game_id, map_id=state.map_id, round=next_round, power=next_power,
        owners=dict(sorted(board.owners.items())), units=board.to_units(),
        ipcs=dict(sorted(board.ipcs.items())),
        standing_orders=dict(sorted(ctx.standing_orders.items())),
        winner=winner, turn_number=state.turn_number + 1,
        relations=dict(sorted(board.relations.items())), extras=dict(sorted(board.extras.items())))
