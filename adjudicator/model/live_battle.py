"""Live-by-mail board battles as values (issue 26): a side's battle-turn order and the
battle a paused main turn waits for.

A live battle is played battle turn by battle turn, each a small turn file of the game's
hash chain whose orders are one side's ``board`` lines (``BoardAction``); between those
files the battle waits in ``GameState.extras`` as a ``LiveBattle`` (written as plain JSON
by ``engine.taktyczne.live``).  Squares are whole-board names (``C3a``: the attacker's
row 3, ``C8d``: the defender's), as the board's events write them.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .orders import Order
from .tactical import BattlePlan, BoardEvent, BoardForce, BoardPosition

MAX_PATH = 10          # squares in one written path (the rules allow 4 moves: more is an error)


@attrs.frozen
class BoardAction(Order):
    """``board T1 -> C4a C5a, fire at t9 2 shots, then C6a``: one unit's action in a live
    battle turn (``engine.tactical.battle.BoardBattle.act``): move along ``before``, fire
    at ``target`` up to ``shots`` (None: all it has), move on along ``after``."""

    kind: ClassVar[str] = "board"
    piece: str
    before: tuple[str, ...] = ()
    target: str | None = None
    shots: int | None = None
    after: tuple[str, ...] = ()
    line: int = 0


@attrs.frozen
class LiveOrder(Order):
    """``live 34``: the board battle this turn's attack on ``space`` starts is played live
    by mail, battle turn by battle turn (without it, by the plans; the game's option
    ``live_battles`` makes every board battle live)."""

    kind: ClassVar[str] = "live"
    space: str
    line: int = 0


@attrs.frozen
class LiveBattle:
    """A board battle played live, between two of its battle turns.

    ``area``/``board``/``attacker``/``defender`` as in the ``BoardBattleFought`` it will
    become; ``forces`` and ``plans`` (side -> value) what each side brought and the plan
    that plays its battle turn when it misses the deadline; ``position`` the board now;
    ``events`` the board's events so far; ``mover`` and ``round`` the main turn that paused,
    ``resume`` where it goes on once the battle ends (the main turn's own plain data:
    which step and order, written by the edition's turn)."""

    area: str
    board: str
    attacker: str
    defender: str
    forces: tuple[tuple[str, BoardForce], ...]
    plans: tuple[tuple[str, BattlePlan], ...]
    position: BoardPosition
    events: tuple[BoardEvent, ...] = ()
    mover: str = ""
    round: int = 0
    resume: tuple[tuple[str, str], ...] = ()

    def power_of(self, side: str) -> str:
        """The power playing ``side`` ("attacker" or "defender")."""
        return self.attacker if side == "attacker" else self.defender

    def plan_of(self, side: str) -> BattlePlan:
        return dict(self.plans).get(side, BattlePlan())

    @property
    def side_to_move(self) -> str:
        """The side of the next battle turn (the attacker plays the odd ones, L31.1)."""
        return "attacker" if (self.position.turn + 1) % 2 else "defender"
