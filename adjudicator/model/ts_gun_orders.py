"""Taktyczne Starcie's long-range gun orders (issue 27, docs/taktyczne-guns.md): the mover's
shot on the main map and the standing reaction order for the turns of others.  Targets are
the canonical words of ``model.ts_targets``."""

from __future__ import annotations

from typing import ClassVar

import attrs

from .order_base import Order
from .standing_orders import StandingChoice
from .ts_targets import OBJECT_KINDS, OBJECTS, UNIT_CLASSES, UNITS


@attrs.frozen(repr=False)
class LrgFireOrder(Order):
    """``fire lrg 23 at 24: aa, tanks, factory``: one long-range gun of the mover in
    ``space`` fires its one main-map shot of the turn at the units or objects of another
    player in the bordering area ``target`` (L31.33-L31.36), choosing by ``priority`` (then
    the default, ruling target_default)."""

    kind: ClassVar[str] = "lrg_fire"
    space: str
    target: str
    priority: tuple[str, ...] = ()
    line: int = 0


@attrs.frozen(repr=False)
class LrgReactOrder(StandingChoice):
    """``react lrg 23: fire at ferries, tanks`` / ``react lrg all: hold``: what the power's
    long-range guns in ``space`` (``None``: everywhere) do when another player's units enter
    an empty area in their range in that player's turn (L31.38-L31.41); the engine's
    standing kind ``lrg_react``, value ``hold``, ``fire`` or ``fire at <words>``."""

    kind: ClassVar[str] = "lrg_react"


HOLD, FIRE = "hold", "fire"


def react_priority(value: str) -> tuple[str, ...] | None:
    """The target words of a canonical ``lrg_react`` value (``fire at aa, tanks``: the
    words; ``fire``: none), None for ``hold``; ValueError when it is neither."""
    text = " ".join(value.casefold().split())
    if text == HOLD:
        return None
    if text == FIRE:
        return ()
    if not text.startswith(FIRE + " at "):
        raise ValueError(f"'{value}' is neither 'hold', 'fire' nor 'fire at <targets>'")
    words = tuple(w.strip() for w in text.removeprefix(FIRE + " at ").split(","))
    unknown = [w for w in words if w not in target_words()]
    if unknown or not all(words):
        raise ValueError(f"'{value}': '{(unknown or [''])[0]}' is not a target word")
    return words


def target_words() -> frozenset[str]:
    """Every canonical target word (``model.ts_targets``)."""
    return frozenset((*UNIT_CLASSES, *(t for ts in UNIT_CLASSES.values() for t in ts),
                      *OBJECT_KINDS, UNITS, OBJECTS))
