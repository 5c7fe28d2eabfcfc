"""Submarine abilities: the surprise strike (a battle step) and submerging (a decision at
the start of every round).  Both are cancelled by an enemy ``anti_sub`` unit in the
battle (rules digest §4.12-§4.13, §5.3.2 step 2)."""

from __future__ import annotations

from ...model.orders import SubmergePolicy
from ..combat.model import ATT, DEF, Change, Volley
from ..combat.stepbase import BattleStep, register_round_decision, register_step
from ..combat.steps import all_volleys
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

    def claims(self, board, slot, side_idx, summ, enemy):
        return board.is_sea and not enemy.anti_sub and "surprise_strike" in slot.tags

    def volleys(self, board, side_idx, side, summ, enemy):
        if not board.is_sea or enemy.anti_sub:
            return []
        out: dict[str, list] = {}
        for s, n in zip(board.slots[side_idx], summ.present):
            if not n or not s.can_fire or "surprise_strike" not in s.tags:
                continue
            cls = board.fire_class(s, summ.anti_sub)
            if not enemy.tmask >> cls & 1:
                continue
            if s.key in out:
                out[s.key][3] += n
            else:
                out[s.key] = [side_idx, "surprise", s.key, n, s.value, cls]
        return [Volley(*v) for v in out.values()]


def _defender_losing(board, state, sa, sd) -> bool:
    """Policy LOSING: the defender's expected hits this round are below the attacker's
    expected hits that could be given to subs, or no defending unit can hit any attacker.
    Expected hits are compared exactly (sums of ``count * value``)."""
    if not sd.fire & sa.tmask:
        return True
    vols = all_volleys(board, state)
    sub_elig = 0
    for s, n in zip(board.slots[DEF], sd.present):
        if n and s.submerge:
            sub_elig |= s.elig
    ours = sum(v.count * v.target for v in vols if v.side == DEF)
    theirs = sum(v.count * v.target for v in vols if v.side == ATT and sub_elig >> v.cls & 1)
    return ours < theirs


@register_round_decision("submerge")
def decide_submerge(board, state):
    """Attacker first (``subs submerge`` directive: at the first chance), then the defender
    by its standing policy; both only in sea battles with no enemy anti_sub unit present."""
    if not board.is_sea:
        return state, []
    changes = []
    sa = board.summary(ATT, state.att)
    sd = board.summary(DEF, state.dfn)
    if board.attacker_submerges and sa.can_submerge and not sd.anti_sub:
        subs = tuple((i, n) for i, (s, n) in enumerate(zip(board.slots[ATT], sa.present))
                     if n and s.submerge)
        state = state._replace(att=state.att._replace(submerged=True))
        changes.append(Change("submerge", ATT, subs))
        sa = board.summary(ATT, state.att)
    if sd.can_submerge and not sa.anti_sub and sa.n_present:
        policy = board.defender_submerge
        if policy is SubmergePolicy.ALWAYS or (
                policy is SubmergePolicy.LOSING and _defender_losing(board, state, sa, sd)):
            subs = tuple((i, n) for i, (s, n) in enumerate(zip(board.slots[DEF], sd.present))
                         if n and s.submerge)
            state = state._replace(dfn=state.dfn._replace(submerged=True))
            changes.append(Change("submerge", DEF, subs))
    return state, changes
