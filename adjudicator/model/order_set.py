"""One power's orders for one turn, as parsed."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from .reprs import attrs_repr
from .order_base import Order, Phase
from .standing_orders import StandingChoice

if TYPE_CHECKING:
    from .battle_orders import BattleDirective, Bomb, Bombard
    from .purchase_orders import Buy, Place, Repair
    from .standing_orders import DefenceOrder


@attrs.frozen(repr=False)
class OrderSet:
    """One power's orders for one turn, as parsed, in the order written.  ``source`` is
    the exact text.  The per-kind tuples below are views of ``items``."""

    __repr__ = attrs_repr
    power: str | None
    items: tuple[Order, ...] = ()
    source: str = ""

    def of(self, *kinds: str) -> tuple:
        return tuple(o for o in self.items if o.kind in kinds)

    def in_phase(self, phase: Phase) -> tuple:
        """Move/load/unload orders of ``phase``, in the order written."""
        return tuple(o for o in self.items if getattr(o, "phase", None) == phase)

    @property
    def buys(self) -> tuple[Buy, ...]:
        return self.of("buy")

    @property
    def repairs(self) -> tuple[Repair, ...]:
        return self.of("repair")

    @property
    def combat(self) -> tuple:
        return self.in_phase(Phase.COMBAT)

    @property
    def noncombat(self) -> tuple:
        return self.in_phase(Phase.NONCOMBAT)

    @property
    def places(self) -> tuple[Place, ...]:
        return self.of("place")

    @property
    def battles(self) -> tuple[BattleDirective, ...]:
        return self.of("battle")

    @property
    def defences(self) -> tuple[DefenceOrder, ...]:
        return self.of("defend")

    @property
    def standing_choices(self) -> tuple[StandingChoice, ...]:
        """Standing orders of the edition's own kinds, in the order written."""
        return tuple(o for o in self.items if isinstance(o, StandingChoice))

    @property
    def bombs(self) -> tuple[Bomb, ...]:
        return self.of("bomb")

    @property
    def bombards(self) -> tuple[Bombard, ...]:
        return self.of("bombard")

    def directive_for(self, space: str) -> BattleDirective | None:
        found = [b for b in self.battles if b.space == space]
        return found[-1] if found else None
