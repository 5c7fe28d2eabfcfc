"""Taktyczne Starcie's target words (issue 27, contract 4): the words a shooter's written
priority is made of, shared by the air strike's bombers and fighters, AA guns, and the
long-range gun.  Each canonical word names a class of units, one unit type, or a kind of
object (a shipyard key ``"shipyard S05"`` is of kind ``shipyard``).  ``io.target_words``
reads what players write into these words; ``engine.taktyczne.targets.pick_target`` picks
by them.  Mines are never targets (L23.7, L31.35) and capitals are areas, not objects
(L19.60-L19.61, L23.7), so neither has a word."""

from __future__ import annotations

# canonical class word -> the unit types it names (maps/taktyczne/units.toml keys)
UNIT_CLASSES: dict[str, tuple[str, ...]] = {
    "aa": ("aa_gun_land", "aa_gun_sea"),
    "tanks": ("tank_4", "tank_3", "tank_2", "tank_1"),
    "warships": ("warship_4", "warship_3", "warship_2", "warship_1"),
    "at_guns": ("at_gun",),
    "lrgs": ("lrg",),
    "ferries": ("ferry",),
    "carriers": ("carrier",),
    "fighters": ("fighter",),
    "bombers": ("bomber",),
}
OBJECT_KINDS: tuple[str, ...] = ("silo", "launcher", "airfield", "factory", "shipyard")
UNITS, OBJECTS = "units", "objects"            # any unit / any object
NEVER_TARGETS: tuple[str, ...] = ("mine_land", "mine_sea", "nuclear_missile", "anti_missile",
                                  "atomic_bomb")

# What a shooter aims at when its order names no priority, or after the written words
# match nothing (ruling target_default, maps/taktyczne/game.toml): the fire first (AA, then
# the fighting units by strength), then the objects that make and base them.
DEFAULT_GROUND: tuple[str, ...] = ("aa", "lrgs", "tanks", "warships", "at_guns", "carriers",
                                   "ferries", UNITS, "silo", "launcher", "airfield", "factory",
                                   "shipyard", OBJECTS)
DEFAULT_AIR: tuple[str, ...] = ("bombers", "fighters")


def unit_words(unit_type: str) -> tuple[str, ...]:
    """The class words that name ``unit_type`` (and the type itself)."""
    return (unit_type, *(w for w, types in UNIT_CLASSES.items() if unit_type in types))


def object_kind(key: str) -> str:
    """The kind of an object key: ``"shipyard S05"`` -> ``"shipyard"``."""
    return key.partition(" ")[0]


def priority_text(priority: tuple[str, ...]) -> str:
    """A priority as written back: ``aa, tanks, factory``."""
    return ", ".join(priority)


# A power's standing ``air_defence`` order (io/kinds/air_defence.py), as its canonical value:
# ``target bombers, fighters; bombers hold``.  Not said: the default priority, and bombers
# based in an attacked area bomb the attackers (ruling defending_bombers, L23.77-L23.78).
BOMB, HOLD = "bomb", "hold"


def air_defence_text(priority: tuple[str, ...], bombers: str = "") -> str:
    parts = []
    if priority:
        parts.append("target " + priority_text(priority))
    if bombers:
        parts.append(f"bombers {bombers}")
    return "; ".join(parts)


def read_air_defence(value: str) -> tuple[tuple[str, ...], str]:
    """(priority, ``bomb``|``hold``|"") from a canonical value; ValueError if not one."""
    priority: tuple[str, ...] = ()
    bombers = ""
    for part in (p.strip() for p in value.split(";") if p.strip()):
        if part.startswith("target "):
            priority = tuple(w.strip() for w in part[len("target "):].split(","))
        elif part in (f"bombers {BOMB}", f"bombers {HOLD}"):
            bombers = part.split()[1]
        else:
            raise ValueError(f"not an air defence: '{part}'")
    return priority, bombers
