"""Research and development, Global 1940's optional rule (option ``research``, digest §7
[L1141-L1202]): rule ``research``, the new phase 1 of a turn, run at the start of the
phasing power's Purchase & Repair (before anything is bought), and income item
``war_bonds``.

``research 3 dice, chart 2``: the power buys research dice (option
``research_die_cost``, 5 IPCs each; the UK's economies pay in turn, UK Europe first
[L401]), rolls them with those it kept, and a 6 is a breakthrough: one die on the chart
the order names (options ``research_chart_1``/``research_chart_2``, the six technologies
in the order of the chart) gives the technology, held from then on (per-power state
``technologies``, ``engine.technology``) and in effect at once.  Dice are kept until a
breakthrough (option ``research_dice_kept``; per-power state ``research_dice``) and rolled
in each later turn whose orders have a research line; several 6s give one breakthrough;
a technology already held gives nothing (rulings).  The powers of option
``research_excluded`` (China [L1145]) never research; with the option off every research
order is refused.  Events ``research_rolled`` and ``technology_gained``.
"""

from __future__ import annotations

from ..model.events import ParatroopersDropped, ResearchRolled, RocketFired, TechnologyGained
from ..model.units import Domain
from .bases import operative
from .battles import AIRBORNE, SEABORNE
from .economy_purchase import capital_lost, economies_of
from .income import IncomeContext, item
from .raids import facility_cap, facility_kind
from .technology import TECHNOLOGIES, held, holds
from .turn_rules import Rule, declare_state, register_rule

KEPT = declare_state("research_dice", int, per_power=True)
BREAKTHROUGH = 6
WAR_BONDS = "war_bonds"
ROCKETS, ROCKET_RANGE = "rockets", 4
PARATROOPERS, PARATROOP_RANGE, PARATROOPS_PER_BASE = "paratroopers", 3, 2
MAX_RESEARCH_DICE = 100          # bound on one order's dice


def chart(rules, number: int) -> tuple[str, ...]:
    """The technologies of chart ``number`` (1 or 2), by die face."""
    text = str(rules.option(f"research_chart_{number}", ""))
    return tuple(t.strip() for t in text.split(",") if t.strip())


def _excluded(rules, power: str) -> bool:
    text = str(rules.option("research_excluded", ""))
    return power in {p.strip() for p in text.split(",")}


def _economy(ctx, text: str) -> str | None:
    """The phasing power's economy ``text`` names: its key ('uk_pacific'), the key without
    the power's ('pacific'), or its capital territory ('India')."""
    folded = text.casefold().replace(" ", "_")
    for e in ctx.board.rules.powers[ctx.power].all_economies:
        if folded in (e.key, e.key.removeprefix(ctx.power + "_"),
                      (e.capital or "").casefold().replace(" ", "_")):
            return e.key
    return None


def _pay(ctx, order, cost: int) -> bool:
    """Take ``cost`` from the phasing power's economies: what the order says each pays,
    the rest the main one first (either UK economy may pay [L401]); False (and an error,
    nothing taken) if they cannot."""
    board = ctx.board
    payers = [e for e in economies_of(ctx) if not capital_lost(ctx, e)]
    fixed: dict[str, int] = {}
    for text, ipcs in order.payments:
        economy = _economy(ctx, text)
        if economy is None or economy not in payers:
            ctx.error(order.line, "research_unknown_economy", economy=text, power=ctx.power)
            return False
        fixed[economy] = fixed.get(economy, 0) + ipcs
    if sum(fixed.values()) > cost or any(board.ipcs.get(e, 0) < n for e, n in fixed.items()):
        ctx.error(order.line, "research_economy_pays", cost=cost,
                  paid=", ".join(f"{e} {n}" for e, n in sorted(fixed.items())))
        return False
    left = {e: board.ipcs.get(e, 0) - fixed.get(e, 0) for e in payers}
    if sum(left.values()) < cost - sum(fixed.values()):
        ctx.error(order.line, "research_too_expensive", cost=cost,
                  ipcs=sum(board.ipcs.get(e, 0) for e in payers))
        return False
    for e, n in fixed.items():
        board.ipcs[e] -= n
        cost -= n
    for e in payers:
        part = min(cost, board.ipcs.get(e, 0))
        board.ipcs[e] = board.ipcs.get(e, 0) - part
        cost -= part
    return True


