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
battle and land in the noncombat move.

Escorts and interceptors [L828-L848]: the attacker's aircraft able to (``escorts_raids``:
fighters) that ended their combat move in the raided territory escort the raid; the
defender's such aircraft there intercept when their owner's standing order ``intercept``
says yes (the default).  Both fight no other battle that turn.  With interceptors there is
one air round, every aircraft hitting on ``AIR_ROUND_HIT`` (1); the attacker loses its
cheapest aircraft, the defender its interceptors; then the surviving escorts withdraw and
the bombers face the facilities' AA.  Interceptors whose territory is captured that turn
fly one space to a friendly territory or an allied carrier, else are lost (rule
``raid_interceptors_move``)."""

from __future__ import annotations

from ..model.events import (
    BattleEnded, BattleStarted, Casualties, DiceRolled, RaidDamage,
)
from .abilities.base import Ability, register
from .abilities.strategic_bomber import damage_bonus
from .battles import FOUGHT, battle_kind, fight_kind, fly_one_space
from .escorted_raids import INTERCEPT
from .overflight import lose_cheapest
from .raids import RAIDING, TARGETS, facility_cap, raid_target
from .turn_rules import Rule, register_rule, standing_choice
from .working import Piece, count_types

AIR_ROUND_HIT = 1           # "every air unit has attack and defence 1" [L834-L838]
MECHANIC = "facility_raids"


@register
class EscortsRaids(Ability):
    name = "escorts_raids"
    doc = ("Escorts a raid on the territory it attacks, or intercepts one on its own (fighters), "
           "hitting on value in the air round (Jet Fighters: 2 [L1194]).")
    params = {"value": (int, AIR_ROUND_HIT)}


def _air_party(ctx, space: str) -> tuple[list[Piece], list[Piece]]:
    """(escorts, interceptors) of a raid on ``space``."""
    board = ctx.board
    escorts = [p for p in board.at(space) if p.owner == ctx.power and RAIDING not in p.marks
               and board.utype(p).has("escorts_raids") and "combat" in p.moved_in]
    interceptors = [p for p in board.at(space) if board.enemy_of(ctx.power, p.owner)
                    and board.utype(p).has("escorts_raids")
                    and standing_choice(ctx, p.owner, INTERCEPT.name, space) == "yes"]
    return escorts, interceptors


@register
class RaidAA(Ability):
    name = "raid_aa"
    doc = "A facility's own AA against bombers raiding it: one die per bomber, hit on value."
    params = {"value": (int, 1)}


@battle_kind("facility_raids")
def _raids(ctx, order):
    """Raids, by the first line naming them; their escorts and interceptors are marked now,
    so that no other battle counts them."""
    spaces = sorted(ctx.raids, key=lambda s: ctx.attack_lines.get(s, 10**9))
    marked = ctx.mechanic(MECHANIC, dict)
    for space in spaces:
        if space in marked:             # the battle order may be listed more than once
            continue
        escorts, interceptors = _air_party(ctx, space)
        for p in escorts + interceptors:
            p.marks.add(RAIDING)
        marked[space] = ([p.uid for p in escorts], [p.uid for p in interceptors])
    return [(space, "facility_raid") for space in spaces]


def _air_round_value(board, piece: Piece) -> int:
    """What ``piece`` hits on in the air round: 1, or its ``escorts_raids`` value."""
    return board.utype(piece).param("escorts_raids", "value", AIR_ROUND_HIT)


def _damage_faces(board, dice, battle: str, raiders: list[Piece]) -> tuple[tuple, tuple]:
    """(every die rolled, the die each raider keeps): one die a bomber, or the best of its
    ``strategic_bomber`` ``dice`` (Heavy Bombers: 2 [L1210])."""
    counts = [max(1, board.utype(p).param("strategic_bomber", "dice", 1)) for p in raiders]
    rolled = tuple(dice.roll(sum(counts), f"{battle} damage"))
    kept, at = [], 0
    for n in counts:
        kept.append(max(rolled[at:at + n]))
        at += n
    return rolled, tuple(kept)


def _air_round(ctx, dice, battle: str, bombers: list[Piece], escorts: list[Piece],
               interceptors: list[Piece]) -> tuple[list[Piece], list[Piece]]:
    """The one air round; returns (attacker's losses, defender's losses)."""
    board = ctx.board
    attackers = bombers + escorts
    hits = {}
    for side, pieces in (("attacker", attackers), ("defender", interceptors)):
        hits[side] = 0
        for utype, value in sorted({(p.type, _air_round_value(board, p)) for p in pieces}):
            n = sum(1 for p in pieces if p.type == utype and _air_round_value(board, p) == value)
            faces = tuple(dice.roll(n, f"{battle} air round {side} {utype}"))
            got = sum(1 for f in faces if f <= value)
            step = "attack" if side == "attacker" else "defence"
            ctx.emit(DiceRolled(battle, 1, step, side, utype, value, faces, got))
            hits[side] += got
    lost_a = lose_cheapest(board, attackers, hits["defender"])
    lost_d = lose_cheapest(board, interceptors, hits["attacker"])
    for side, lost in (("attacker", lost_a), ("defender", lost_d)):
        if lost:
            ctx.emit(Casualties(battle, 1, side, count_types(lost)))
    return lost_a, lost_d


@fight_kind("facility_raid")
def fight_facility_raid(ctx, space: str, dice, run) -> None:
    board = ctx.board
    bombers = [board.pieces[u] for u in ctx.raids.get(space, ()) if u in board.pieces]
    groups: dict[int, list[Piece]] = {}
    targets: dict[int, Piece] = {}
    for p in bombers:
        target = raid_target(ctx, space, board.utype(p), ctx.mechanic(TARGETS, dict).get(p.uid, ""))
        if target is not None:
            groups.setdefault(target.uid, []).append(p)
            targets[target.uid] = target
    if not groups:
        return
    battle = f"{space} (raid)"
    facilities = list(targets.values())
    escort_uids, interceptor_uids = ctx.mechanic(MECHANIC, dict).get(space, ((), ()))
    escorts = [board.pieces[u] for u in escort_uids if u in board.pieces]
    interceptors = [board.pieces[u] for u in interceptor_uids if u in board.pieces]
    ctx.emit(BattleStarted(battle, space, "raid", ctx.power,
                           tuple(sorted({f.owner for f in facilities} | {p.owner for p in interceptors})),
                           count_types(bombers + escorts), count_types(facilities + interceptors)))
    for p in bombers + escorts + interceptors:
        p.marks.add(FOUGHT)
    if ctx.checking or dice is None:
        return
    lost_all: list[Piece] = []
    lost_d: list[Piece] = []
    if interceptors:
        lost_all, lost_d = _air_round(ctx, dice, battle, bombers, escorts, interceptors)
        for uid in groups:
            groups[uid] = [p for p in groups[uid] if p.uid in board.pieces]
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
    tuv_d = sum(board.utype(p).cost for p in lost_d)
    survivors = any(groups.values())
    ctx.emit(BattleEnded(battle, space, "attacker_wins" if survivors else "defender_wins", 1,
                         count_types(lost_all), count_types(lost_d), tuv, tuv_d, tuv_d - tuv))
    for uid in sorted(groups):
        target, raiders = targets[uid], groups[uid]
        if not raiders:
            continue
        ut = board.utype(target)
        rolled, faces = _damage_faces(board, dice, battle, raiders)
        ctx.emit(DiceRolled(battle, 1, "raid", "attacker", raiders[0].type, 0, rolled, 0))
        total = sum(faces) + sum(damage_bonus(board.utype(p)) for p in raiders)
        cap = facility_cap(ut, board.map[space].ipc)
        added = max(0, min(total, cap - target.damage))
        target.damage += added
        ctx.emit(RaidDamage(battle, space, target.type, faces, added, target.damage))


@register_rule
class RaidInterceptorsMove(Rule):
    name = "raid_interceptors_move"
    doc = ("Interceptors whose territory is captured fly one space to a friendly territory or "
           "an allied carrier, else are lost [L836].")

    def on_capture(self, ctx, space, new_owner, previous):
        board = ctx.board
        marked = set(ctx.mechanic(MECHANIC, dict).get(space, ((), ()))[1])
        for p in [p for p in board.at(space) if p.uid in marked
                  and board.enemy_of(new_owner, p.owner)]:
            fly_one_space(ctx, p, space, sorted(board.map.neighbours(space)),
                          "interceptor_home_lost", "interceptor_home_lost")
