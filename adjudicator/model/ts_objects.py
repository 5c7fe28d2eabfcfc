"""Taktyczne Starcie's object events (digest §1.9): an object destroyed on the main map by
a bomb, a long-range gun or a nuclear blast (codes and parameters; the words are in
``present.wording``)."""

from __future__ import annotations

from typing import ClassVar

import attrs

from .events import Event


@attrs.frozen
class ObjectDestroyed(Event):
    """The object ``key`` (``factory``, ``silo``, ``shipyard S05``...) in ``area``, held by
    ``owner``, destroyed by ``by`` (a power, "" for none); ``cause`` what did it (``bomb``,
    ``lrg``, ``blast``...); ``armed``: a silo with its missile or a launcher with its
    anti-missile (L19.64, L19.69)."""

    kind: ClassVar[str] = "ts_object_destroyed"
    area: str
    key: str
    owner: str
    by: str
    cause: str
    armed: bool = False
