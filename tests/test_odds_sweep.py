"""The numpy sweep (engine/combat/sweep.py) against the calculator it replaced
(tests/odds_reference.py, a state-by-state Markov chain in pure Python): the same figures on
every kind of battle the engine fights, 1941 and Spring 1942 (AA guns, bombardment, artillery
support, submarines, two-hit battleships, retreats), and the pruning it reports.

Both calculators run the same rule functions; the sweep drops states below 1e-15 and reports
that mass (``BattleOdds.pruned``), so every probability agrees to 1e-12 + pruned and every
expectation to 1e-12 + pruned x its largest possible value."""

from __future__ import annotations

import itertools
import math

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from odds_reference import reference_odds
from test_combat import UNITS, Army, battles, land, sea

from adjudicator.engine.combat import BattleSetup, BattleUnit
from adjudicator.engine.combat.board import Board
from adjudicator.engine.combat.model import ATT, DEF, OUTCOMES
from adjudicator.engine.combat.odds import battle_odds
from adjudicator.model.orders import RetreatCondition, SubmergePolicy
from adjudicator.service.games import load_game

PROBABILITIES = (*OUTCOMES, "captured")


def assert_same(setup: BattleSetup, sides: int = 6, reference=reference_odds) -> None:
    old = reference(setup, sides=sides)
    new = battle_odds(setup, sides=sides, method="sweep")
    assert 0 <= new.pruned < 1e-12
    slack = 1e-12 + new.pruned
    for field in PROBABILITIES:
        assert abs(old.outcome(field) - new.outcome(field)) <= slack, field
    board = Board(setup)
    tuv = {side: sum(len(s.units) * s.cost for s in board.slots[side]) for side in (ATT, DEF)}
    assert abs(old.attacker_tuv_lost - new.attacker_tuv_lost) <= 1e-12 + new.pruned * tuv[ATT]
    assert abs(old.defender_tuv_lost - new.defender_tuv_lost) <= 1e-12 + new.pruned * tuv[DEF]
    assert abs(old.tuv_swing - new.tuv_swing) <= 1e-12 + new.pruned * (tuv[ATT] + tuv[DEF])
    assert old.rounds == pytest.approx(new.rounds, rel=1e-12, abs=1e-12 + new.pruned * 1e3)
    for mine, theirs in ((new.attacker_survivors, old.attacker_survivors),
                         (new.defender_survivors, old.defender_survivors)):
        for comp in set(mine) | set(theirs):
            assert abs(mine.get(comp, 0.0) - theirs.get(comp, 0.0)) <= slack, comp


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=battles())
def test_sweep_equals_the_old_calculator_1941(setup):
    assert_same(setup)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=battles())
def test_sweep_equals_the_old_calculator_with_certain_hits(setup):
    assert_same(setup, sides=1)


GAME_1942 = load_game("aa1942")


@st.composite
def battles_1942(draw):
    """Spring 1942 battles: artillery, AA guns beside the defenders, ships bombarding an
    amphibious assault, the three battle stages of the edition."""
    units = GAME_1942.ruleset.units
    uid = itertools.count(1)
    is_sea = draw(st.booleans())
    if is_sea:
        pools = (["submarine", "destroyer", "cruiser", "carrier", "battleship", "fighter",
                  "bomber", "transport"],
                 ["submarine", "destroyer", "cruiser", "carrier", "battleship", "fighter",
                  "transport"])
    else:
        pools = (["infantry", "artillery", "tank", "fighter", "bomber"],) * 2

    def side(owner, pool, seaborne=False):
        out = []
        for key, n in draw(st.lists(st.tuples(st.sampled_from(pool), st.integers(1, 3)),
                                    min_size=1, max_size=3)):
            out += [BattleUnit(next(uid), units[key], owner, seaborne=seaborne) for _ in range(n)]
        return tuple(out)

    att, dfn = side("germany", pools[0]), side("russia", pools[1])
    ships, guns = (), ()
    if not is_sea:
        if draw(st.booleans()):
            att += side("germany", ["infantry", "artillery", "tank"], seaborne=True)
            ships = tuple(BattleUnit(next(uid), units[k], "germany")
                          for k in draw(st.lists(st.sampled_from(["battleship", "cruiser"]),
                                                 max_size=2)))
        if draw(st.booleans()):
            guns = (BattleUnit(next(uid), units["aa_gun"], "russia"),)
    retreat = (RetreatCondition(after_round=draw(st.integers(1, 3))),) if draw(st.booleans()) else ()
    return BattleSetup(
        "x", "x", is_sea, "germany", att, dfn, retreat=retreat,
        retreat_options=("Home",) if draw(st.booleans()) else (),
        attacker_subs=draw(st.sampled_from([None, "submerge"])),
        defender_submerge=draw(st.sampled_from(list(SubmergePolicy))),
        stages=GAME_1942.ruleset.plan.battle_stages, support=(ships, guns),
        unit_types=units)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=battles_1942())
def test_sweep_equals_the_old_calculator_1942(setup):
    assert_same(setup)


def test_larger_battles_agree():
    """Mid-sized battles where many states are pruned and rows loop on themselves."""
    army = Army()
    assert_same(land(army.side("germany", "8 infantry", "4 tank", "2 fighter", "1 bomber"),
                     army.side("ussr", "10 infantry", "3 tank", "2 fighter"),
                     retreat=(RetreatCondition(side="attackers", comparison="<", threshold=4),),
                     retreat_options=("Poland",)))
    assert_same(sea(army.side("germany", "3 submarine", "2 destroyer", "1 carrier", "2 fighter",
                              "2 battleship"),
                    army.side("ussr", "3 submarine", "1 destroyer", "1 carrier", "2 fighter",
                              "1 battleship", "1 transport[infantry,tank]")))


