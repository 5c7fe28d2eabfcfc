"""The orders of the purchase and placement phases: buy, repair, place."""

from __future__ import annotations

from typing import ClassVar

import attrs

from .order_base import Order, UnitGroup


@attrs.frozen(repr=False)
class Buy(Order):
    kind: ClassVar[str] = "buy"
    units: tuple[UnitGroup, ...]
    line: int = 0


@attrs.frozen(repr=False)
class Repair(Order):
    """Remove ``points`` of damage from the facility in ``space`` (purchase phase)."""

    kind: ClassVar[str] = "repair"
    space: str
    points: int
    line: int = 0


@attrs.frozen(repr=False)
class Place(Order):
    kind: ClassVar[str] = "place"
    units: tuple[UnitGroup, ...]
    space: str
    line: int = 0
