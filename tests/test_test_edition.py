"""An edition the engine has never seen: tests/editions/tinywar (two powers, six spaces)
with one new ability, "ambush", whose rules and battle step live in tests/tinywar_rules.py.
It is registered only here; nothing in the package knows it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from adjudicator import editions
from adjudicator.engine import adjudicate, check
from adjudicator.engine.combat import BattleSetup, BattleUnit
from adjudicator.engine.combat.odds import battle_odds, monte_carlo
from adjudicator.io.parser import parse_orders
from adjudicator.model.dice import FixedDice
from adjudicator.model.errors import DataError
from adjudicator.model.events import DiceRolled
from adjudicator.service.games import initial_state, load_game
from adjudicator.service.rules_cases import run_edition

DATA = Path(__file__).parent / "editions" / "tinywar"


@pytest.fixture
def tinywar():
    edition = editions.register(editions.Edition("tinywar", "Tiny War", str(DATA),
                                                 plugins=("tinywar_rules",)))
    yield load_game("tinywar")
    editions.unregister(edition.name)


def test_it_loads_and_plays_a_turn(tinywar):
    game = tinywar
    state = initial_state(game, "t")
    orders = parse_orders("combat:\nmove 4 sol Redfield -> Midmarch", game, power="red")
    assert [p for p in check(game, state, orders) if p.is_error] == []
    # ambush (defender, ranger @3): 4; then main fire: red 4 soldiers @1: 1,1,6,6; blue soldier @2: 6
    result = adjudicate(game, state, orders, FixedDice([4, 1, 1, 6, 6, 6]))
    steps = [(e.step, e.side, e.unit_type) for e in result.events if isinstance(e, DiceRolled)]
    assert steps[0] == ("ambush", "defender", "ranger")
    assert ("defence", "defender", "ranger") not in steps        # it fired in the ambush instead
    assert result.state.owners["Midmarch"] == "red"


def test_exact_odds_run_the_new_step(tinywar):
    """1 soldier (attack 1) against 1 ranger (ambush 3): each round the ranger hits first
    with probability 1/2; if it misses, the soldier hits with 1/6.  P(attacker wins) =
    (1/2)(1/6) / (1 - (1/2)(5/6)) = 1/7."""
    units = tinywar.ruleset.units
    setup = BattleSetup("b", "Midmarch", False, "red",
                        (BattleUnit(1, units["soldier"], "red"),),
                        (BattleUnit(2, units["ranger"], "blue"),),
                        stages=tinywar.ruleset.plan.battle_stages, unit_types=units)
    odds = battle_odds(setup)
    assert odds.attacker_wins == pytest.approx(1 / 7, abs=1e-12)
    assert odds.defender_wins == pytest.approx(6 / 7, abs=1e-12)
    sampled = monte_carlo(setup, 20_000, seed=1)
    assert abs(sampled.attacker_wins - 1 / 7) < 4 * sampled.stderr["attacker_wins"]


def test_its_rules_cases_pass(tinywar):
    results = run_edition("tinywar", DATA / "cases")
    assert len(results) == 3
    assert [r.failures for r in results if not r.ok] == []


def test_the_cli_runs_it(tinywar, tmp_path, capsys):
    from adjudicator.cli import main
    assert main(["new", str(tmp_path / "g"), "--ruleset", "tinywar", "--demo-seeds"]) == 0
    orders = tmp_path / "red.txt"
    orders.write_text("combat:\nmove 4 sol Redfield -> Midmarch\n", encoding="utf-8")
    assert main(["check", str(orders), "-g", str(tmp_path / "g")]) == 0
    assert "Midmarch" in capsys.readouterr().out


def test_without_its_plugin_the_ability_is_unknown(tmp_path):
    """The engine refuses data naming an ability nobody registered, saying which."""
    copy = tmp_path / "tinywar2"
    shutil.copytree(DATA, copy)
    units = copy / "units.toml"
    units.write_text(units.read_text(encoding="utf-8").replace("ambush =", "mystery ="),
                     encoding="utf-8")
    with pytest.raises(DataError, match="unit 'ranger': unknown ability 'mystery'"):
        load_game(str(copy))


def test_unregistered_edition_is_unknown():
    with pytest.raises(DataError, match="unknown ruleset 'tinywar'"):
        editions.get("tinywar")
