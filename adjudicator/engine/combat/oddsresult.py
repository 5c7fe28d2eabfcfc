"""What the exact odds (``odds.battle_odds``: the numpy sweep, ``sweep``, or the state chain
for small battles, ``chain``) and the Monte Carlo estimate return."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping

import attrs

from .board import Board
from .model import ATT, DEF, OUTCOMES, Side

Z95 = 1.96        # standard errors either side of an estimate for its 95% bound


def share_stderr(share: float, runs: int) -> float:
    """The standard error of a share seen in ``runs`` independent trials."""
    return math.sqrt(share * (1 - share) / runs)


def wilson_interval(share: float, runs: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a share seen in ``runs`` independent trials: unlike
    ``share ± Z95 × share_stderr`` it never shrinks to a point at a share of 0 or 1 (no
    battle won in 200 runs does not prove a chance of 0)."""
    z2 = Z95 * Z95
    centre = (share + z2 / (2 * runs)) / (1 + z2 / runs)
    half = Z95 * math.sqrt(share * (1 - share) / runs + z2 / (4 * runs * runs)) / (1 + z2 / runs)
    return max(0.0, centre - half), min(1.0, centre + half)


def share_bound(share: float, runs: int) -> float:
    """How far off a share seen in ``runs`` trials may be, 95% of the time: the distance to
    the farther end of its Wilson interval."""
    low, high = wilson_interval(share, runs)
    return max(share - low, high - share)


def mean_stderr(values: list[int] | list[float]) -> tuple[float, float]:
    """The mean of a sample and the standard error of that mean."""
    runs = len(values)
    mean = math.fsum(values) / runs
    var = math.fsum((x - mean) ** 2 for x in values) / max(runs - 1, 1)
    return mean, math.sqrt(var / runs)

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

    @property
    def error_bound(self) -> float:
        """How far off an estimate's probabilities may be: the largest 95% bound
        (``share_bound``, the Wilson interval) of the outcome probabilities and ``captured``;
        0 when exact."""
        if self.method != "monte_carlo" or not self.runs:
            return 0.0
        return max(share_bound(self.outcome(k), self.runs) for k in (*OUTCOMES, "captured"))

    def interval(self, name: str) -> tuple[float, float]:
        """The 95% Wilson interval of an outcome's probability (or ``captured``) for an
        estimate; the point itself, twice, when exact."""
        share = self.outcome(name)
        if self.method != "monte_carlo" or not self.runs:
            return share, share
        return wilson_interval(share, self.runs)


def composition(board: Board, side_idx: int, side: Side) -> Composition:
    counts: Counter = Counter()
    for s, n in zip(board.slots[side_idx], side.alive):
        if n:
            counts[s.key] += n
    return tuple((k, counts[k]) for k in board.type_order if counts[k])


def summarize_terminal(board: Board, terminal: Mapping, att_states, def_states,
                       rounds: list[float], states: int, **extra) -> BattleOdds:
    """The odds from the terminal mass of an exact calculation: ``terminal`` maps
    ``(outcome, attacker index, defender index, _)`` to a probability, the indexes into
    ``att_states``/``def_states``; ``rounds``: the expected-round terms; ``extra``: further
    ``BattleOdds`` fields (``pruned``, ``max_error``)."""
    by_outcome: dict[str, list[float]] = {o: [] for o in OUTCOMES}
    captured: list[float] = []
    att_surv: dict[Composition, list[float]] = {}
    def_surv: dict[Composition, list[float]] = {}
    att_lost: list[float] = []
    def_lost: list[float] = []
    for (outcome, ia, id_, _), mass in terminal.items():
        by_outcome[outcome].append(mass)
        if outcome == "attacker_wins" and not board.is_sea and \
                board.summary(ATT, att_states[ia]).capturers:
            captured.append(mass)
        att_surv.setdefault(composition(board, ATT, att_states[ia]), []).append(mass)
        def_surv.setdefault(composition(board, DEF, def_states[id_]), []).append(mass)
        att_lost.append(mass * board.side_tuv_lost(ATT, att_states[ia]))
        def_lost.append(mass * board.side_tuv_lost(DEF, def_states[id_]))
    a_lost, d_lost = math.fsum(att_lost), math.fsum(def_lost)
    return BattleOdds(
        **{o: math.fsum(v) for o, v in by_outcome.items()},
        captured=math.fsum(captured),
        attacker_survivors={k: math.fsum(v) for k, v in att_surv.items()},
        defender_survivors={k: math.fsum(v) for k, v in def_surv.items()},
        attacker_tuv_lost=a_lost, defender_tuv_lost=d_lost, tuv_swing=d_lost - a_lost,
        rounds=math.fsum(rounds), method="exact", states=states, **extra)
