"""Global 1940's paratroopers under AA fire [L1182]: "if there is an AA gun in the attacked
territory, the paratroopers are subjected to AA fire just like air units".  The rules are
the cases g40-aa-18 to g40-aa-23 (maps/global1940/cases/aa.txt); here the exact odds --
``pbem odds --paratroopers`` and the odds ``pbem check`` shows -- count them as the battle
does: the AA step's dice and casualties are a mixture of battles without the gun's fire."""

from __future__ import annotations

from argparse import Namespace
from math import comb

import attrs
import pytest

from adjudicator.cli.planning import odds_setup
from adjudicator.engine import planned_battles
from adjudicator.engine.combat.odds import battle_odds
from adjudicator.io.parser import parse_orders
from adjudicator.service.games import load_game
from adjudicator.service.rules_cases import build_position, edition_cases

LOSSES = "inf, ftr, tank"


@pytest.fixture(scope="module")
def game():
    return load_game("global1940", options={"research": True})


def _setup(game, attackers: str, defenders: str, paratroopers: str | None = None):
    args = Namespace(attackers=attackers, defenders=defenders, sea=False, from_sea=None,
                     paratroopers=paratroopers, bombard=None, retreat=None,
                     attacker_losses=LOSSES, defender_losses=None, attacker_subs="fire",
                     defender_submerge="losing", low_luck=False)
    return odds_setup(game, args, [])


def _p(n: int, k: int) -> float:
    return comb(n, k) * (1 / 6) ** k * (5 / 6) ** (n - k)


def _figures(odds) -> tuple[float, float, float]:
    return odds.attacker_wins, odds.defender_wins, odds.captured


def _without_aa(setup, lost: int):
    """``setup`` with the gun silent and the attacker's first ``lost`` AA targets (by its
    loss order: paratroopers, then the fighter) gone."""
    targets = [u for u in setup.attackers if u.airborne] + \
              [u for u in setup.attackers if u.type.key == "fighter"]
    gone = {u.uid for u in targets[:lost]}
    return attrs.evolve(setup, attackers=tuple(u for u in setup.attackers if u.uid not in gone),
                        support=((), ()))


def _mixture(setup, dice: int) -> list[float]:
    """The figures of ``setup`` read as the rules say: ``dice`` AA dice at 1 in 6, each hit
    taking the next AA target, then the battle without the gun's fire."""
    mixture = [0.0, 0.0, 0.0]
    for k in range(dice + 1):
        figures = _figures(battle_odds(_without_aa(setup, k)))
        mixture = [m + _p(dice, k) * f for m, f in zip(mixture, figures)]
    return mixture


def test_the_gun_fires_at_paratroopers_as_at_aircraft(game):
    """1 tank, 1 fighter and 2 paratroopers against 1 infantry and 1 gun: 3 AA dice, hits
    taken by the paratroopers first (the attacker's loss order), then the fighter."""
    setup = _setup(game, "1 tank, 1 ftr", "1 inf, 1 aa", paratroopers="2 inf")
    assert sum(u.airborne for u in setup.attackers) == 2
    assert list(_figures(battle_odds(setup))) == pytest.approx(_mixture(setup, 3), abs=1e-12)
    # the old reading (one die, at the fighter alone) is a different battle
    plain = attrs.evolve(setup, attackers=tuple(attrs.evolve(u, airborne=False)
                                                for u in setup.attackers))
    assert list(_figures(battle_odds(plain))) == pytest.approx(_mixture(plain, 1), abs=1e-12)
    assert battle_odds(setup).captured < battle_odds(plain).captured - 0.004


def test_without_paratroopers_the_odds_are_unchanged(game):
    """The same attack without paratroopers: one die at the fighter, as before."""
    setup = _setup(game, "1 tank, 1 ftr, 2 inf", "1 inf, 1 aa")
    assert list(_figures(battle_odds(setup))) == pytest.approx(_mixture(setup, 1), abs=1e-12)


def test_the_check_s_odds_see_the_paratroopers(game):
    """The battle ``pbem check`` lists for case g40-aa-18's orders holds the two dropped
    infantry as paratroopers, and its odds are ``pbem odds --paratroopers``'s."""
    case = next(c for c in edition_cases("global1940") if c.name == "g40-aa-18")
    state = build_position(game, case)
    orders = parse_orders(case.orders, game, state.power)
    [battle] = planned_battles(game, state, orders)
    assert battle.space == "Eastern Poland"
    assert sorted(u.type.key for u in battle.attackers if u.airborne) == ["infantry"] * 2
    assert sorted(u.type.key for u in battle.support[1]) == ["aa_gun"]
    typed = _setup(game, "1 tank, 1 ftr", "1 inf, 1 aa", paratroopers="2 inf")
    checked = attrs.evolve(battle, attacker_loss_order=typed.attacker_loss_order)
    assert list(_figures(battle_odds(checked))) == pytest.approx(
        list(_figures(battle_odds(typed))), abs=1e-12)


def test_pbem_odds_paratroopers_json(capsys):
    """``pbem odds --paratroopers`` end to end: the battle names them, the JSON meets its
    schema, and seeded battles fought by the dice rules agree with the exact figures."""
    from test_cli_ux import pbem_json, validate
    code, data, _ = pbem_json(capsys, "odds", "--ruleset", "global1940", "1 tank, 1 ftr",
                              "--paratroopers", "2 inf", "vs", "1 inf, 1 aa", "--json",
                              "--monte-carlo", "2000")
    assert code == 0
    validate(data, "odds")
    assert data["battle"]["paratroopers"] == {"infantry": 2}
    assert data["battle"]["anti_aircraft"] == {"aa_gun": 1}
    exact, simulated = data["exact"], data["monte_carlo"]
    for key in ("attacker_wins", "defender_wins"):
        assert abs(simulated[key] - exact[key]) < 5 * simulated["stderr"][key] + 1e-3
