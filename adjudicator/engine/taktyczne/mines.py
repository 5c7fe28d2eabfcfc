"""Taktyczne Starcie's mines on the main map and their sealed board layouts
(docs/taktyczne-mines.md).

* ``placement_problem`` (which types are mines: ``plans.mine_types``): mine tokens are
  bought at the start of the turn on any own territory (L27.24, G27): an anti-tank mine on a land area the buyer holds, an
  underwater mine in a sea bordering one (ruling ``mine_sea_where``) with no other player's
  units; they then move like units (L27.25, ``main_turn``) and count 1 point in the stack.
* Sealed layouts (below): the squares of a power's board mines are committed in its
  standing ``minefield`` line and revealed by its own ``reveal`` turn file when a battle
  needs them, so nobody learns them before (docs/taktyczne-mines.md).
"""

from __future__ import annotations

import attrs

from ...model import mine_grid, mine_seal
from ...model.mine_orders import RevealOrder
from ...model.orders import StandingChoice
from ...model.tactical import ATTACKER, DEFENDER, BattlePlan, BoardForce, MineExploded
from ...model.taktyczne import BoardBattleFought
from ...model.ts_mines import (MinefieldRetired, MineLayoutRevealed, MineRevealMissed,
                               MineRevealWanted, MinesFired)
from ...model.units import Domain
from ..context import Resume
from ..errors import TurnPaused
from ..turn_rules import Rule, choice_text, declare_standing, declare_state, register_rule
from . import plans, sealed_live
from .live_turn import PUBLISHED, orders_from_plain, orders_to_plain, waits_for, wants_live


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


# --------------------------------------------------------------------------- sealed layouts
#
# * ``minefield`` (standing kind): the owner's commitment for an area or all areas.
# * ``unseal`` (the board battle seam, ``main_turn.board_fight``): the defender's plan with
#   the revealed squares; without the reveal yet, the turn pauses for it (``TurnPaused``,
#   state ``ts_mine_reveal``) and the defender is the next to send orders.
# * rule ``ts_mine_reveals`` (hook ``pending_turn``): the owner's ``reveal`` line checked
#   against the commitment (or the game master's ``nmr``: the default ``mines_lost``), and
#   the paused turn goes on (``Resume`` with a ``Reveal``), fighting the battle with it.
# * ``report_fired``: after a board battle, the defender's mines that went off.

def check_minefield(ctx, power: str, value: str) -> tuple[str, dict] | None:
    """The standing kind's check: a commitment or ``none``."""
    if value == NO_LAYOUT or mine_seal.is_commitment(value):
        return None
    return "ts_minefield_value", {"value": value[:80]}


NO_LAYOUT = "none"
MINEFIELD = declare_standing(
    "minefield", NO_LAYOUT, (),
    "the sealed board squares of a power's mines in one area or all (Taktyczne Starcie): a "
    "commitment sha256_<hex> written by 'pbem mines seal'; default none: the formation's "
    "mine squares; withdrawn after the battle that publishes it", check=check_minefield)
REVEAL_STATE = declare_state("ts_mine_reveal", dict)     # the battle waiting for a layout
REVEALED = "ts_mine_revealed"        # TurnContext.mechanic: area -> Reveal (the paused turn)
MISSED_DEFAULT = "default: mines_lost"


@attrs.frozen
class Reveal:
    """What a paused turn gets back for the battle of ``area``: the defender's revealed
    ``squares``, or None when he missed the deadline (the default ``mines_lost``)."""

    area: str
    power: str
    squares: tuple[str, ...] | None
    leaves: tuple[str, ...] = ()      # a grid_ layout in a live battle: its published leaves


def sealed_layout(ctx, power: str, area: str) -> StandingChoice | None:
    """``power``'s standing ``minefield`` order for ``area`` (or for all), if it holds a
    commitment."""
    standing = ctx.standing_orders.get(power)
    found = standing.choice(MINEFIELD.name, area) if standing is not None else None
    if found is None or not mine_seal.is_commitment(found.value):
        return None
    return found


def standing_text(order: StandingChoice | None, default: str) -> str:
    """The canonical text of the standing order that acted, or ``default``."""
    return default if order is None else choice_text(order)


