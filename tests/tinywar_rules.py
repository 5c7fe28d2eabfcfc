"""The test edition's one new ability, "ambush", plugged into the engine from outside the
package: a defending unit with it fires in its own battle step before everyone else, every
round, at its ``value``; the units it hits are removed before they fire.  Nothing in the
adjudicator knows this name."""

from __future__ import annotations

from adjudicator.engine.abilities.base import REQUIRED, Ability, register
from adjudicator.engine.combat.model import DEF, Volley
from adjudicator.engine.combat.stepbase import BattleStep, register_step


@register
class Ambush(Ability):
    name = "ambush"
    doc = "Defending in a land battle, fires first every round (hit on value)."
    params = {"value": (int, REQUIRED)}


@register_step
class AmbushStep(BattleStep):
    name = "ambush"

    def _fires(self, board, slot, side_idx) -> bool:
        return side_idx == DEF and not board.is_sea and "ambush" in slot.tags

    def claims(self, board, slot, side_idx, enemy):
        return self._fires(board, slot, side_idx)

    def volleys(self, board, side_idx, side, summ, enemy):
        out = []
        for s, n in zip(board.slots[side_idx], summ.present):
            if n and self._fires(board, s, side_idx) and enemy.tmask & 1:
                out.append(Volley(side_idx, "ambush", s.key, n, s.params["ambush"]["value"], 0))
        return out
