"""Per-turn bookkeeping shared by the turn steps: problems found, events emitted, and
what combat moves declared (amphibious landings, raids, bombardments)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import attrs

from ..model.events import Event
from ..model.game import Game
from ..model.orders import OrderSet, StandingOrders
from ..model.problems import ERROR, WARNING, Problem
from .working import Piece, WorkingBoard

__all__ = ["Landing", "Problem", "Resume", "TurnContext"]

T = TypeVar("T")


@attrs.define
class Landing:
    """Cargo declared to unload from ``zone`` into enemy ``target`` (amphibious assault)."""

    zone: str
    target: str
    cargo: list[int]          # piece uids, still aboard until the sea battle is over
    line: int


@attrs.frozen
class Resume:
    """A paused turn going on (``turn_rules`` hook ``pending_turn``): the ``power`` whose
    turn it is, its ``orders``, the ``step`` it paused in and the ``order`` (index in the
    orders of the kinds that step carries out, ``TurnContext.order_index``) being carried
    out then; ``outcome`` what the pause produced for that order (a live battle's
    ``BoardBattleFought``).  A step that can pause reads ``TurnContext.resume`` and skips
    what it did before."""

    power: str
    orders: OrderSet
    step: str
    order: int = 0
    outcome: Any = None


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
    standing_orders: dict[str, StandingOrders] = attrs.field(factory=dict)  # power -> defence orders
    hostile_at_start: frozenset[str] = frozenset()   # sea zones with enemy warships at the start
    contested_at_start: frozenset[str] = frozenset()  # sea zones with any enemy unit at the start
    raids: dict[str, list[int]] = attrs.field(factory=dict)      # territory -> raiding bomber uids
    bombarded: set[int] = attrs.field(factory=set)                # ships that bombarded this turn
    _dice: Any = None          # ``dice``: the turn's dice (None when checking): for rules and income items
    # Per-turn state of each mechanic, under the mechanic's name (``mechanic``): purchases
    # (``production.Purchases``), aircraft landings (``aircraft.Flights``), an edition's
    # rules -- not new fields of the context or of ``Piece``.
    mechanics: dict[str, Any] = attrs.field(factory=dict)
    # A turn that pauses and goes on in later turn files (a live board battle, issue 26):
    # the step running and the index of the order it carries out (kept by what pauses),
    # the paused turn going on (``Resume``), whether it paused now, and who moves next when
    # that is not the next power in the turn order.
    step: str = ""
    order_index: int = 0
    resume: Resume | None = None
    paused: bool = False
    next_power: str | None = None
    # Whether the turn so far could go otherwise in the other mode: something asked the mode
    # or the dice (``checking``, ``dice``), a battle was fought, an income item rolled.  A
    # check that ends with this False played the turn exactly as ``play`` with any dice
    # would: ``turn.adjudicate`` keeps its result instead of playing the turn again.
    mode_dependent: bool = False

    @property
    def power(self) -> str:
        return self.board.power

    @property
    def checking(self) -> bool:
        self.mode_dependent = True
        return self.mode == "check"

    @property
    def dice(self) -> Any:
        self.mode_dependent = True
        return self._dice

    def error(self, line: int, code: str, **params: Any) -> None:
        self._problem(Problem(line, code, params, ERROR))

    def warn(self, line: int, code: str, **params: Any) -> None:
        self._problem(Problem(line, code, params, WARNING))

    def _problem(self, problem: Problem) -> None:
        """One message per rule broken: the same problem found for each of several units
        (two infantry left aboard) is said once."""
        if not any(p == problem and p.params == problem.params and p.severity == problem.severity
                   for p in self.problems):
            self.problems.append(problem)

    def emit(self, event: Event) -> None:
        self.events.append(event)

    def mechanic(self, name: str, factory: Callable[[], T] = dict) -> T:  # type: ignore[assignment]
        """The per-turn state of mechanic ``name`` (``factory()`` the first time)."""
        found = self.mechanics.get(name)
        if found is None:
            found = self.mechanics[name] = factory()
        return found

    def label(self, piece: Piece) -> str:
        return self.board.utype(piece).key
