"""The parts every order is made of: its base class ``Order``, its phase, its unit groups,
and the enums its fields use (a retreat's comparison, a submarine's policy)."""

from __future__ import annotations

from enum import Enum
from typing import ClassVar

import attrs

from .reprs import attrs_repr


class Phase(str, Enum):
    PURCHASE = "purchase"
    COMBAT = "combat"
    NONCOMBAT = "noncombat"
    PLACE = "place"


@attrs.frozen(repr=False)
class UnitGroup:
    """``count`` units of ``type``.  For a transport or carrier, ``cargo`` names exactly what
    it must be carrying (``()``: empty); ``None`` means any, and the engine then prefers the
    emptiest ones.  Ships always move with whatever they carry."""

    __repr__ = attrs_repr
    count: int
    type: str
    cargo: tuple["UnitGroup", ...] | None = None


ALL = 0        # a group count meaning "every one of them" where an order allows it (retreats)


class Order:
    """Base of every order: ``kind`` names it, ``line`` is where it was written."""

    kind: ClassVar[str] = "order"
    line: int

    __repr__ = attrs_repr       # attrs' format for every order class (made with repr=False)


class Comparison(str, Enum):
    LT = "<"
    LE = "<="
    GT = ">"
    GE = ">="
    EQ = "=="


class SubmergePolicy(str, Enum):
    NEVER = "never"          # always fire surprise strikes
    ALWAYS = "always"        # submerge at the first chance
    LOSING = "losing"        # submerge when the enemy's expected hits exceed ours (default)
