"""Taktyczne Starcie's aircraft on the main map (issue 27): the events of flights, of the
fire at aircraft flying over an enemy's area, and of the evacuation of aircraft that lost
their base (codes and parameters; the words are in ``present.wording``).

Fire at an overflight and an evacuation happen in another player's turn: they carry
``power`` (who reacted) and ``standing`` (why: the canonical text of the standing order
that made it happen, or ``default (...)`` naming the default, or ``rule (...)`` for what
the text makes automatic), issue 27's contract 5."""

from __future__ import annotations

from typing import ClassVar

import attrs

from .events import Event


@attrs.frozen
class OverflightFire(Event):
    """``power``'s ``shooters`` (``"aa"``: its AA guns, L23.20, L23.61; ``"fighters"``: its
    fighters based there, L23.44-L23.46, L23.62) in ``area`` fire once each at ``mover``'s
    aircraft flying over it on ``leg`` (``out``, ``back`` or ``move``); ``rolls`` in the
    order fired, ``lost`` the aircraft shot down ({unit type: count})."""

    kind: ClassVar[str] = "ts_overflight_fire"
    area: str
    power: str
    mover: str
    shooters: str
    count: int
    rolls: tuple[int, ...]
    lost: dict[str, int]
    leg: str
    standing: str


@attrs.frozen
class AircraftEvacuated(Event):
    """``power``'s aircraft based in ``area`` lost their base (``cause``: ``battle_lost``,
    ``base_destroyed`` or ``blast``) and fly to ``to`` along ``path`` (L23.34-L23.35,
    L23.75); ``to`` empty: no base in range with room, they are destroyed (L23.76)."""

    kind: ClassVar[str] = "ts_aircraft_evacuated"
    area: str
    power: str
    cause: str
    units: dict[str, int]
    to: str
    path: tuple[str, ...]
    standing: str
