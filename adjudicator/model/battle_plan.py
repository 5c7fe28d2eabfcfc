"""A side's battle plan on Taktyczne Starcie's tactical board (``model.tactical``), apart
from the board's pieces and events so that the orders' model (``PlanOrder``) loads no more
than these two values."""

from __future__ import annotations

import attrs

from .reprs import attrs_repr

# A doctrine's choices (the plan interpreter's vocabulary).
STANCES = ("advance", "hold")
TARGET_PRIORITIES = ("best", "highest_rank", "nearest", "guns_first", "tanks_first")


@attrs.frozen(repr=False)
class Doctrine:
    """A side's standing choices for every battle turn.  ``stance``: advance towards the
    enemy or hold the deployment squares; ``target``: which target first; ``fire_at``: a tank
    or warship fires only when the roll needed is at most this (6: every possible shot)."""

    __repr__ = attrs_repr
    stance: str = "advance"
    target: str = "best"
    fire_at: int = 6


@attrs.frozen(repr=False)
class BattlePlan:
    """A side's plan: a named formation, optional own squares for some units
    (``(unit id, "C2")``, or ``(kind key, "C2")`` for the next unit of that kind in the
    deployment order), optional own mine squares, and a doctrine."""

    __repr__ = attrs_repr
    formation: str = "line"
    squares: tuple[tuple[str, str], ...] = ()
    mines: tuple[str, ...] = ()
    doctrine: Doctrine = Doctrine()
