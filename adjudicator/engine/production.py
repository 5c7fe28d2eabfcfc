"""Purchase, mobilization and income (digest §5.1, §5.5, §5.6)."""

from __future__ import annotations

from .context import TurnContext
from ..model.events import IncomeCollected, Placed, Purchased, Refunded
from ..model.rules import Ability, Domain
from .working import describe


def eligible_factories(ctx: TurnContext) -> list[str]:
    """Factories the phasing power has controlled since the start of its turn, capital
    first, then by production value."""
    board = ctx.board
    power = ctx.power
    capital = board.rules.powers[power].capital
    found = [t.key for t in board.map.land() if t.factory
             and board.start_owners.get(t.key) == power and board.owners.get(t.key) == power]
    return sorted(found, key=lambda k: (k != capital, -board.map[k].ipc, k))


def factory_capacity(ctx: TurnContext) -> dict[str, int]:
    return {f: ctx.board.map[f].ipc for f in eligible_factories(ctx)}


def purchase(ctx: TurnContext) -> None:
    board = ctx.board
    power = ctx.power
    wanted: dict[str, int] = {}
    line = 0
    for buy in ctx.orders.buys:
        line = line or buy.line
        for g in buy.units:
            wanted[g.type] = wanted.get(g.type, 0) + g.count
    if not wanted:
        return
    if not board.capital_held_by_owner(power):
        ctx.error(line, f"{ctx.name(power)}'s capital is in enemy hands: it cannot buy units")
        return
    cost = sum(board.rules.units[k].cost * n for k, n in wanted.items())
    have = board.ipcs.get(power, 0)
    if cost > have:
        ctx.error(line, f"the purchase costs {cost} IPCs; {ctx.name(power)} has {have}")
        return
    capacity = factory_capacity(ctx)
    total = sum(wanted.values())
    if total > sum(capacity.values()):
        ctx.error(line, f"{total} units bought but your factories can place only "
                        f"{sum(capacity.values())} this turn (FAQ: no deliberate overbuying)")
    naval = sum(n for k, n in wanted.items() if board.rules.units[k].domain == Domain.SEA)
    coastal = sum(c for f, c in capacity.items() if board.map.coastal_zones(f))
    if naval > coastal:
        ctx.error(line, f"{naval} sea units bought but coastal factories can place only {coastal}")
    board.ipcs[power] = have - cost
    ctx.pending_placements = dict(sorted(wanted.items()))
    ctx.bought = dict(ctx.pending_placements)
    ctx.emit(Purchased(power, dict(sorted(wanted.items())), cost, board.ipcs[power]))


def _factory_for(ctx: TurnContext, space: str, used: dict[str, int]) -> str | None:
    """The eligible factory a unit placed in ``space`` counts against (most room first)."""
    board = ctx.board
    capacity = factory_capacity(ctx)
    if board.map[space].is_land:
        candidates = [space] if space in capacity else []
    else:
        candidates = [f for f in capacity if board.map.adjacent(f, space)]
    candidates = [f for f in candidates if used.get(f, 0) < capacity[f]]
    candidates.sort(key=lambda f: (-(capacity[f] - used.get(f, 0)), f))
    return candidates[0] if candidates else None


