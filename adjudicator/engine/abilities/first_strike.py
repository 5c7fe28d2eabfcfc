"""The attacker's first strike (Axis & Allies Europe, digest §4.2 submarine, §5.3.3 B
[L431-L443, L785, L805]): in every round of a sea battle, *attacking* units with the
``attacker_first_strike`` ability fire before all others, hitting on their attack value;
the units they hit are removed before they can fire back.  Defending units with the
ability fire with everyone else.  An enemy ``anti_sub`` unit in the battle cancels the
strike (those units then fire in the ordinary fire), and it comes back in the round after
the last such unit is lost.  Listed in an edition's ``battle_stages`` as
``attacker_first_strike``, in a stage of its own before the ordinary fire."""

from __future__ import annotations

from ..combat.model import ATT
from ..combat.stepbase import BattleStep, register_step
from .base import Ability, register
from .submarine import surprise_volleys


@register
class AttackerFirstStrike(Ability):
    name = "attacker_first_strike"
    doc = ("When attacking in a sea battle, fires before other units every round (stage "
           "attacker_first_strike) unless an enemy anti_sub unit is in the battle; as a "
           "defender it fires with the others.")


@register_step
class AttackerFirstStrikeStep(BattleStep):
    name = "attacker_first_strike"

    def claims(self, board, slot, side_idx, enemy):
        return (side_idx == ATT and board.is_sea and not enemy.anti_sub
                and AttackerFirstStrike.name in slot.tags)

    def may_fire(self, board):
        return board.is_sea

    def volleys(self, board, side_idx, side, summ, enemy):
        if side_idx != ATT or not board.is_sea or enemy.anti_sub:
            return []
        return surprise_volleys(board, side_idx, summ, enemy, AttackerFirstStrike.name)
