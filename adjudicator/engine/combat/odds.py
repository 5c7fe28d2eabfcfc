"""Exact battle odds: the probability distribution of a battle's outcome, computed from the
Markov chain of ``BattleState``s with the *same* rule functions and battle steps the dice
driver uses (``decide_before_round``, ``stage_volleys``, ``hits_by_class``,
``apply_side_hits``, ``end_of_round``).  Nothing here re-states a rule; it only sums
probabilities.  The chain is swept with numpy (``combat.sweep``): the cost grows with the
number of states of each side rather than with the number of pairs times the dice.  Small
battles use the state chain (``combat.chain``, plain Python), so numpy is imported only
when a battle needs the sweep.

States whose probability is below ``prune`` (default 1e-15) when they are reached are
dropped and their mass reported (``BattleOdds.pruned``), so every figure is exact to within
that mass.  ``max_error`` trades exactness for speed: states are pruned more aggressively,
and the pruned mass is guaranteed to stay below ``max_error``.

The sweep's cost follows the number of attacker states (its rows).  AA fire aimed at each
aircraft multiplies them: each result (fighters lost, bombers lost) starts a different
attacker, so Spring 1942's 100-v-100 with 15 aircraft has 56x the attacker states of the
same battle without the gun (benchmarks/README.md, "AA fire in the exact odds": why, the
floor, and the row-batched sweep that would remove most of the cost).  First-round steps that
hit the defender (bombardment) cost nothing: the defender's states are handled together.

``monte_carlo`` runs the real dice driver (``combat.run_battle``) with ``SeededDice`` as an
independent cross-check.
"""

from __future__ import annotations

import gc
import math
from collections import Counter
from collections.abc import Callable


from ...model.dice import SeededDice
from ...model.units import Domain
from .board import Board
from .chain import chain_odds
from .driver import run_battle
from .model import OUTCOMES, BattleSetup
from .oddsresult import (
    BattleOdds, Composition, composition, mean_stderr, share_stderr, summarize_terminal,
)

__all__ = ["BattleOdds", "Composition", "battle_odds", "composition", "monte_carlo",
           "DEFAULT_PRUNE", "SMALL_BATTLE"]

DEFAULT_PRUNE = 1e-15


def _summarize(board: Board, sweep, max_error: float | None) -> BattleOdds:
    return summarize_terminal(
        board, sweep.terminal, sweep.A.states, sweep.D.states, sweep.rounds, sweep.pairs_seen,
        pruned=max(0.0, 1.0 - math.fsum(sweep.terminal.values())), max_error=max_error)


# Units on the board at most for which the state chain (``chain``, one state at a time, no
# pruning) beats the sweep's fixed numpy costs (benchmarks/bench_issue11.py: 2v2 0.5 ms
# against 3 ms, sea 8v8 12 ms against 61 ms; the sweep wins from about 20 a side).
SMALL_BATTLE = 32


def battle_odds(setup: BattleSetup, *, sides: int = 6, max_error: float | None = None,
                progress: Callable[[float], None] | None = None,
                method: str = "auto") -> BattleOdds:
    """The outcome distribution of ``setup`` (dice with ``sides`` faces).  ``max_error``:
    accept figures off by up to that much probability for speed (None: exact, pruning only
    states below 1e-15).  ``progress(fraction)`` is called now and then with the share of
    the probability already settled.  ``method``: "sweep", "chain" (normal dice, exact
    only) or "auto": the chain for small battles, else the sweep (both run the same rule
    functions and agree to 1e-12, tests/test_odds_sweep.py)."""
    if max_error is not None and not 0 < max_error < 1:
        raise ValueError("max_error must be between 0 and 1")
    if method not in ("auto", "sweep", "chain"):
        raise ValueError(f"unknown odds method {method!r}")
    units = len(setup.attackers) + len(setup.defenders) + sum(map(len, setup.support))
    if method == "chain" or (method == "auto" and max_error is None and not setup.low_luck
                             and units <= SMALL_BATTLE):
        if setup.low_luck or max_error is not None:
            raise ValueError("the chain computes exact odds with normal dice only")
        odds = chain_odds(setup, sides=sides)
        if progress is not None:
            progress(1.0)
        return odds
    from .sweep import Sweep     # numpy: loaded only by the battles that need it
    prune = DEFAULT_PRUNE if max_error is None else max(DEFAULT_PRUNE, max_error * 1e-3)
    collecting = gc.isenabled()
    gc.disable()                 # many small acyclic objects: the collector only slows us down
    try:
        with _blas_controller().limit(limits=1, user_api="blas"):
            while True:
                board = Board(setup)
                sweep = Sweep(board, sides, prune, progress)
                sweep.run()
                odds = _summarize(board, sweep, max_error)
                if max_error is None or odds.pruned <= max_error or prune <= DEFAULT_PRUNE:
                    return odds
                prune = max(DEFAULT_PRUNE, prune * 1e-2)   # pruned too much: again, finer
    finally:
        if collecting:
            gc.enable()


