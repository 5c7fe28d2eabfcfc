"""Shore bombardment (Spring 1942 rules digest §5.3.2 step 2, [L434-L466], [L819-L869]).

Battleships and cruisers in a sea zone that an amphibious assault unloads from, if there
was no sea battle in that zone, fire once at the defenders before the land battle: one
die each, hitting on ``value`` or less (battleship 4, cruiser 3), at most one ship per
land unit unloaded into the territory, each ship once per turn.  The defender's units hit
still fire in the first round (they stand "behind the casualty strip"): the step fires in
the same stage as the first round's ordinary fire.  Which ships bombard is the turn
engine's choice (``engine.battles.bombarding_ships``), from the ``bombard`` orders.
"""

from __future__ import annotations

from ..combat.model import ATT, Volley
from ..combat.stepbase import BattleStep, register_step
from .base import REQUIRED, Ability, register


@register
class Bombard(Ability):
    name = "bombard"
    doc = "Bombards an amphibious assault's target once, hitting on value (see engine.battles)."
    params = {"value": (int, REQUIRED)}


@register_step
class BombardmentStep(BattleStep):
    name = "bombardment"
    first_round_only = True

    def volleys(self, board, side_idx, side, summ, enemy):
        if side_idx != ATT or board.is_sea or not enemy.n_present:
            return []
        counts: dict[tuple[str, int], int] = {}
        for u in board.support[ATT]:
            if u.type.has("bombard"):
                key = (u.type.key, u.type.param("bombard", "value", 0))
                counts[key] = counts.get(key, 0) + 1
        return [Volley(ATT, "bombard", k, n, v, 0) for (k, v), n in counts.items() if v > 0]
