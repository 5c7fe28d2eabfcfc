"""Purchase and repair, and mobilization (digest 1941 §5.1, §5.5; Spring 1942 §5.1, §5.7).

Factories are units with the ``factory`` ability (``abilities.factory`` holds their rules:
capacity, damage cap, where a new one may go).  A power places new units only at factories
it has controlled since the start of its turn, up to each factory's capacity, counting
units placed in adjacent sea zones; a new factory itself needs no factory.  A power with
several economies pays for each unit from the economy whose land it is placed in
(``economy_purchase``).
"""

from __future__ import annotations

import attrs

from ..model.events import EconomyPaid, Placed, Purchased, Refunded, Repaired, UnitsChanged
from ..model.units import Domain
from .abilities.factory import build_problem, capacity, repair_cost
from .conditions import original_owner
from .context import TurnContext
from .technology import unit_cost
from .economy_purchase import capital_lost, charges, main_economy_factory, space_economy
from .turn_rules import rules_with
from .working import Piece


@attrs.define
class Purchases:
    """The purchase's per-turn state: what is bought and not yet placed, what was bought."""

    pending: dict[str, int] = attrs.field(factory=dict)
    bought: dict[str, int] = attrs.field(factory=dict)


def purchases(ctx: TurnContext) -> Purchases:
    return ctx.mechanic("production", Purchases)


def economy_key(ctx: TurnContext) -> str:
    return ctx.board.rules.powers[ctx.power].economy.key


def eligible_factories(ctx: TurnContext) -> list[Piece]:
    """Factories the phasing power may place at this turn: its own, in territories it has
    controlled since the start of its turn, there since then; capital first, then by
    capacity, then by name."""
    placing = ctx.mechanics.get(_PLACING)
    if placing is not None:
        return list(placing)
    board = ctx.board
    power = ctx.power
    capital = board.rules.powers[power].capital
    factories = board.types_with("factory")
    found = [p for p in board.pieces.values()
             if p.type in factories and p.owner == power and "place" not in p.moved_in
             and board.map[p.space].is_land
             and board.start_owners.get(p.space) == power and board.owners.get(p.space) == power]
    return sorted(found, key=lambda p: (p.space != capital, -capacity_of(ctx, p), p.space, p.uid))


def capacity_of(ctx: TurnContext, piece: Piece) -> int:
    """What a factory places this turn (one upgraded this turn: as its former type)."""
    board = ctx.board
    former = ctx.mechanics.get(_UPGRADED, {}).get(piece.uid)
    ut = board.rules.units[former] if former else board.utype(piece)
    return capacity(ut, board.map[piece.space].ipc, piece.damage)


def factory_capacity(ctx: TurnContext, unit_type: str | None = None) -> dict[str, int]:
    """Territory -> units its factories can place this turn (of ``unit_type``, or in all):
    the factories' capacity, then the edition's ``placement_capacity`` rules (which know
    the owner, the territory's original owner and the unit placed), plus the territories
    the ``placement_spaces`` rules open with no factory."""
    out: dict[str, int] = {}
    for f in eligible_factories(ctx):
        out[f.space] = out.get(f.space, 0) + capacity_of(ctx, f)
    rules = rules_with(ctx.board.rules, "placement_capacity")
    for space in out if rules else ():
        origin = original_owner(ctx.board.map[space])
        for rule in rules:
            out[space] = rule.placement_capacity(ctx, space, ctx.power, origin, unit_type,
                                                 out[space])
    for rule in rules_with(ctx.board.rules, "placement_spaces"):
        for space, n in rule.placement_spaces(ctx, ctx.power, unit_type).items():
            out[space] = out.get(space, 0) + n
    return out


# -- purchase and repair ------------------------------------------------------------------------

