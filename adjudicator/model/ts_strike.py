"""Taktyczne Starcie's air strike as events (issue 27; docs/taktyczne-air-strike.md): a
strike launched, each battle turn's volleys in the text's order (the defender's AA guns,
the attacker's fighters, the defender's fighters, the attacker's bombers, L23.63-L23.64),
the strike's end, and defending bombers bombing a ground attack (L23.77-L23.78).

Contract 5: a volley fired in another player's turn (the defender's AA guns, fighters and
bombers) names the ``power`` that fired and ``standing``: the canonical text of the standing
order that chose its targets (``air_defence 34: ...``) or ``"default: <name>"``; the
mover's own volleys have ``standing = ""`` (his strike order, not a reaction)."""

from __future__ import annotations

from typing import ClassVar

import attrs

from .events import Event

AA, FIGHTERS, BOMBERS = "aa", "fighters", "bombers"     # the arms of a volley
HIT_SIX, HIT_EVEN = "6", "even"                         # what a shot needs (L23.28, L23.30)


@attrs.frozen
class Shot:
    """One shot or bomb: ``shooter`` (unit type) at ``target`` (a unit type or an object
    key), the ``roll``, what it ``needed`` (``"6"`` or ``"even"``) and whether it ``hit``."""

    shooter: str
    target: str
    roll: int
    needed: str
    hit: bool


@attrs.frozen
class Flight:
    """The aircraft ``units`` of one base: from ``out[0]`` along ``out`` to the target and
    home along ``back`` (``back[-1]`` the base they land at)."""

    units: dict[str, int]
    out: tuple[str, ...]
    back: tuple[str, ...]


@attrs.frozen
class StrikeEvent(Event):
    kind: ClassVar[str] = "ts_strike_event"


@attrs.frozen
class StrikeLaunched(StrikeEvent):
    """``power`` sends ``flights`` against ``target`` held by ``defender`` (``points`` of
    aircraft, at most 12, L23.53, L23.74); ``priority`` the targets written (else the
    default); ``sweep``: fighters alone against aircraft based there (L23.48, L23.69)."""

    kind: ClassVar[str] = "ts_strike_launched"
    power: str
    target: str
    defender: str
    flights: tuple[Flight, ...]
    points: int
    priority: tuple[str, ...]
    stay: int
    sweep: bool
    line: int


@attrs.frozen
class StrikeVolley(StrikeEvent):
    """In battle turn ``turn`` of the strike on ``area``, ``power``'s ``arm`` (``aa``,
    ``fighters``, ``bombers``) fired ``shots``; ``standing`` why a defender fired at what it
    did (contract 5), ``""`` for the mover's own."""

    kind: ClassVar[str] = "ts_strike_volley"
    area: str
    turn: int
    power: str
    arm: str
    shots: tuple[Shot, ...]
    standing: str = ""


@attrs.frozen
class StrikeEnded(StrikeEvent):
    """The strike on ``area`` ended after ``turns`` battle turns for ``reason``
    (``bombs_spent``, ``stay``, ``losses``, ``no_bombers``, ``no_targets``, ``sweep``,
    ``shot_down``); ``lost``: the attacker's aircraft lost over the target, ``destroyed``:
    the defender's units, ``objects``: the objects bombed out."""

    kind: ClassVar[str] = "ts_strike_ended"
    area: str
    power: str
    defender: str
    turns: int
    reason: str
    lost: dict[str, int]
    destroyed: dict[str, int]
    objects: tuple[str, ...] = ()


@attrs.frozen
class StrikeHome(StrikeEvent):
    """``power``'s aircraft ``units`` that flew home from the strike on ``area`` landed at
    ``base``."""

    kind: ClassVar[str] = "ts_strike_home"
    area: str
    power: str
    base: str
    units: dict[str, int]


@attrs.frozen
class DefendingBombers(StrikeEvent):
    """``power``'s bombers based in ``area`` bombed ``attacker``'s attacking units before
    the battle (L23.77-L23.78, four bombs each): ``shots``; ``standing`` the order or the
    default that made them (contract 5)."""

    kind: ClassVar[str] = "ts_defending_bombers"
    area: str
    power: str
    attacker: str
    shots: tuple[Shot, ...]
    standing: str
