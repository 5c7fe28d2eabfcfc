"""Taktyczne Starcie's long-range gun shots on the main map as events (issue 27, contract 5;
codes and parameters, the words are in ``present.wording``).  ``target`` is the unit type
or the object key fired at ("" when the shot had none: it is not fired); ``cargo`` the land
units that sank with a ferry (L31.40)."""

from __future__ import annotations

from typing import ClassVar

import attrs

from .events import Event


@attrs.frozen
class LrgFired(Event):
    """In its owner's turn: ``power``'s long-range gun in ``gun`` fired at ``target`` in
    ``area`` (order line ``line``), rolled ``roll``; ``hit`` on a 6 (L31.36) destroyed it."""

    kind: ClassVar[str] = "ts_lrg_fired"
    power: str
    gun: str
    area: str
    owner: str
    target: str
    roll: int
    hit: bool
    cargo: dict[str, int] = attrs.field(factory=dict)
    line: int = 0


@attrs.frozen
class LrgReactionFired(Event):
    """In ``mover``'s turn: ``power``'s long-range gun in ``gun`` fired at ``target`` of the
    units that entered ``area`` (L31.38-L31.41), because of the standing order ``standing``
    (its canonical text, or ``"default: <name>"``); ``before_unload``: a loaded ferry
    entering a sea (L31.40)."""

    kind: ClassVar[str] = "ts_lrg_reaction_fired"
    power: str
    gun: str
    area: str
    mover: str
    target: str
    roll: int
    hit: bool
    standing: str
    cargo: dict[str, int] = attrs.field(factory=dict)
    before_unload: bool = False
