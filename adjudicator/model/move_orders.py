"""The orders that move units: move, load, unload."""

from __future__ import annotations

from typing import ClassVar

import attrs

from .order_base import Order, Phase, UnitGroup


@attrs.frozen(repr=False)
class Move(Order):
    """Move units along ``path`` (``path[0]`` is where they start)."""

    kind: ClassVar[str] = "move"
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


@attrs.frozen(repr=False)
class Load(Order):
    """Load land units from territory ``origin`` onto transports in sea zone ``zone``."""

    kind: ClassVar[str] = "load"
    phase: Phase
    units: tuple[UnitGroup, ...]
    origin: str
    zone: str
    line: int = 0


@attrs.frozen(repr=False)
class Unload(Order):
    """Unload cargo from transports in ``zone`` into territory ``target``.  In the combat
    phase into an enemy territory this is an amphibious assault."""

    kind: ClassVar[str] = "unload"
    phase: Phase
    units: tuple[UnitGroup, ...]
    zone: str
    target: str
    line: int = 0
