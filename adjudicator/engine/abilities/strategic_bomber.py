"""Strategic bombing (Spring 1942 rules digest §5.3.1 [L418-L430], §4.3 "Bomber"
[L797-L809]): a bomber may raid an enemy factory instead of fighting.  The raid is a
battle kind of its own (``engine.raids``): the territory's AA fire, then each surviving
bomber rolls ``damage`` (``"d6"``: one die; ``"d6+2"``: one die plus 2, Global 1940's
strategic bomber [L846]) and the total is added to the factory's damage, up to its cap.
``targets``: what it may raid, ``factory`` and/or ``base`` (Global 1940's tactical bomber
raids air and naval bases only [L828-L848]).  ``dice``: how many damage dice it rolls, keeping
the best (Global 1940's Heavy Bombers: 2 [L1210]).  A raiding bomber fights in no other
battle that turn."""

from __future__ import annotations

from .base import Ability, register


@register
class StrategicBomber(Ability):
    name = "strategic_bomber"
    doc = "May raid an enemy factory instead of fighting: one die of damage per surviving bomber."
    params = {"damage": (str, "d6"), "targets": (tuple, ("factory",)), "dice": (int, 1)}

    def check(self, unit, params):
        problems = []
        if params.get("damage", "d6") not in DAMAGE_BONUS:
            problems.append(f"strategic_bomber: damage '{params['damage']}' is not supported "
                            f"({', '.join(DAMAGE_BONUS)})")
        if not set(params.get("targets", ("factory",))) <= {"factory", "base"} \
                or not params.get("targets", ("factory",)):
            problems.append("strategic_bomber: targets must name factory and/or base")
        return problems


DAMAGE_BONUS = {"d6": 0, "d6+2": 2}


def damage_bonus(unit_type) -> int:
    """What a raiding bomber adds to its damage die."""
    return DAMAGE_BONUS.get(unit_type.param("strategic_bomber", "damage", "d6"), 0)


def may_raid(unit_type, target_kind: str) -> bool:
    """Whether a bomber of ``unit_type`` may raid a facility of ``target_kind``."""
    return target_kind in unit_type.param("strategic_bomber", "targets", ("factory",))
