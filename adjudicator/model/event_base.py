"""The base class of every event of a turn's log; its ``kind`` tags it in files."""

from __future__ import annotations

from typing import ClassVar

import attrs

from .reprs import attrs_repr


@attrs.frozen(repr=False)
class Event:
    __repr__ = attrs_repr
    kind: ClassVar[str] = "event"
