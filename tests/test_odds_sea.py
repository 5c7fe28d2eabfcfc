"""Exact odds of sea battles (issue 24: sea battles as fast as land): the numpy sweep
(engine/combat/sweep.py), whose rows keep their stage operators and apply them to every
pass of their mass, against the state chain (tests/odds_reference.py) on random fleets of
A&A 1941 with everything that makes sea battles differ from land ones: submarines' surprise
strike and submerging (cancelled by destroyers), aircraft that cannot hit submarines unless
a destroyer is present, two-hit battleships, carriers with their fighters, transports; with
normal dice and with Low Luck, and with certain hits (one-sided dice)."""

from __future__ import annotations

import attrs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from odds_reference import low_luck_reference_odds
from test_combat import Army, sea
from test_odds_sweep import assert_same

from adjudicator.engine.combat.odds import battle_odds
from adjudicator.model.orders import SubmergePolicy

SHIPS = ("submarine", "destroyer", "battleship", "carrier", "transport")


@st.composite
def fleets(draw, most: int = 6):
    """A sea battle of up to ``most`` ships a side, fighters on the carriers (up to two
    each) and, for the attacker, maybe a bomber."""
    army = Army()

    def fleet(owner: str, bomber: bool):
        counts = {k: draw(st.integers(0, 2 if k in ("battleship", "carrier", "transport") else 3))
                  for k in SHIPS}
        while sum(counts.values()) > most:
            counts[max(counts, key=counts.get)] -= 1
        if not any(counts.values()):
            counts[draw(st.sampled_from(SHIPS[:4]))] = 1
        specs = [f"{n} {k}" for k, n in counts.items() if n]
        fighters = sum(draw(st.integers(0, 2)) for _ in range(counts["carrier"]))
        if fighters:
            specs.append(f"{fighters} fighter")
        if bomber and draw(st.booleans()):
            specs.append("1 bomber")
        return army.side(owner, *specs)

    return sea(fleet("germany", True), fleet("ussr", False),
               attacker_subs=draw(st.sampled_from([None, "fire", "submerge"])),
               defender_submerge=draw(st.sampled_from(list(SubmergePolicy))))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=fleets())
def test_sea_battles_agree_with_the_chain(setup):
    assert_same(setup)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=fleets(most=4))
def test_sea_battles_with_certain_hits_agree_with_the_chain(setup):
    assert_same(setup, sides=1)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=fleets())
def test_low_luck_sea_battles_agree_with_the_chain(setup):
    assert_same(attrs.evolve(setup, low_luck=True), reference=low_luck_reference_odds)


def test_low_luck_reference_knows_a_closed_form():
    """The Low Luck oracle itself, on the closed form of tests/test_low_luck.py (2 tanks
    against 3 infantry)."""
    from test_combat import land
    army = Army()
    setup = land(army.side("germany", "2 tank"), army.side("ussr", "3 infantry"), low_luck=True)
    odds = low_luck_reference_odds(setup)
    assert abs(odds.attacker_wins - 1 / 10) < 1e-12
    assert abs(odds.both_destroyed - 1 / 20) < 1e-12
    assert abs(odds.defender_wins - 17 / 20) < 1e-12


def test_a_forty_ship_battle_sums_to_one():
    """The benchmark's 40-ship battle (benchmarks/bench_issue24.py) is a distribution."""
    army = Army()
    odds = battle_odds(sea(army.side("germany", "6 submarine", "5 destroyer", "2 carrier",
                                     "4 fighter", "3 battleship"),
                           army.side("ussr", "5 submarine", "5 destroyer", "3 carrier",
                                     "6 fighter", "2 battleship")))
    assert abs(odds.total + odds.pruned - 1) < 1e-13
    assert 0 <= odds.pruned < 1e-12
    assert 0.05 < odds.attacker_wins < 0.95
