"""The 95% bound of a Monte Carlo share (``combat.oddsresult``): the Wilson score interval,
which never claims certainty from a finite sample (a share of 0 in n runs still has a bound)
and covers the true chance about 95% of the time."""

from __future__ import annotations

import math
import random

import pytest

from adjudicator.engine.combat.oddsresult import share_bound, wilson_interval

Z = 1.96


@pytest.mark.parametrize("runs", [10, 200, 2000])
def test_a_share_of_0_or_1_keeps_a_bound(runs):
    # Wilson at p = 0: the interval is [0, z^2 / (n + z^2)]
    assert wilson_interval(0.0, runs) == (0.0, pytest.approx(Z * Z / (runs + Z * Z)))
    assert share_bound(0.0, runs) == pytest.approx(Z * Z / (runs + Z * Z))
    assert share_bound(1.0, runs) == pytest.approx(share_bound(0.0, runs))
    assert share_bound(0.0, runs) > 0


def test_inside_0_and_1_it_is_close_to_the_normal_bound():
    for p in (0.3, 0.5, 0.7):
        assert share_bound(p, 10_000) == pytest.approx(Z * math.sqrt(p * (1 - p) / 10_000),
                                                       rel=0.01)


def test_the_interval_covers_the_true_chance_about_95_percent_of_the_time():
    rng = random.Random(20261127)                      # fixed: the test cannot flake
    for p in (0.02, 0.2, 0.5, 0.9):
        runs, trials, covered = 100, 2000, 0
        for _ in range(trials):
            share = sum(rng.random() < p for _ in range(runs)) / runs
            low, high = wilson_interval(share, runs)
            covered += low <= p <= high
        assert 0.92 <= covered / trials <= 0.985, (p, covered / trials)
