"""Taktyczne Starcie's nuclear events (L19.54-L19.69, L23.12-L23.14, L23.39-L23.42,
L23.65, rulings G22-G26): codes and parameters; the words are in ``present.wording``.

An anti-missile is a reaction in another player's turn: its events carry ``power`` (who
reacted) and ``standing`` (the canonical text of the standing order that decided, or
``default: <value>``), so the report says why it fired or held (issue 27, contract 5)."""

from __future__ import annotations

from typing import ClassVar

import attrs

from .events import Event


@attrs.frozen
class NuclearArmed(Event):
    """``power`` bought ``what`` (``nuclear_missile`` into his unarmed silo, ``anti_missile``
    into his unarmed launcher, ``atomic_bomb`` onto his bomber) in ``space`` for ``price``
    points (L19.57, L19.64-L19.65, L23.39-L23.42, ruling G26)."""

    kind: ClassVar[str] = "ts_nuclear_armed"
    power: str
    what: str
    space: str
    price: int
    points_left: int


@attrs.frozen
class MissileLaunched(Event):
    """``power`` fires the missile of his silo in ``silo`` at ``target`` (L19.58)."""

    kind: ClassVar[str] = "ts_missile_launched"
    power: str
    silo: str
    target: str
    line: int = 0


@attrs.frozen
class MissileIntercepted(Event):
    """``power``'s anti-missile from his launcher in ``launcher`` destroys ``by``'s missile
    aimed at ``target`` high up, with no effect (L19.66-L19.68); ``targeted``: ``target``
    is his (L19.67), else the blast would have reached his areas (L19.68)."""

    kind: ClassVar[str] = "ts_missile_intercepted"
    power: str
    launcher: str
    target: str
    by: str
    targeted: bool
    standing: str


@attrs.frozen
class AntimissileHeld(Event):
    """``power`` has an armed launcher and does not fire at ``by``'s missile aimed at
    ``target`` (his standing order says so, ruling G25, L19.68)."""

    kind: ClassVar[str] = "ts_antimissile_held"
    power: str
    target: str
    by: str
    targeted: bool
    standing: str


@attrs.frozen
class NuclearBlast(Event):
    """A nuclear explosion over ``centre`` (``radius`` ``full``: with its bordering and
    tangent areas, L19.59, G23; ``area``: that area only, L23.65, G22) caused by ``cause``
    (``missile``, ``silo``, ``atomic_drop``, ``atomic_shot_down``) in ``by``'s turn: the
    ``areas`` it reached, the units destroyed there ({area: {unit type: count}}), and the
    capitals it reached, which stand (L19.60-L19.61, G24).  Objects destroyed, and aircraft
    evacuated or lost, follow as their own events."""

    kind: ClassVar[str] = "ts_nuclear_blast"
    centre: str
    radius: str
    cause: str
    by: str
    areas: tuple[str, ...]
    destroyed: dict[str, dict[str, int]]
    capitals: tuple[str, ...] = ()
