"""Abilities that change how a unit fights, taken by the battle board as slot traits
(``combat.board.Slot``): hit points, casualty order and target restrictions."""

from __future__ import annotations

from ..combat.board import NO_AIR
from .base import Ability, register


@register
class TwoHits(Ability):
    name = "two_hits"
    doc = ("Needs two hits to be destroyed; the first hit is free (the default casualty "
           "choice takes it before any unit is lost).  ``repair``: when damage goes away "
           "(\"end_of_battle\": 1941 and 1942; \"naval_base\": it lasts, kept as the unit's "
           "damage 1, until a naval base repairs it: Global 1940, engine.bases).")
    params = {"repair": (str, "end_of_battle")}

    def check(self, unit, params):
        if params.get("repair", "end_of_battle") not in ("end_of_battle", "naval_base"):
            return [f"two_hits: repair '{params['repair']}' is not supported "
                    "(end_of_battle, naval_base)"]
        return []

    def slot(self, unit, params, side):
        return {"hit_points": 2}


@register
class TakenLast(Ability):
    name = "taken_last"
    doc = "May be chosen as a casualty only when no other eligible unit remains (transports)."

    def slot(self, unit, params, side):
        return {"taken_last": True}


@register
class Defenceless(Ability):
    name = "defenceless"
    doc = ("Never fires; destroyed at once when only such units face enemies able to hit "
           "them (rule in combat.rules.settle).")

    def slot(self, unit, params, side):
        return {"defenceless": True}


@register
class CannotHitAir(Ability):
    name = "cannot_hit_air"
    doc = "Its hits can never be given to air units (submarines)."

    def slot(self, unit, params, side):
        return {"restrict": NO_AIR}


@register
class AirNeedsAntiSub(Ability):
    name = "air_needs_anti_sub"
    doc = "Air units hit it only if their side has an anti_sub unit in the battle (submarines)."

    def slot(self, unit, params, side):
        return {"immune_air": True}


@register
class AntiSub(Ability):
    name = "anti_sub"
    doc = ("Cancels enemy submarines' surprise strike and submerging in its battle, lets its "
           "side's aircraft hit submarines, and stops submarines passing its sea zone.")

    def slot(self, unit, params, side):
        return {"anti_sub": True}
