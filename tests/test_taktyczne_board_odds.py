"""Monte Carlo odds for a Taktyczne Starcie board battle (issue 26): the battle fought many
times by the plan interpreter with seeded dice, labelled as an estimate with 95% bounds."""

from __future__ import annotations

import math

import pytest

from adjudicator.engine.errors import OrderFailed
from adjudicator.engine.tactical import PLAN_INTERPRETER_VERSION
from adjudicator.engine.tactical.odds import MAX_RUNS, board_odds
from adjudicator.io.tactical_data import load_board
from adjudicator.model.dice import SeededDice
from adjudicator.model.tactical import ATTACKER, DEFENDER, BattlePlan, BoardForce
from adjudicator.present.wording import board_odds_text, problem_text

RULES = load_board()
EVEN = {ATTACKER: BoardForce((("a1", "tank_2"), ("a2", "tank_1"))),
        DEFENDER: BoardForce((("d1", "tank_2"), ("d2", "tank_1")))}


def test_shares_sum_to_one_and_reasons_too():
    odds = board_odds(RULES, "land", EVEN, {}, SeededDice(1), 60)
    assert math.isclose(odds.wins[ATTACKER] + odds.wins[DEFENDER], 1.0)
    assert math.isclose(sum(odds.reasons.values()), 1.0)
    assert 1 <= odds.turns <= RULES.battle_turn_cap
    low, high = odds.interval(ATTACKER)
    assert 0 <= low <= odds.wins[ATTACKER] <= high <= 1


def test_the_bound_shrinks_with_runs():
    few = board_odds(RULES, "land", EVEN, {}, SeededDice(2), 25)
    many = board_odds(RULES, "land", EVEN, {}, SeededDice(2), 400)
    assert 0 < few.wins[ATTACKER] < 1 and 0 < many.wins[ATTACKER] < 1
    assert many.error_bound < few.error_bound
    # the 95% bound is the Wilson interval's farther end; for a share well inside 0..1 it
    # is within a few per cent of 1.96 standard errors, sqrt(p(1-p)/n)
    p = many.wins[ATTACKER]
    assert math.isclose(many.error_bound, 1.96 * math.sqrt(p * (1 - p) / 400), rel_tol=0.03)
    assert many.turns_bound < few.turns_bound


def test_four_rank_iv_tanks_beat_one_rank_i_tank_nearly_always():
    forces = {ATTACKER: BoardForce(tuple((f"a{i}", "tank_4") for i in range(4))),
              DEFENDER: BoardForce((("d1", "tank_1"),))}
    odds = board_odds(RULES, "land", forces, {}, SeededDice(3), 200)
    assert odds.wins[ATTACKER] >= 0.95
    reverse = {ATTACKER: BoardForce((("a1", "tank_1"),)),
               DEFENDER: BoardForce(tuple((f"d{i}", "tank_4") for i in range(4)))}
    assert board_odds(RULES, "land", reverse, {}, SeededDice(3), 200).wins[DEFENDER] >= 0.95


def test_same_seed_same_figures():
    plans = {DEFENDER: BattlePlan(mines=("F8",))}
    forces = {ATTACKER: EVEN[ATTACKER], DEFENDER: BoardForce(EVEN[DEFENDER].units, mines=1)}
    runs = [board_odds(RULES, "land", forces, plans, SeededDice("seed"), 40) for _ in range(2)]
    assert runs[0] == runs[1]
    assert runs[0].interpreter == PLAN_INTERPRETER_VERSION and runs[0].method == "monte_carlo"


def test_runs_are_bounded_and_bad_plans_are_codes():
    for runs in (0, MAX_RUNS + 1):
        with pytest.raises(OrderFailed) as caught:
            board_odds(RULES, "land", EVEN, {}, SeededDice(1), runs)
        assert caught.value.code == "board_odds_runs"
        assert str(MAX_RUNS) in problem_text((caught.value.code, caught.value.params))
    with pytest.raises(OrderFailed) as caught:
        board_odds(RULES, "land", EVEN, {ATTACKER: BattlePlan(formation="nope")}, SeededDice(1), 5)
    assert caught.value.code == "board_formation_unknown"


def test_the_words_say_it_is_an_estimate_with_its_bound():
    odds = board_odds(RULES, "land", EVEN, {}, SeededDice(4), 50)
    text = board_odds_text(odds)
    assert "estimate from 50 battles" in text and "95% of the time" in text
    assert f"within {100 * odds.error_bound:.1f} points" in text
    assert f"{100 * odds.wins[ATTACKER]:.1f}%" in text
