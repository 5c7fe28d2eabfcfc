"""Global 1940's units and facilities in the engine (issue 22), checked on the edition's own
data: AA guns' capped fire in the exact odds (closed forms from the rulebook's dice, seed 004
[L1380-L1398]); the rules cases in maps/global1940/cases/ cover the turn engine."""

from __future__ import annotations

import itertools
from math import comb

import pytest

from adjudicator.engine.combat import BattleSetup, BattleUnit
from adjudicator.engine.combat.odds import battle_odds
from adjudicator.model.orders import RetreatCondition
from adjudicator.service.games import load_game


@pytest.fixture(scope="module")
def g40():
    return load_game("global1940")


def _units(game, owner, spec, uids):
    out = []
    for key, n in spec.items():
        out += [BattleUnit(next(uids), game.ruleset.units[key], owner) for _ in range(n)]
    return tuple(out)


def _land(game, attackers, defenders, guns, **kw) -> BattleSetup:
    uids = itertools.count(1)
    att = _units(game, "germany", attackers, uids)
    dfn = _units(game, "ussr", {**defenders, "aa_gun": guns}, uids)
    aa = tuple(u for u in dfn if u.type.has("aa_fire"))
    return BattleSetup("Eastern Poland", "Eastern Poland", False, "germany", att, dfn,
                       stages=game.ruleset.plan.battle_stages, support=((), aa),
                       unit_types=game.ruleset.units, **kw)


def _binom(n, k, p=1 / 6):
    return comb(n, k) * p ** k * (1 - p) ** (n - k)


@pytest.mark.parametrize("guns, dice", [(1, 3), (2, 5), (3, 5)])
def test_aa_dice_are_capped_at_three_per_gun(g40, guns, dice):
    """5 fighters attack 1 infantry and ``guns`` AA guns, retreating after round 1.  The guns
    roll min(3 x guns, 5) dice hitting on 1; the 5 - k fighters left fire at 3, and once the
    infantry falls the guns alone are destroyed.  With two or more fighters left the attacker
    wins unless all miss (the infantry's hit at 2 takes one); with one, it must hit while the
    infantry misses; with none it has lost.  P(attacker wins) = sum over the AA hits k of
    Bin(dice, 1/6)(k) win(5 - k)."""
    setup = _land(g40, {"fighter": 5}, {"infantry": 1}, guns,
                  retreat=(RetreatCondition(after_round=1),), retreat_options=("Poland",))
    odds = battle_odds(setup)
    def win(left):
        return 1 - 0.5 ** left if left >= 2 else (0.5 * 4 / 6 if left == 1 else 0)
    want = sum(_binom(dice, k) * win(5 - k) for k in range(dice + 1))
    assert odds.attacker_wins == pytest.approx(want, abs=1e-12)
    retreats = sum(_binom(dice, k) * 0.5 ** (5 - k) * (4 / 6 if k == 4 else 1)
                   for k in range(min(dice, 4) + 1))
    assert odds.attacker_retreats == pytest.approx(retreats, abs=1e-12)


def test_lone_aa_guns_are_taken_without_a_shot(g40):
    """A territory held only by AA guns: no combat, no AA fire, the guns destroyed [L908]."""
    odds = battle_odds(_land(g40, {"fighter": 3, "infantry": 1}, {}, 2))
    assert odds.attacker_wins == pytest.approx(1, abs=1e-12)
    assert odds.attacker_tuv_lost == 0
    assert odds.defender_tuv_lost == pytest.approx(10, abs=1e-12)


def _sea(game, attackers, defenders, damaged=0) -> BattleSetup:
    uids = itertools.count(1)
    att = list(_units(game, "uk", attackers, uids))
    for i in range(damaged):
        att[i] = BattleUnit(att[i].uid, att[i].type, att[i].owner, damaged=True)
    dfn = _units(game, "germany", defenders, uids)
    return BattleSetup("Sea Zone 112", "Sea Zone 112", True, "uk", tuple(att), dfn,
                       stages=game.ruleset.plan.battle_stages, unit_types=game.ruleset.units)


def test_a_damaged_battleship_fights_with_one_hit_left(g40):
    """A battleship that enters the battle damaged (Global 1940's lasting damage [L1520])
    against a destroyer: each round it hits with a = 4/6, the destroyer with d = 2/6, and one
    hit sinks it.  P(attacker wins) = a(1 - d) / (1 - (1 - a)(1 - d)) = 4/7; undamaged, the
    first hit is free and it wins more often."""
    damaged = battle_odds(_sea(g40, {"battleship": 1}, {"destroyer": 1}, damaged=1))
    a, d = 4 / 6, 2 / 6
    assert damaged.attacker_wins == pytest.approx(a * (1 - d) / (1 - (1 - a) * (1 - d)), abs=1e-12)
    assert damaged.attacker_wins == pytest.approx(4 / 7, abs=1e-12)
    fresh = battle_odds(_sea(g40, {"battleship": 1}, {"destroyer": 1}))
    assert fresh.attacker_wins > damaged.attacker_wins
