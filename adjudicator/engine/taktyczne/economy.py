"""Taktyczne Starcie's economy (digest §1.5-§1.6): income from facilities times capitals
held (L19.50-L19.53, L27.4); units bought at the start of the turn and placed at once where
an object of the buyer's produces them (step ``ts_recruit``, order ``recruit``; aircraft at
a factory or shipyard with an airfield, or bought into a shipyard's sea straight onto a
carrier there, L27.22-L27.23); objects and
carriers bought at the end of the turn with rising prices (step ``ts_build``, order
``build``, ``prices.object_price``).  A shipyard's sea holding another player's units
produces nothing (blockade, L27.11) and takes no new shipyard (L27.5)."""

from __future__ import annotations

from ...model.taktyczne import ObjectBuilt, UnitsRecruited
from ...model.units import Domain
from ..income import IncomeContext, item
from ..steps import step
from . import air
from .mines import placement_problem
from .plans import mine_types
from .prices import object_price
from .stack import stack_limit, stack_points, unit_value
from .stacking import points
from .state import (AIRFIELD, CAPITALS, FACTORY, OBJECTS, SHIPYARD, add_object, capitals,
                    facilities, objects, shipyard_key, shipyard_sea)

CARRIER = "carrier"


@item("ts_facilities")
def facility_income(inc: IncomeContext) -> int:
    """One point per factory and shipyard held, for each capital held (L19.50-L19.52); no
    capital held, no income (L19.53).  The objects and capitals are the state's (the turn's
    board, or the state a report projects)."""
    held = sum(1 for area in inc.read_state(CAPITALS, default={}).values()
               if inc.owners.get(area) == inc.power)
    return facilities(inc.owners, inc.read_state(OBJECTS, default={}), inc.power) * held


def occupied_by_others(board, space: str, power: str) -> bool:
    """Another player's units are in ``space`` (a blockade of a shipyard's sea, L27.11)."""
    return any(p.owner != power for p in board.on_board(space))


def shipyard_held(board, found: dict, sea: str, power: str) -> bool:
    """``power`` holds an area with a shipyard over ``sea``."""
    key = shipyard_key(sea)
    return any(here.get(key) and board.owners.get(area) == power for area, here in found.items())


def _producer_problem(ctx, found: dict, unit_type, space: str) -> tuple[str, dict] | None:
    """Why ``power`` cannot place a new ``unit_type`` in ``space``, or None (L27.10,
    L27.21-L27.23)."""
    board, power = ctx.board, ctx.power
    here = found.get(space, {}) if board.owners.get(space) == power else {}
    where = {"space": space, "unit": unit_type.key}
    if unit_type.domain == Domain.AIR and board.map[space].is_sea:
        return _carrier_problem(ctx, found, space, where)
    if unit_type.domain == Domain.SEA:
        if not board.map[space].is_sea or not shipyard_held(board, found, space, power):
            return "ts_no_producer", where
        if occupied_by_others(board, space, power):
            return "ts_blockaded", where
        return None
    if not board.map[space].is_land or not here.get(FACTORY) and not (
            unit_type.domain == Domain.AIR and any(k.startswith(SHIPYARD) for k in here)):
        return "ts_no_producer", where
    if unit_type.domain == Domain.AIR and not here.get(AIRFIELD):
        return "ts_no_airfield", where
    return None


def _mine_producer_problem(ctx, found: dict, unit_type) -> tuple[str, dict] | None:
    """Why ``power`` cannot have a mine of ``unit_type`` made, or None: mines are produced in
    factories and shipyards (L31.47): an anti-tank mine at a factory of his (L27.4, L27.21),
    an underwater mine at a shipyard of his whose sea holds no other player's units (L27.4,
    L27.10; a blockade stops mines, L27.11); then placed on any own territory (L27.24,
    ``mines.placement_problem``)."""
    board, power = ctx.board, ctx.power
    held = [here for area, here in found.items() if board.owners.get(area) == power]
    if unit_type.domain == Domain.SEA:
        ok = any(shipyard_sea(key) and not occupied_by_others(board, shipyard_sea(key), power)
                 for here in held for key in here)
    else:
        ok = any(here.get(FACTORY) for here in held)
    return None if ok else ("ts_no_mine_producer", {"unit": unit_type.key})


def _carrier_problem(ctx, found: dict, sea: str, where: dict) -> tuple[str, dict] | None:
    """Aircraft bought at a shipyard go straight onto an own carrier in its sea (L27.23);
    a blockade stops floating units and mines only (L27.11), not aircraft."""
    board, power = ctx.board, ctx.power
    if not shipyard_held(board, found, sea, power):
        return "ts_no_producer", where
    if not air.carriers(board, sea, power):
        return "ts_no_carrier", where
    return None


def _place_aircraft(ctx, order) -> bool:
    """Aircraft bought into a sea: onto the buyer's carriers there, within their 12 points
    (L27.13) and the sea's stack (L19.17, ruling G7); False (and the error said) if they do
    not fit."""
    board, power, sea = ctx.board, ctx.power, order.space
    planes = [board.add_new(g.type, power, sea) for g in order.units for _ in range(g.count)
              if air.is_aircraft(board, g.type)]
    if air.room_for(board, planes, sea, power, air.bases(board, power)):
        air.land(board, planes, sea, power)
        return True
    for plane in planes:
        board.remove(plane)
    ctx.error(order.line, "ts_carrier_full", space=sea, points=points(board, planes))
    return False