def _place_one(ctx: TurnContext, unit_type: str, space: str, used: dict[str, int]) -> str | None:
    """Place one unit; returns why not, or None."""
    board = ctx.board
    ut = board.rules.units[unit_type]
    t = board.map[space]
    if ctx.pending_placements.get(unit_type, 0) <= 0:
        if unit_type not in ctx.bought:
            return f"no {ut.name.lower()} was bought this turn (a rejected purchase buys nothing)"
        return f"all {ut.display_plural.lower()} bought this turn are already placed"
    if t.is_land and ut.domain == Domain.SEA:
        return f"{ut.display_plural} are placed in a sea zone next to a factory"
    if t.is_sea and ut.domain == Domain.LAND:
        return "land units cannot be placed at sea (not even onto transports)"
    carrier = None
    if t.is_sea and ut.domain == Domain.AIR:
        if not ut.has(Ability.CARRIER_BASED):
            return f"{ut.display_plural} can only be placed in a factory territory"
        decks = [c for c in board.at(space) if c.owner == ctx.power
                 and board.utype(c).has(Ability.CARRIES_AIR) and board.can_carry(c, unit_type)]
        if not decks:
            return f"no carrier of yours in {space} with room for a fighter"
        carrier = decks[0]
    factory = _factory_for(ctx, space, used)
    if factory is None:
        if t.is_land and space not in factory_capacity(ctx):
            return f"{space} has no factory you have controlled since the start of the turn"
        if t.is_sea and not any(board.map.adjacent(f, space) for f in factory_capacity(ctx)):
            return f"{space} is not next to a factory you have controlled since the start of the turn"
        return f"the factory limit near {space} is reached"
    piece = board.add_new(unit_type, ctx.power, space)
    piece.moved_in.add("place")
    if carrier is not None:
        piece.carried_by = carrier.uid
    used[factory] = used.get(factory, 0) + 1
    ctx.pending_placements[unit_type] -= 1
    return None


def mobilize(ctx: TurnContext) -> None:
    """Place the bought units where ordered, then place leftovers at the factories in a
    fixed order (capital first), then refund what cannot be placed."""
    used: dict[str, int] = {}
    for order in ctx.orders.places:
        placed: dict[str, int] = {}
        # Carriers before fighters so new fighters can land on new carriers.
        groups = sorted(order.units, key=lambda g: not ctx.board.rules.units[g.type].has(Ability.CARRIES_AIR))
        for g in groups:
            for _ in range(g.count):
                why = _place_one(ctx, g.type, order.space, used)
                if why:
                    ctx.error(order.line, f"cannot place {ctx.board.rules.units[g.type].name} in "
                                          f"{order.space}: {why}")
                    break
                placed[g.type] = placed.get(g.type, 0) + 1
        if placed:
            ctx.emit(Placed(ctx.power, dict(sorted(placed.items())), order.space))
    _place_leftovers(ctx, used)


def _place_leftovers(ctx: TurnContext, used: dict[str, int]) -> None:
    board = ctx.board
    leftovers = {k: n for k, n in ctx.pending_placements.items() if n > 0}
    if not leftovers:
        return
    if ctx.checking:
        ctx.warn(0, f"bought but not placed by any order: {describe(board, leftovers)}; "
                    "they will be placed at your factories (capital first) or refunded")
    for unit_type, n in leftovers.items():
        ut = board.rules.units[unit_type]
        for _ in range(n):
            spots = []
            for f in eligible_factories(ctx):
                spots += [f] if ut.domain != Domain.SEA else board.map.coastal_zones(f)
            for space in spots:
                if _place_one(ctx, unit_type, space, used) is None:
                    ctx.emit(Placed(ctx.power, {unit_type: 1}, space))
                    break
    refund = {k: n for k, n in ctx.pending_placements.items() if n > 0}
    if refund:
        ipcs = sum(board.rules.units[k].cost * n for k, n in refund.items())
        board.ipcs[ctx.power] = board.ipcs.get(ctx.power, 0) + ipcs
        ctx.pending_placements = {}
        ctx.emit(Refunded(ctx.power, refund, ipcs))


def collect_income(ctx: TurnContext) -> None:
    board = ctx.board
    power = ctx.power
    if not board.capital_held_by_owner(power):
        ctx.emit(IncomeCollected(power, 0, board.ipcs.get(power, 0), "capital in enemy hands"))
        return
    income = board.income(power)
    board.ipcs[power] = board.ipcs.get(power, 0) + income
    ctx.emit(IncomeCollected(power, income, board.ipcs[power]))

