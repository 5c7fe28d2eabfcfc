"""What the exact odds (``odds.battle_odds``: the numpy sweep, ``sweep``, or the state chain
for small battles, ``chain``) and the Monte Carlo estimate return."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping

import attrs

from .board import Board
from .model import OUTCOMES, Side

Composition = tuple[tuple[str, int], ...]


@attrs.frozen
class BattleOdds:
    """Outcome probabilities and expectations of one battle.

    ``attacker_survivors``/``defender_survivors`` map a composition ``((type, count), ...)``
    (types in board order, zero counts omitted; retreated and submerged units included) to
    its probability.  ``captured``: the attacker wins a land battle with a land unit left
    on the board.  ``tuv_swing`` = defender TUV lost - attacker TUV lost (cargo included).
    For ``method == "monte_carlo"``, ``runs`` is the sample size and ``stderr`` gives the
    standard error of each probability / mean (keyed by field name).  ``pruned``: the
    probability mass dropped with states below the pruning threshold (every probability
    is exact to within it); ``max_error``: the bound asked for (None: as exact as floating
    point allows, pruning only below 1e-15)."""

    attacker_wins: float
    defender_wins: float
    both_destroyed: float
    attacker_retreats: float
    stalemate: float
    captured: float
    attacker_survivors: Mapping[Composition, float]
    defender_survivors: Mapping[Composition, float]
    attacker_tuv_lost: float
    defender_tuv_lost: float
    tuv_swing: float
    rounds: float
    method: str = "exact"
    states: int = 0
    runs: int = 0
    stderr: Mapping[str, float] = attrs.field(factory=dict)
    pruned: float = 0.0
    max_error: float | None = None

    def outcome(self, name: str) -> float:
        return getattr(self, name)

    @property
    def total(self) -> float:
        return math.fsum(self.outcome(o) for o in OUTCOMES)


def composition(board: Board, side_idx: int, side: Side) -> Composition:
    counts: Counter = Counter()
    for s, n in zip(board.slots[side_idx], side.alive):
        if n:
            counts[s.key] += n
    return tuple((k, counts[k]) for k in board.type_order if counts[k])
