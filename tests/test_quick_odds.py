"""``pbem check`` never waits (issue 24): a battle whose exact odds would take longer than
the budget is estimated by the real dice driver, with its 95% error bound, and says so;
``--exact-odds`` always waits for the exact figures."""

from __future__ import annotations

from adjudicator.engine.combat import BattleSetup, BattleUnit
from adjudicator.engine.combat.odds import battle_odds
from adjudicator.present.check_view import estimate_notes
from adjudicator.service.games import load_game
from adjudicator.service.quick_odds import MIN_RUNS, check_odds


def battle() -> BattleSetup:
    game = load_game("aa1942")
    units = game.ruleset.units

    def side(owner, mix, start):
        out = []
        for key, n in mix.items():
            out += [BattleUnit(start + len(out), units[key], owner) for _ in range(n)]
        return tuple(out)
    return BattleSetup("Karelia", "Karelia", False, "germany",
                       side("germany", {"infantry": 10, "artillery": 4, "tank": 4,
                                        "fighter": 2}, 1),
                       side("russia", {"infantry": 14, "tank": 2}, 100),
                       stages=game.ruleset.plan.battle_stages,
                       support=((), side("russia", {"aa_gun": 1}, 200)), unit_types=units)


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
