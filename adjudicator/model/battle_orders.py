"""The attacker's orders for battles: directives (retreats, losses), raids, bombardment."""

from __future__ import annotations

from typing import ClassVar

import attrs

from .reprs import attrs_repr
from .order_base import Comparison, Order, UnitGroup


@attrs.frozen(repr=False)
class RetreatCondition:
    """Retreat to ``destination`` when a condition holds at the end of a round.
    ``after_round``: retreat once that many rounds have been fought.
    ``attackers``/``defenders`` thresholds compare the count of remaining units (or, with
    ``measure="tuv"``, their total cost) of that side."""

    __repr__ = attrs_repr
    destination: str | None = None      # None: the engine picks a legal one (first in a stable order)
    after_round: int | None = None
    side: str | None = None             # "attackers" or "defenders"
    comparison: Comparison | None = None
    threshold: int | None = None
    measure: str = "units"              # "units" or "tuv"


@attrs.frozen(repr=False)
class Bomb(Order):
    """Of the bombers that ended their combat move in ``space``, ``units`` raid its
    factory instead of fighting (strategic bombing raid); ``target``: the unit type of the
    facility raided (Global 1940's factories and bases), empty for the first each bomber
    may hit."""

    kind: ClassVar[str] = "bomb"
    space: str
    units: tuple[UnitGroup, ...]
    line: int = 0
    target: str = ""


@attrs.frozen(repr=False)
class Bombard(Order):
    """Ships (``units``) in the sea zones the assault on ``target`` unloads from bombard it
    (``units`` empty: every eligible ship there, the default)."""

    kind: ClassVar[str] = "bombard"
    target: str
    units: tuple[UnitGroup, ...] = ()
    line: int = 0


@attrs.frozen(repr=False)
class BattleDirective(Order):
    """The attacker's instructions for the battle in ``space``."""

    kind: ClassVar[str] = "battle"
    space: str
    retreat: tuple[RetreatCondition, ...] = ()   # any one true -> retreat
    loss_order: tuple[str, ...] = ()             # unit type keys, first lost first
    subs: str | None = None                      # "fire" | "submerge" for attacking subs
    line: int = 0
    # Only these units retreat ("retreat ftr to UK ..."); the others fight on.  ``()``: every
    # unit that may retreat goes (the whole-battle retreat).  A group's count ``ALL``
    # ("retreat fighters", no count): every unit of that type in the battle.
    retreat_units: tuple[UnitGroup, ...] = ()
