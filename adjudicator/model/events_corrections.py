"""A game master's correction turn, as events."""

from __future__ import annotations

from typing import ClassVar

import attrs

from .event_base import Event
from .corrections import Edit


@attrs.frozen(repr=False)
class Corrected(Event):
    """One edit of a game master's correction turn and the reason given for the
    correction."""

    kind: ClassVar[str] = "corrected"
    edit: Edit
    reason: str
