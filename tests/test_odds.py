"""Exact battle odds (adjudicator.odds): closed forms, invariants, and agreement with the
real dice driver (200,000 seeded Monte Carlo runs per scenario, within 3 standard errors)."""

from __future__ import annotations

import math

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_combat import NAMES, Army, _faq_setup, battles, land, sea

from adjudicator.engine.combat import (
    ATT, DEF, OUTCOMES, Board, Side, apply_side_hits, hits_by_class, resolve_battle,
)
from adjudicator.model.dice import FixedDice
from adjudicator.engine.combat.odds import battle_odds, monte_carlo
from adjudicator.model.orders import RetreatCondition, SubmergePolicy


def test_one_infantry_each_closed_form():
    """Each round the attacker hits with a = 1/6 and the defender with d = 2/6, at the same
    time (the defender's casualty still fires).  Rounds repeat while both miss, with
    probability c = (1 - a)(1 - d) = 20/36, so summing the geometric series:
      P(attacker wins)  = a (1 - d) / (1 - c) = (4/36) / (16/36)  = 1/4
      P(defender wins)  = (1 - a) d / (1 - c) = (10/36) / (16/36) = 5/8
      P(both destroyed) = a d / (1 - c)       = (2/36) / (16/36)  = 1/8
      E[rounds] = 1 / (1 - c) = 36/16 = 9/4
      E[attacker TUV lost] = 3 (5/8 + 1/8) = 9/4;  E[defender TUV lost] = 3 (1/4 + 1/8) = 9/8
    """
    army = Army()
    odds = battle_odds(land(army.side("germany", "1 infantry"), army.side("ussr", "1 infantry")))
    a, d = 1 / 6, 2 / 6
    c = (1 - a) * (1 - d)
    assert odds.attacker_wins == pytest.approx(a * (1 - d) / (1 - c), abs=1e-12)
    assert odds.attacker_wins == pytest.approx(1 / 4, abs=1e-12)
    assert odds.defender_wins == pytest.approx(5 / 8, abs=1e-12)
    assert odds.both_destroyed == pytest.approx(1 / 8, abs=1e-12)
    assert odds.attacker_retreats == 0 and odds.stalemate == 0
    assert odds.captured == pytest.approx(1 / 4, abs=1e-12)
    assert odds.rounds == pytest.approx(9 / 4, abs=1e-12)
    assert odds.attacker_tuv_lost == pytest.approx(9 / 4, abs=1e-12)
    assert odds.defender_tuv_lost == pytest.approx(9 / 8, abs=1e-12)
    assert odds.tuv_swing == pytest.approx(9 / 8 - 9 / 4, abs=1e-12)
    assert odds.attacker_survivors == pytest.approx({(("infantry", 1),): 1 / 4, (): 3 / 4},
                                                    abs=1e-12)
    assert abs(odds.total - 1) < 1e-12


def test_retreat_after_round_one_closed_form():
    """With "retreat after round 1": one round is fought, then the attacker leaves if both
    missed (probability 20/36)."""
    army = Army()
    odds = battle_odds(land(army.side("germany", "1 infantry"), army.side("ussr", "1 infantry"),
                            retreat=(RetreatCondition(after_round=1),),
                            retreat_options=("Poland",)))
    assert odds.attacker_wins == pytest.approx(4 / 36, abs=1e-12)
    assert odds.defender_wins == pytest.approx(10 / 36, abs=1e-12)
    assert odds.both_destroyed == pytest.approx(2 / 36, abs=1e-12)
    assert odds.attacker_retreats == pytest.approx(20 / 36, abs=1e-12)
    assert odds.rounds == pytest.approx(1, abs=1e-12)


