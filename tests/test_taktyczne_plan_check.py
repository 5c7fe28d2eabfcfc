"""``pbem check`` of a Taktyczne Starcie turn (issue 26): the board battles the orders
would start, each with the forces and both plans it would be fought with, and its odds by
Monte Carlo with the plan interpreter, labelled as an estimate with its bound, the run
count chosen by a CPU budget (``service/board_check.py``).  Positions are built as the
rules cases build them (``service.rules_cases.build_position``)."""

from __future__ import annotations

import pytest

from adjudicator.engine.turn import planned_battles
from adjudicator.io.parser import parse_orders
from adjudicator.io.rules_cases import parse_cases
from adjudicator.model.tactical import ATTACKER, DEFENDER, BattlePlan, Doctrine
from adjudicator.present.check_view import check_text
from adjudicator.service import board_check
from adjudicator.service.board_check import board_check_odds, planned_board_battles
from adjudicator.service.checking import check_orders
from adjudicator.service.games import load_game
from adjudicator.service.rules_cases import build_position

POSITION = """edition taktyczne
case check: a position
power red
position empty
owner 22: red
owner 26: red
owner 23: blue
owner 31: blue
units 22: red 1 tank_4, 2 tank_2
units 26: red 1 tank_1
units 23: blue 1 tank_3, 1 at_gun, 2 mine_land
units 31: blue 1 tank_1
standing blue: defend 23: line, hold, target tanks
orders:
end
expect valid
"""
ORDERS = ("move 1 tank_4, 2 tank_2 22 -> 23\n"
          "plan 23: wedge, advance, target guns, fire at 5\n")


@pytest.fixture(scope="module")
def game():
    return load_game("taktyczne")


@pytest.fixture(scope="module")
def state(game):
    return build_position(game, parse_cases(POSITION)[0])


def test_the_check_lists_each_board_battle_with_its_forces_and_both_plans(game, state):
    orders = parse_orders(ORDERS + "move 1 tank_1 26 -> 31\n", game)
    battles = planned_board_battles(game, state, orders)
    assert [(b.area, b.board, b.attacker, b.defender) for b in battles] == [
        ("23", "land", "red", "blue"), ("31", "land", "red", "blue")]
    first = battles[0]
    forces, plans = dict(first.forces), dict(first.plans)
    assert sorted(k for _, k in forces[ATTACKER].units) == ["tank_2", "tank_2", "tank_4"]
    assert sorted(k for _, k in forces[DEFENDER].units) == ["at_gun", "tank_3"]
    assert forces[DEFENDER].mines == 2                       # G27: the defender's mines there
    assert plans[ATTACKER] == BattlePlan("wedge", doctrine=Doctrine("advance", "guns_first", 5))
    assert plans[DEFENDER] == BattlePlan("line", doctrine=Doctrine("hold", "tanks_first", 6))
    # the second battle: no plan written for 31, none standing for it: the defaults
    assert dict(battles[1].plans) == {ATTACKER: BattlePlan(), DEFENDER: BattlePlan()}


def test_the_combat_engines_battles_are_not_listed_for_taktyczne(game, state):
    assert planned_battles(game, state, parse_orders(ORDERS, game)) == []


def test_the_odds_are_an_estimate_with_a_run_count_from_the_cpu_budget(game):
    battle = planned_board_battles(game, build_position(game, parse_cases(POSITION)[0]),
                                   parse_orders(ORDERS, game))[0]
    rules = game.tables["board"]
    quick = board_check_odds(rules, battle, budget=0.0)
    assert quick.runs == board_check.MIN_RUNS and quick.method == "monte_carlo"
    assert abs(sum(quick.wins.values()) - 1) < 1e-9
    longer = board_check_odds(rules, battle, budget=3.0)
    assert board_check.MIN_RUNS <= longer.runs <= board_check.MAX_RUNS
    assert longer.runs % board_check.STEP == 0 and longer.runs >= quick.runs
    again = board_check_odds(rules, battle, budget=0.0)
    assert again.wins == quick.wins                          # seeded: the same figures


