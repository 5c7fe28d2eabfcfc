"""Taktyczne Starcie as a registered edition (issue 26): the commands a game master and the
players use, on real files: a game made for 4 players and one for 2 (option players), its
pregame drawn with the game's dice and verifiable, the rolled order driving round 1, a
turn of the economy checked, processed, shown, reported and verified; and what the loader
refuses."""

from __future__ import annotations

import json

import pytest

from adjudicator.io.loader import load_game as load_folder
from adjudicator.model.errors import DataError
from adjudicator.service import gamedir
from adjudicator.service.games import load_game
from cli_helpers import pbem


def new_game(capsys, tmp_path, *options):
    game = tmp_path / "game"
    args = [a for o in options for a in ("--option", o)]
    code, out = pbem(capsys, "new", game, "--ruleset", "taktyczne", "--demo-seeds", *args)
    assert code == 0, out
    return game


def play(capsys, tmp_path, game, text: str, name: str = "orders.txt") -> str:
    orders = tmp_path / name
    orders.write_text(text, encoding="utf-8")
    code, out = pbem(capsys, "check", orders, "-g", game)
    assert code == 0, out
    code, out = pbem(capsys, "process", orders, "-g", game, "--demo-seeds")
    assert code == 0, out
    return out


def test_a_four_player_game_from_the_draw_to_an_economy_turn(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    game = new_game(capsys, tmp_path)
    start = json.loads((game / "game.json").read_text())["initial_state"]
    assert (start["round"], start["power"], start.get("units", {})) == (0, "red", {})
    play(capsys, tmp_path, game, "pass\n", "pregame.txt")
    state, _ = gamedir.current_state(game)
    order = state.extras["ts_turn_order"]
    capitals = state.extras["ts_capitals"]
    # L19.1-L19.14: every colour plays, each holds the capital drawn, with its factory
    assert sorted(order) == ["blue", "green", "red", "yellow"]
    assert {state.owners[capitals[p]] for p in order} == set(order)
    assert state.extras["ts_objects"] == {capitals[p]: {"factory": 1} for p in order}
    assert (state.round, state.power) == (1, order[0])          # the rolled order plays
    first = order[0]
    out = play(capsys, tmp_path, game, f"recruit 2 tank_2 {capitals[first]}\n"
                                       f"build factory {capitals[first]}\n")
    assert "recruits 2 Tank IIs" in out or "orders valid" in out
    state, _ = gamedir.current_state(game)
    assert (state.round, state.power) == (1, order[1])
    assert state.ipcs[first] == 12 + 1 - 6 - 4                 # income 1, tanks 6, factory 4
    assert state.extras["ts_objects"][capitals[first]] == {"factory": 2}
    code, out = pbem(capsys, "status", "-g", game)
    assert code == 0, out
    code, out = pbem(capsys, "report", "-g", game, 1)
    assert code == 0 and "The draw" in out and "turn order is" in out, out
    code, out = pbem(capsys, "report", "-g", game, 2)
    assert code == 0 and "Units recruited" in out and "Objects built" in out, out
    code, out = pbem(capsys, "show", "-g", game, "--svg", tmp_path / "board.svg")
    assert code == 0 and (tmp_path / "board.svg").read_text().lstrip().startswith("<"), out
    code, out = pbem(capsys, "verify", "-g", game)
    assert code == 0 and "2 turns re-adjudicated" in out, out


def test_a_two_player_game_plays_two_colours(capsys, tmp_path):
    game = new_game(capsys, tmp_path, "players=2")
    play(capsys, tmp_path, game, "pass\n")
    state, _ = gamedir.current_state(game)
    assert sorted(state.extras["ts_turn_order"]) == ["blue", "red"]
    assert sorted(state.ipcs) == ["blue", "red"]
    code, out = pbem(capsys, "verify", "-g", game)
    assert code == 0, out


@pytest.mark.parametrize("players, message", [
    (1, "players must be a whole number from 2 to 4"), (5, "players must be a whole number from 2 to 4"),
    ("many", "players: must be int")])
def test_the_number_of_players_is_two_to_four(players, message):
    with pytest.raises(DataError, match=message):
        load_game("taktyczne", {"players": players})


def test_the_pregame_is_checked_without_dice_and_needs_no_orders(capsys, tmp_path):
    game = new_game(capsys, tmp_path)
    orders = tmp_path / "o.txt"
    orders.write_text("pass\n", encoding="utf-8")
    code, out = pbem(capsys, "check", orders, "-g", game)
    assert code == 0, out


def test_drawn_capitals_are_not_in_the_data(tmp_path):
    """capitals = "drawn": a power naming a capital is refused, as is a folder without it
    whose powers name none."""
    import shutil
    folder = tmp_path / "taktyczne"
    shutil.copytree(load_game("taktyczne").source_dir, folder)
    text = (folder / "game.toml").read_text(encoding="utf-8")
    (folder / "game.toml").write_text(text.replace('side = "red"', 'side = "red"\ncapital = "11"'),
                                      encoding="utf-8")
    with pytest.raises(DataError, match="the capitals are drawn in the game"):
        load_folder(folder)
    (folder / "game.toml").write_text(text.replace('capitals = "drawn"', ""), encoding="utf-8")
    with pytest.raises(DataError, match="missing 'capital'"):
        load_folder(folder)


def test_every_unit_counts_in_the_stack_as_its_cost_table_says():
    """The stack value the engine uses is the cost table's map value (L23.5, L27.12, L27.15)."""
    from adjudicator.engine.taktyczne.stack import unit_value
    game = load_game("taktyczne")
    for key, cost in game.costs.units.items():
        assert unit_value(game, key) == cost.map_value
        assert game.ruleset.units[key].cost == cost.cost
    assert unit_value(game, "ferry") == unit_value(game, "carrier") == 0


def test_dice_keepers_are_refused_for_a_rolled_order_of_play(capsys, tmp_path):
    """Dice keepers follow the data's fixed turn order; the rolled order would put the wrong
    keeper on a turn, so such a game is refused with a reason."""
    code, out = pbem(capsys, "new", tmp_path / "g", "--ruleset", "taktyczne", "--demo-seeds",
                     "--keepers", "opponents")
    assert code != 0 and "decides its order of play in the game" in out, out


def test_the_plan_interpreter_version_is_in_the_rules_hash(tmp_path):
    """board.toml names the plan interpreter (docs/taktyczne-board.md): another version
    changes the rules hash, and this program refuses a board played by another."""
    import shutil

    from adjudicator.engine.tactical import PLAN_INTERPRETER_VERSION
    from adjudicator.io.loader import content_hash
    from adjudicator.io.paths import MAPS_DIR
    from adjudicator.model.errors import DataError
    from adjudicator.service.games import load_game

    folder = tmp_path / "taktyczne"
    shutil.copytree(MAPS_DIR / "taktyczne", folder)
    assert load_game(str(folder)).tables["board"].interpreter == PLAN_INTERPRETER_VERSION
    before = content_hash(folder)
    board = folder / "board.toml"
    text = board.read_text("utf-8")
    board.write_text(text.replace(f"interpreter = {PLAN_INTERPRETER_VERSION}\n",
                                  f"interpreter = {PLAN_INTERPRETER_VERSION + 1}\n", 1), "utf-8")
    assert content_hash(folder) != before
    with pytest.raises(DataError, match=f"plan interpreter {PLAN_INTERPRETER_VERSION + 1}"):
        load_game(str(folder))


def test_the_projected_income_counts_the_objects_in_the_state(capsys, tmp_path):
    """Reports project a power's income from its facilities and the capitals it holds
    (L19.50-L19.53, L27.4), read from the state, as the income step collects it."""
    game = new_game(capsys, tmp_path)
    play(capsys, tmp_path, game, "pass\n", "pregame.txt")
    state, _ = gamedir.current_state(game)
    loaded = load_game("taktyczne")
    capitals = state.extras["ts_capitals"]
    first, second = state.extras["ts_turn_order"][:2]
    assert loaded.projected_income(state.owners, first, state.extras) == 1     # 1 factory x 1
    play(capsys, tmp_path, game, f"build factory {capitals[first]}\n")
    state, _ = gamedir.current_state(game)
    assert loaded.projected_income(state.owners, first, state.extras) == 2     # 2 factories x 1
    owners = dict(state.owners) | {capitals[second]: first}                   # his capital taken
    assert loaded.projected_income(owners, first, state.extras) == 3 * 2      # 3 factories x 2
    assert loaded.projected_income(owners, second, state.extras) == 0         # L19.53
    code, out = pbem(capsys, "report", "-g", game, 2)
    assert code == 0, out
    table = out.split("Income before", 1)[1].splitlines()
    row = next(line for line in table if line.startswith(loaded.ruleset.powers[first].name))
    assert row.split()[1:4] == ["1", "+1", "2"], row           # before, change, now
