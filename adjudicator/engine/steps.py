"""The steps of a power's turn, by the names an edition's ``[turn] steps`` lists.

Each step is a function of the turn context (and the dice, ``None`` when checking).  The
turn runner (``engine.turn``) runs the edition's steps in order, then stores the standing
orders and checks victory.  A new edition adds a step by registering a function here
under a new name and listing it in its data."""

from __future__ import annotations

from collections.abc import Callable

from ..model.dice import DiceSource
from . import aircraft, battles, income, movement, production, raids
from .context import TurnContext

Step = Callable[[TurnContext, DiceSource | None], None]
STEPS: dict[str, Step] = {}


def step(name: str):
    def wrap(fn: Step) -> Step:
        STEPS[name] = fn
        return fn
    return wrap


@step("purchase")
def purchase(ctx: TurnContext, dice) -> None:
    """Repair factories, then buy units (digest §5.1)."""
    production.purchase(ctx)


@step("combat_move")
def combat_move(ctx: TurnContext, dice) -> None:
    """Move into battles; then raids are declared, bombardments and battle directives
    checked, and every attacking aircraft's landing plan proved (digest §5.2)."""
    for order in ctx.orders.combat:
        movement.run_order(ctx, order)
    raids.declare_raids(ctx)
    battles.check_bombard_orders(ctx)
    aircraft.check_combat_moves(ctx)
    check_directives(ctx)


@step("conduct_combat")
def conduct_combat(ctx: TurnContext, dice) -> None:
    battles.conduct_combat(ctx, dice)


@step("noncombat_move")
def noncombat_move(ctx: TurnContext, dice) -> None:
    for order in ctx.orders.noncombat:
        movement.run_order(ctx, order)


@step("mobilize")
def mobilize(ctx: TurnContext, dice) -> None:
    production.mobilize(ctx)


@step("land_aircraft")
def land_aircraft(ctx: TurnContext, dice) -> None:
    """After placement (a new carrier can take a fighter): every aircraft lands or is lost."""
    aircraft.land_aircraft(ctx)


@step("collect_income")
def collect_income(ctx: TurnContext, dice) -> None:
    income.collect_income(ctx)


def check_directives(ctx: TurnContext) -> None:
    """Battle lines must name a battle the combat moves start, and a retreat destination
    the rules allow (an adjacent space an attacking unit came from)."""
    board = ctx.board
    for directive in ctx.orders.battles:
        space = directive.space
        if not battles.battle_needed(ctx, space):
            ctx.warn(directive.line, "directive_without_battle", space=space)
            continue
        attackers, _ = battles.participants(ctx, space)
        legal = battles.retreat_options(ctx, space, attackers)
        for cond in directive.retreat:
            if cond.destination is None or cond.destination in legal:
                continue
            if not board.map.adjacent(space, cond.destination):
                ctx.error(directive.line, "retreat_not_adjacent", space=space,
                          destination=cond.destination)
            elif legal and legal != (space,):
                ctx.warn(directive.line, "retreat_redirected", space=space,
                         destination=cond.destination, instead=legal[0], legal=list(legal))
            else:
                ctx.warn(directive.line, "retreat_impossible", space=space,
                         destination=cond.destination)
