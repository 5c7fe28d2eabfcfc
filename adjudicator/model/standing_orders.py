"""A power's standing orders, kept in the game state until replaced: defence orders and
the choices of an edition's own standing kinds (each edition's order classes subclass
``StandingChoice``; the state stores them as this class)."""

from __future__ import annotations

from typing import ClassVar

import attrs

from .reprs import attrs_repr
from .order_base import Order, SubmergePolicy


@attrs.frozen(repr=False)
class DefenceOrder(Order):
    """A standing defence order for ``space`` (``None``: all spaces of this power)."""

    kind: ClassVar[str] = "defend"
    space: str | None
    loss_order: tuple[str, ...] = ()
    submerge: SubmergePolicy | None = None
    line: int = 0
    landing: tuple[str, ...] = ()       # where fighters whose carrier sank here land, in order


@attrs.frozen(repr=False)
class StandingChoice(Order):
    """An edition's standing order of kind ``name`` (declared by its rules with a default,
    ``engine.turn_rules.declare_standing``): for ``space`` (``None``: everywhere) the power
    chooses ``value``; kept in the game state until replaced.  An edition's order kind
    subclasses it with its own ``kind`` (its statement's verb); it is stored as this class."""

    kind: ClassVar[str] = "standing"
    name: str
    space: str | None = None
    value: str = ""
    line: int = 0


@attrs.frozen(repr=False)
class StandingOrders:
    """A power's standing defence orders; they stay in the game state until replaced."""

    __repr__ = attrs_repr
    defences: tuple[DefenceOrder, ...] = ()
    choices: tuple[StandingChoice, ...] = ()    # standing orders of the edition's own kinds

    def choice(self, name: str, space: str | None = None) -> StandingChoice | None:
        """The standing order of kind ``name`` for ``space``, else the one for everywhere."""
        found = [c for c in self.choices if c.name == name and c.space == space]
        if not found and space is not None:
            found = [c for c in self.choices if c.name == name and c.space is None]
        return found[-1] if found else None

    def for_space(self, space: str) -> DefenceOrder | None:
        """The order for ``space``, else the global one, else None."""
        specific = [d for d in self.defences if d.space == space]
        if specific:
            return specific[-1]
        general = [d for d in self.defences if d.space is None]
        return general[-1] if general else None
