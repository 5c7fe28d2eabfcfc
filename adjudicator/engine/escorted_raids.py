"""Strategic bombing with escorts and interceptors in one air round (Axis & Allies Europe,
digest §5.4.4 [L591-L619], §8 #13): battle kind ``escorted_raids``, fight ``escorted_raid``,
rule ``raid_interceptors`` and the standing order kind ``intercept``.

* The bombers a ``bomb`` order names raid; every other aircraft of the attacker that ended
  its combat move in the raided territory escorts them [L593, L599]; the defender's
  fighters there intercept when its standing order ``intercept`` says ``yes`` (the
  default) and stay home with ``no`` [L601].  Escorts and interceptors fight in no other
  battle that turn (the per-turn mark ``raids.RAIDING``).
* One air round [L603-L613]: the territory's AA fires one die per raiding aircraft
  (escorts included) at its ``aa_fire`` value; then interceptors fire at 2 and the
  surviving escorts at 1, together; the attacker loses its cheapest aircraft first, the
  defender its interceptors.  Each surviving bomber then rolls one die; what the dice do
  is the edition's ``[turn] raid`` effect (Europe: ``treasury``).
* Interceptors are lost if their territory is captured that turn [L619] (``on_capture``).
Raids are fought before every other battle (list ``escorted_raids`` first) [L365]."""

from __future__ import annotations

from ..model.events import BattleEnded, BattleStarted, Casualties, DiceRolled
from ..model.units import Domain
from .battles import FOUGHT, battle_kind, fight_kind
from .overflight import lose_cheapest
from .raids import RAID_EFFECTS, RAIDING, target_factory
from .turn_rules import Rule, declare_standing, register_rule, standing_choice
from .working import Piece, count_types

INTERCEPT = declare_standing(
    "intercept", "yes", ("yes", "no"),
    "Whether the power's fighters in a raided territory intercept the raid: "
    "'intercept all: no', 'intercept Moscow: yes' (default: yes).")
INTERCEPTOR_HIT, ESCORT_HIT = 2, 1          # [L607, L611]


def _escorts(ctx, space: str) -> list[Piece]:
    board = ctx.board
    return [p for p in board.at(space) if p.owner == ctx.power and RAIDING not in p.marks
            and board.utype(p).domain == Domain.AIR and "combat" in p.moved_in]


def _interceptors(ctx, space: str) -> list[Piece]:
    board = ctx.board
    found = [p for p in board.at(space, include_cargo=True)
             if board.enemy_of(ctx.power, p.owner) and board.utype(p).domain == Domain.AIR
             and board.utype(p).defense > 0]
    return [p for p in found if standing_choice(ctx, p.owner, INTERCEPT.name, space) == "yes"]


@battle_kind("escorted_raids")
def _raids(ctx, order):
    """Raids, by the first line naming them; their escorts and interceptors are marked
    now, so that no other battle counts them (a set per raid: listing the battles twice,
    as a check's odds and then the combat do, records each once)."""
    spaces = sorted(ctx.raids, key=lambda s: ctx.attack_lines.get(s, 10**9))
    for space in spaces:
        for p in _escorts(ctx, space) + _interceptors(ctx, space):
            p.marks.add(RAIDING)
            ctx.mechanic("escorted_raids", dict).setdefault(space, set()).add(p.uid)
    return [(space, "escorted_raid") for space in spaces]


def _volley(ctx, dice, battle: str, side: str, step: str, pieces: list[Piece], target: int) -> int:
    """One die per piece, by unit type; the hits."""
    board = ctx.board
    hits = 0
    for utype in sorted({p.type for p in pieces}):
        n = sum(1 for p in pieces if p.type == utype)
        rolls = tuple(dice.roll(n, f"{battle} round 1 {side} {step} {utype}"))
        got = sum(1 for r in rolls if r <= target)
        ctx.emit(DiceRolled(battle, 1, step, side, board.utype(utype).key, target, rolls, got))
        hits += got
    return hits


