"""Orders as data: what the grammar produces and the engine consumes.

Every order keeps the ``line`` (1-based) it came from so that validation errors can point
at it.  Names here are canonical keys (unit type keys, territory keys, power keys): the
parser resolves abbreviations and aliases before building these objects.
"""

from __future__ import annotations

from enum import Enum

import attrs


class Phase(str, Enum):
    PURCHASE = "purchase"
    COMBAT = "combat"
    NONCOMBAT = "noncombat"
    PLACE = "place"


@attrs.frozen
class UnitGroup:
    """``count`` units of ``type``.  For a transport or carrier, ``cargo`` names exactly what
    it must be carrying (``()``: empty); ``None`` means any, and the engine then prefers the
    emptiest ones.  Ships always move with whatever they carry."""

    count: int
    type: str
    cargo: tuple["UnitGroup", ...] | None = None


@attrs.frozen
class Buy:
    units: tuple[UnitGroup, ...]
    line: int = 0


@attrs.frozen
class Move:
    """Move units along ``path`` (``path[0]`` is where they start)."""

    phase: Phase
    units: tuple[UnitGroup, ...]
    path: tuple[str, ...]
    line: int = 0

    @property
    def origin(self) -> str:
        return self.path[0]

    @property
    def destination(self) -> str:
        return self.path[-1]


@attrs.frozen
class Load:
    """Load land units from territory ``origin`` onto transports in sea zone ``zone``."""

    phase: Phase
    units: tuple[UnitGroup, ...]
    origin: str
    zone: str
    line: int = 0


@attrs.frozen
class Unload:
    """Unload cargo from transports in ``zone`` into territory ``target``.  In the combat
    phase into an enemy territory this is an amphibious assault."""

    phase: Phase
    units: tuple[UnitGroup, ...]
    zone: str
    target: str
    line: int = 0


@attrs.frozen
class Place:
    units: tuple[UnitGroup, ...]
    space: str
    line: int = 0


class Comparison(str, Enum):
    LT = "<"
    LE = "<="
    GT = ">"
    GE = ">="
    EQ = "=="


@attrs.frozen
class RetreatCondition:
    """Retreat to ``destination`` when a condition holds at the end of a round.
    ``after_round``: retreat once that many rounds have been fought.
    ``attackers``/``defenders`` thresholds compare the count of remaining units (or, with
    ``measure="tuv"``, their total cost) of that side."""

    destination: str | None = None      # None: the engine picks a legal one (first in a stable order)
    after_round: int | None = None
    side: str | None = None             # "attackers" or "defenders"
    comparison: Comparison | None = None
    threshold: int | None = None
    measure: str = "units"              # "units" or "tuv"


@attrs.frozen
class BattleDirective:
    """The attacker's instructions for the battle in ``space``."""

    space: str
    retreat: tuple[RetreatCondition, ...] = ()   # any one true -> retreat
    loss_order: tuple[str, ...] = ()             # unit type keys, first lost first
    subs: str | None = None                      # "fire" | "submerge" for attacking subs
    line: int = 0


class SubmergePolicy(str, Enum):
    NEVER = "never"          # always fire surprise strikes
    ALWAYS = "always"        # submerge at the first chance
    LOSING = "losing"        # submerge when the enemy's expected hits exceed ours (default)


@attrs.frozen
class DefenceOrder:
    """A standing defence order for ``space`` (``None``: all spaces of this power)."""

    space: str | None
    loss_order: tuple[str, ...] = ()
    submerge: SubmergePolicy | None = None
    line: int = 0


@attrs.frozen
class StandingOrders:
    """A power's standing defence orders; they stay in the game state until replaced."""

    defences: tuple[DefenceOrder, ...] = ()

    def for_space(self, space: str) -> DefenceOrder | None:
        """The order for ``space``, else the global one, else None."""
        specific = [d for d in self.defences if d.space == space]
        if specific:
            return specific[-1]
        general = [d for d in self.defences if d.space is None]
        return general[-1] if general else None


@attrs.frozen
class OrderSet:
    """One power's orders for one turn, as parsed.  ``source`` is the exact text."""

    power: str | None
    buys: tuple[Buy, ...] = ()
    combat: tuple[Move | Load | Unload, ...] = ()
    noncombat: tuple[Move | Load | Unload, ...] = ()
    places: tuple[Place, ...] = ()
    battles: tuple[BattleDirective, ...] = ()
    defences: tuple[DefenceOrder, ...] = ()
    source: str = ""

    def directive_for(self, space: str) -> BattleDirective | None:
        found = [b for b in self.battles if b.space == space]
        return found[-1] if found else None
