"""Strategic bombing raids (Spring 1942 rules digest §5.3.1 [L418-L430], §4.3 "Bomber",
"Industrial complex"): a battle kind of its own, fought before every other battle.

``bomb <territory> with <bombers>`` names bombers (``strategic_bomber``) that ended their
combat move in an enemy territory with an enemy factory that can be damaged; they raid
instead of fighting there.  The raid runs the battle engine with the AA fire step only
(the territory's AA gun, one die per bomber, hit on its value), then each surviving
bomber rolls one die and the total is added to the factory's damage, up to its cap
(``abilities.factory.damage_cap``); excess damage is lost.  Raiding bombers fight no
other battle and land in the noncombat move like any attacking aircraft.
"""

from __future__ import annotations

from ..model.dice import DiceSource
from collections.abc import Callable

from ..model.events import BattleStarted, DiceRolled, RaidDamage, TreasuryRaided
from .abilities.factory import damage_cap
from .abilities.strategic_bomber import may_raid
from .combat import BattleSetup, BattleUnit, resolve_battle
from .context import TurnContext
from .errors import OrderFailed
from .working import Piece, count_types

RAID_STAGES = (("aa_fire",),)
# The per-turn mark (``Piece.marks``) of a unit on a raid this turn: its bombers, and with
# escorted raids their escorts and interceptors; no other battle counts them.
RAIDING = "raiding"


def target_factory(ctx: TurnContext, territory: str) -> Piece | None:
    """The enemy factory a raid on ``territory`` damages (the first that can be damaged)."""
    board = ctx.board
    damages = board.rules.plan.raid in DAMAGING
    for p in board.factories_at(territory):
        ipc = board.map[territory].ipc
        if board.enemy_of(ctx.power, p.owner) and (not damages or damage_cap(board.utype(p), ipc) > 0):
            return p
    return None


def facility_kind(unit_type) -> str | None:
    """``factory``, ``base`` or None: what a raid sees this unit as."""
    if unit_type.has("factory"):
        return "factory"
    return "base" if unit_type.has("base") else None


def facility_cap(unit_type, territory_ipc: int) -> int:
    """The most damage a facility carries: a factory's cap, a base's ``max_damage``."""
    if unit_type.has("factory"):
        return damage_cap(unit_type, territory_ipc)
    return unit_type.param("base", "max_damage", 0)


TARGETS = "raids.targets"       # per-turn mechanic: bomber uid -> the facility type its order names


def raid_target(ctx, territory: str, bomber_type, wanted: str = "") -> Piece | None:
    """The enemy facility a bomber of ``bomber_type`` raids in ``territory``: of the type
    ``wanted`` when its order names one, else factories first, then air bases, then naval
    bases (by the order of the units' data)."""
    board = ctx.board
    found = []
    for p in board.at(territory):
        ut = board.utype(p)
        kind = facility_kind(ut)
        if kind and board.enemy_of(ctx.power, p.owner) and may_raid(bomber_type, kind) \
                and facility_cap(ut, board.map[territory].ipc) > 0 \
                and (not wanted or p.type == wanted):
            found.append(p)
    order = list(board.rules.units)
    found.sort(key=lambda p: (facility_kind(board.utype(p)) != "factory", order.index(p.type), p.uid))
    return found[0] if found else None


def declare_raids(ctx: TurnContext) -> None:
    """Mark the bombers each ``bomb`` order names as raiding."""
    for order in ctx.orders.bombs:
        try:
            _declare(ctx, order)
        except OrderFailed as failure:
            ctx.error(order.line, failure.code, **failure.params)


def _declare(ctx: TurnContext, order) -> None:
    board = ctx.board
    space = order.space
    if not board.is_enemy_territory(space):
        raise OrderFailed("raid_not_enemy", space=space)
    kinds = [board.rules.units[g.type] for g in order.units]
    if target_factory(ctx, space) is None and not any(
            raid_target(ctx, space, ut) for ut in kinds if ut.has("strategic_bomber")):
        raise OrderFailed("raid_no_factory", space=space)
    chosen: list[Piece] = []
    for group in order.units:
        ut = board.rules.units[group.type]
        if not ut.has("strategic_bomber"):
            raise OrderFailed("raid_not_bomber", unit=group.type)
        if not may_raid(ut, "factory") and raid_target(ctx, space, ut) is None:
            raise OrderFailed("tactical_bomber_target", unit=group.type, space=space)
        if order.target and raid_target(ctx, space, ut, order.target) is None:
            raise OrderFailed("raid_no_such_target", unit=group.type, space=space,
                              target=order.target)
        pool = [p for p in board.at(space) if p.owner == ctx.power and p.type == group.type
                and "combat" in p.moved_in and RAIDING not in p.marks and p not in chosen]
        if len(pool) < group.count:
            raise OrderFailed("raid_bombers_missing", unit=group.type, count=group.count,
                              space=space, found=len(pool))
        chosen.extend(pool[:group.count])
    for p in chosen:
        p.marks.add(RAIDING)
        if order.target:
            ctx.mechanic(TARGETS, dict)[p.uid] = order.target
    ctx.raids.setdefault(space, []).extend(p.uid for p in chosen)
    ctx.attack_lines.setdefault(space, order.line)


