"""Per-turn bookkeeping shared by the phase modules: problems found, events emitted, and
the amphibious landings declared in combat moves."""

from __future__ import annotations

import attrs

from ..model.events import Event
from ..model.game import Game
from ..model.orders import OrderSet, StandingOrders
from .working import Piece, WorkingBoard


@attrs.frozen
class Problem:
    """A rule violation found while checking orders.  ``severity`` is "error" (the turn
    cannot be processed) or "warning" (worth knowing, not blocking)."""

    line: int
    message: str
    severity: str = "error"

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line else ""
        return f"{where}{self.severity}: {self.message}"


@attrs.define
class Landing:
    """Cargo declared to unload from ``zone`` into enemy ``target`` (amphibious assault)."""

    zone: str
    target: str
    cargo: list[int]          # piece uids, still aboard until the sea battle is over
    line: int


@attrs.define
class TurnContext:
    game: Game
    board: WorkingBoard
    orders: OrderSet
    mode: str                  # "check" (optimistic, no dice) or "play"
    problems: list[Problem] = attrs.field(factory=list)
    events: list[Event] = attrs.field(factory=list)
    landings: list[Landing] = attrs.field(factory=list)
    attack_lines: dict[str, int] = attrs.field(factory=dict)    # space -> first order line attacking it
    explicit_air_moves: dict[int, int] = attrs.field(factory=dict)  # air uid -> noncombat order line
    pending_placements: dict[str, int] = attrs.field(factory=dict)  # purchased, not yet placed
    bought: dict[str, int] = attrs.field(factory=dict)              # purchased this turn
    standing_orders: dict[str, StandingOrders] = attrs.field(factory=dict)  # power -> defence orders
    hostile_at_start: frozenset[str] = frozenset()   # sea zones with enemy warships at the start

    @property
    def power(self) -> str:
        return self.board.power

    @property
    def checking(self) -> bool:
        return self.mode == "check"

    def error(self, line: int, message: str) -> None:
        self.problems.append(Problem(line, message, "error"))

    def warn(self, line: int, message: str) -> None:
        self.problems.append(Problem(line, message, "warning"))

    def emit(self, event: Event) -> None:
        self.events.append(event)

    def name(self, space_or_power: str) -> str:
        powers = self.game.ruleset.powers
        return powers[space_or_power].name if space_or_power in powers else space_or_power

    def label(self, piece: Piece) -> str:
        return self.board.utype(piece).name
