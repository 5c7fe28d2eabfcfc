"""A board battle played live, between two of its battle turns (issue 26), as it waits in
``GameState.extras``: apart from ``model.live_battle`` (the orders of a battle turn) so that
reading orders makes no board classes (``model.tactical``)."""

from __future__ import annotations

import attrs

from .tactical import BattlePlan, BoardEvent, BoardForce, BoardPosition


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
