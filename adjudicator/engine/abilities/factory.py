"""Factories: units that let their owner place new units (rules digest 1941 §5.6, Spring
1942 §4.3 "Industrial complex" [L749-L757] and §5.7 [L648-L666]).

``factory = {production = "territory_ipc", damage_cap_factor = 2, min_territory_ipc = 1,
one_per_territory = true}``: a factory places up to its territory's IPC value minus its
damage per turn (in the territory and adjacent sea zones); bombing damage is capped at
``damage_cap_factor`` times the territory's value (0: it cannot be damaged) and repaired at
1 IPC a point in the purchase phase; a new one may be placed only in a territory its
owner has controlled since the start of the turn, worth at least ``min_territory_ipc``,
and (``one_per_territory``) holding no factory; it can be used from the next turn.  A
factory changes owner with its territory (``captured_with_territory``) and is never on
the battle board (``noncombatant``); those are separate abilities in the same data.
"""

from __future__ import annotations

from .base import Ability, register


@register
class Factory(Ability):
    name = "factory"
    doc = "Places new units: territory value minus damage per turn; damage capped and repairable."
    params = {"production": (str, "territory_ipc"), "damage_cap_factor": (int, 0),
              "min_territory_ipc": (int, 0), "one_per_territory": (bool, True),
              "repair_cost": (int, 1)}

    def check(self, unit, params):
        problems = []
        if params.get("production", "territory_ipc") != "territory_ipc":
            problems.append(f"factory: production '{params['production']}' is not supported "
                            "(territory_ipc)")
        if params.get("damage_cap_factor", 0) < 0:
            problems.append("factory: damage_cap_factor must not be negative")
        return problems


def capacity(unit_type, territory_ipc: int, damage: int) -> int:
    """Units a factory of ``unit_type`` can place this turn."""
    return max(0, territory_ipc - damage)


def damage_cap(unit_type, territory_ipc: int) -> int:
    """The most damage a factory can carry (0: it cannot be damaged)."""
    return unit_type.param("factory", "damage_cap_factor", 0) * territory_ipc


def repair_cost(unit_type, points: int) -> int:
    """IPCs to remove ``points`` of damage (1942: 1 a point [L290])."""
    return unit_type.param("factory", "repair_cost", 1) * points


def build_problem(unit_type, territory_ipc: int, held_since_start: bool,
                  has_factory: bool) -> str | None:
    """Why a new factory of ``unit_type`` cannot be placed in a territory (a problem code),
    or None."""
    if not held_since_start:
        return "factory_not_held_since_start"
    if territory_ipc < unit_type.param("factory", "min_territory_ipc", 0):
        return "factory_territory_too_poor"
    if has_factory and unit_type.param("factory", "one_per_territory", True):
        return "factory_already_there"
    return None
