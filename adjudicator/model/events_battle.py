"""The events of battles and raids: dice, casualties, retreats, submerging, raid damage,
and the end-of-turn repairs and resurfacing."""

from __future__ import annotations

from typing import ClassVar

import attrs

from .battle_orders import RetreatCondition
from .event_base import Event


@attrs.frozen(repr=False)
class BattleStarted(Event):
    kind: ClassVar[str] = "battle_started"
    battle: str                 # battle id, e.g. "Karelia" or "Sea Zone 5 (sea)"
    space: str
    battle_type: str            # "land" | "sea" | "raid"
    attacker: str               # power key
    defenders: tuple[str, ...]  # power keys
    attacking_units: dict[str, int]
    defending_units: dict[str, int]


@attrs.frozen(repr=False)
class DiceRolled(Event):
    """One group of dice: all units of ``unit_type`` on ``side`` firing at ``target``
    (hit on a roll <= target) in ``step`` of ``round``.  ``rolls`` are the faces, in order
    drawn from the dice source; ``hits`` counts rolls <= target."""

    kind: ClassVar[str] = "dice_rolled"
    battle: str
    round: int
    step: str                   # "aa" | "bombard" | "surprise" | "attack" | "defence" | "raid"
    side: str                   # "attacker" | "defender"
    unit_type: str
    target: int
    rolls: tuple[int, ...]
    hits: int


@attrs.frozen(repr=False)
class BestOfRolled(DiceRolled):
    """Dice of units that roll ``dice`` dice each and keep the best (ability ``best_of``,
    Global 1940's Heavy Bombers): ``rolls`` are every face in the order drawn, unit by unit
    (each unit's ``dice`` faces in a row), ``kept`` each unit's best (lowest) face, and
    ``hits`` counts the kept faces <= target."""

    kind: ClassVar[str] = "best_of_rolled"
    dice: int
    kept: tuple[int, ...]


@attrs.frozen(repr=False)
class LowLuckRolled(DiceRolled):
    """Low Luck dice (docs/low-luck.md): one group of a side's units firing together at the
    same targets, ``units`` ({type: count}; for aimed dice such as AA fire, the units aimed
    at, one die each) worth ``total`` attack points, scores ``sure``
    hits for certain plus one die (``rolls``, empty when ``total`` is a multiple of the
    dice's sides) hitting on ``target`` (the remainder) or less; ``hits`` counts both.
    ``unit_type`` is the group's first type.  Only the die is luck."""

    kind: ClassVar[str] = "low_luck_rolled"
    units: dict[str, int]
    total: int
    sure: int


@attrs.frozen(repr=False)
class LowLuckBestOfRolled(LowLuckRolled):
    """Low Luck for a group with best-of units (docs/low-luck.md): ``total``, ``sure``'s
    remainder ``target`` are counted in ``per_hit``-ths of a hit (``sides ** k``, k the
    most dice a unit of the group keeps the best of), and the remainder is rolled with k
    dice read as one number from 1 to ``per_hit`` (the first die drawn the most
    significant: (d1 - 1) x sides + d2 for two), hitting when it is <= ``target``."""

    kind: ClassVar[str] = "low_luck_best_of_rolled"
    per_hit: int


@attrs.frozen(repr=False)
class Submerged(Event):
    kind: ClassVar[str] = "submerged"
    battle: str
    round: int
    side: str
    units: dict[str, int]


@attrs.frozen(repr=False)
class Casualties(Event):
    """Units lost (``killed``) or damaged (``damaged``, e.g. a battleship's first hit)."""

    kind: ClassVar[str] = "casualties"
    battle: str
    round: int
    side: str                   # side that lost the units
    killed: dict[str, int]
    damaged: dict[str, int] = attrs.field(factory=dict)
    cargo_lost: dict[str, int] = attrs.field(factory=dict)
    reason: str = "hits"        # "hits" | "defenceless" | "cannot_retreat"


@attrs.frozen(repr=False)
class Retreated(Event):
    """``reason``: "condition" (``condition`` is the attacker's retreat condition that
    held) or "no_fire" (only units that cannot fire were left)."""

    kind: ClassVar[str] = "retreated"
    battle: str
    round: int
    destination: str
    units: dict[str, int]
    reason: str
    condition: RetreatCondition | None = None


@attrs.frozen(repr=False)
class BattleEnded(Event):
    """``outcome``: "attacker_wins" | "defender_wins" | "both_destroyed" | "attacker_retreats"
    | "stalemate".  ``tuv_swing`` = defender TUV lost - attacker TUV lost."""

    kind: ClassVar[str] = "battle_ended"
    battle: str
    space: str
    outcome: str
    rounds: int
    attacker_lost: dict[str, int]
    defender_lost: dict[str, int]
    attacker_tuv_lost: int
    defender_tuv_lost: int
    tuv_swing: int
    captured: bool = False      # the attacker took the territory


@attrs.frozen(repr=False)
class RaidDamage(Event):
    """A strategic bombing raid's result: the damage dice of the surviving bombers, the
    damage they add to the facility of ``unit_type`` in ``space`` (after its cap) and its
    damage now."""

    kind: ClassVar[str] = "raid_damage"
    battle: str
    space: str
    unit_type: str
    rolls: tuple[int, ...]
    damage: int
    total: int


@attrs.frozen(repr=False)
class TreasuryRaided(Event):
    """A raid that takes IPCs from the treasury (``[turn] raid = "treasury"``): the bombing
    dice, what ``power`` lost (at most what it had) and what it has left."""

    kind: ClassVar[str] = "treasury_raided"
    battle: str
    space: str
    power: str
    rolls: tuple[int, ...]
    lost: int
    total: int


@attrs.frozen(repr=False)
class Resurfaced(Event):
    """Submerged ``units`` of ``power`` in ``space`` resurface (Europe's step 6 [L441])."""

    kind: ClassVar[str] = "resurfaced"
    space: str
    power: str
    units: dict[str, int]


@attrs.frozen(repr=False)
class UnitsRepaired(Event):
    """Damaged ``units`` of ``power`` in ``space`` repaired (Europe's step 6 [L687])."""

    kind: ClassVar[str] = "units_repaired"
    space: str
    power: str
    units: dict[str, int]
