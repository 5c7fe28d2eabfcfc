"""How many hits a group of volleys scores: probability arrays ``p[k]`` = P(k hits).

With ordinary dice every die of a volley hits independently on ``target`` or less, so a
volley's hits are binomial and a group's the convolution of its volleys'.  With Low Luck
(``BattleSetup.low_luck``, the tournament dice mode) a group whose units total ``T`` attack
points scores ``T // sides`` hits for certain plus one die for the remainder, hitting on
``T % sides`` or less (``lowluck.roll_groups`` does the same with real dice).  A unit
rolling the best of n dice (``Volley.dice``) hits with chance ``1 - (1 - t/s)^n``; with Low
Luck its group is counted in ``s ** n``-ths of a hit (``model.group_points``).

A *group* is one side's volleys in one stage whose hits go to the same target class
(``casualties.hits_by_class``): that is what both the dice driver and the exact odds roll
or sum together.
"""

from __future__ import annotations

import math

import numpy as np

from ...model.dice import hit_chance
from .model import group_points


def binomial_pmf(n: int, p: float) -> np.ndarray:
    """P(k successes in ``n`` trials of chance ``p``), k = 0..n."""
    if p >= 1.0:
        out = np.zeros(n + 1)
        out[n] = 1.0
        return out
    if p <= 0.0:
        out = np.zeros(n + 1)
        out[0] = 1.0
        return out
    q = 1.0 - p
    if n <= 1000:
        return np.array([math.comb(n, k) * p ** k * q ** (n - k) for k in range(n + 1)])
    k = np.arange(n + 1)
    log = (math.lgamma(n + 1) - np.array([math.lgamma(i + 1) + math.lgamma(n - i + 1) for i in k])
           + k * math.log(p) + (n - k) * math.log(q))
    return np.exp(log)


def low_luck_pmf(total: int, sides: int) -> np.ndarray:
    """Low Luck: ``total // sides`` certain hits, one more with chance ``(total % sides) / sides``
    (``sides``: the points of one hit, ``sides ** k`` for a group with best-of units)."""
    sure, rest = divmod(total, sides)
    if not rest:
        out = np.zeros(sure + 1)
        out[sure] = 1.0
        return out
    out = np.zeros(sure + 2)
    out[sure] = 1.0 - rest / sides
    out[sure + 1] = rest / sides
    return out


class HitDists:
    """Hit distributions of volley groups ``((count, target), ...)`` for dice with ``sides``
    faces, memoised (one per battle).  Probabilities below ``tail`` are set to 0 (the odds
    report the mass lost that way with the rest of what they prune)."""

    def __init__(self, sides: int, low_luck: bool = False, tail: float = 0.0):
        self.sides = sides
        self.low_luck = low_luck
        self.tail = tail
        self._binom: dict[tuple[int, int], np.ndarray] = {}
        self._group: dict[tuple, np.ndarray] = {}
        self._prefix: dict[tuple, np.ndarray] = {}

    def binomial(self, n: int, target: int, dice: int = 1) -> np.ndarray:
        key = (n, target, dice)
        found = self._binom.get(key)
        if found is None:
            found = self._binom[key] = binomial_pmf(n, hit_chance(target, self.sides, dice))
        return found

    def group(self, volleys: tuple[tuple[int, int, str, int], ...]) -> np.ndarray:
        """The hit distribution of volleys ``((count, target, step, dice), ...)`` whose hits
        go to the same target class (``dice``: per unit, the best kept).  With Low Luck
        each step's volleys are one group (``combat.lowluck``), and the groups'
        distributions are convolved."""
        found = self._group.get(volleys)
        if found is None:
            if self.low_luck:
                steps: dict[str, list[tuple[int, int, int]]] = {}
                for n, t, step, d in volleys:
                    steps.setdefault(step, []).append((n, t, d))
                found = np.ones(1)
                for members in steps.values():
                    scale, total = group_points(members, self.sides)
                    found = np.convolve(found, low_luck_pmf(total, self.sides ** scale))
            else:
                found = self._convolved(volleys)
                if self.tail:
                    found = np.where(found < self.tail, 0.0, found)
                    found = found[:int(np.flatnonzero(found)[-1]) + 1]
            self._group[volleys] = found
        return found

    def _convolved(self, volleys) -> np.ndarray:
        """The convolution of the volleys' binomials in their order, before the tail is cut;
        kept per prefix (the fire of states that differ only in their last units, such as
        the aircraft left after AA fire, shares the rest)."""
        if not volleys:
            return np.ones(1)
        found = self._prefix.get(volleys)
        if found is None:
            n, t, _, d = volleys[-1]
            head = self._convolved(volleys[:-1])
            found = self._prefix[volleys] = np.convolve(head, self.binomial(n, t, d))
        return found
