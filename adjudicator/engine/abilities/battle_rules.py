"""Abilities that change how a unit fights, taken by the battle board as slot traits
(``combat.board.Slot``): hit points, casualty order and target restrictions."""

from __future__ import annotations

from ..combat.board import NO_AIR
from ..combat.model import ATT, DEF
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


BEST_OF_SIDES = {"attack": (ATT,), "defence": (DEF,), "both": (ATT, DEF)}


@register
class BestOf(Ability):
    name = "best_of"
    doc = ("Rolls ``dice`` dice in combat when it fires (``on``: attack, defence or both) and "
           "keeps the best, hitting with chance 1 - (1 - value/6)^dice (Global 1940's Heavy "
           "Bombers [L1210]: 2 on attack).  The dice are drawn unit by unit, each unit's "
           "``dice`` in a row; Low Luck and the exact odds count the same chance "
           "(docs/low-luck.md).")
    params = {"dice": (int, 2), "on": (str, "attack")}

    def check(self, unit, params):
        problems = []
        if not 1 <= params.get("dice", 2) <= 3:
            problems.append("best_of: dice must be 1, 2 or 3")
        if params.get("on", "attack") not in BEST_OF_SIDES:
            problems.append(f"best_of: on '{params['on']}' is not supported "
                            f"({', '.join(BEST_OF_SIDES)})")
        return problems

    def slot(self, unit, params, side):
        if side in BEST_OF_SIDES.get(params.get("on", "attack"), ()):
            return {"dice": params.get("dice", 2)}
        return {}
