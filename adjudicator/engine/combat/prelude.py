"""Odds of a battle whose attacker may lose units before it starts (``BattleSetup.before``:
Global 1940's kamikaze strikes): the mixture, weighted by each way the losses can fall, of
the battles they leave.  Exact when every part is exact; a part may be an estimate, and then
the whole is one (its standard errors combined, its run count the smallest part's, which
keeps the 95% bound on the safe side: the variance of a mixture's estimate,
sum w_i^2 p_i (1 - p_i) / n_i, is at most p (1 - p) / min n_i)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence

import attrs

from .board import Board
from .model import BattleSetup
from .oddsresult import BattleOdds

_SURVIVOR_FIELDS = ("attacker_survivors", "defender_survivors")
_MEAN_FIELDS = ("attacker_wins", "defender_wins", "both_destroyed", "attacker_retreats",
                "stalemate", "captured", "attacker_tuv_lost", "defender_tuv_lost", "tuv_swing",
                "rounds")


def variants(setup: BattleSetup) -> list[tuple[float, BattleSetup, float]]:
    """``(probability, the battle left, the TUV the attacker lost before it)`` for each way
    ``setup.before`` falls; ``[(1, setup, 0)]`` when nothing happens before the battle."""
    if not setup.before:
        return [(1.0, setup, 0.0)]
    board = Board(setup)        # prices cargo as the battle's TUV figures do
    found = []
    for weight, sunk, damaged in setup.before:
        gone = set(sunk)
        hurt = set(damaged)
        attackers = tuple(attrs.evolve(u, damaged=True) if u.uid in hurt else u
                          for u in setup.attackers if u.uid not in gone)
        lost = sum(u.type.cost + board.cargo_cost(u) for u in setup.attackers if u.uid in gone)
        found.append((weight, attrs.evolve(setup, attackers=attackers, before=()), lost))
    return found


def mixed_odds(setup: BattleSetup,
               odds_of: Callable[[BattleSetup, float, Callable[[float], None] | None], BattleOdds],
               progress: Callable[[float], None] | None = None) -> BattleOdds:
    """The odds of ``setup`` counting its ``before`` losses: ``odds_of(battle, share,
    progress)`` computes one part (``share``: 1 / the number of parts, for a time budget
    split between them), and ``progress`` sees the share of the whole settled."""
    parts = variants(setup)
    if len(parts) == 1 and not parts[0][2]:
        return odds_of(setup, 1.0, progress)
    done = 0.0
    results = []
    for weight, battle, lost in parts:
        def part_progress(share: float, base: float = done, weight: float = weight) -> None:
            if progress is not None:
                progress(base + weight * share)
        odds = odds_of(battle, 1 / len(parts), part_progress)
        results.append((weight, _with_losses_before(odds, lost)))
        done += weight
    return mix(results)


def _with_losses_before(odds: BattleOdds, lost: float) -> BattleOdds:
    if not lost:
        return odds
    return attrs.evolve(odds, attacker_tuv_lost=odds.attacker_tuv_lost + lost,
                        tuv_swing=odds.tuv_swing - lost)


def mix(parts: Sequence[tuple[float, BattleOdds]]) -> BattleOdds:
    """The weighted mixture of ``parts`` (weights summing to 1)."""
    means = {f: math.fsum(w * getattr(o, f) for w, o in parts) for f in _MEAN_FIELDS}
    survivors = {}
    for name in _SURVIVOR_FIELDS:
        total: Counter = Counter()
        for w, o in parts:
            for comp, p in getattr(o, name).items():
                total[comp] += w * p
        survivors[name] = dict(total)
    estimated = [(w, o) for w, o in parts if o.method == "monte_carlo"]
    extra: dict = {"method": "exact", "pruned": math.fsum(w * o.pruned for w, o in parts),
                   "max_error": None}
    if estimated:
        keys = {k for _, o in estimated for k in o.stderr}
        extra = {"method": "monte_carlo", "runs": min(o.runs for _, o in estimated),
                 "stderr": {k: math.sqrt(math.fsum((w * o.stderr.get(k, 0.0)) ** 2
                                                   for w, o in estimated)) for k in sorted(keys)}}
    return BattleOdds(**means, **survivors, states=sum(o.states for _, o in parts), **extra)
