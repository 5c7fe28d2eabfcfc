"""The statements about a whole turn: no orders received, the game conceded."""

from __future__ import annotations

from typing import ClassVar

import attrs

from .order_base import Order


@attrs.frozen(repr=False)
class Nmr(Order):
    """The game master's statement that no orders came by ``deadline`` (ISO 8601 UTC,
    ``""``: not given): the turn is played with no purchase and no moves."""

    kind: ClassVar[str] = "nmr"
    deadline: str = ""
    line: int = 0


@attrs.frozen(repr=False)
class Concede(Order):
    """The power's side gives the game up: the other side wins."""

    kind: ClassVar[str] = "concede"
    line: int = 0
