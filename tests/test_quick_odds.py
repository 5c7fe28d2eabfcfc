"""``pbem check`` never waits (issue 24): a battle whose exact odds would take longer than
the budget is estimated by the real dice driver, with its 95% error bound, and says so;
``--exact-odds`` always waits for the exact figures."""

from __future__ import annotations

import itertools

import attrs
import pytest

from adjudicator.engine.combat import BattleSetup, BattleUnit
from adjudicator.engine.combat.odds import battle_odds
from adjudicator.model.units import Domain
from adjudicator.present.check_view import estimate_notes
from adjudicator.service.games import load_game
from adjudicator.service.quick_odds import MIN_RUNS, check_odds


def land_battle(edition: str, attackers: dict[str, int], defenders: dict[str, int],
                guns: int = 0) -> BattleSetup:
    """A land battle built directly (as the turn engine does), every unit its own uid."""
    game = load_game(edition)
    units = game.ruleset.units
    uids = itertools.count(1)

    def side(owner, mix):
        return tuple(BattleUnit(next(uids), units[key], owner)
                     for key, n in mix.items() for _ in range(n))
    return BattleSetup("Karelia", "Karelia", False, "germany", side("germany", attackers),
                       side("ussr", defenders), stages=game.ruleset.plan.battle_stages,
                       support=((), side("ussr", {"aa_gun": guns})), unit_types=units)


def battle() -> BattleSetup:
    return land_battle("aa1942", {"infantry": 10, "artillery": 4, "tank": 4, "fighter": 2},
                       {"infantry": 14, "tank": 2}, guns=1)


def test_a_battle_over_budget_is_estimated_within_its_bound():
    setup = battle()
    exact = battle_odds(setup)
    estimate = check_odds(setup, 6, budget=1e-9)
    assert estimate.method == "monte_carlo" and estimate.runs >= MIN_RUNS
    assert 0 < estimate.error_bound < 0.1
    for name in ("attacker_wins", "defender_wins"):
        # seeded: the same estimate every time; it lies within its 95% bound here
        assert abs(estimate.outcome(name) - exact.outcome(name)) <= estimate.error_bound
    (note,) = estimate_notes([(setup, estimate)])
    assert "estimate from" in note and "--exact-odds" in note


def test_within_budget_or_asked_for_the_odds_are_exact():
    setup = battle()
    exact = battle_odds(setup)
    for odds in (check_odds(setup, 6), check_odds(setup, 6, budget=1e-9, exact=True)):
        assert odds.method == "exact" and odds.error_bound == 0
        assert abs(odds.attacker_wins - exact.attacker_wins) < 1e-12
    assert estimate_notes([(setup, exact)]) == []


# Aircraft cannot capture: the estimate's "Success" of a land battle is ``captured``, so it
# and the survivors must agree with the exact odds, not only who wins.
@pytest.mark.parametrize("edition, attackers, defenders, guns", [
    ("aa1941", {"infantry": 6, "tank": 3, "fighter": 3, "bomber": 1}, {"infantry": 9, "tank": 1}, 0),
    ("aa1942", {"infantry": 10, "artillery": 4, "tank": 4, "fighter": 2},
     {"infantry": 14, "tank": 2}, 1),
    ("aa1942", {"infantry": 3, "artillery": 2, "fighter": 4, "bomber": 2},
     {"infantry": 8, "artillery": 1}, 1),
])
def test_the_estimate_agrees_on_captures_and_survivors(edition, attackers, defenders, guns):
    setup = land_battle(edition, attackers, defenders, guns)
    exact = battle_odds(setup)
    estimate = check_odds(setup, 6, budget=1e-9)
    runs = estimate.runs
    assert estimate.method == "monte_carlo"
    assert abs(estimate.captured - exact.captured) <= estimate.error_bound

    def within(p_estimate: float, p_exact: float) -> bool:
        # four standard errors of a share of ``runs`` battles, or one battle either way
        return abs(p_estimate - p_exact) <= 4 * (p_exact * (1 - p_exact) / runs) ** 0.5 + 1 / runs

    def air_only(comp) -> bool:
        return bool(comp) and all(setup.unit_types[k].domain == Domain.AIR for k, _ in comp)

    for est, ex in ((estimate.attacker_survivors, exact.attacker_survivors),
                    (estimate.defender_survivors, exact.defender_survivors)):
        for comp in set(est) | set(ex):
            assert within(est.get(comp, 0.0), ex.get(comp, 0.0)), comp
    # the attacker wins with aircraft alone: it holds the field but captures nothing
    shares = [sum(p for comp, p in odds.attacker_survivors.items() if air_only(comp))
              for odds in (estimate, exact)]
    assert within(*shares)
    for odds, air in zip((estimate, exact), shares):
        assert abs(odds.captured - (odds.attacker_wins - air)) < 1e-9


def test_units_on_the_board_have_distinct_uids():
    setup = battle()
    with pytest.raises(ValueError, match="share uids"):
        attrs.evolve(setup, defenders=(*setup.defenders, setup.attackers[0]))
