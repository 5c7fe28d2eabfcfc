"""The base class of every event of a turn's log; its ``kind`` tags it in files."""

from __future__ import annotations

from typing import ClassVar

import attrs


@attrs.frozen
class Event:
    kind: ClassVar[str] = "event"