def purchase(ctx: TurnContext) -> None:
    """Repairs first (they take effect at once), then the purchase."""
    repair(ctx)
    board = ctx.board
    power = ctx.power
    wanted, line = ordered_purchase(ctx)
    if not wanted:
        return
    if not board.capital_held_by_owner(power):
        ctx.error(line, "capital_lost_no_purchase", power=power)
        return
    cost = purchase_cost(ctx, wanted, line)
    if cost is None:
        return
    economy = economy_key(ctx)
    bills = {e: sum(unit_cost(board, ctx.power, k) * n for k, n in units.items())
             for e, units in charges(ctx, wanted).items()}
    for payer, bill in bills.items():
        have = board.ipcs.get(payer, 0)
        if payer != economy and capital_lost(ctx, payer):
            ctx.error(line, "economy_capital_lost_no_purchase", power=power, economy=payer)
            return
        if bill > have and payer == economy:
            ctx.error(line, "purchase_too_expensive", cost=bill, ipcs=have, power=power)
            return
        if bill > have:
            ctx.error(line, "economy_purchase_too_expensive", cost=bill, ipcs=have, power=power,
                      economy=payer)
            return
    capacity = factory_capacity(ctx)
    needs_factory = {k: n for k, n in wanted.items() if not is_facility(board.rules.units[k])}
    total = sum(needs_factory.values())
    # Buying more than the factories can place: an error where the edition forbids it
    # (1941 FAQ: no deliberate overbuying), a warning where the excess is simply refunded
    # at mobilization (Spring 1942 [L666]); option ``overbuying`` = "error" | "refund".
    if board.rules.option("overbuying", "error") == "refund":
        report, suffix = ctx.warn, "_refunded"
    else:
        report, suffix = ctx.error, ""
    if total > sum(capacity.values()):
        report(line, "overbuying" + suffix, bought=total, capacity=sum(capacity.values()))
    elif len(board.rules.powers[power].all_economies) > 1:
        _economy_overbuying(ctx, line, report, suffix, needs_factory, capacity)
    naval = sum(n for k, n in needs_factory.items() if board.rules.units[k].domain == Domain.SEA)
    coastal = sum(c for f, c in capacity.items() if board.map.coastal_zones(f))
    if naval > coastal:
        report(line, "naval_overbuying" + suffix, bought=naval, capacity=coastal)
    for payer, bill in bills.items():
        board.ipcs[payer] = board.ipcs.get(payer, 0) - bill
    record_purchase(ctx, wanted, cost, board.ipcs.get(economy, 0))
    for payer, bill in bills.items():
        if payer != economy:
            ctx.emit(EconomyPaid(power, payer, bill, board.ipcs[payer]))


def _economy_overbuying(ctx: TurnContext, line: int, report, suffix: str,
                        needs_factory: dict[str, int], capacity: dict[str, int]) -> None:
    """A power with several economies: each economy places only at its own factories, so
    each economy's units are checked against its factories (Global 1940's UK [L413])."""
    for payer, units in charges(ctx, needs_factory).items():
        bought = sum(units.values())
        room = sum(c for f, c in capacity.items() if space_economy(ctx, f) == payer)
        if bought > room:
            report(line, "overbuying" + suffix, bought=bought, capacity=room,
                   economy=payer, power=ctx.power)


def ordered_purchase(ctx: TurnContext) -> tuple[dict[str, int], int]:
    """The units the ``buy`` orders ask for (type -> count) and the first one's line."""
    wanted: dict[str, int] = {}
    line = 0
    for buy in ctx.orders.buys:
        line = line or buy.line
        for g in buy.units:
            wanted[g.type] = wanted.get(g.type, 0) + g.count
    return wanted, line


def purchase_cost(ctx: TurnContext, wanted: dict[str, int], line: int) -> int | None:
    """What ``wanted`` costs, or None (and an error) if a unit cannot be bought."""
    units = ctx.board.rules.units
    for key in wanted:
        if not units[key].buyable:
            ctx.error(line, "not_buyable", unit=key)
            return None
    return sum(unit_cost(ctx.board, ctx.power, k) * n for k, n in wanted.items())