@pytest.mark.parametrize("policy", list(SubmergePolicy))
def test_sea_battles_with_submerging_subs_agree(policy):
    """Rows where many pairs are routed to themselves (submarines that may submerge but
    do not) or to a submerged defender, for every submerge policy."""
    army = Army()
    assert_same(sea(army.side("germany", "3 submarine", "2 destroyer", "1 carrier", "2 fighter",
                              "1 battleship"),
                    army.side("ussr", "3 submarine", "2 destroyer", "1 fighter", "1 carrier",
                              "1 battleship"),
                    attacker_subs="submerge", defender_submerge=policy))


def test_pruned_mass_is_reported_and_bounded():
    army = Army()
    setup = land(army.side("germany", "30 infantry", "10 tank", "5 fighter"),
                 army.side("ussr", "35 infantry", "8 tank", "3 fighter"))
    exact = battle_odds(setup)
    assert exact.max_error is None
    assert 0 < exact.pruned < 1e-12
    assert abs(exact.total + exact.pruned - 1) < 1e-14
    rough = battle_odds(setup, max_error=1e-4)
    assert rough.max_error == 1e-4
    assert exact.pruned < rough.pruned <= 1e-4
    assert rough.states < exact.states
    for field in PROBABILITIES:
        assert abs(rough.outcome(field) - exact.outcome(field)) <= rough.pruned + exact.pruned


def test_progress_reports_the_settled_share():
    army = Army()
    setup = land(army.side("germany", "40 infantry", "20 tank"),
                 army.side("ussr", "50 infantry", "10 tank"))
    seen: list[float] = []
    battle_odds(setup, progress=seen.append)
    assert seen and all(0 <= a <= b <= 1 for a, b in zip(seen, seen[1:]))
    assert seen[-1] == 1.0 and len(seen) > 3


def test_max_error_is_checked():
    army = Army()
    setup = land(army.side("germany", "1 infantry"), army.side("ussr", "1 infantry"))
    for bad in (0, 1, -0.1, 2):
        with pytest.raises(ValueError):
            battle_odds(setup, max_error=bad)


def test_a_hundred_a_side_is_a_distribution():
    """Far beyond what the old calculator could do quickly (speed: benchmarks/bench_odds.py)."""
    army = Army()
    odds = battle_odds(land(army.side("germany", "60 infantry", "30 tank", "10 fighter"),
                            army.side("ussr", "70 infantry", "20 tank", "10 fighter")))
    assert abs(odds.total + odds.pruned - 1) < 1e-13
    assert math.isclose(math.fsum(odds.attacker_survivors.values()), odds.total, abs_tol=1e-13)
    assert 0 < odds.attacker_wins < 0.1 and odds.defender_wins > 0.9
    assert UNITS["infantry"].cost * 60 < odds.attacker_tuv_lost < 60 * 3 + 30 * 6 + 10 * 10


def _fixed_test_battles():
    """Every fixed battle the odds tests (tests/test_odds.py) compute."""
    from test_combat import _faq_setup
    from test_odds import _scenario_list
    army = Army()
    yield "1 inf each", land(army.side("germany", "1 infantry"), army.side("ussr", "1 infantry"))
    yield "retreat after 1", land(army.side("germany", "1 infantry"),
                                  army.side("ussr", "1 infantry"),
                                  retreat=(RetreatCondition(after_round=1),),
                                  retreat_options=("Poland",))
    yield "retreat after 2", land(army.side("germany", "2 infantry"),
                                  army.side("ussr", "1 infantry"),
                                  retreat=(RetreatCondition(after_round=2),),
                                  retreat_options=("Poland",))
    yield "faq example", _faq_setup(army)
    yield "defenceless", sea(army.side("germany", "1 destroyer"),
                             army.side("ussr", "2 transport[infantry,infantry]"))
    yield "stalemate", sea(army.side("germany", "2 fighter"), army.side("ussr", "1 submarine"))
    yield "forced", land(army.side("germany", "3 infantry", "1 tank"),
                         army.side("ussr", "2 infantry"))
    yield from _scenario_list(army)
    yield "thirty a side", land(army.side("germany", "15 infantry", "8 tank", "5 fighter",
                                          "2 bomber"),
                                army.side("ussr", "20 infantry", "5 tank", "5 fighter"))


@pytest.mark.parametrize("name, setup", [pytest.param(n, s, id=n) for n, s in _fixed_test_battles()])
def test_every_fixed_test_battle_agrees(name, setup):
    assert_same(setup)
    assert_same(setup, sides=1)


def test_small_battles_use_the_chain_and_large_ones_the_sweep():
    """``battle_odds`` picks the faster method by size; both give the same figures."""
    from adjudicator.engine.combat.odds import SMALL_BATTLE
    army = Army()
    small = land(army.side("germany", "3 infantry", "1 tank"), army.side("ussr", "4 infantry"))
    assert battle_odds(small) == reference_odds(small)
    assert_same(small)
    large = land(army.side("germany", "20 infantry", "5 tank"), army.side("ussr", "25 infantry"))
    assert len(large.attackers) + len(large.defenders) > SMALL_BATTLE
    assert battle_odds(large) == battle_odds(large, method="sweep")
    low_luck = attrs.evolve(small, low_luck=True)         # the chain rolls normal dice only
    assert battle_odds(low_luck) == battle_odds(low_luck, method="sweep")
    with pytest.raises(ValueError):
        battle_odds(low_luck, method="chain")
    rough = battle_odds(small, max_error=1e-3)
    assert rough.max_error == 1e-3