@fight_kind("escorted_raid")
def fight_escorted_raid(ctx, space: str, dice, run) -> None:
    board = ctx.board
    factory = target_factory(ctx, space)
    marked = set(ctx.mechanic("escorted_raids", dict).get(space, ()))
    bombers = [board.pieces[u] for u in ctx.raids.get(space, ()) if u in board.pieces]
    if not bombers or factory is None:
        return
    attackers = bombers + [p for p in _escorts_marked(ctx, space, marked)]
    defenders = [p for p in board.at(space, include_cargo=True)
                 if p.uid in marked and p.owner != ctx.power]
    guns = [p for p in board.at(space) if board.enemy_of(ctx.power, p.owner)
            and board.utype(p).has("aa_fire")]
    battle = f"{space} (raid)"
    ctx.emit(BattleStarted(battle, space, "raid", ctx.power, (factory.owner,),
                           count_types(attackers), count_types(defenders + guns)))
    for p in attackers + defenders:
        p.marks.add(FOUGHT)
    if ctx.checking or dice is None:
        return
    lost_a: list[Piece] = []
    lost_d: list[Piece] = []
    if guns:
        gun = board.utype(guns[0])
        value = int(gun.param("aa_fire", "value", 1))
        rolls = tuple(dice.roll(len(attackers), f"{battle} round 1 defender aa {gun.key}"))
        hits = sum(1 for r in rolls if r <= value)
        ctx.emit(DiceRolled(battle, 1, "aa", "defender", gun.key, value, rolls, hits))
        if hits:
            lost = lose_cheapest(board, attackers, hits)
            lost_a += lost
            ctx.emit(Casualties(battle, 1, "attacker", count_types(lost)))
            attackers = [p for p in attackers if p.uid in board.pieces]
    escorts = [p for p in attackers if p not in bombers]
    if defenders and attackers:
        d_hits = _volley(ctx, dice, battle, "defender", "defence", defenders, INTERCEPTOR_HIT)
        a_hits = _volley(ctx, dice, battle, "attacker", "attack", escorts, ESCORT_HIT)
        if d_hits:
            lost = lose_cheapest(board, attackers, d_hits)
            lost_a += lost
            ctx.emit(Casualties(battle, 1, "attacker", count_types(lost)))
        if a_hits:
            lost = lose_cheapest(board, defenders, a_hits)
            lost_d += lost
            ctx.emit(Casualties(battle, 1, "defender", count_types(lost)))
    survivors = [p for p in bombers if p.uid in board.pieces]
    tuv_a = sum(board.utype(p).cost for p in lost_a)
    tuv_d = sum(board.utype(p).cost for p in lost_d)
    ctx.emit(BattleEnded(battle, space, "attacker_wins" if survivors else "defender_wins", 1,
                         count_types(lost_a), count_types(lost_d), tuv_a, tuv_d, tuv_d - tuv_a))
    faces = tuple(dice.roll(len(survivors), f"{battle} damage")) if survivors else ()
    if survivors:
        ctx.emit(DiceRolled(battle, 1, "raid", "attacker", survivors[0].type, 0, faces, 0))
    RAID_EFFECTS[board.rules.plan.raid](ctx, battle, space, factory, faces)


def _escorts_marked(ctx, space: str, marked: set[int]) -> list[Piece]:
    board = ctx.board
    return [p for p in board.at(space) if p.uid in marked and p.owner == ctx.power]


@register_rule
class RaidInterceptors(Rule):
    name = "raid_interceptors"
    doc = "Fighters that intercepted a raid are lost if their territory is captured that turn."

    def on_capture(self, ctx, space, new_owner, previous):
        board = ctx.board
        marked = set(ctx.mechanic("escorted_raids", dict).get(space, ()))
        gone = [p for p in board.at(space, include_cargo=True)
                if p.uid in marked and board.enemy_of(new_owner, p.owner)]
        for p in gone:
            board.remove(p)
        if gone:
            ctx.emit(Casualties(f"{space} (raid)", 0, "defender", count_types(gone), reason="cannot_retreat"))
