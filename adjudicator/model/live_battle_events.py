"""The events of a live board battle (issue 26: the main turn paused, each battle turn a
turn file of its own): apart from ``model.live_battle`` so that reading orders loads no
event classes (``pbem odds`` loads none)."""

from __future__ import annotations

from typing import ClassVar

import attrs

from .events import Event
from .tactical import BoardEvent


@attrs.frozen
class LiveBattleStarted(Event):
    """The main turn paused: the board battle of ``area`` is played live.  ``deployment``:
    the board's events so far (each unit's square; mines by count only), ``next_power``
    the power whose battle turn comes first (the attacker's, L31.1)."""

    kind: ClassVar[str] = "ts_live_battle_started"
    area: str
    board: str
    attacker: str
    defender: str
    deployment: tuple[BoardEvent, ...]
    next_power: str


@attrs.frozen
class LiveBattleTurn(Event):
    """One battle turn of a live board battle: the ``power`` playing ``side``, its
    ``board_events``, ``by_plan`` True when its deadline was missed and its plan played it,
    ``skipped``: ``(line, unit, code)`` of the accepted lines the dice made impossible, and
    ``next_power``: whose battle turn is next ("" when the battle ended)."""

    kind: ClassVar[str] = "ts_live_battle_turn"
    area: str
    power: str
    side: str
    turn: int
    board_events: tuple[BoardEvent, ...]
    by_plan: bool
    skipped: tuple[tuple[int, str, str], ...] = ()
    next_power: str = ""
