"""The odds ``pbem check`` shows for a Global 1940 turn count the aircraft the defender's
standing orders scramble (rule ``scramble``, at the start of Conduct Combat [L794-L806]):
``planned_battles`` runs the rules the turn runs before its first battle, so each battle it
lists is the one the turn fights.  The positions are the scramble cases'
(maps/global1940/cases/scramble.txt, kamikaze.txt)."""

from __future__ import annotations

from collections import Counter

import pytest

from adjudicator.engine import planned_battles
from adjudicator.io.parser import parse_orders
from adjudicator.service.checking import check_orders
from adjudicator.service.games import load_game
from adjudicator.service.rules_cases import build_position, edition_cases


@pytest.fixture(scope="module")
def game():
    return load_game("global1940")


def _battles(game, name: str) -> dict[str, tuple[Counter, Counter]]:
    """Space -> (attackers, defenders) by unit type, for the orders of case ``name``."""
    case = next(c for c in edition_cases("global1940") if c.name == name)
    state = build_position(game, case)
    orders = parse_orders(case.orders, game, state.power)
    return {b.space: (Counter(u.type.key for u in b.attackers),
                      Counter(u.type.key for u in b.defenders))
            for b in planned_battles(game, state, orders)}


def test_scrambled_fighters_defend_the_attacked_zone(game):
    battles = _battles(game, "g40-scr-02")           # standing order: scramble all: yes
    assert battles == {"Sea Zone 110": (Counter(destroyer=2),
                                        Counter(destroyer=1, fighter=2))}


def test_without_the_standing_order_nobody_scrambles(game):
    battles = _battles(game, "g40-scr-01")           # the default: no
    assert battles == {"Sea Zone 110": (Counter(destroyer=2), Counter(destroyer=1))}


def test_a_scramble_forces_the_sea_battle_and_leaves_the_territory(game):
    """The amphibious assault from an empty zone: the scrambled fighter makes a sea battle,
    and it no longer defends the territory."""
    battles = _battles(game, "g40-scr-10")
    assert battles["Sea Zone 110"][1] == Counter(fighter=1)
    assert battles["United Kingdom"][1] == Counter(infantry=1)
    assert list(battles) == ["Sea Zone 110", "United Kingdom"]


def test_the_check_s_odds_are_the_scrambled_battle_s(game):
    """``check_orders`` (what ``pbem check`` and a mail reply show) gives the sea battle
    with the scrambled fighters: 2 destroyers against 1 destroyer and 2 fighters."""
    from adjudicator.cli.planning import odds_setup
    from argparse import Namespace
    from adjudicator.engine.combat.odds import battle_odds

    case = next(c for c in edition_cases("global1940") if c.name == "g40-scr-02")
    state = build_position(game, case)
    result = check_orders(game, state, case.orders, exact_odds=True)
    assert result.ok
    [battle] = result.battles
    args = Namespace(attackers="2 dd", defenders="1 dd, 2 ftr", sea=True, from_sea=None,
                     bombard=None, retreat=None, attacker_losses=None, defender_losses=None,
                     attacker_subs=None, defender_submerge="losing", low_luck=False)
    typed = battle_odds(odds_setup(game, args, []))
    assert battle.odds.attacker_wins == pytest.approx(typed.attacker_wins, abs=1e-12)
    assert battle.odds.defender_wins == pytest.approx(typed.defender_wins, abs=1e-12)
    assert typed.defender_wins > 0.5          # the fighters turn the battle


def test_a_kamikaze_zone_is_listed_once(game):
    """The kamikaze strike before a sea battle is no battle of its own in the check's list
    (it was listed as a second copy of the sea battle)."""
    case = next(c for c in edition_cases("global1940") if c.name == "g40-kami-01")
    state = build_position(game, case)
    battles = planned_battles(game, state, parse_orders(case.orders, game, state.power))
    assert [b.space for b in battles] == ["Sea Zone 6"]
    assert Counter(u.type.key for u in battles[0].attackers) == Counter(cruiser=1, destroyer=1)
