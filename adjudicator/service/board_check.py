"""The board battles a Taktyczne Starcie turn's orders would start, with their odds, for
``pbem check``: each battle as the check plays it (the forces on the board and both
sides' plans, as ``engine.taktyczne.plans.plans_for`` gives them: the attacker's ``plan``
order, the defender's standing plan, the default), and its odds estimated by Monte Carlo
with the plan interpreter (``engine.tactical.odds.board_odds``): as many battles as a CPU
budget allows, as ``quick_odds`` does for the other editions' estimates, between
``MIN_RUNS`` and ``MAX_RUNS``, with seeded dice (the same figures for the same battle on the
same machine).  Always an estimate, labelled so with its 95% bound
(``present.wording.board_odds_text``).

The check plays a battle as the attacker's best case (``engine.taktyczne.board_battles``),
so a battle later in the same orders is estimated from the position that best case leaves.
"""

from __future__ import annotations

import time

import attrs

from ..engine.tactical.odds import BoardOdds, board_odds
from ..engine.turn import checked_events
from ..model.dice import SeededDice
from ..model.game import Game
from ..model.orders import OrderSet
from ..model.state import GameState
from ..model.tactical import BoardRules
from ..model.taktyczne import BoardBattleFought
from .quick_odds import BUDGET, MAX_RUNS, MIN_RUNS, STEP

CALIBRATION = 20          # battles timed to choose the run count
SEED = 0


@attrs.frozen
class PlannedBoardBattle:
    """A board battle the orders would start (``battle``: the check's event, with the
    forces and plans) and its estimated odds."""

    battle: BoardBattleFought
    odds: BoardOdds


def planned_board_battles(game: Game, state: GameState, orders: OrderSet) -> list[BoardBattleFought]:
    """The board battles the orders would start, in the order written (none for an edition
    without a battle board)."""
    if game.tables.get("board") is None:
        return []
    return [e for e in checked_events(game, state, orders) if isinstance(e, BoardBattleFought)]


def board_check_odds(rules: BoardRules, battle: BoardBattleFought,
                     budget: float = BUDGET) -> BoardOdds:
    """``battle``'s odds from as many battles by plan as ``budget`` seconds of CPU allow
    (timed on ``CALIBRATION`` battles), rounded down to ``STEP``, within ``MIN_RUNS`` ..
    ``MAX_RUNS``."""
    forces, plans = dict(battle.forces), dict(battle.plans)
    start = time.process_time()
    board_odds(rules, battle.board, forces, plans, SeededDice(SEED), CALIBRATION)
    per_run = max(time.process_time() - start, 1e-9) / CALIBRATION
    runs = min(MAX_RUNS, max(MIN_RUNS, int(budget / per_run) // STEP * STEP))
    return board_odds(rules, battle.board, forces, plans, SeededDice(SEED), runs)


def board_battles_with_odds(game: Game, state: GameState, orders: OrderSet,
                            budget: float = BUDGET) -> tuple[PlannedBoardBattle, ...]:
    """Every board battle the orders would start, with its estimated odds."""
    rules = game.tables.get("board")
    return tuple(PlannedBoardBattle(b, board_check_odds(rules, b, budget))
                 for b in planned_board_battles(game, state, orders))
