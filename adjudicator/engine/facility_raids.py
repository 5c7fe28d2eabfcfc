"""Strategic and tactical bombing raids on facilities (Global 1940 digest §5.6, §6.3.2, seed
004 [L828-L848, L1225-L1299]): battle kind ``facility_raids``, fight ``facility_raid``.

``bomb <territory> with <bombers>`` names bombers that ended their combat move there; each
raids the first enemy facility there it may hit (``strategic_bomber`` ``targets``: the
strategic bomber a factory, else an air base, else a naval base; the tactical bomber an air
base, else a naval base).  Each targeted facility fires its own AA (``raid_aa``: one die per
bomber raiding it, hit on ``value``; the attacker loses its cheapest bombers there; AA guns
in the territory do not fire [L844]); then each surviving bomber rolls one die, plus its
``damage`` bonus (the strategic bomber's +2), and the total is the facility's damage, up to
its cap (``facility_cap``: a factory's, a base's ``max_damage``).  Raiders fight no other
battle and land in the noncombat move.  Escorts and interceptors wait (ruling)."""

from __future__ import annotations

from ..model.events import BattleEnded, BattleStarted, Casualties, DiceRolled, RaidDamage
from .abilities.base import Ability, register
from .abilities.strategic_bomber import damage_bonus
from .battles import FOUGHT, battle_kind, fight_kind
from .overflight import lose_cheapest
from .raids import facility_cap, raid_target
from .working import Piece, count_types


@register
class RaidAA(Ability):
    name = "raid_aa"
    doc = "A facility's own AA against bombers raiding it: one die per bomber, hit on value."
    params = {"value": (int, 1)}


@battle_kind("facility_raids")
def _raids(ctx, order):
    """Raids, by the first line naming them."""
    return [(space, "facility_raid")
            for space in sorted(ctx.raids, key=lambda s: ctx.attack_lines.get(s, 10**9))]


@fight_kind("facility_raid")
def fight_facility_raid(ctx, space: str, dice, run) -> None:
    board = ctx.board
    bombers = [board.pieces[u] for u in ctx.raids.get(space, ()) if u in board.pieces]
    groups: dict[int, list[Piece]] = {}
    targets: dict[int, Piece] = {}
    for p in bombers:
        target = raid_target(ctx, space, board.utype(p))
        if target is not None:
            groups.setdefault(target.uid, []).append(p)
            targets[target.uid] = target
    if not groups:
        return
    battle = f"{space} (raid)"
    facilities = list(targets.values())
    ctx.emit(BattleStarted(battle, space, "raid", ctx.power,
                           tuple(sorted({f.owner for f in facilities})),
                           count_types(bombers), count_types(facilities)))
    for p in bombers:
        p.marks.add(FOUGHT)
    if ctx.checking or dice is None:
        return
    lost_all: list[Piece] = []
    for uid in sorted(groups):
        target, raiders = targets[uid], groups[uid]
        ut = board.utype(target)
        if ut.has("raid_aa"):
            value = ut.param("raid_aa", "value", 1)
            faces = tuple(dice.roll(len(raiders), f"{battle} {target.type} aa"))
            hits = sum(1 for f in faces if f <= value)
            ctx.emit(DiceRolled(battle, 1, "aa", "defender", target.type, value, faces, hits))
            lost = lose_cheapest(board, raiders, hits)
            if lost:
                ctx.emit(Casualties(battle, 1, "attacker", count_types(lost)))
            lost_all += lost
            groups[uid] = [p for p in raiders if p not in lost]
    tuv = sum(board.utype(p).cost for p in lost_all)
    survivors = any(groups.values())
    ctx.emit(BattleEnded(battle, space, "attacker_wins" if survivors else "defender_wins", 1,
                         count_types(lost_all), {}, tuv, 0, -tuv))
    for uid in sorted(groups):
        target, raiders = targets[uid], groups[uid]
        if not raiders:
            continue
        ut = board.utype(target)
        faces = tuple(dice.roll(len(raiders), f"{battle} damage"))
        ctx.emit(DiceRolled(battle, 1, "raid", "attacker", raiders[0].type, 0, faces, 0))
        total = sum(faces) + sum(damage_bonus(board.utype(p)) for p in raiders)
        cap = facility_cap(ut, board.map[space].ipc)
        added = max(0, min(total, cap - target.damage))
        target.damage += added
        ctx.emit(RaidDamage(battle, space, target.type, faces, added, target.damage))
