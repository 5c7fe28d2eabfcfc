"""Units that roll several dice and keep the best (ability ``best_of``: Global 1940's Heavy
Bombers, an attacking strategic bomber rolls 2 dice and keeps the better [L1210]): the
dice driver, the exact odds (state chain and sweep), Low Luck and Monte Carlo all count a
unit hitting on v with the best of n dice as hitting with chance 1 - (1 - v/6)^n.  The
rules themselves are cases g40-res-35b..35f (maps/global1940/cases/research.txt)."""

from __future__ import annotations

import pytest

from adjudicator.engine.combat.driver import resolve_battle
from adjudicator.engine.combat.model import BattleSetup, BattleUnit
from adjudicator.engine.combat.odds import battle_odds, monte_carlo
from adjudicator.engine.technology import effective_type
from adjudicator.io.loader import load_game
from adjudicator.model.dice import FixedDice, hit_chance, read_number
from adjudicator.model.events import BestOfRolled, DiceRolled, LowLuckBestOfRolled


@pytest.fixture(scope="module")
def units():
    g40 = load_game("global1940")
    u = dict(g40.ruleset.units)
    u["heavy_bomber"] = effective_type(u["bomber"], ("heavy_bombers",))
    return u


def _setup(att, dfn, **kw) -> BattleSetup:
    uid = iter(range(1000))
    return BattleSetup("b", "Holland Belgium", False, "uk",
                       tuple(BattleUnit(next(uid), t, "uk") for t in att),
                       tuple(BattleUnit(next(uid), t, "germany") for t in dfn), **kw)


def _closed_form_duel(pa: float, pd: float) -> dict[str, float]:
    """One attacker against one defender, both hitting each round with chances pa, pd until
    one (or both) falls."""
    go_on = (1 - pa) * (1 - pd)
    return {"attacker_wins": pa * (1 - pd) / (1 - go_on),
            "defender_wins": (1 - pa) * pd / (1 - go_on),
            "both_destroyed": pa * pd / (1 - go_on)}


def test_hit_chance_of_the_best_of_two_and_one_die_unchanged():
    assert hit_chance(4, 6, 2) == pytest.approx(8 / 9, abs=1e-15)
    assert hit_chance(1, 6, 2) == pytest.approx(11 / 36, abs=1e-15)
    assert hit_chance(6, 6, 2) == 1.0 and hit_chance(0, 6, 2) == 0.0
    for t in range(0, 8):        # one die: exactly the figure the odds always used
        assert hit_chance(t, 6) == min(t, 6) / 6


def test_read_number_reads_the_first_die_as_the_high_digit():
    assert read_number((1, 1), 6) == 1
    assert read_number((1, 3), 6) == 3
    assert read_number((3, 3), 6) == 15
    assert read_number((6, 6), 6) == 36
    assert read_number((4,), 6) == 4


@pytest.mark.parametrize("method", ["chain", "sweep"])
def test_exact_odds_of_a_heavy_bomber_against_one_infantry(units, method):
    """First round: the bomber hits with 1 - (1/3)^2 = 8/9, the infantry with 2/6."""
    odds = battle_odds(_setup([units["heavy_bomber"]], [units["infantry"]]), method=method)
    want = _closed_form_duel(8 / 9, 1 / 3)
    for key, p in want.items():
        assert getattr(odds, key) == pytest.approx(p, abs=1e-12), key
    plain = battle_odds(_setup([units["bomber"]], [units["infantry"]]), method=method)
    assert plain.attacker_wins == pytest.approx(_closed_form_duel(4 / 6, 1 / 3)["attacker_wins"],
                                                abs=1e-12)


def test_a_defending_heavy_bomber_keeps_its_one_die(units):
    """'Beim Angriff': on defence the bomber rolls one die at 1."""
    odds = battle_odds(_setup([units["infantry"]], [units["heavy_bomber"]]))
    want = _closed_form_duel(1 / 6, 1 / 6)
    assert odds.attacker_wins == pytest.approx(want["attacker_wins"], abs=1e-12)


