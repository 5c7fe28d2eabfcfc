"""The odds ``pbem check`` gives for a sea battle in a kamikaze zone count the strikes made
before it (Global 1940 [L820-L826]: one die per strike, a hit on 1 or 2 sinks the ship it
was aimed at, or damages an undamaged capital ship): the mixture, weighted by how the
strikes fall, of the battles they leave -- checked against a mixture built by hand."""

from __future__ import annotations

from fractions import Fraction

import attrs
import pytest

from adjudicator.engine import planned_battles
from adjudicator.engine.combat.odds import battle_odds
from adjudicator.io.parser import parse_orders
from adjudicator.io.rules_cases import parse_cases
from adjudicator.present.check_view import estimate_notes
from adjudicator.service.games import load_game
from adjudicator.service.quick_odds import check_odds
from adjudicator.service.rules_cases import build_position

HIT = Fraction(1, 3)             # a strike hits on 1 or 2 [L824]


@pytest.fixture(scope="module")
def game():
    return load_game("global1940")


def _battle(game, attackers: str, standing: str):
    """UK ``attackers`` from Sea Zone 7 attack one Japanese destroyer in kamikaze zone 6."""
    [case] = parse_cases(f"""edition global1940
case kami-odds: the check's odds of a kamikaze zone
power uk
position empty
relation japan uk: war
units Sea Zone 7: uk {attackers}
units Sea Zone 6: japan 1 dd
standing japan: {standing}
orders:
combat:
move {attackers} Sea Zone 7 -> Sea Zone 6
end
expect valid
""")
    state = build_position(game, case)
    [battle] = planned_battles(game, state, parse_orders(case.orders, game, state.power))
    return battle


def _without(setup, types: list[str], damaged: str | None = None):
    """``setup`` with one ship of each of ``types`` gone and ``damaged`` (a type) damaged."""
    left, gone = [], list(types)
    for u in setup.attackers:
        if u.type.key in gone:
            gone.remove(u.type.key)
            continue
        left.append(attrs.evolve(u, damaged=True) if u.type.key == damaged else u)
    assert not gone
    return attrs.evolve(setup, attackers=tuple(left), before=())


def _figures(odds):
    return [odds.attacker_wins, odds.defender_wins, odds.both_destroyed, odds.attacker_tuv_lost]


def _mixture(parts):
    total = [0.0] * 4
    for weight, odds, lost in parts:
        figures = _figures(odds)
        figures[3] += lost
        total = [t + float(weight) * f for t, f in zip(total, figures)]
    return total


def test_two_strikes_at_the_two_most_valuable_ships(game):
    setup = _battle(game, "1 cruiser, 1 dd", "kamikaze all: 2")
    # the cruiser (12) first, then the destroyer (8), one strike each
    ways = {(tuple(sorted(setup_types(setup, k))), d): w for w, k, d in setup.before}
    assert ways == pytest.approx({((), ()): float((1 - HIT) ** 2),
                                  (("cruiser",), ()): float(HIT * (1 - HIT)),
                                  (("destroyer",), ()): float(HIT * (1 - HIT)),
                                  (("cruiser", "destroyer"), ()): float(HIT * HIT)})
    cruiser, destroyer = 12, 8
    expected = _mixture([
        ((1 - HIT) ** 2, battle_odds(_without(setup, [])), 0),
        (HIT * (1 - HIT), battle_odds(_without(setup, ["cruiser"])), cruiser),
        (HIT * (1 - HIT), battle_odds(_without(setup, ["destroyer"])), destroyer),
        (HIT * HIT, battle_odds(_without(setup, ["cruiser", "destroyer"])), cruiser + destroyer)])
    odds = check_odds(setup, 6)
    assert odds.method == "exact"
    assert _figures(odds) == pytest.approx(expected, abs=1e-12)
    # without the strikes the attack does better: the strikes are counted
    assert odds.attacker_wins < battle_odds(_without(setup, [])).attacker_wins - 0.05
    assert any("kamikaze" in line for line in estimate_notes([(setup, odds)]))


def setup_types(setup, uids):
    by_uid = {u.uid: u.type.key for u in setup.attackers}
    return [by_uid[uid] for uid in uids]


def test_strikes_on_a_battleship_damage_it_then_sink_it(game):
    setup = _battle(game, "1 bb, 1 dd", "kamikaze all: 2 on battleship")
    [bb] = [u.uid for u in setup.attackers if u.type.key == "battleship"]
    ways = {(k, d): w for w, k, d in setup.before}
    assert ways == pytest.approx({((), ()): float((1 - HIT) ** 2),
                                  ((), (bb,)): float(2 * HIT * (1 - HIT)),
                                  ((bb,), ()): float(HIT * HIT)})
    expected = _mixture([
        ((1 - HIT) ** 2, battle_odds(_without(setup, [])), 0),
        (2 * HIT * (1 - HIT), battle_odds(_without(setup, [], damaged="battleship")), 0),
        (HIT * HIT, battle_odds(_without(setup, ["battleship"])), 20)])
    assert _figures(check_odds(setup, 6)) == pytest.approx(expected, abs=1e-12)


def test_no_strike_by_default_leaves_the_battle_alone(game):
    setup = _battle(game, "1 cruiser, 1 dd", "kamikaze all: 0")
    assert setup.before == ()
    assert check_odds(setup, 6) == battle_odds(setup)


def test_an_estimate_of_the_mixture_stays_within_its_bound(game):
    setup = _battle(game, "1 cruiser, 1 dd", "kamikaze all: 2")
    exact = check_odds(setup, 6)
    estimate = check_odds(setup, 6, budget=0.0)         # every part simulated
    assert estimate.method == "monte_carlo" and estimate.runs >= 200
    for name in ("attacker_wins", "defender_wins"):
        assert abs(estimate.outcome(name) - exact.outcome(name)) <= estimate.error_bound