def test_two_rounds_then_retreat_closed_form():
    """2 inf vs 1 inf, retreat after round 2: only the first two rounds can matter."""
    army = Army()
    odds = battle_odds(land(army.side("germany", "2 infantry"), army.side("ussr", "1 infantry"),
                            retreat=(RetreatCondition(after_round=2),),
                            retreat_options=("Poland",)))
    # per round with 2 attackers: P(att >= 1 hit) = 1 - (5/6)^2 = 11/36
    h2, m2 = 11 / 36, 25 / 36
    d, nd = 2 / 6, 4 / 6
    # round 1 outcomes: attacker kills (h2) [defender fires d: -1 attacker, battle over];
    # misses (m2): defender hits (d) -> 1 vs 1 in round 2, else 2 vs 1 in round 2.
    win = h2                                   # the defender dies whenever the attacker hits
    win += m2 * d * (1 / 6)                    # round 2 with 1 attacker
    win += m2 * nd * h2                        # round 2 with 2 attackers
    both = m2 * d * (1 / 6) * d                # 1 vs 1 in round 2, both hit
    assert odds.attacker_wins + odds.both_destroyed == pytest.approx(win, abs=1e-12)
    assert odds.both_destroyed == pytest.approx(both, abs=1e-12)
    assert abs(odds.total - 1) < 1e-12


def test_faq_example_odds_exact_facts():
    """After the FAQ's round 1 the battle can only end with the subs untouched: with no
    retreat the attacker's transports are sunk (stalemate) unless it wins in round 1."""
    army = Army()
    odds = battle_odds(_faq_setup(army))
    assert abs(odds.total - 1) < 1e-12
    assert odds.attacker_retreats == 0
    assert odds.stalemate > 0.4 and odds.attacker_wins > 0.4
    assert sum(odds.defender_survivors.values()) == pytest.approx(1, abs=1e-12)


def test_defenceless_and_stalemate_are_certain():
    army = Army()
    odds = battle_odds(sea(army.side("germany", "1 destroyer"),
                           army.side("ussr", "2 transport[infantry,infantry]")))
    assert odds.attacker_wins == 1.0 and odds.rounds == 0
    assert odds.defender_tuv_lost == 2 * 7 + 4 * 3
    odds = battle_odds(sea(army.side("germany", "2 fighter"), army.side("ussr", "1 submarine")))
    assert odds.stalemate == 1.0 and odds.tuv_swing == 0


# --------------------------------------------------------------------------- invariants

@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=battles())
def test_probabilities_sum_to_one(setup):
    odds = battle_odds(setup)
    assert abs(odds.total - 1) < 1e-12
    assert abs(math.fsum(odds.attacker_survivors.values()) - 1) < 1e-12
    assert abs(math.fsum(odds.defender_survivors.values()) - 1) < 1e-12
    assert -1e-12 <= odds.captured <= odds.attacker_wins + 1e-12
    assert all(odds.outcome(o) >= 0 for o in OUTCOMES)
    assert odds.tuv_swing == pytest.approx(odds.defender_tuv_lost - odds.attacker_tuv_lost)


@settings(max_examples=80, deadline=None)
@given(setup=battles(), data=st.data())
def test_hits_compose_one_at_a_time(setup, data):
    """The odds calculator's shortcut: h hits of one class == h - 1 hits, then one more."""
    board = Board(setup)
    side_idx = data.draw(st.sampled_from([ATT, DEF]))
    state = board.initial_state()
    side: Side = state.att if side_idx == ATT else state.dfn
    cls = data.draw(st.integers(0, 3))
    h = data.draw(st.integers(1, 8))
    direct = apply_side_hits(board, side_idx, side,
                             hits_by_class(board, side_idx, side, [(cls, h)]))[0]
    step = side
    for _ in range(h):
        one = hits_by_class(board, side_idx, step, [(cls, 1)])
        step = apply_side_hits(board, side_idx, step, one)[0] if one else step
    assert step == direct


def test_odds_of_a_forced_battle_match_the_engine():
    """Dice with 1 face: every unit with a value hits every time, so the exact odds put
    probability 1 on what the engine does with those dice."""
    army = Army()
    setup = land(army.side("germany", "3 infantry", "1 tank"), army.side("ussr", "2 infantry"))
    odds = battle_odds(setup, sides=1)
    result = resolve_battle(setup, FixedDice([1] * 6, sides=1), NAMES)
    assert odds.outcome(result.outcome) == 1.0
    assert odds.attacker_survivors == {(("infantry", 1), ("tank", 1)): 1.0}
    assert {u.type.key for u in result.attackers} == {"infantry", "tank"}
    assert len(result.attackers) == 2