_CONTROLLER = []


def _blas_controller():
    """The matrices of one battle are small: one BLAS thread is much faster than several
    (which also fight every other process for the cores)."""
    if not _CONTROLLER:
        from threadpoolctl import ThreadpoolController
        _CONTROLLER.append(ThreadpoolController())
    return _CONTROLLER[0]


def monte_carlo(setup: BattleSetup, runs: int, seed: int | str = 0, *,
                sides: int = 6, progress=None) -> BattleOdds:
    """Estimate the same figures by fighting the battle ``runs`` times with the real dice
    driver and ``SeededDice(seed, sides)`` (a cross-check for ``battle_odds``).
    ``progress(done)``, if given, is called every few hundred battles and at the end."""
    board = Board(setup)
    dice = SeededDice(seed, sides)
    cost = {u.uid: u.type.cost + board.cargo_cost(u) for u in (*setup.attackers, *setup.defenders)}
    att_uids = {u.uid for u in setup.attackers}
    outcomes: Counter = Counter()
    att_surv: Counter = Counter()
    def_surv: Counter = Counter()
    captured = 0
    a_lost: list[int] = []
    d_lost: list[int] = []
    rounds: list[int] = []
    order = {k: i for i, k in enumerate(board.type_order)}

    memo: dict[tuple[int, ...], Composition] = {}

    def comp(units) -> Composition:
        key = tuple(u.uid for u in units)
        found = memo.get(key)
        if found is None:
            c = Counter(u.type.key for u in units)
            found = memo[key] = tuple(sorted(c.items(), key=lambda kv: order[kv[0]]))
        return found

    for run in range(runs):
        if progress is not None and run % 256 == 0:
            progress(run)
        res = run_battle(board, dice, record=False)
        outcomes[res.outcome] += 1
        a = sum(cost[u] for u in res.killed if u in att_uids)
        a_lost.append(a)
        d_lost.append(sum(cost[u] for u in res.killed) - a)
        rounds.append(res.rounds)
        att_surv[comp(res.attackers)] += 1
        def_surv[comp(res.defenders)] += 1
        if res.outcome == "attacker_wins" and not board.is_sea:
            retreated = set(res.retreated)
            if any(board_captures(u) for u in res.attackers if u.uid not in retreated):
                captured += 1

    if progress is not None:
        progress(runs)

    probs = {o: outcomes[o] / runs for o in OUTCOMES}
    stderr = {o: share_stderr(p, runs) for o, p in probs.items()}
    p_cap = captured / runs
    stderr["captured"] = share_stderr(p_cap, runs)
    am, stderr["attacker_tuv_lost"] = mean_stderr(a_lost)
    dm, stderr["defender_tuv_lost"] = mean_stderr(d_lost)
    sm, stderr["tuv_swing"] = mean_stderr([d - a for a, d in zip(a_lost, d_lost)])
    rm, stderr["rounds"] = mean_stderr(rounds)
    return BattleOdds(
        **probs, captured=p_cap,
        attacker_survivors={k: v / runs for k, v in att_surv.items()},
        defender_survivors={k: v / runs for k, v in def_surv.items()},
        attacker_tuv_lost=am, defender_tuv_lost=dm, tuv_swing=sm, rounds=rm,
        method="monte_carlo", runs=runs, stderr=stderr)


def board_captures(unit) -> bool:
    return unit.type.domain == Domain.LAND and not unit.type.has("cannot_capture")
