"""Submerging that an enemy destroyer does not prevent (Axis & Allies Europe, digest §4.2
submarine, §5.3.3 B [L439-L441, L457, L479, L785]): "any enemy destroyer cancels first
strike ... it does not stop subs from submerging".

``free_submerge`` is the ``submerge`` ability without the ``anti_sub`` condition: at the
start of every round of a sea battle the attacker's submarines submerge by its ``subs
submerge`` battle order and the defender's by its standing submerge policy, whether or not
the enemy has a destroyer.  The decision reuses the submarine module's policy test."""

from __future__ import annotations

from ...model.orders import SubmergePolicy
from ..combat.model import ATT, DEF, Change
from ..combat.rules import traits
from ..combat.stepbase import register_round_decision
from .base import Ability, register
from .submarine import _defender_losing


@register
class FreeSubmerge(Ability):
    name = "free_submerge"
    doc = ("May leave a sea battle at the start of a round, even with an enemy anti_sub unit "
           "in it (attacker: ``subs submerge`` directive; defender: standing submerge policy).")

    def slot(self, unit, params, side):
        return {"submerge": True}


def _attacker_may(board, ta, td) -> bool:
    return board.is_sea and board.attacker_submerges and ta.can_submerge


def _defender_may(board, ta, td) -> bool:
    return (board.is_sea and td.can_submerge and ta.on_board
            and board.defender_submerge is not SubmergePolicy.NEVER)


def _may_act(board, ta, td) -> bool:
    return _attacker_may(board, ta, td) or _defender_may(board, ta, td)


def _submerge_side(board, state, side_idx: int):
    """``state`` with every present submerging unit of one side gone under, and the change."""
    summ = board.summary(side_idx, state.att if side_idx == ATT else state.dfn)
    subs = tuple((i, n) for i, (s, n) in enumerate(zip(board.slots[side_idx], summ.present))
                 if n and s.submerge)
    if side_idx == ATT:
        state = state._replace(att=state.att._replace(submerged=True))
    else:
        state = state._replace(dfn=state.dfn._replace(submerged=True))
    return state, Change("submerge", side_idx, subs)


@register_round_decision("free_submerge", may_act=_may_act)
def decide_free_submerge(board, state):
    """Attacker first (at the first chance, if its battle order says so), then the defender
    by its standing policy (LOSING compares the expected hits, as for ``submerge``)."""
    if not board.is_sea:
        return state, []
    changes = []
    if _attacker_may(board, traits(board, ATT, state.att), traits(board, DEF, state.dfn)):
        state, change = _submerge_side(board, state, ATT)
        changes.append(change)
    if _defender_may(board, traits(board, ATT, state.att), traits(board, DEF, state.dfn)):
        policy = board.defender_submerge
        sa, sd = board.summary(ATT, state.att), board.summary(DEF, state.dfn)
        if policy is SubmergePolicy.ALWAYS or (
                policy is SubmergePolicy.LOSING and _defender_losing(board, state, sa, sd)):
            state, change = _submerge_side(board, state, DEF)
            changes.append(change)
    return state, changes