@step("ts_recruit")
def recruit(ctx, dice) -> None:
    """The turn's ``recruit`` orders, in the order written: each paid from the treasury and
    placed at once, within the 12-point stack (L19.16-L19.17); mines made at a factory or a
    free shipyard of the buyer's (L31.47) and placed on any own territory (L27.24,
    ``mines.placement_problem``), the others where an object produces them."""
    board, power, game = ctx.board, ctx.power, ctx.game
    found = objects(board)
    mines = mine_types(ctx)
    for order in ctx.orders.of("recruit"):
        problem = None
        for group in order.units:
            unit_type = board.rules.units[group.type]
            if not unit_type.buyable:
                problem = ("ts_not_buyable", {"unit": group.type})
            elif group.type in mines:
                problem = (placement_problem(ctx, unit_type, order.space)
                           or _mine_producer_problem(ctx, found, unit_type))
            else:
                problem = _producer_problem(ctx, found, unit_type, order.space)
            if problem:
                break
        if problem:
            ctx.error(order.line, problem[0], **problem[1])
            continue
        cost = sum(board.rules.units[g.type].cost * g.count for g in order.units)
        value = sum(unit_value(game, g.type) * g.count for g in order.units)
        standing, limit = stack_points(ctx, order.space), stack_limit(game)
        if standing + value > limit:
            ctx.error(order.line, "ts_stack_full", space=order.space, points=standing + value,
                      limit=limit)
            continue
        if not _pay(ctx, order.line, cost):
            continue
        to_carrier = board.map[order.space].is_sea and air.names_aircraft(board, order.units)
        if to_carrier and not _place_aircraft(ctx, order):
            board.ipcs[power] += cost                     # refused whole: nothing bought
            continue
        for group in order.units:
            for _ in range(0 if to_carrier and air.is_aircraft(board, group.type) else group.count):
                board.add_new(group.type, power, order.space)
        ctx.emit(UnitsRecruited(power, order.space, tuple((g.type, g.count) for g in order.units),
                                cost, board.ipcs.get(power, 0)))


def _pay(ctx, line: int, cost: int) -> bool:
    board, power = ctx.board, ctx.power
    have = board.ipcs.get(power, 0)
    if cost > have:
        ctx.error(line, "ts_too_expensive", cost=cost, points=have)
        return False
    board.ipcs[power] = have - cost
    return True


@step("ts_build")
def build(ctx, dice) -> None:
    """The turn's ``build`` orders, in the order written, at the end of the turn (L19.16)."""
    for order in ctx.orders.of("build"):
        if order.what == CARRIER:
            _build_carrier(ctx, order)
        else:
            _build_object(ctx, order)


def _build_object(ctx, order) -> None:
    """A factory, shipyard or airfield: in an area the builder's units occupy or where an
    object of his stands (L27.3); a shipyard over a sea of the area's coast with no other
    player's units (L27.5, L27.8); priced by what stands there (L27.6-L27.7)."""
    board, power = ctx.board, ctx.power
    space, over = order.space, order.over
    found = objects(board)
    here = found.get(space, {})
    if not board.map[space].is_land or (order.what == SHIPYARD) != bool(over):
        ctx.error(order.line, "ts_build_where", what=order.what, space=space)
        return
    mine = board.owners.get(space) == power and (
        here or any(p.owner == power for p in board.on_board(space)))
    if not mine:
        ctx.error(order.line, "ts_no_presence", what=order.what, space=space)
        return
    key = order.what
    if order.what == SHIPYARD:
        if over not in board.map.neighbours(space) or not board.map[over].is_sea:
            ctx.error(order.line, "ts_no_coast", space=space, sea=over)
            return
        if occupied_by_others(board, over, power):
            ctx.error(order.line, "ts_sea_occupied", space=space, sea=over)
            return
        key = shipyard_key(over)
    price = object_price(ctx.game.costs.objects[order.what], here.get(key, 0),
                         in_capital=space in capitals(board).values())
    if not _pay(ctx, order.line, price):
        return
    add_object(board, space, key)
    ctx.emit(ObjectBuilt(power, order.what, space, price, board.ipcs.get(power, 0), over))


def _build_carrier(ctx, order) -> None:
    """A carrier, into the sea of one of the builder's shipyards (L27.12, L19.16); not in a
    blockaded sea (L27.11)."""
    board, power = ctx.board, ctx.power
    sea = order.space
    if order.over or not board.map[sea].is_sea:
        ctx.error(order.line, "ts_build_where", what=CARRIER, space=sea)
        return
    if not shipyard_held(board, objects(board), sea, power):
        ctx.error(order.line, "ts_no_shipyard", space=sea)
        return
    if occupied_by_others(board, sea, power):
        ctx.error(order.line, "ts_blockaded", space=sea, unit=CARRIER)
        return
    price = board.rules.units[CARRIER].cost
    if not _pay(ctx, order.line, price):
        return
    board.add_new(CARRIER, power, sea)
    ctx.emit(ObjectBuilt(power, CARRIER, sea, price, board.ipcs.get(power, 0)))
