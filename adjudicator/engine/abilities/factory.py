"""Factories: units that let their owner place new units (rules digest 1941 §5.6, Spring
1942 §4.3 "Industrial complex" [L749-L757] and §5.7 [L648-L666], Global 1940 §5.6).

``factory = {production = "territory_ipc", damage_cap_factor = 2, min_territory_ipc = 1,
one_per_territory = true}``: a factory places up to its territory's IPC value minus its
damage per turn (in the territory and adjacent sea zones); bombing damage is capped at
``damage_cap_factor`` times the territory's value (0: it cannot be damaged) and repaired at
1 IPC a point in the purchase phase; a new one may be placed only in a territory its
owner has controlled since the start of the turn, worth at least ``min_territory_ipc``,
and (``one_per_territory``) holding no factory; it can be used from the next turn.  A
factory changes owner with its territory (``captured_with_territory``) and is never on
the battle board (``noncombatant``); those are separate abilities in the same data.

Global 1940's factories are units of their own kind: ``units`` (not 0) places that many a
turn less damage whatever the territory's value, ``max_damage`` (not 0) caps the damage at
that many points, ``original_land_only`` builds it only on land its builder held at the
start of the game (the printed owner: a tag ``original_owner:<power>`` wins over the map's
owner), ``not_on_island`` never on an island, and ``captured_as`` turns it into that unit
type when its territory is captured (damage above the new type's cap is lost).

``upgrade = { from = "minor_factory", into = "major_factory" }`` is a purchase that is no
unit on the board (Global 1940's upgrade of a minor factory to a major, 20 IPCs [L1081]):
placed on the buyer's undamaged ``from`` factory in a territory where a new ``into`` could
be built, it turns that factory into ``into``, which places only as many units as the
``from`` type that turn (``engine/production.py``).
"""

from __future__ import annotations

from ..conditions import original_owner
from .base import Ability, register



@register
class Factory(Ability):
    name = "factory"
    doc = "Places new units: territory value minus damage per turn; damage capped and repairable."
    params = {"production": (str, "territory_ipc"), "damage_cap_factor": (int, 0),
              "min_territory_ipc": (int, 0), "one_per_territory": (bool, True),
              "repair_cost": (int, 1), "points_per_ipc": (int, 1), "units": (int, 0),
              "max_damage": (int, 0),
              "original_land_only": (bool, False), "not_on_island": (bool, False),
              "captured_as": (str, "")}

    def check(self, unit, params):
        problems = []
        if params.get("production", "territory_ipc") != "territory_ipc":
            problems.append(f"factory: production '{params['production']}' is not supported "
                            "(territory_ipc)")
        if params.get("damage_cap_factor", 0) < 0:
            problems.append("factory: damage_cap_factor must not be negative")
        if params.get("units", 0) < 0 or params.get("max_damage", 0) < 0:
            problems.append("factory: units and max_damage must not be negative")
        return problems

    def on_capture(self, ctx, space, new_owner, previous):
        """A factory with ``captured_as`` becomes that unit type (a captured major factory
        is a minor at once, its damage above the minor's cap removed [L999])."""
        board = ctx.board
        changed: dict[str, dict[str, int]] = {}
        for piece in board.factories_at(space):
            into = board.utype(piece).param("factory", "captured_as", "")
            if not into or into not in board.rules.units:
                continue
            new_type = board.rules.units[into]
            changed.setdefault(piece.type, {}).setdefault(into, 0)
            changed[piece.type][into] += 1
            piece.type = into
            cap = damage_cap(new_type, board.map[space].ipc)
            piece.damage = min(piece.damage, cap)
        from ...model.events import UnitsChanged   # here: the odds load no event classes
        for old, news in sorted(changed.items()):
            for new, n in sorted(news.items()):
                ctx.emit(UnitsChanged(space, new_owner, old, new, n))


@register
class Upgrade(Ability):
    name = "upgrade"
    doc = "A purchase that turns the buyer's factory of one type into another where it is placed."
    params = {"from": (str, ""), "into": (str, "")}

    def check(self, unit, params):
        if not params.get("from") or not params.get("into"):
            return ["upgrade: needs 'from' and 'into' (factory unit types)"]
        return []


def capacity(unit_type, territory_ipc: int, damage: int) -> int:
    """Units a factory of ``unit_type`` can place this turn."""
    fixed = unit_type.param("factory", "units", 0)
    return max(0, (fixed or territory_ipc) - damage)


def damage_cap(unit_type, territory_ipc: int) -> int:
    """The most damage a factory can carry (0: it cannot be damaged)."""
    fixed = unit_type.param("factory", "max_damage", 0)
    return fixed or unit_type.param("factory", "damage_cap_factor", 0) * territory_ipc


def repair_cost(unit_type, points: int) -> int:
    """IPCs to remove ``points`` of damage (1942: 1 a point [L290]; Global 1940's Increased
    Factory Production: 2 points for 1 IPC, ``points_per_ipc`` [L1184], a half point
    rounded up)."""
    per_ipc = max(1, unit_type.param("factory", "points_per_ipc", 1))
    return unit_type.param("factory", "repair_cost", 1) * -(-points // per_ipc)




def build_problem(unit_type, territory_ipc: int, held_since_start: bool,
                  has_factory: bool, territory=None, builder: str | None = None) -> str | None:
    """Why a new factory of ``unit_type`` cannot be placed in a territory (a problem code),
    or None.  ``territory`` and ``builder`` are needed by ``original_land_only`` and
    ``not_on_island``."""
    if not held_since_start:
        return "factory_not_held_since_start"
    if territory_ipc < unit_type.param("factory", "min_territory_ipc", 0):
        return "factory_territory_too_poor"
    if territory is not None:
        if unit_type.param("factory", "not_on_island", False) and territory.island:
            return "factory_on_island"
        if unit_type.param("factory", "original_land_only", False) \
                and original_owner(territory) != builder:
            return "factory_not_original_land"
    if has_factory and unit_type.param("factory", "one_per_territory", True):
        return "factory_already_there"
    return None