def research(ctx, order) -> None:
    """Carry out one research order of the phasing power."""
    board, rules, power = ctx.board, ctx.board.rules, ctx.power
    if not rules.option("research", False):
        ctx.error(order.line, "research_off")
        return
    if _excluded(rules, power):
        ctx.error(order.line, "research_not_allowed", power=power)
        return
    if order.dice > MAX_RESEARCH_DICE:
        ctx.error(order.line, "research_too_many", dice=order.dice, most=MAX_RESEARCH_DICE)
        return
    if order.chart not in (1, 2):
        ctx.error(order.line, "research_no_chart")
        return
    cost = order.dice * int(rules.option("research_die_cost", 5))
    if not _pay(ctx, order, cost):
        return
    kept = board.read_state(KEPT, power, 0)
    total = kept + order.dice
    if ctx.dice is None or total == 0:
        return
    rolls = tuple(ctx.dice.roll(total, f"{power} research"))
    success = BREAKTHROUGH in rolls
    keep = 0 if success or not rules.option("research_dice_kept", False) else total
    if keep or kept:
        board.write_state(KEPT, keep, power)
    ctx.emit(ResearchRolled(power, order.dice, cost, kept, rolls, success, keep))
    if success:
        _breakthrough(ctx, order.chart)


def _breakthrough(ctx, number: int) -> None:
    board, power = ctx.board, ctx.power
    techs = chart(board.rules, number)
    face = ctx.dice.roll(1, f"{power} research chart {number}")[0]
    tech = techs[face - 1] if 0 < face <= len(techs) else ""
    have = holds(board, power, tech)
    if tech and not have:
        board.write_state(TECHNOLOGIES, sorted({*held(board, power), tech}), power)
    ctx.emit(TechnologyGained(power, number, face, tech, have, held(board, power)))


@register_rule
class Research(Rule):
    name = "research"
    doc = ("Research and development (option research): research dice bought and rolled "
           "at the start of Purchase & Repair, a breakthrough's technology [L1141-L1202].")

    def at_step(self, ctx, point, step):
        if point != "start" or step != "purchase":
            return
        for order in ctx.orders.of("research"):
            research(ctx, order)


# -- Rockets [L1180] ----------------------------------------------------------------------------

def _rocket_base(board, power: str, space: str):
    """``power``'s operative air base in ``space``, or None."""
    for p in board.at(space):
        ut = board.utype(p)
        if p.owner == power and ut.param("base", "serves") == "air" and operative(board, p):
            return p
    return None


def rocket_target(board, power: str, space: str):
    """The enemy facility a rocket hits in ``space``: a factory first, then a base (as a
    strategic bomber's raid takes them), one that can still be damaged."""
    order = list(board.rules.units)
    found = [p for p in board.at(space)
             if facility_kind(board.utype(p)) and board.enemy_of(power, p.owner)
             and facility_cap(board.utype(p), board.map[space].ipc) > 0]
    found.sort(key=lambda p: (facility_kind(board.utype(p)) != "factory", order.index(p.type), p.uid))
    return found[0] if found else None


def _neutral_to(board, power: str, space: str) -> bool:
    """Land of an owner neither allied with nor at war with ``power`` (rockets may not fly
    over it [L1180])."""
    owner = board.owners.get(space)
    t = board.map[space]
    return t.is_land and owner is not None and owner != power \
        and not board.allied(power, owner) and not board.enemy_of(power, owner)


def in_range(board, power: str, base: str, target: str, spaces: int) -> bool:
    """Whether ``target`` is at most ``spaces`` from ``base``, by a path over no neutral
    territory (rockets [L1180]; paratroopers, who move as air units [L1182])."""
    frontier, seen = {base}, {base}
    for _ in range(spaces):
        nxt = set()
        for space in frontier:
            for n in board.map.neighbours(space):
                if n == target:
                    return True
                if n not in seen and not _neutral_to(board, power, n):
                    seen.add(n)
                    nxt.add(n)
        frontier = nxt
    return False


def fire_rocket(ctx, order, used: set[str]) -> None:
    board, power = ctx.board, ctx.power
    if not holds(board, power, ROCKETS):
        ctx.error(order.line, "rocket_no_technology", power=power)
        return
    if _rocket_base(board, power, order.base) is None:
        ctx.error(order.line, "rocket_no_base", space=order.base)
        return
    if order.base in used:
        ctx.error(order.line, "rocket_base_used", space=order.base)
        return
    target = rocket_target(board, power, order.target)
    if target is None:
        ctx.error(order.line, "rocket_no_target", space=order.target)
        return
    if not in_range(board, power, order.base, order.target, ROCKET_RANGE):
        ctx.error(order.line, "rocket_too_far", space=order.base, target=order.target)
        return
    used.add(order.base)
    if ctx.dice is None:
        return
    face = ctx.dice.roll(1, f"{power} rocket {order.base} {order.target}")[0]
    cap = facility_cap(board.utype(target), board.map[order.target].ipc)
    added = max(0, min(face, cap - target.damage))
    target.damage += added
    ctx.emit(RocketFired(power, order.base, order.target, target.type, face, added, target.damage))


