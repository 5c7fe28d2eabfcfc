"""The events of movement: units moved, loaded, unloaded, blitzing, territories captured,
aircraft landed or lost."""

from __future__ import annotations

from typing import ClassVar

import attrs

from .event_base import Event


@attrs.frozen(repr=False)
class Moved(Event):
    kind: ClassVar[str] = "moved"
    power: str
    phase: str                 # "combat" | "noncombat"
    units: dict[str, int]
    path: tuple[str, ...]
    line: int = 0


@attrs.frozen(repr=False)
class Loaded(Event):
    kind: ClassVar[str] = "loaded"
    power: str
    units: dict[str, int]
    origin: str
    zone: str
    line: int = 0
    phase: str = "combat"       # "combat" | "noncombat"


@attrs.frozen(repr=False)
class Unloaded(Event):
    kind: ClassVar[str] = "unloaded"
    power: str
    units: dict[str, int]
    zone: str
    target: str
    amphibious: bool
    line: int = 0
    phase: str = "combat"       # "combat" | "noncombat"


@attrs.frozen(repr=False)
class Blitzed(Event):
    kind: ClassVar[str] = "blitzed"
    power: str
    territory: str
    previous_owner: str


@attrs.frozen(repr=False)
class Captured(Event):
    kind: ClassVar[str] = "captured"
    territory: str
    by: str                     # power now controlling it
    from_power: str
    ipc: int
    liberated: bool = False


@attrs.frozen(repr=False)
class UnitsCaptured(Event):
    """Units taken with a territory (factories, AA guns): they change owner."""

    kind: ClassVar[str] = "units_captured"
    territory: str
    by: str
    from_power: str
    units: dict[str, int]


@attrs.frozen(repr=False)
class Plundered(Event):
    kind: ClassVar[str] = "plundered"
    by: str
    from_power: str
    ipcs: int


@attrs.frozen(repr=False)
class AircraftLost(Event):
    """``reason``: "no_landing" (no landing space in range)."""

    kind: ClassVar[str] = "aircraft_lost"
    power: str
    space: str
    units: dict[str, int]
    reason: str


@attrs.frozen(repr=False)
class Landed(Event):
    """Aircraft flown to a landing space by the engine.  ``reason``: "carrier_sunk",
    "no_order", "order_failed" (the order on ``line`` could not land it), "scrambled"
    (back home after a scramble) or "retreat" (to the landing its battle order's per-unit
    retreat named)."""

    kind: ClassVar[str] = "landed"
    power: str
    units: dict[str, int]
    path: tuple[str, ...]
    reason: str
    line: int = 0