def record_purchase(ctx: TurnContext, wanted: dict[str, int], cost: int, ipcs_left: int) -> None:
    """``wanted`` is bought: pending placement, and a ``Purchased`` event."""
    bought = purchases(ctx)
    bought.pending = dict(sorted(wanted.items()))
    bought.bought = dict(bought.pending)
    ctx.emit(Purchased(ctx.power, dict(sorted(wanted.items())), cost, ipcs_left))


def repairable(ctx: TurnContext, space: str) -> list[Piece]:
    """The phasing power's damaged facilities in ``space`` in the order a repair takes
    their damage: factories, then bases (Global 1940's air and naval bases [L1235])."""
    board = ctx.board
    return [p for p in board.factories_at(space) if p.owner == ctx.power and p.damage] + \
        [p for p in board.at(space) if p.owner == ctx.power and p.damage
         and board.utype(p).has("base") and not board.utype(p).has("factory")]


def repair(ctx: TurnContext) -> None:
    """Remove facility damage at 1 IPC a point (Spring 1942 [L286-L290]): the factory's
    first, then a base's (``repairable``), paid by the economy whose land it is in."""
    board = ctx.board
    power = ctx.power
    for order in ctx.orders.repairs:
        economy = space_economy(ctx, order.space)    # the economy whose factory it is
        if economy != economy_key(ctx) and capital_lost(ctx, economy):
            ctx.error(order.line, "economy_capital_lost_no_purchase", power=power, economy=economy)
            continue
        if not board.capital_held_by_owner(power):
            ctx.error(order.line, "capital_lost_no_purchase", power=power)
            return
        damaged = repairable(ctx, order.space)
        if not damaged:
            ctx.error(order.line, "nothing_to_repair", space=order.space)
            continue
        total = sum(p.damage for p in damaged)
        if order.points > total:
            ctx.error(order.line, "repair_too_much", space=order.space, points=order.points,
                      damage=total)
            continue
        have = board.ipcs.get(economy, 0)
        share, left = [], order.points
        for piece in damaged:
            take = min(left, piece.damage)
            share.append((piece, take))
            left -= take
        cost = sum(repair_cost(board.utype(piece), n) for piece, n in share if n)
        if cost > have:
            ctx.error(order.line, "repair_too_expensive", cost=cost, ipcs=have, power=power)
            continue
        for piece, n in share:
            piece.damage -= n
        board.ipcs[economy] = have - cost
        ctx.emit(Repaired(power, order.space, order.points, cost, board.ipcs[economy]))


# -- mobilize -------------------------------------------------------------------------------------

def _factory_for(ctx: TurnContext, space: str, used: dict[str, int],
                 unit_type: str | None = None) -> str | None:
    """The eligible factory territory a unit placed in ``space`` counts against (most room
    first)."""
    board = ctx.board
    capacity = factory_capacity(ctx, unit_type)
    if board.map[space].is_land:
        candidates = [space] if space in capacity else []
    else:
        candidates = [f for f in capacity if board.map.adjacent(f, space)]
    candidates = [f for f in candidates if used.get(f, 0) < capacity[f]]
    candidates.sort(key=lambda f: (-(capacity[f] - used.get(f, 0)), f))
    return candidates[0] if candidates else None


def held_since_start(ctx: TurnContext, space: str) -> bool:
    """Whether the mover has held ``space`` since the start of the turn (where new
    factories, upgrades and bases may go)."""
    board = ctx.board
    return board.start_owners.get(space) == ctx.power and board.owners.get(space) == ctx.power


def factory_problem(ctx: TurnContext, unit_type: str, space: str) -> str | None:
    """Why a new factory of ``unit_type`` may not go in ``space`` (a problem code), or None."""
    board = ctx.board
    ut = board.rules.units[unit_type]
    t = board.map[space]
    if t.is_sea:
        return "factory_at_sea"
    held = held_since_start(ctx, space)
    return build_problem(ut, t.ipc, held, bool(board.factories_at(space)), t, ctx.power)