def fight_raid(ctx: TurnContext, space: str, dice: DiceSource | None) -> list[Piece]:
    """AA fire, then the bombing dice, then the damage; the bombers that fought."""
    board = ctx.board
    bombers = [board.pieces[uid] for uid in ctx.raids.get(space, ()) if uid in board.pieces]
    factory = target_factory(ctx, space)
    if not bombers or factory is None:
        return []
    guns = [p for p in board.at(space) if board.enemy_of(ctx.power, p.owner)
            and board.utype(p).has("aa_fire")]
    battle = f"{space} (raid)"
    ctx.emit(BattleStarted(battle, space, "raid", ctx.power, (factory.owner,),
                           count_types(bombers), count_types(guns)))
    if ctx.checking or dice is None:
        return bombers
    setup = BattleSetup(
        battle_id=battle, space=space, is_sea=False, attacker=ctx.power,
        attackers=tuple(BattleUnit(p.uid, board.utype(p), p.owner) for p in bombers),
        defenders=(), stages=RAID_STAGES,
        support=((), tuple(BattleUnit(p.uid, board.utype(p), p.owner) for p in guns)),
        unit_types=board.rules.units)
    result = resolve_battle(setup, dice)
    for event in result.events:
        ctx.emit(event)
    survivors = {u.uid for u in result.attackers}
    for p in bombers:
        if p.uid not in survivors:
            board.remove(p)
    n = len(survivors)
    faces = tuple(dice.roll(n, f"{battle} damage")) if n else ()
    if n:
        ctx.emit(DiceRolled(battle, 1, "raid", "attacker", bombers[0].type, 0, faces, 0))
    RAID_EFFECTS[board.rules.plan.raid](ctx, battle, space, factory, faces)
    return bombers


RaidEffect = Callable[[TurnContext, str, str, Piece, tuple[int, ...]], None]
# What the surviving bombers' dice do, by the name ``[turn] raid`` gives; ``DAMAGING``: the
# effects that damage the factory (a raid needs one that can still be damaged).
RAID_EFFECTS: dict[str, RaidEffect] = {}
DAMAGING: set[str] = set()


def raid_effect(name: str, damages_factory: bool = False):
    """Decorator: register what a raid's bombing dice do under ``name``."""
    def wrap(fn: RaidEffect) -> RaidEffect:
        RAID_EFFECTS[name] = fn
        if damages_factory:
            DAMAGING.add(name)
        return fn
    return wrap


@raid_effect("factory_damage", damages_factory=True)
def damage_factory(ctx: TurnContext, battle: str, space: str, factory: Piece,
                   faces: tuple[int, ...]) -> None:
    """The dice's total is added to the factory's damage, up to its cap (1942)."""
    board = ctx.board
    cap = damage_cap(board.utype(factory), board.map[space].ipc)
    added = max(0, min(sum(faces), cap - factory.damage))
    factory.damage += added
    ctx.emit(RaidDamage(battle, space, factory.type, faces, added, factory.damage))


@raid_effect("treasury")
def take_from_treasury(ctx: TurnContext, battle: str, space: str, factory: Piece,
                       faces: tuple[int, ...]) -> None:
    """The factory's owner loses the dice's total from its treasury, at most what it has
    (the classic and Europe 1999 raid); the factory takes no damage."""
    board = ctx.board
    economy = board.rules.powers[factory.owner].economy.key if factory.owner in board.rules.powers \
        else factory.owner
    lost = min(sum(faces), board.ipcs.get(economy, 0))
    board.ipcs[economy] = board.ipcs.get(economy, 0) - lost
    ctx.emit(TreasuryRaided(battle, space, factory.owner, faces, lost, board.ipcs[economy]))