class AlwaysOne:
    """One-sided dice: every roll is 1, so every unit with a value hits."""

    sides = 1

    def roll(self, count: int, purpose: str = "") -> list[int]:
        return [1] * count


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=battles())
def test_chain_and_engine_agree_when_dice_always_hit(setup):
    """With certain hits the Markov chain has one path: it must be the engine's."""
    odds = battle_odds(setup, sides=1)
    result = resolve_battle(setup, AlwaysOne())
    assert odds.outcome(result.outcome) == pytest.approx(1.0, abs=1e-12)
    assert odds.rounds == pytest.approx(result.rounds, abs=1e-12)
    order = {k: i for i, k in enumerate(Board(setup).type_order)}
    for survivors, dist in ((result.attackers, odds.attacker_survivors),
                            (result.defenders, odds.defender_survivors)):
        counts: dict[str, int] = {}
        for u in survivors:
            counts[u.type.key] = counts.get(u.type.key, 0) + 1
        comp = tuple(sorted(counts.items(), key=lambda kv: order[kv[0]]))
        assert dist.get(comp, 0.0) == pytest.approx(1.0, abs=1e-12)


# --------------------------------------------------------------------------- Monte Carlo

RUNS = 200_000


def _scenarios():
    army = Army()
    return [pytest.param(name, setup, id=name) for name, setup in _scenario_list(army)]


def _scenario_list(army):
    yield "pure land", land(army.side("germany", "3 infantry", "1 tank"),
                            army.side("ussr", "4 infantry"))
    yield "mixed air/land", land(
        army.side("germany", "2 infantry", "1 tank", "1 fighter", "1 bomber"),
        army.side("ussr", "3 infantry", "1 fighter"))
    yield "subs and destroyers", sea(
        army.side("germany", "2 submarine", "1 destroyer", "1 fighter"),
        army.side("ussr", "2 submarine", "1 destroyer", "1 carrier", "1 fighter",
                  "1 transport[infantry,infantry]"),
        defender_submerge=SubmergePolicy.LOSING)
    yield "battleship two hits", sea(
        army.side("germany", "1 battleship", "1 submarine", "1 fighter"),
        army.side("ussr", "1 battleship", "1 destroyer", "1 submarine"))
    yield "amphibious, sea-borne stay", land(
        army.side("germany", "1 infantry", "1 tank", "1 fighter")
        + army.side("germany", "2 infantry", "1 tank", seaborne=True),
        army.side("ussr", "5 infantry", "1 tank"),
        retreat=(RetreatCondition(side="attackers", comparison="<=", threshold=3),),
        retreat_options=("Poland",), min_rounds=1)


@pytest.mark.parametrize("name, setup", _scenarios())
def test_exact_matches_monte_carlo(name, setup):
    exact = battle_odds(setup)
    assert abs(exact.total - 1) < 1e-12
    mc = monte_carlo(setup, RUNS, seed=name)
    assert mc.runs == RUNS and sum(mc.outcome(o) for o in OUTCOMES) == pytest.approx(1)
    for field in (*OUTCOMES, "captured"):
        p = exact.outcome(field)
        se = math.sqrt(p * (1 - p) / RUNS)        # standard error of a proportion at p
        assert abs(mc.outcome(field) - p) <= 3 * se + 1e-9, (field, p, mc.outcome(field))
    for field in ("attacker_tuv_lost", "defender_tuv_lost", "tuv_swing", "rounds"):
        se = mc.stderr[field]
        assert abs(getattr(mc, field) - getattr(exact, field)) <= 3 * se + 1e-9, (
            field, getattr(exact, field), getattr(mc, field), se)
    # the most likely surviving attacker force has the right frequency too
    comp, p = max(exact.attacker_survivors.items(), key=lambda kv: kv[1])
    se = math.sqrt(p * (1 - p) / RUNS)
    assert abs(mc.attacker_survivors.get(comp, 0.0) - p) <= 3 * se


