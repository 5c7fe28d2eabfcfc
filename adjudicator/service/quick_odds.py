"""Odds for ``pbem check`` without waiting (issue 24): the exact odds when they take at
most ``budget`` seconds of CPU, else an estimate with its error bound -- the real dice
driver run as many times as another ``budget`` allows (``odds.monte_carlo``, seeded, so
the same battle gives the same figures on the same machine), between 200 and 20,000
battles.  ``exact=True`` (``pbem check --exact-odds``) always waits for the exact odds."""

from __future__ import annotations

import time
from collections.abc import Callable

from ..engine.combat import BattleSetup
from ..engine.combat.odds import BattleOdds, battle_odds, monte_carlo

BUDGET = 1.0                  # seconds of CPU the exact odds may take before an estimate
MIN_RUNS, MAX_RUNS, STEP = 200, 20_000, 100


class _TooSlow(Exception):
    pass


def check_odds(setup: BattleSetup, sides: int, *, exact: bool = False,
               budget: float = BUDGET,
               progress: Callable[[float], None] | None = None) -> BattleOdds:
    """The exact odds of ``setup``, or (``exact`` False and the exact odds would take
    over ``budget`` seconds) a Monte Carlo estimate: ``method == "monte_carlo"``,
    ``runs`` battles, ``stderr`` per figure, ``error_bound`` its 95% bound.  Losses the
    attacker may take before the battle (``setup.before``: kamikaze strikes) are counted:
    the mixture of the battles they leave, the budget shared between them."""
    from ..engine.combat.prelude import mixed_odds
    return mixed_odds(setup, lambda battle, share, watch: _battle_odds(
        battle, sides, exact=exact, budget=budget * share, progress=watch), progress)


def _battle_odds(setup: BattleSetup, sides: int, *, exact: bool, budget: float,
                 progress: Callable[[float], None] | None) -> BattleOdds:
    if exact:
        return battle_odds(setup, sides=sides, progress=progress)
    start = time.process_time()

    def watch(share: float) -> None:
        if time.process_time() - start > budget:
            raise _TooSlow
        if progress is not None:
            progress(share)

    try:
        return battle_odds(setup, sides=sides, progress=watch)
    except _TooSlow:
        pass
    t0 = time.process_time()
    monte_carlo(setup, STEP, seed=0, sides=sides)
    per_run = max(time.process_time() - t0, 1e-9) / STEP
    runs = min(MAX_RUNS, max(MIN_RUNS, int(budget / per_run) // STEP * STEP))
    return monte_carlo(setup, runs, seed=0, sides=sides)
