"""Spring 1942's AA gun against fighters and bombers together: each die is aimed at a named
aircraft [L743-L745], so every aircraft is lost with probability 1/6 on its own and the
attacker never chooses which.  The engine's exact odds equal that reading (a mixture of
battles without the gun), and differ from the reading where AA losses fall on the cheapest
aircraft first -- the one that reproduces the gap to TripleA 1.9 (issue 21, ruling in
maps/aa1942/game.toml)."""

from __future__ import annotations

from argparse import Namespace
from math import comb

import pytest

from adjudicator.cli.planning import odds_setup
from adjudicator.engine.combat.odds import battle_odds
from adjudicator.service.games import load_game

LOSSES = "inf, ftr, bmr"


def _odds(game, attackers: str, defenders: str):
    args = Namespace(attackers=attackers, defenders=defenders, sea=False, from_sea=None,
                     bombard=None, retreat=None, attacker_losses=LOSSES, defender_losses=None,
                     attacker_subs="fire", defender_submerge="losing", low_luck=False)
    odds = battle_odds(odds_setup(game, args, []))
    return odds.attacker_wins, odds.defender_wins


def _force(inf: int, ftr: int, bmr: int) -> str:
    return ", ".join(f"{n} {t}" for n, t in ((inf, "inf"), (ftr, "ftr"), (bmr, "bmr")) if n)


def _p(n: int, k: int) -> float:
    return comb(n, k) * (1 / 6) ** k * (5 / 6) ** (n - k)


@pytest.fixture(scope="module")
def game():
    return load_game("aa1942")


def test_aa_losses_are_independent_per_aircraft(game):
    inf, ftr, bmr = 2, 3, 2
    engine = _odds(game, _force(inf, ftr, bmr), "3 inf, 1 aa")
    independent = [0.0, 0.0]
    cheapest_first = [0.0, 0.0]
    for f in range(ftr + 1):
        for b in range(bmr + 1):
            r = _odds(game, _force(inf, ftr - f, bmr - b), "3 inf")
            independent = [x + _p(ftr, f) * _p(bmr, b) * y for x, y in zip(independent, r)]
    for k in range(ftr + bmr + 1):
        f = min(k, ftr)
        r = _odds(game, _force(inf, ftr - f, bmr - (k - f)), "3 inf")
        cheapest_first = [x + _p(ftr + bmr, k) * y for x, y in zip(cheapest_first, r)]
    assert engine == pytest.approx(independent, abs=1e-12)
    # the other reading favours the attacker: fewer defender wins, by about 0.2 points
    assert cheapest_first[1] < engine[1] - 0.0015