def is_facility(ut) -> bool:
    """Whether a unit bought is a facility, placed without taking a factory's room: a
    factory, a factory upgrade, or an air or naval base (Global 1940 [L1091])."""
    return ut.has("factory") or ut.has("upgrade") or (ut.has("base") and ut.has("static"))


def base_problem(ctx: TurnContext, unit_type: str, space: str) -> str | None:
    """Why a new air or naval base (a static unit with ability ``base``) may not go in
    ``space`` (a problem code), or None.  Global 1940 [L1091, L1233]: in any territory held
    since the start of the turn, with no factory needed and no factory room used; one of
    each type a territory; a naval base only on a coast (islands too) [L1289]."""
    board = ctx.board
    t = board.map[space]
    if t.is_sea:
        return "base_at_sea"
    if not held_since_start(ctx, space):
        return "base_not_held_since_start"
    if any(p.type == unit_type for p in board.at(space)):
        return "base_already_there"
    if board.rules.units[unit_type].param("base", "serves", "air") == "sea" \
            and not board.map.coastal_zones(space):
        return "naval_base_inland"
    return None


def not_pending(ctx: TurnContext, unit_type: str) -> str | None:
    """Why no unit of ``unit_type`` is left to place (a problem code), or None."""
    bought = purchases(ctx)
    if bought.pending.get(unit_type, 0) <= 0:
        return "not_bought" if unit_type not in bought.bought else "all_placed"
    return None


def _place_one(ctx: TurnContext, unit_type: str, space: str, used: dict[str, int]) -> str | None:
    """Place one unit; returns why not (a problem code), or None."""
    board = ctx.board
    ut = board.rules.units[unit_type]
    t = board.map[space]
    bought = purchases(ctx)
    why = not_pending(ctx, unit_type)
    if why:
        return why
    if ut.has("factory") or (ut.has("base") and ut.has("static")):   # a new facility
        why = (factory_problem if ut.has("factory") else base_problem)(ctx, unit_type, space)
        if why:
            return why
        piece = board.add_new(unit_type, ctx.power, space)
        piece.moved_in.add("place")
        bought.pending[unit_type] -= 1
        return None
    if ut.has("upgrade"):
        why = _upgrade(ctx, ut, space)
        if why is None:
            bought.pending[unit_type] -= 1
        return why
    if t.is_land and ut.domain == Domain.SEA:
        return "ship_placed_on_land"
    if t.is_sea and ut.domain == Domain.LAND:
        return "land_unit_placed_at_sea"
    carrier = None
    if t.is_sea and ut.domain == Domain.AIR:
        if not ut.has("carrier_based") or not board.rules.option("place_aircraft_on_carriers", True):
            return "air_placed_at_sea"
        decks = [c for c in board.at(space) if c.owner == ctx.power
                 and board.utype(c).has("carries_air") and board.can_carry(c, unit_type)]
        if not decks:
            return "no_carrier_room"
        carrier = decks[0]
    factory = _factory_for(ctx, space, used, unit_type)
    if factory is None:
        capacity = factory_capacity(ctx)
        if t.is_land and space not in capacity:
            return "no_factory_here"
        if t.is_sea and not any(board.map.adjacent(f, space) for f in capacity):
            return "no_factory_adjacent"
        return "factory_limit"
    piece = board.add_new(unit_type, ctx.power, space)
    piece.moved_in.add("place")
    if carrier is not None:
        piece.carried_by = carrier.uid
    used[factory] = used.get(factory, 0) + 1
    bought.pending[unit_type] -= 1
    return None


_UPGRADED = "production.upgraded"        # factory uid -> its type before this turn's upgrade


