"""Submarine abilities: the surprise strike (a battle step) and submerging (a decision at
the start of every round).  Both are cancelled by an enemy ``anti_sub`` unit in the
battle (rules digest §4.12-§4.13, §5.3.2 step 2)."""

from __future__ import annotations

from fractions import Fraction

from ...model.orders import SubmergePolicy
from ..combat.model import ATT, DEF, Change, EnemyView, Volley, best_of_points
from ..combat.rules import traits
from ..combat.stepbase import BattleStep, register_round_decision, register_step
from ..combat.steps import all_volleys, later_volleys
from .base import Ability, register


@register
class SurpriseStrike(Ability):
    name = "surprise_strike"
    doc = ("In sea battles, fires before other units (its own stage) unless an enemy anti_sub "
           "unit is in the battle; attackers hit on <= attack, defenders on <= defense.")


@register
class Submerge(Ability):
    name = "submerge"
    doc = ("May leave a sea battle at the start of a round unless an enemy anti_sub unit is "
           "in it (attacker: ``subs submerge`` directive; defender: standing submerge policy).")

    def slot(self, unit, params, side):
        return {"submerge": True}


@register_step
class SurpriseStrikeStep(BattleStep):
    """Submarines whose enemy has no anti_sub unit on the board fire their surprise strike.
    Both sides fire before any casualty is removed, so a defending sub hit in this stage
    still strikes; casualties are removed at the end of the stage and do not fire later."""

    name = "surprise_strike"

    def claims(self, board, slot, side_idx, enemy):
        return board.is_sea and not enemy.anti_sub and "surprise_strike" in slot.tags

    def may_fire(self, board):
        return board.is_sea

    def volleys(self, board, side_idx, side, summ, enemy):
        if not board.is_sea or enemy.anti_sub:
            return []
        return surprise_volleys(board, side_idx, summ, enemy, "surprise_strike")


def surprise_volleys(board, side_idx, summ, enemy, tag: str) -> list[Volley]:
    """One "surprise" volley per unit kind of ``side_idx`` that carries ``tag``, can fire
    and has a target among the enemy's classes (the surprise strike, and Europe's
    attacker-only first strike)."""
    out: dict[tuple[str, int], list] = {}
    for s, n in zip(board.slots[side_idx], summ.present):
        if not n or not s.can_fire or tag not in s.tags:
            continue
        cls = board.fire_class(s, summ.anti_sub)
        if not enemy.tmask >> cls & 1:
            continue
        key = (s.key, s.dice)
        if key in out:
            out[key][3] += n
        else:
            out[key] = [side_idx, "surprise", s.key, n, s.value, cls, s.dice]
    return [Volley(*v) for v in out.values()]


def _defender_losing(board, state, sa, sd) -> bool:
    """Policy LOSING: the defender's expected hits this round are below the attacker's
    expected hits that could be given to subs, or no defending unit can hit any attacker.
    Expected hits are compared exactly (sums of ``count * value``; a best-of volley's
    expected hits exactly, on six-sided dice)."""
    if not sd.fire & sa.tmask:
        return True
    sub_elig = 0
    for s, n in zip(board.slots[DEF], sd.present):
        if n and s.submerge:
            sub_elig |= s.elig
    if state.round == 1:                 # first-round steps (AA fire, bombardment) count too
        vols = all_volleys(board, state)
        ours = sum(_points(v) for v in vols if v.side == DEF)
        theirs = sum(_points(v) for v in vols if v.side == ATT and sub_elig >> v.cls & 1)
    else:                                # later rounds: each side's volleys, once per view
        ours = _fire_sum(board, DEF, state.dfn, EnemyView(sa.tmask, sa.anti_sub), -1)
        theirs = _fire_sum(board, ATT, state.att, EnemyView(sd.tmask, sd.anti_sub), sub_elig)
    return ours < theirs


def _points(v: Volley) -> int | Fraction:
    """A volley's expected hits times 6: ``count * value``; a best-of volley's
    ``count * 6 * hit_chance`` as an exact fraction."""
    if v.dice == 1:
        return v.count * v.target
    return Fraction(v.count * best_of_points(v.target, 6, v.dice, v.dice), 6 ** (v.dice - 1))


def _fire_sum(board, side_idx: int, side, view, classes: int) -> int:
    """Sum of ``count * value`` over one side's volleys of a round after the first whose
    target class is in the bit set ``classes``."""
    key = ("fire_sum", side_idx, side, view, classes)
    cache = board._step_volleys
    found = cache.get(key)
    if found is None:
        found = cache[key] = sum(_points(v) for stage in range(len(board.stages))
                                 for v in later_volleys(board, side_idx, side, view, stage)
                                 if classes >> v.cls & 1)
    return found


def _attacker_may_submerge(board, ta, td) -> bool:
    return board.is_sea and board.attacker_submerges and ta.can_submerge and not td.anti_sub


def _defender_may_submerge(board, ta, td) -> bool:
    """The defender's subs may go (policy LOSING still compares the expected hits)."""
    return (board.is_sea and td.can_submerge and not ta.anti_sub and ta.on_board
            and board.defender_submerge is not SubmergePolicy.NEVER)


def _may_act(board, ta, td) -> bool:
    return _attacker_may_submerge(board, ta, td) or _defender_may_submerge(board, ta, td)


@register_round_decision("submerge", may_act=_may_act)
def decide_submerge(board, state):
    """Attacker first (``subs submerge`` directive: at the first chance), then the defender
    by its standing policy; both only in sea battles with no enemy anti_sub unit present."""
    if not board.is_sea:
        return state, []
    changes = []
    sa = board.summary(ATT, state.att)
    sd = board.summary(DEF, state.dfn)
    td = traits(board, DEF, state.dfn)
    if _attacker_may_submerge(board, traits(board, ATT, state.att), td):
        subs = tuple((i, n) for i, (s, n) in enumerate(zip(board.slots[ATT], sa.present))
                     if n and s.submerge)
        state = state._replace(att=state.att._replace(submerged=True))
        changes.append(Change("submerge", ATT, subs))
        sa = board.summary(ATT, state.att)
    if _defender_may_submerge(board, traits(board, ATT, state.att), td):
        policy = board.defender_submerge
        if policy is SubmergePolicy.ALWAYS or (
                policy is SubmergePolicy.LOSING and _defender_losing(board, state, sa, sd)):
            subs = tuple((i, n) for i, (s, n) in enumerate(zip(board.slots[DEF], sd.present))
                         if n and s.submerge)
            state = state._replace(dfn=state.dfn._replace(submerged=True))
            changes.append(Change("submerge", DEF, subs))
    return state, changes
