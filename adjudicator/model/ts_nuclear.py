"""Taktyczne Starcie's nuclear events (L19.56-L19.68, rulings G22-G26): codes and
parameters; the words are in ``present.wording``."""

from __future__ import annotations

from typing import ClassVar

import attrs

from .events import Event


@attrs.frozen
class NuclearBlast(Event):
    """A nuclear explosion over ``centre`` (``radius`` ``full``: with its bordering and
    tangent areas, L19.59; ``area``: that area only, G22) caused by ``cause`` (``missile``,
    ``silo``, ``bomb``, ``bomber_down``) of ``by``: the ``areas`` it reached and the units
    destroyed there ({area: {unit type: count}})."""

    kind: ClassVar[str] = "ts_nuclear_blast"
    centre: str
    radius: str
    cause: str
    by: str
    areas: tuple[str, ...]
    destroyed: dict[str, dict[str, int]]
