"""Europe 1999's own events: units converted, the Middle East paid, special cash."""

from __future__ import annotations

from typing import ClassVar

import attrs

from .event_base import Event


@attrs.frozen(repr=False)
class UnitsConverted(Event):
    """``by`` turned ``from_power``'s ``units`` in ``territory`` into its own (Europe's
    Great Patriotic War [L665])."""

    kind: ClassVar[str] = "units_converted"
    territory: str
    by: str
    from_power: str
    units: dict[str, int]


@attrs.frozen(repr=False)
class MiddleEastPaid(Event):
    """``payer`` paid ``payee`` ``amount`` of the ``owed`` Middle East value (``short``:
    what it could not pay and is lost)."""

    kind: ClassVar[str] = "middle_east_paid"
    payer: str
    payee: str
    amount: int
    owed: int
    short: int = 0


@attrs.frozen(repr=False)
class SpecialCashOffered(Event):
    """At the start of a power's pre-game turn: ``pot`` IPCs of its side's special cash are
    left to spend or keep (Europe [L250-L251])."""

    kind: ClassVar[str] = "special_cash_offered"
    power: str
    pot: int


@attrs.frozen(repr=False)
class SpecialCashKept(Event):
    """The last power of a side in the pre-game round keeps ``kept`` IPCs of the side's
    special cash for turn 1 (Europe [L251]); ``ipcs``: its treasury then."""

    kind: ClassVar[str] = "special_cash_kept"
    power: str
    kept: int
    ipcs: int