def test_chain_sweep_and_monte_carlo_agree_on_a_mixed_battle(units):
    setup = _setup([units["heavy_bomber"]] * 2 + [units["infantry"], units["tank"]],
                   [units["infantry"]] * 3 + [units["artillery"]])
    chain = battle_odds(setup, method="chain")
    sweep = battle_odds(setup, method="sweep")
    for key in ("attacker_wins", "defender_wins", "both_destroyed", "attacker_tuv_lost",
                "defender_tuv_lost", "rounds"):
        assert getattr(chain, key) == pytest.approx(getattr(sweep, key), abs=1e-12), key
    mc = monte_carlo(setup, 6000, seed=7)
    assert abs(mc.attacker_wins - chain.attacker_wins) < 5 * mc.stderr["attacker_wins"] + 1e-9
    plain = battle_odds(_setup([units["bomber"]] * 2 + [units["infantry"], units["tank"]],
                               [units["infantry"]] * 3 + [units["artillery"]]))
    assert chain.attacker_wins > plain.attacker_wins + 0.05      # the second die counts


def test_the_driver_draws_each_bomber_s_dice_in_a_row_and_keeps_the_lower(units):
    setup = _setup([units["heavy_bomber"]] * 2, [units["infantry"]] * 2)
    dice = FixedDice([5, 3, 6, 5, 6, 6,        # round 1: bombers (5 3) (6 5), infantry 6 6
                      1, 2, 4, 5, 6])          # round 2: bombers (1 2) (4 5), infantry 6
    result = resolve_battle(setup, dice)
    rolled = [e for e in result.events if isinstance(e, DiceRolled)]
    first = rolled[0]
    assert isinstance(first, BestOfRolled)
    assert (first.rolls, first.dice, first.kept, first.hits) == ((5, 3, 6, 5), 2, (3, 5), 1)
    assert "best of 2" in dice.purposes[0]
    assert type(rolled[1]) is DiceRolled and rolled[1].rolls == (6, 6)    # the infantry: one each
    second = rolled[2]
    assert (second.rolls, second.kept, second.hits) == ((1, 2, 4, 5), (1, 4), 2)
    assert result.outcome == "attacker_wins" and dice.remaining == 0


def test_low_luck_counts_a_heavy_bomber_in_36ths(units):
    """A heavy bomber (32/36) and a fighter (18/36): one sure hit and 14/36 for the second,
    read from two dice; the exact odds give the same chance."""
    setup = _setup([units["heavy_bomber"], units["fighter"]], [units["infantry"]] * 2,
                   low_luck=True)
    for faces, hits in (((1, 3, 6), 2), ((3, 3, 6), 1)):
        dice = FixedDice(list(faces) + [6] * 20)
        result = resolve_battle(setup, dice)
        ev = next(e for e in result.events if isinstance(e, LowLuckBestOfRolled))
        assert (ev.total, ev.sure, ev.target, ev.per_hit, ev.hits) == (50, 1, 14, 36, hits)
        assert ev.rolls == faces[:2]
    odds = battle_odds(setup)                   # Low Luck: the sweep
    mc = monte_carlo(setup, 6000, seed=3)
    assert abs(mc.attacker_wins - odds.attacker_wins) < 5 * mc.stderr["attacker_wins"] + 1e-9
    # one round, the defender's 2 infantry worth 4 pips: 1 - P(attacker hits twice) ...
    two = 14 / 36
    assert odds.attacker_wins >= two * (1 - 4 / 6) - 1e-12


def test_low_luck_with_a_lone_heavy_bomber_matches_the_closed_form(units):
    """32/36 = 8/9: Low Luck and normal dice are the same for one bomber against one
    infantry (one die's worth or less on each side)."""
    odds = battle_odds(_setup([units["heavy_bomber"]], [units["infantry"]], low_luck=True))
    want = _closed_form_duel(8 / 9, 1 / 3)
    for key, p in want.items():
        assert getattr(odds, key) == pytest.approx(p, abs=1e-12), key
