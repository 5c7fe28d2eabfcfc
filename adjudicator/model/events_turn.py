"""The events of every turn's course: its start, purchases, placement, income, orders
skipped or reduced, standing orders, statements and victory."""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from .event_base import Event


@attrs.frozen(repr=False)
class TurnStarted(Event):
    kind: ClassVar[str] = "turn_started"
    power: str
    round: int
    ipcs: int


@attrs.frozen(repr=False)
class Purchased(Event):
    kind: ClassVar[str] = "purchased"
    power: str
    units: dict[str, int]
    cost: int
    ipcs_left: int


@attrs.frozen(repr=False)
class Repaired(Event):
    kind: ClassVar[str] = "repaired"
    power: str
    space: str
    points: int
    cost: int
    ipcs_left: int


@attrs.frozen(repr=False)
class Placed(Event):
    kind: ClassVar[str] = "placed"
    power: str
    units: dict[str, int]
    space: str


@attrs.frozen(repr=False)
class Refunded(Event):
    kind: ClassVar[str] = "refunded"
    power: str
    units: dict[str, int]
    ipcs: int


@attrs.frozen(repr=False)
class UnitsChanged(Event):
    """Units that became another type where they are (``count`` of ``from_type`` into
    ``to_type``): a captured major factory turned minor."""

    kind: ClassVar[str] = "units_changed"
    space: str
    power: str
    from_type: str
    to_type: str
    count: int


@attrs.frozen(repr=False)
class EconomyPaid(Event):
    """The part of ``power``'s purchase that its economy ``economy`` (not its first) paid:
    what it places in that economy's land (Global 1940's UK Pacific [L405-L417])."""

    kind: ClassVar[str] = "economy_paid"
    power: str
    economy: str
    cost: int
    ipcs_left: int


@attrs.frozen(repr=False)
class IncomeCollected(Event):
    """``items``: the income pipeline's lines ``((item, amount), ...)``; ``reason``: why
    nothing was collected ("capital_lost"), else ""."""

    kind: ClassVar[str] = "income_collected"
    power: str
    income: int
    total: int
    reason: str = ""
    items: tuple[tuple[str, int], ...] = ()


@attrs.frozen(repr=False)
class EconomyIncome(Event):
    """Income paid to another economy of ``power`` than its first (Global 1940's United
    Kingdom Pacific); ``items`` as in ``IncomeCollected``."""

    kind: ClassVar[str] = "economy_income"
    power: str
    economy: str
    income: int
    total: int
    items: tuple[tuple[str, int], ...] = ()


@attrs.frozen(repr=False)
class OrderSkipped(Event):
    """An order that was valid when written but could not be carried out after combat
    (e.g. the units it names were lost).  ``order`` is its canonical text; ``reason`` a
    problem code with ``params`` (see ``model.problems``)."""

    kind: ClassVar[str] = "order_skipped"
    line: int
    order: str
    reason: str
    params: dict[str, Any] = attrs.field(factory=dict)


@attrs.frozen(repr=False)
class OrderReduced(Event):
    """A noncombat move carried out with fewer units than it names, because the others were
    lost in combat (or cannot move any more): the survivors still go.  ``order`` is its
    canonical text, ``moved`` the units that went; ``reason``/``params`` say why the rest
    did not (a problem code, see ``model.problems``)."""

    kind: ClassVar[str] = "order_reduced"
    line: int
    order: str
    moved: dict[str, int]
    reason: str
    params: dict[str, Any] = attrs.field(factory=dict)


@attrs.frozen(repr=False)
class StandingOrdersChanged(Event):
    kind: ClassVar[str] = "standing_orders_changed"
    power: str
    count: int


@attrs.frozen(repr=False)
class VictoryDeclared(Event):
    """``rule`` names the victory rule that held; ``territories`` the ones it counted."""

    kind: ClassVar[str] = "victory"
    side: str
    rule: str
    territories: tuple[str, ...]


@attrs.frozen(repr=False)
class NoMovesReceived(Event):
    """The power's turn was played with no orders (a missed deadline): no purchase, no
    moves; its standing orders applied and income was collected."""

    kind: ClassVar[str] = "no_moves_received"
    power: str
    deadline: str = ""


@attrs.frozen(repr=False)
class VictoryInSight(Event):
    """The ``held`` part of ``side``'s victory rule ``rule`` holds from this turn on: held
    for a complete round, it wins at the end of round ``round`` at the earliest."""

    kind: ClassVar[str] = "victory_in_sight"
    side: str
    rule: str
    round: int
    territories: tuple[str, ...]


@attrs.frozen(repr=False)
class VictoryDenied(Event):
    """The ``held`` part of ``side``'s victory rule ``rule`` no longer holds (after
    ``turns`` turns in a row): the count starts again."""

    kind: ClassVar[str] = "victory_denied"
    side: str
    rule: str
    turns: int