def test_thirty_vs_thirty_mixed_battle_is_a_distribution():
    """A large mixed battle still sums to 1 (speed is measured by benchmarks/bench_odds.py,
    not by a timed test)."""
    army = Army()
    setup = land(army.side("germany", "15 infantry", "8 tank", "5 fighter", "2 bomber"),
                 army.side("ussr", "20 infantry", "5 tank", "5 fighter"))
    odds = battle_odds(setup)
    assert abs(odds.total - 1) < 1e-12
    assert 0 < odds.captured < 1


def test_casualty_only_units_absorb_submarine_hits_closed_form():
    """Europe's Allied ships against a German sub [L793, L801]: a transport in the zone but
    not in the battle (``casualty_only = NO_AIR``) takes the sub's first hit.  A destroyer
    (attack 2: a = 1/3) fights a sub (defence 1: d = 1/6; it never submerges).  Without the
    transport, P(attacker wins) = a(1-d) / (a(1-d) + ad + (1-a)d) = 5/8, both destroyed 1/8,
    defender wins 1/4.  With it, the first sub hit sinks the transport instead: the attacker
    wins at once with P = (5 + 1)/8 = 3/4, else (1/4) the fight above goes on, so
    P(attacker wins) = 3/4 + 5/32 = 29/32, both destroyed 1/32, defender wins 2/32; the
    transport (cost 8 in 1941) is lost in the 1/8 + 1/4 of the first round's endings
    where the sub hits: E[attacker TUV lost] counts it too."""
    from adjudicator.engine.combat.board import NO_AIR
    army = Army()
    ship = army.side("germany", "1 destroyer")
    (trn,) = army.side("germany", "1 transport")
    sub = army.side("ussr", "1 submarine")
    never = SubmergePolicy.NEVER
    alone = battle_odds(sea(ship, sub, defender_submerge=never))
    assert (alone.attacker_wins, alone.both_destroyed, alone.defender_wins) == pytest.approx(
        (5 / 8, 1 / 8, 1 / 4), abs=1e-12)
    pooled = sea(ship + (attrs.evolve(trn, casualty_only=NO_AIR),), sub, defender_submerge=never,
                 attacker_loss_order=("transport", "destroyer"))
    odds = battle_odds(pooled)
    assert (odds.attacker_wins, odds.both_destroyed, odds.defender_wins) == pytest.approx(
        (29 / 32, 1 / 32, 2 / 32), abs=1e-12)
    assert abs(odds.total - 1) < 1e-12
    # the dice: the destroyer misses, the sub hits (the transport sinks), then the
    # destroyer hits and the sub misses
    result = resolve_battle(pooled, FixedDice([6, 1, 1, 6]))
    assert result.outcome == "attacker_wins" and result.killed == (trn.uid, sub[0].uid)


def test_casualty_only_units_take_no_other_hits():
    """Only hits of the classes named (``NO_AIR``: submarines) reach a casualty-only unit:
    an enemy destroyer's hit sinks the destroyer in the battle, and the battle ends with
    the transport afloat and the attacker beaten."""
    from adjudicator.engine.combat.board import NO_AIR
    army = Army()
    ship = army.side("germany", "1 destroyer")
    (trn,) = army.side("germany", "1 transport")
    enemy = army.side("ussr", "1 destroyer")
    setup = sea(ship + (attrs.evolve(trn, casualty_only=NO_AIR),), enemy,
                attacker_loss_order=("transport", "destroyer"))
    result = resolve_battle(setup, FixedDice([6, 1]))
    assert result.outcome == "defender_wins" and result.killed == (ship[0].uid,)
    alone = battle_odds(sea(ship, enemy))
    odds = battle_odds(setup)
    assert odds.defender_wins == pytest.approx(alone.defender_wins, abs=1e-12)
    assert odds.attacker_wins == pytest.approx(alone.attacker_wins, abs=1e-12)
