"""Taktyczne Starcie's mines as events (docs/taktyczne-mines.md, contract 5 of issue 27):
a sealed layout asked for, revealed and checked, a missed reveal and its default, and the
mines that went off in a board battle.  Every event of a mine acting in another player's
turn names the ``power`` it belongs to and ``standing``: the canonical text of the standing
order that made it act (``minefield 22: sha256_…``) or ``"default: <name>"``."""

from __future__ import annotations

from typing import ClassVar

import attrs

from .events import Event


@attrs.frozen
class MineEvent(Event):
    kind: ClassVar[str] = "ts_mine_event"


@attrs.frozen
class MineRevealWanted(MineEvent):
    """The board battle of ``area`` needs ``power``'s sealed layout ``commitment`` (for
    ``scope``: the area, or ``"all"``): the turn pauses until ``power`` reveals it."""

    kind: ClassVar[str] = "ts_mine_reveal_wanted"
    area: str
    power: str
    scope: str
    commitment: str
    mines: int
    standing: str


@attrs.frozen
class MineLayoutRevealed(MineEvent):
    """``power`` revealed the layout ``squares`` (own-row names) with ``salt``: it opens
    ``commitment``; the battle of ``area`` is fought with it."""

    kind: ClassVar[str] = "ts_mine_layout_revealed"
    area: str
    power: str
    scope: str
    squares: tuple[str, ...]
    salt: str
    commitment: str
    standing: str


@attrs.frozen
class MineRevealMissed(MineEvent):
    """``power`` missed the reveal's deadline (the game master's ``nmr``): by the default
    ``mines_lost`` its ``count`` mines in ``area`` are removed and the battle is fought
    without them."""

    kind: ClassVar[str] = "ts_mine_reveal_missed"
    area: str
    power: str
    count: int
    standing: str = "default: mines_lost"


@attrs.frozen
class MinesFired(MineEvent):
    """``power``'s mines that went off in the board battle of ``area``: on ``squares``,
    destroying the attacker's ``units`` (unit types), L31.52."""

    kind: ClassVar[str] = "ts_mines_fired"
    area: str
    power: str
    squares: tuple[str, ...]
    units: tuple[str, ...]
    standing: str


@attrs.frozen
class MinefieldRetired(MineEvent):
    """The battle of ``area`` used ``power``'s sealed layout of the standing order
    ``standing`` (for ``scope``: an area or ``all``): ``revealed`` whole, or else opened
    square by square in a live battle (its leaves published); the order is withdrawn
    (default: the formation's squares) and the owner seals a new one for the next battle."""

    kind: ClassVar[str] = "ts_minefield_retired"
    area: str
    power: str
    scope: str
    revealed: bool
    standing: str