def unseal(ctx, area: str, defender: str, forces: dict[str, BoardForce],
           plans_: dict[str, BattlePlan]) -> tuple[dict[str, BoardForce], dict[str, BattlePlan]]:
    """The forces and plans of the board battle of ``area`` once the defender's sealed
    layout is known: the revealed squares in his plan, or, when he missed the reveal, his
    mines removed (default ``mines_lost``).  With a sealed layout not yet revealed while the
    turn is played, the turn pauses for it (``TurnPaused``).  Checking (no dice): as given."""
    force = forces.get(DEFENDER, BoardForce())
    sealed = sealed_layout(ctx, defender, area)
    if sealed is None or not force.mines or ctx.dice is None:
        return forces, plans_
    reveal = ctx.mechanic(REVEALED, dict).get(area)
    if reveal is None:
        _pause(ctx, area, defender, sealed, force.mines,
               leaves=mine_grid.is_grid(sealed.value) and wants_live(ctx, area))
    if reveal.squares is not None or reveal.leaves:      # published: spent by this battle
        ctx.mechanic(PUBLISHED, dict)[area] = {"commitment": sealed.value,
                                               "revealed": not reveal.leaves}
    forces, plans_ = dict(forces), dict(plans_)
    if reveal.leaves:          # live on a grid_ layout: the squares stay sealed (sealed_live)
        sealed_live.hide(ctx, area, ctx.mechanic(REVEALED + "_kept", dict).get(area, {}),
                         reveal.leaves, force.mines)
        plans_[DEFENDER] = attrs.evolve(plans_[DEFENDER], mines=())
        return forces, plans_
    if reveal.squares is None:
        _lose_mines(ctx, area, defender, force.mines)
        forces[DEFENDER] = attrs.evolve(force, mines=0)
        plans_[DEFENDER] = attrs.evolve(plans_[DEFENDER], mines=())
        return forces, plans_
    rules = plans.board_rules(ctx)
    laid = attrs.evolve(plans_[DEFENDER], mines=reveal.squares)
    plans_[DEFENDER], _ = plans.fit_plan(rules, plans.battle_of(ctx, area), force, laid)
    return forces, plans_


def _pause(ctx, area: str, defender: str, sealed: StandingChoice, count: int,
           leaves: bool = False) -> None:
    """Wait for ``defender``'s reveal (``leaves``: of a ``grid_`` layout's leaves only, for
    a live battle): the paused turn in the state (no square), the event, the defender next
    (``TurnPaused``)."""
    scope = "all" if sealed.space is None else sealed.space
    standing = standing_text(sealed, "")
    ctx.board.write_state(REVEAL_STATE, {
        "area": area, "power": defender, "scope": scope, "commitment": sealed.value,
        "mines": count, "standing": standing, "mover": ctx.power,
        "step": ctx.step, "order": ctx.order_index, "orders": orders_to_plain(ctx.orders),
        **({"leaves": True} if leaves else {})})
    ctx.emit(MineRevealWanted(area, defender, scope, sealed.value, count, standing))
    ctx.next_power = defender
    raise TurnPaused()


def _lose_mines(ctx, area: str, defender: str, count: int) -> None:
    """The default of a missed reveal: the defender's mines of the area's board there are
    removed."""
    board = ctx.board
    kind = plans.board_rules(ctx).mines.get(plans.battle_of(ctx, area))
    lost = [p for p in board.at(area) if p.owner == defender and p.type == kind][:count]
    for piece in lost:
        board.remove(piece)
    ctx.emit(MineRevealMissed(area, defender, len(lost), MISSED_DEFAULT))


def report_fired(ctx, event: BoardBattleFought) -> None:
    """The defender's mines that went off in the battle ``event`` (L31.52): where, what
    they destroyed, and the standing ``minefield`` line (or the formation's default) that
    laid them."""
    fired = [ev for ev in event.board_events
             if isinstance(ev, MineExploded) and ev.side == DEFENDER]
    if not fired:
        return
    kinds = dict(dict(event.forces).get(ATTACKER, BoardForce()).units)
    plan = dict(event.plans).get(DEFENDER, BattlePlan())
    sealed = sealed_layout(ctx, event.defender, event.area)
    ctx.emit(MinesFired(event.area, event.defender, tuple(ev.square for ev in fired),
                        tuple(kinds.get(ev.piece, ev.piece) for ev in fired),
                        standing_text(sealed, f"default: formation {plan.formation}")))


