"""A Taktyczne Starcie board battle event made the way the main turn makes it: the plan
interpreter (``engine.tactical.plan.fight``) plays the board, and ``BoardBattleFought``
(contract 1 of issue 26's split) wraps its events."""

from __future__ import annotations

from adjudicator.engine.tactical import fight
from adjudicator.io.tactical_data import load_board
from adjudicator.model.dice import SeededDice
from adjudicator.model.tactical import ATTACKER, DEFENDER, BattlePlan, BoardForce, Doctrine
from adjudicator.model.taktyczne import BoardBattleFought

RULES = load_board()
FORCES = {ATTACKER: BoardForce(units=(("a1", "tank_4"), ("a2", "tank_3"), ("a3", "tank_1"),
                                      ("a4", "at_gun"))),
          DEFENDER: BoardForce(units=(("d1", "tank_3"), ("d2", "tank_2"), ("d3", "at_gun"),
                                      ("d4", "lrg")), mines=2)}
PLANS = {ATTACKER: BattlePlan(doctrine=Doctrine(target="guns_first", fire_at=5)),
         DEFENDER: BattlePlan(formation="wedge")}


def fought_battle(seed: int = 7, area: str = "34", attacker: str = "ann", defender: str = "bob",
                  forces=None, plans=None, board: str = "land"):
    """``(event, finished BoardBattle)`` of one battle by plan with ``SeededDice(seed)``."""
    forces = forces or FORCES
    plans = plans or PLANS
    finished = fight(RULES, board, forces, plans, SeededDice(seed))
    result = finished.result
    assert result is not None
    powers = {ATTACKER: attacker, DEFENDER: defender}
    lost = {side: tuple(pid for pid, _ in forces[side].units if pid not in finished.pieces)
            for side in (ATTACKER, DEFENDER)}
    event = BoardBattleFought(
        area=area, board=board, attacker=attacker, defender=defender,
        forces=tuple(forces.items()), plans=tuple(plans.items()),
        board_events=tuple(finished.events), winner=powers[result.winner], turns=result.turn,
        losses=((attacker, lost[ATTACKER]), (defender, lost[DEFENDER])))
    return event, finished