@register_rule
class Rockets(Rule):
    name = "rockets"
    doc = ("Rockets [L1180]: each operative air base fires once at an enemy facility within "
           "4 spaces, not over neutral land, at the start of Conduct Combat (a die of damage).")

    def at_step(self, ctx, point, step):
        if point != "start" or step != "conduct_combat":
            return
        used: set[str] = set()
        for order in ctx.orders.of("rocket"):
            fire_rocket(ctx, order, used)


# -- Paratroopers [L1182] -----------------------------------------------------------------------

def _paratroop_problem(ctx, order, used: dict[str, int]) -> tuple[str, dict] | None:
    board, power = ctx.board, ctx.power
    if not holds(board, power, PARATROOPERS):
        return "paratroop_no_technology", {"power": power}
    if not 1 <= order.count <= PARATROOPS_PER_BASE - used.get(order.base, 0):
        return "paratroop_too_many", {"space": order.base, "most": PARATROOPS_PER_BASE}
    if _rocket_base(board, power, order.base) is None:
        return "paratroop_no_base", {"space": order.base}
    if len(_paratroopers(ctx, order.base)) < order.count:
        return "paratroop_no_infantry", {"space": order.base, "count": order.count}
    if not board.is_enemy_territory(order.target, power):
        return "paratroop_not_hostile", {"space": order.target}
    if not in_range(board, power, order.base, order.target, PARATROOP_RANGE):
        return "paratroop_too_far", {"space": order.base, "target": order.target}
    if _ground_attacker(ctx, order.target) is None:
        return "paratroop_no_attack", {"space": order.target}
    return None


def _paratroopers(ctx, base: str) -> list:
    """The phasing power's infantry (option ``paratroop_unit``) in ``base`` that have not
    moved this turn."""
    kind = str(ctx.board.rules.option("paratroop_unit", "infantry"))
    return [p for p in ctx.board.at(base) if p.owner == ctx.power and p.type == kind
            and not p.moved_in]


def _ground_attacker(ctx, target: str):
    """A land unit of the phasing power that moved into ``target`` in its combat move
    (overland or from a transport) [L1182]."""
    board = ctx.board
    return next((p for p in board.at(target) if p.owner == ctx.power and "combat" in p.moved_in
                 and board.utype(p).domain == Domain.LAND and AIRBORNE not in p.marks), None)


def drop_paratroopers(ctx, order, used: dict[str, int]) -> None:
    problem = _paratroop_problem(ctx, order, used)
    if problem is not None:
        ctx.error(order.line, problem[0], **problem[1])
        return
    used[order.base] = used.get(order.base, 0) + order.count
    leader = _ground_attacker(ctx, order.target)
    for p in _paratroopers(ctx, order.base)[:order.count]:
        p.space = order.target
        p.moved_in.add("combat")
        p.marks.add(AIRBORNE)                # AA guns there fire at them [L1182]
        p.came_from = leader.came_from       # they retreat with the land units [L1182]
        if SEABORNE in leader.marks:
            p.marks.add(SEABORNE)
        p.order_line = order.line
    ctx.emit(ParatroopersDropped(ctx.power, order.base, order.target, order.count))


@register_rule
class Paratroopers(Rule):
    name = "paratroopers"
    doc = ("Paratroopers [L1182]: up to 2 infantry from an operative air base's territory join "
           "an attack by land units on a hostile territory up to 3 spaces away, at the end "
           "of the combat move.")

    def at_step(self, ctx, point, step):
        if point != "end" or step != "combat_move":
            return
        used: dict[str, int] = {}
        for order in ctx.orders.of("paratroop"):
            drop_paratroopers(ctx, order, used)


@item(WAR_BONDS, projected=False)
def war_bonds(inc: IncomeContext) -> int | list:
    """War Bonds [L1186]: one die of extra IPCs in Collect Income."""
    if inc.ctx is None or not holds(inc.ctx.board, inc.power, WAR_BONDS):
        return []
    rolls = inc.roll(1, f"{inc.power} war bonds")
    return [(inc.economies[0], sum(rolls))] if rolls else []
