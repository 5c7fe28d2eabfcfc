"""The steps of a power's turn, by the names an edition's ``[turn] steps`` lists.

Each step is a function of the turn context (and the dice, ``None`` when checking; a step
that works otherwise without them asks ``ctx.checking`` or ``ctx.dice``, which marks the
turn ``mode_dependent``: a check that never did is the play, see ``turn.adjudicate``).  The
turn runner (``engine.turn``) runs the edition's steps in order, then stores the standing
orders and checks victory.  A new edition adds a step by registering a function here
under a new name and listing it in its data."""

from __future__ import annotations

from collections.abc import Callable

from ..model.dice import DiceSource
from .aircraft import air_paths, can_land_on_ground, check_combat_moves, land_aircraft as land_all_aircraft
from .battles import (battle_needed, conduct_combat as fight_battles, participants,
                      partial_retreat_allowed, retreat_landing, retreat_options)
from .battles import check_bombard_orders
from .income import collect_income as collect
from .movement import run_order
from .production import mobilize as place_units, purchase as buy_units
from .raids import declare_raids
from .turn_rules import move_range
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
    buy_units(ctx)


@step("combat_move")
def combat_move(ctx: TurnContext, dice) -> None:
    """Move into battles; then raids are declared, bombardments and battle directives
    checked, and every attacking aircraft's landing plan proved (digest §5.2)."""
    for order in ctx.orders.combat:
        run_order(ctx, order)
    declare_raids(ctx)
    check_bombard_orders(ctx)
    check_combat_moves(ctx)
    check_directives(ctx)


@step("conduct_combat")
def conduct_combat(ctx: TurnContext, dice) -> None:
    fight_battles(ctx, dice)


@step("noncombat_move")
def noncombat_move(ctx: TurnContext, dice) -> None:
    for order in ctx.orders.noncombat:
        run_order(ctx, order)


@step("mobilize")
def mobilize(ctx: TurnContext, dice) -> None:
    place_units(ctx)


@step("land_aircraft")
def land_aircraft(ctx: TurnContext, dice) -> None:
    """After placement (a new carrier can take a fighter): every aircraft lands or is lost."""
    land_all_aircraft(ctx)


@step("collect_income")
def collect_income(ctx: TurnContext, dice) -> None:
    collect(ctx, dice)


def check_partial_retreat(ctx: TurnContext, directive, attackers) -> None:
    """A per-unit retreat ("retreat ftr to United Kingdom ...") names units the edition lets
    leave alone (``battles.partial_retreat_allowed``), that attack there, and a landing
    the aircraft may reach (not a space adjacent to the battle: they fly)."""
    board = ctx.board
    space = directive.space
    types = {g.type for g in directive.retreat_units}
    if not partial_retreat_allowed(ctx, types):
        ctx.error(directive.line, "partial_retreat_refused", space=space,
                  units={g.type: g.count for g in directive.retreat_units},
                  allowed=board.rules.option("partial_retreat", "none"))
        return
    for group in directive.retreat_units:
        present = sum(1 for p in attackers if p.type == group.type)
        if present < max(group.count, 1):          # ALL (0): at least one
            ctx.error(directive.line, "partial_retreat_units_missing", space=space,
                      unit=group.type, count=max(group.count, 1), present=present)
            return
    destination = retreat_landing(ctx, space)
    leaving = [p for p in attackers if p.type in types]
    if destination is not None and leaving and not (
            destination in air_paths(ctx, space, max(move_range(board, p) - p.moves_used
                                                     for p in leaving))
            and can_land_on_ground(ctx, leaving[0], destination)):
        ctx.warn(directive.line, "retreat_landing_unreachable", space=space,
                 destination=destination)


def check_directives(ctx: TurnContext) -> None:
    """Battle lines must name a battle the combat moves start, and a retreat destination
    the rules allow (an adjacent space an attacking unit came from)."""
    board = ctx.board
    for directive in ctx.orders.battles:
        space = directive.space
        if not battle_needed(ctx, space):
            ctx.warn(directive.line, "directive_without_battle", space=space)
            continue
        attackers, _ = participants(ctx, space)
        if directive.retreat_units:
            check_partial_retreat(ctx, directive, attackers)
            continue
        legal = retreat_options(ctx, space, attackers)
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
