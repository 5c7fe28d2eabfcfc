"""Anti-aircraft fire whose losses the attacker chooses (Axis & Allies Europe, digest §4.2
"AA gun", §5.3.2 B [L375-L383, L711-L713]).

The battle step ``aa_fire_attacker_chooses`` is the ``aa_fire`` step of the ``aa_fire``
ability with one difference: its dice are not aimed.  Before the first round of a land
battle the defender rolls one die per attacking aircraft (however many guns it has),
hitting on the gun's ``value`` -- at most ``shots_per_gun`` per gun when the gun's data
gives it (``aa_fire.aa_dice``: Global 1940's three) --, and "the attacker chooses which aircraft are lost" [L381]:
the hits go to the attacker's aircraft by its loss order.  Airborne units the guns fire at
(``aa_fire`` targets ``airborne``: Global 1940's paratroopers [L1182]) count as aircraft
here: one die each within the cap, and the attacker's loss order may give them the hits.
An edition lists this step in its ``battle_stages`` instead of ``aa_fire``."""

from __future__ import annotations

from ..combat.board import ONLY_AIR
from ..combat.model import DEF, Volley
from ..combat.stepbase import BattleStep, register_step
from .aa_fire import aa_dice


@register_step
class AAFireAttackerChoosesStep(BattleStep):
    name = "aa_fire_attacker_chooses"
    first_round_only = True

    def volleys(self, board, side_idx, side, summ, enemy):
        if side_idx != DEF or board.is_sea or not enemy.aa_targets:
            return []
        gun = next((u for u in board.support[DEF] if u.type.has("aa_fire")), None)
        if gun is None:
            return []
        dice = aa_dice(board.support[DEF], enemy.aa_targets)
        if not dice:
            return []
        return [Volley(DEF, "aa", gun.type.key, dice, gun.type.param("aa_fire", "value", 1),
                       ONLY_AIR)]