def retire_published(ctx, event: BoardBattleFought) -> None:
    """After the battle ``event``: the defender's standing ``minefield`` order whose layout
    it published (revealed whole, or its leaves and squares opened in a live battle) is
    withdrawn, so no later battle re-reveals a known layout; ``MinefieldRetired`` says so."""
    published = ctx.mechanic(PUBLISHED, dict).pop(event.area, None)
    sealed = sealed_layout(ctx, event.defender, event.area)
    if not published or sealed is None or sealed.value != published.get("commitment"):
        return
    standing = ctx.standing_orders[event.defender]
    ctx.standing_orders[event.defender] = attrs.evolve(
        standing, choices=tuple(c for c in standing.choices if c != sealed))
    ctx.emit(MinefieldRetired(event.area, event.defender,
                              "all" if sealed.space is None else sealed.space,
                              bool(published.get("revealed")), choice_text(sealed)))


@register_rule
class MineReveals(Rule):
    """A battle waiting for a sealed mine layout: the owner's ``reveal`` turn file (hook
    ``pending_turn``)."""

    name = "ts_mine_reveals"
    doc = ("a board battle waits for the defender's sealed mine layout: the turn pauses, the "
           "defender's 'reveal' line (checked against his minefield commitment) lets it go "
           "on; a missed deadline (nmr) loses the mines")

    def pending_turn(self, ctx, dice) -> Resume | bool | None:
        kept = ctx.board.read_state(REVEAL_STATE)
        reveals: tuple[RevealOrder, ...] = ctx.orders.of(RevealOrder.kind)
        if not kept:
            for order in reveals:
                ctx.error(order.line, "ts_reveal_not_wanted")
            return None
        power, scope = kept.get("power", ""), kept.get("scope", "")
        wanted = ("open", "nmr") if kept.get("leaves") else ("reveal", "nmr")
        if not waits_for(ctx, power, wanted, "ts_reveal_other_orders", "ts_reveal_wrong_power",
                         area=kept.get("area", "")):
            return True
        missed = bool(ctx.orders.of("nmr"))
        leaves: tuple[str, ...] = ()
        if kept.get("leaves"):
            leaves = () if missed else (sealed_live.take_leaves(ctx, kept) or ())
            squares = None if missed else ()
        else:
            squares = None if missed else _opened(ctx, kept, reveals)
        if ctx.checking or any(p.is_error for p in ctx.problems):
            return True
        area = kept.get("area", "")
        if leaves:
            ctx.mechanic(REVEALED + "_kept", dict)[area] = dict(kept)
        elif squares is not None:
            ctx.emit(MineLayoutRevealed(area, power, scope, squares, reveals[-1].salt,
                                        kept.get("commitment", ""), kept.get("standing", "")))
        try:
            orders = orders_from_plain(kept.get("orders"), kept.get("mover", ""))
            order = int(kept.get("order", 0))
        except (ValueError, TypeError) as exc:
            ctx.error(0, "board_live_state", detail=str(exc))
            return True
        ctx.board.extras.pop(REVEAL_STATE, None)
        ctx.next_power = None
        return Resume(kept.get("mover", ""), orders, kept.get("step", ""), order,
                      Reveal(area, power, squares, leaves))


def _opened(ctx, kept: dict, reveals) -> tuple[str, ...] | None:
    """The revealed squares, if the last ``reveal`` line opens the kept commitment (else an
    error on it)."""
    scope = kept.get("scope", "")
    if not reveals:
        ctx.error(0, "ts_reveal_missing", area=kept.get("area", ""), scope=scope)
        return None
    order = reveals[-1]
    written = "all" if order.space is None else order.space
    if written != scope:
        ctx.error(order.line, "ts_reveal_scope", scope=scope, written=written)
        return None
    try:
        mine_seal.check_squares(order.squares)
        mine_seal.check_salt(order.salt)
    except ValueError as exc:
        ctx.error(order.line, "ts_reveal_unreadable", reason=str(exc))
        return None
    squares = mine_seal.canonical_squares(order.squares)
    if not mine_seal.opens(kept.get("commitment", ""), kept.get("power", ""),
                           None if scope == "all" else scope, squares, order.salt):
        ctx.error(order.line, "ts_reveal_wrong", commitment=kept.get("commitment", ""), scope=scope)
        return None
    return squares