def _upgrade(ctx: TurnContext, upgrade, space: str) -> str | None:
    """Turn the power's undamaged ``from`` factory in ``space`` into ``into`` (Global 1940's
    minor-to-major upgrade [L1081]), where a new ``into`` could be built; it places as a
    ``from`` this turn.  Why not (a problem code), or None."""
    board = ctx.board
    old, new = upgrade.param("upgrade", "from", ""), upgrade.param("upgrade", "into", "")
    t = board.map[space]
    mine = [p for p in board.factories_at(space) if p.type == old and p.owner == ctx.power] \
        if t.is_land else []
    if not mine:
        return "upgrade_no_factory"
    piece = mine[0]
    if piece.damage:
        return "upgrade_damaged"
    held = held_since_start(ctx, space)
    why = build_problem(board.rules.units[new], t.ipc, held, False, t, ctx.power)
    if why:
        return why
    ctx.mechanic(_UPGRADED, dict)[piece.uid] = old
    piece.type = new
    ctx.emit(UnitsChanged(space, ctx.power, old, new, 1))
    return None


def mobilize(ctx: TurnContext) -> None:
    """Place the bought units where ordered, then place leftovers at the factories in a
    fixed order (capital first), then refund what cannot be placed."""
    # The eligible factories stay the same while units are placed (a factory placed now is
    # not one): found once, not again for each unit placed.
    ctx.mechanics[_PLACING] = eligible_factories(ctx)
    try:
        _mobilize(ctx)
    finally:
        del ctx.mechanics[_PLACING]


_PLACING = "production.eligible_factories"


def _mobilize(ctx: TurnContext) -> None:
    used: dict[str, int] = {}
    units = ctx.board.rules.units
    refused: set[str] = set()          # unit types a place order could not place
    for order in ctx.orders.places:
        placed: dict[str, int] = {}
        # Carriers before fighters so new fighters can land on new carriers.
        groups = sorted(order.units, key=lambda g: not units[g.type].has("carries_air"))
        for g in groups:
            for _ in range(g.count):
                why = _place_one(ctx, g.type, order.space, used)
                if why:
                    ctx.error(order.line, why, unit=g.type, space=order.space)
                    refused.add(g.type)
                    break
                placed[g.type] = placed.get(g.type, 0) + 1
        if placed:
            ctx.emit(Placed(ctx.power, dict(sorted(placed.items())), order.space))
    _place_leftovers(ctx, used, refused)


def _place_leftovers(ctx: TurnContext, used: dict[str, int], refused: set[str]) -> None:
    board = ctx.board
    leftovers = {k: n for k, n in purchases(ctx).pending.items() if n > 0}
    if not leftovers:
        return
    # No "placed at your factories or refunded" after an error placing that very type: the
    # error already says what is wrong, and the orders are refused.
    unmentioned = {k: n for k, n in leftovers.items() if k not in refused}
    if unmentioned and ctx.checking:
        ctx.warn(0, "units_not_placed", units=unmentioned)
    for unit_type, n in leftovers.items():
        ut = board.rules.units[unit_type]
        if ut.has("factory") or ut.has("upgrade"):
            continue                      # a new factory goes only where an order says
        for _ in range(n):
            spots = []
            for f in sorted(factory_capacity(ctx), key=_capital_first(ctx)):
                if not main_economy_factory(ctx, f):
                    continue            # leftovers are the main economy's
                spots += [f] if ut.domain != Domain.SEA else board.map.coastal_zones(f)
            for space in spots:
                if _place_one(ctx, unit_type, space, used) is None:
                    ctx.emit(Placed(ctx.power, {unit_type: 1}, space))
                    break
    refund = {k: n for k, n in purchases(ctx).pending.items() if n > 0}
    if refund:
        ipcs = sum(unit_cost(board, ctx.power, k) * n for k, n in refund.items())
        economy = economy_key(ctx)
        board.ipcs[economy] = board.ipcs.get(economy, 0) + ipcs
        purchases(ctx).pending = {}
        ctx.emit(Refunded(ctx.power, refund, ipcs))


def _capital_first(ctx: TurnContext):
    order = {p.space: i for i, p in enumerate(eligible_factories(ctx))}
    return lambda space: order.get(space, len(order))
