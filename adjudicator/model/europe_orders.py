"""Europe 1999's own orders: interception and Middle East standing orders, special cash
kept, Allied units converted."""

from __future__ import annotations

from typing import ClassVar

import attrs

from .order_base import Order, UnitGroup
from .standing_orders import StandingChoice


@attrs.frozen(repr=False)
class InterceptOrder(StandingChoice):
    """``intercept <space|all>: yes|no``: whether the power's fighters intercept raids
    (Europe 1999 [L601]; the engine's standing kind ``intercept``)."""

    kind: ClassVar[str] = "intercept"


@attrs.frozen(repr=False)
class MiddleEastOrder(StandingChoice):
    """``middle east: <power>, ...``: which Allies pay Germany for the Middle East, first
    to last (Europe 1999 [L699]; the engine's standing kind ``middle_east``)."""

    kind: ClassVar[str] = "middle_east"


@attrs.frozen(repr=False)
class Keep(Order):
    """``keep <n>`` (Europe 1999, the pre-game round [L250-L251]): the phasing power takes
    ``amount`` IPCs of its side's special cash for turn 1."""

    kind: ClassVar[str] = "keep"
    amount: int
    line: int = 0


@attrs.frozen(repr=False)
class Convert(Order):
    """``convert <units> <territory>`` (Europe 1999, the Soviet noncombat move [L665]):
    Allied units there become the phasing power's."""

    kind: ClassVar[str] = "convert"
    units: tuple[UnitGroup, ...]
    space: str
    line: int = 0