def test_the_check_text_shows_the_plans_and_labels_the_odds_an_estimate(game, state):
    result = check_orders(game, state, ORDERS)
    assert result.ok and len(result.board_battles) == 1 and result.battles == ()
    text = check_text(game, state, result)
    assert "23 (land board): Red's 1 Tank IV, 2 Tank IIs against Blue's 1 Tank III, " \
           "1 Anti-tank gun and 2 mines" in text
    assert "Red's plan: wedge, advance, target guns_first, fire at 5" in text
    assert "Blue's plan: line, hold, target tanks_first, fire at 6" in text
    assert "An estimate from" in text and "played by the plan interpreter v1" in text
    assert "95% of the time" in text


def test_no_odds_when_the_orders_have_an_error(game, state):
    result = check_orders(game, state, ORDERS + "plan 23: tank IV at G5\n")
    assert not result.ok and result.board_battles == ()
    assert [p.code for p in result.problems if p.severity == "error"] == ["plan_square_row"]


def test_an_attack_unlikely_to_succeed_is_warned(game):
    weak = POSITION.replace("units 22: red 1 tank_4, 2 tank_2", "units 22: red 1 tank_1")
    state = build_position(game, parse_cases(weak)[0])
    result = check_orders(game, state, "move 1 tank_1 22 -> 23\n")
    assert result.board_battles[0].odds.wins[ATTACKER] < 0.5
    assert "warning: the attack on 23 succeeds only about" in check_text(game, state, result)


def test_an_edition_without_a_board_has_no_board_battles():
    game = load_game("aa1941")
    from adjudicator.service.games import initial_state
    assert planned_board_battles(game, initial_state(game, "x"), parse_orders("pass", game)) == []


def test_pbem_check_prints_the_board_battles_on_a_real_game_folder(game, state, tmp_path, capsys,
                                                                    monkeypatch):
    """End to end: a game folder started on the position, ``pbem check ORDERS -g DIR``."""
    from adjudicator.cli import main
    from adjudicator.service import gamedir
    monkeypatch.setenv("COLUMNS", "200")
    directory = tmp_path / "game"
    gamedir.create_game(directory, game, state.game_id, None, "2026-01-01", initial=state)
    orders = tmp_path / "red.txt"
    orders.write_text(ORDERS, encoding="utf-8")
    assert main(["check", str(orders), "-g", str(directory)]) == 0
    out = capsys.readouterr().out
    assert "Board battles these orders start" in out
    assert "Red's plan: wedge, advance, target guns_first, fire at 5" in out
    assert "An estimate from" in out and "OK: orders for Red" in out
    assert main(["check", str(orders), "-g", str(directory), "--no-odds"]) == 0
    assert "Board battles" not in capsys.readouterr().out


def test_pbem_check_json_carries_the_board_battles_as_the_schema_says(game, state, tmp_path, capsys):
    import json

    from adjudicator.cli import main
    from adjudicator.service import gamedir
    from test_cli_ux import validate
    directory = tmp_path / "game"
    gamedir.create_game(directory, game, state.game_id, None, "2026-01-01", initial=state)
    orders = tmp_path / "red.txt"
    orders.write_text(ORDERS, encoding="utf-8")
    assert main(["check", str(orders), "-g", str(directory), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    validate(data, "check")
    assert data["battles"] == [] and len(data["board_battles"]) == 1
    battle = data["board_battles"][0]
    assert battle["forces"]["defender"] == {"units": {"at_gun": 1, "tank_3": 1}, "mines": 2}
    assert battle["plans"]["attacker"] == "wedge, advance, target guns_first, fire at 5"
    odds = battle["odds"]
    assert odds["method"] == "monte_carlo" and odds["runs"] >= 200
    assert abs(odds["wins"]["attacker"] + odds["wins"]["defender"] - 1) < 1e-9
    low, high = odds["intervals"]["attacker"]
    assert low <= odds["wins"]["attacker"] <= high
