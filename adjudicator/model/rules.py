"""Unit types, powers and rule options: the game-independent vocabulary.

Everything here is read from ``maps/<game>/units.toml`` and ``ruleset.toml``.  The engine
never tests a unit's *name*; it tests named abilities, so one engine serves every game.
"""

from __future__ import annotations

from enum import Enum

import attrs


class Domain(str, Enum):
    LAND = "land"
    AIR = "air"
    SEA = "sea"


class Ability(str, Enum):
    """Named abilities the engine implements once for every game."""

    BLITZ = "blitz"                              # may move through an empty enemy territory, capturing it
    TWO_HITS = "two_hits"                        # needs two hits in one battle; repaired after the battle
    SURPRISE_STRIKE = "surprise_strike"          # fires before other units (step 2) unless enemy has ANTI_SUB
    SUBMERGE = "submerge"                        # may leave a battle before a round unless enemy has ANTI_SUB
    CANNOT_HIT_AIR = "cannot_hit_air"            # its hits can never be assigned to air units
    AIR_NEEDS_ANTI_SUB = "air_needs_anti_sub"    # air hits reach it only if the air side has ANTI_SUB present
    MOVES_THROUGH_ENEMY = "moves_through_enemy"  # passes hostile sea zones unless an enemy ANTI_SUB is there
    ANTI_SUB = "anti_sub"                        # cancels enemy submarine abilities in battle and movement
    SURFACE_WARSHIP = "surface_warship"          # makes a sea zone hostile; blocks enemy ships
    TAKEN_LAST = "taken_last"                    # may take a hit only when no other eligible unit remains
    DEFENCELESS = "defenceless"                  # never fires; destroyed when only such units face armed enemies
    CARRIES_LAND = "carries_land"                # transport
    CARRIES_AIR = "carries_air"                  # aircraft carrier
    CARRIER_BASED = "carrier_based"              # may land on a friendly carrier
    CANNOT_CAPTURE = "cannot_capture"            # (air) never captures territory
    STATIC = "static"                            # never moves (factories, if modelled as units)


@attrs.frozen
class CargoRule:
    """What a carrying unit can hold: ``slots`` units of ``domain``; at most ``large_slots``
    of them may be units whose ``cargo_size`` is ``large`` (A&A: 1 of any type + 1 infantry)."""

    domain: Domain
    slots: int
    large_slots: int | None = None
    only_types: tuple[str, ...] = ()


@attrs.frozen
class UnitType:
    key: str                      # canonical key, e.g. "infantry"
    name: str                     # display name, e.g. "Infantry"
    domain: Domain
    cost: int
    attack: int
    defense: int
    move: int
    abilities: frozenset[Ability] = frozenset()
    aliases: tuple[str, ...] = ()  # e.g. ("inf",)
    cargo: CargoRule | None = None  # set for transports and carriers
    cargo_size: str = "small"       # "small" or "large" when carried
    plural: str = ""                # display plural, defaults to name + "s"

    def has(self, ability: Ability) -> bool:
        return ability in self.abilities

    @property
    def display_plural(self) -> str:
        return self.plural or self.name + "s"


@attrs.frozen
class Power:
    key: str                   # e.g. "ussr"
    name: str                  # e.g. "Soviet Union"
    side: str                  # e.g. "Allies"
    capital: str               # territory key holding the capital
    capital_city: str          # e.g. "Moscow"
    starting_ipcs: int
    aliases: tuple[str, ...] = ()
    adjective: str = ""        # e.g. "Soviet", for reports


@attrs.frozen
class VictoryRule:
    """Side ``side`` wins when, at the end of ``check_after`` power's turn, it controls at
    least ``count`` of the capitals in ``capitals``."""

    side: str
    check_after: str
    capitals: tuple[str, ...]
    count: int


@attrs.frozen
class Ruleset:
    """Rule options and turn structure for one game.  ``rulings`` records how gaps and
    disagreements between sources were settled (shown by ``pbem rules``)."""

    game_id: str
    title: str
    turn_order: tuple[str, ...]
    units: dict[str, UnitType]
    powers: dict[str, Power]
    victory: tuple[VictoryRule, ...]
    dice_sides: int = 6
    options: dict[str, bool | int | str] = attrs.field(factory=dict)
    rulings: tuple[str, ...] = ()

    def option(self, name: str, default=None):
        return self.options.get(name, default)

    def side_of(self, power: str) -> str:
        return self.powers[power].side

    def allied(self, a: str | None, b: str | None) -> bool:
        """Same side (a power is allied with itself).  Neutral (None) is allied with nobody."""
        if a is None or b is None:
            return False
        return self.powers[a].side == self.powers[b].side
