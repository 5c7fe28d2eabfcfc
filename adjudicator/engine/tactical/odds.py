"""Odds for a board battle, estimated by Monte Carlo: the battle fought ``runs`` times by
the plan interpreter (``plan.fight``) with the caller's dice, one after another from the
same source (so ``SeededDice(seed)`` gives the same figures every time).  Always an
estimate, never exact: the interpreter's choices depend on the whole position, so there is
no small state chain to sum.  Each share carries its standard error and a 95% interval
(the Wilson interval, as ``combat.oddsresult`` gives the other estimates; the mean length's
bound is ``Z95`` standard errors)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

import attrs

from ...model.dice import DiceSource
from ...model.tactical import ATTACKER, DEFENDER, SIDES, BattlePlan, BoardForce, BoardRules
from ..combat.oddsresult import Z95, mean_stderr, share_bound, share_stderr, wilson_interval
from ..errors import OrderFailed
from .plan import PLAN_INTERPRETER_VERSION, fight

MAX_RUNS = 20_000         # as many battles as ``service.quick_odds`` ever simulates


@attrs.frozen
class BoardOdds:
    """A board battle's estimated odds from ``runs`` battles by plan: each side's share of
    wins (they sum to 1: a board battle always has a winner), the share of each way the
    battles ended (``reasons``, by ``BoardBattleEnded.reason``), the mean battle length in
    battle turns, and ``stderr`` of each (keyed ``attacker``, ``defender``, ``turns``).
    ``interpreter``: the plan interpreter's version that played them."""

    runs: int
    wins: Mapping[str, float]
    reasons: Mapping[str, float]
    turns: float
    stderr: Mapping[str, float]
    interpreter: int = PLAN_INTERPRETER_VERSION
    method: str = "monte_carlo"

    @property
    def error_bound(self) -> float:
        """How far off a share may be, 95% of the time (``share_bound``: the Wilson interval)."""
        return max(share_bound(self.wins[side], self.runs) for side in SIDES)

    def interval(self, side: str) -> tuple[float, float]:
        """The 95% interval of ``side``'s share of wins, within 0..1."""
        return wilson_interval(self.wins[side], self.runs)

    @property
    def turns_bound(self) -> float:
        """How far off the mean battle length may be, 95% of the time."""
        return Z95 * self.stderr["turns"]


def board_odds(rules: BoardRules, battle: str, forces: Mapping[str, BoardForce],
               plans: Mapping[str, BattlePlan], dice: DiceSource, runs: int) -> BoardOdds:
    """Fight the battle ``runs`` times by ``plans`` with ``dice`` and count the outcomes.
    A bad force or plan raises ``OrderFailed`` from the first battle, as ``fight`` does."""
    if not isinstance(runs, int) or not 1 <= runs <= MAX_RUNS:
        raise OrderFailed("board_odds_runs", runs=runs, most=MAX_RUNS)
    winners: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    lengths: list[int] = []
    for _ in range(runs):
        result = fight(rules, battle, forces, plans, dice).result
        assert result is not None
        winners[result.winner] += 1
        reasons[result.reason] += 1
        lengths.append(result.turn)
    wins = {side: winners[side] / runs for side in (ATTACKER, DEFENDER)}
    turns, turns_se = mean_stderr(lengths)
    stderr = {side: share_stderr(share, runs) for side, share in wins.items()}
    stderr["turns"] = turns_se
    return BoardOdds(runs=runs, wins=wins, reasons={r: n / runs for r, n in sorted(reasons.items())},
                     turns=turns, stderr=stderr)
