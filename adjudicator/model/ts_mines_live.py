"""The events of a live battle on a square-by-square sealed mine layout
(docs/taktyczne-mines.md §3): the leaves published when the battle starts, the squares an
attacker's battle turn needs opened, the squares opened, and a missed opening with its
default.  Each names the ``power`` whose mines they are and ``standing`` (contract 5)."""

from __future__ import annotations

from typing import ClassVar

import attrs

from .events import Event


@attrs.frozen
class MineLeavesPublished(Event):
    """``power`` published the leaves of his ``grid_`` layout for ``scope``: they open
    ``commitment``; the live battle of ``area`` starts with ``mines`` mines whose squares
    stay sealed."""

    kind: ClassVar[str] = "ts_mine_leaves_published"
    area: str
    power: str
    scope: str
    commitment: str
    mines: int
    standing: str


@attrs.frozen
class MineSquaresWanted(Event):
    """The attacker's battle turn in ``area`` enters ``squares`` (``power``'s own-row
    names) of ``power``'s sealed mine rows: it is played once he opens them."""

    kind: ClassVar[str] = "ts_mine_squares_wanted"
    area: str
    power: str
    squares: tuple[str, ...]
    attacker: str
    standing: str


@attrs.frozen
class MineSquaresOpened(Event):
    """``power`` opened ``squares``: ``mined`` the ones holding a mine (the rest proved
    empty); the attacker's waiting battle turn is played with them."""

    kind: ClassVar[str] = "ts_mine_squares_opened"
    area: str
    power: str
    squares: tuple[str, ...]
    mined: tuple[str, ...]
    standing: str


@attrs.frozen
class MineOpeningsMissed(Event):
    """``power`` did not open the squares in time: default ``mines_lost``, his ``count``
    sealed mines of the battle are removed, and the battle turn is played without them."""

    kind: ClassVar[str] = "ts_mine_openings_missed"
    area: str
    power: str
    count: int
    standing: str
