"""Global 1940's optional research (engine/research.py, engine/technology.py): the data's
technology tables, the effective unit type per owner, and a researched turn that
replays under ``pbem verify``.  The rules themselves are the cases of
maps/global1940/cases/research.txt."""

from __future__ import annotations

import shutil

import pytest

from adjudicator.engine.technology import effective_type
from adjudicator.engine.working import WorkingBoard
from adjudicator.io.loader import DataError, initial_state, load_game
from adjudicator.io.paths import MAPS_DIR
from cli_helpers import pbem


@pytest.fixture(scope="module")
def g40():
    return load_game("global1940")


def test_a_technology_changes_the_type_for_its_holder_only(g40):
    fighter = g40.ruleset.units["fighter"]
    assert effective_type(fighter, ()) is fighter
    jets = effective_type(fighter, ("jet_fighters",))
    assert (jets.attack, jets.move, jets.cost) == (4, 4, 10)
    both = effective_type(fighter, ("jet_fighters", "long_range_aircraft"))
    assert (both.attack, both.move) == (4, 5)
    assert both.param("escorts_raids", "value") == 2
    assert effective_type(fighter, ("radar",)) is fighter      # nothing for a fighter


def test_the_board_reads_each_owner_s_own_technologies(g40):
    state = initial_state(g40, "t")
    board = WorkingBoard(g40, state)
    board.write_state("technologies", ["super_submarines"], "germany")
    subs = [p for p in board.pieces.values() if p.type == "submarine"]
    german = next(p for p in subs if p.owner == "germany")
    other = next(p for p in subs if p.owner != "germany")
    assert board.utype(german).attack == 3
    assert board.utype(other).attack == 2
    assert board.utype("submarine").attack == 2


def test_an_unknown_technology_field_is_a_data_error(tmp_path):
    folder = tmp_path / "g40"
    shutil.copytree(MAPS_DIR / "global1940", folder)
    units = folder / "units.toml"
    units.write_text(units.read_text(encoding="utf-8").replace(
        "technologies.jet_fighters = {", "technologies.jet_fighters = { speed = 9,", 1),
        encoding="utf-8")
    with pytest.raises(DataError, match="technology 'jet_fighters': unknown field 'speed'"):
        load_game(folder)


def test_a_researched_turn_replays_in_verify(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    game = tmp_path / "game"
    code, out = pbem(capsys, "new", game, "--ruleset", "global1940", "--option", "research=true",
                     "--demo-seeds")
    assert code == 0, out
    orders = tmp_path / "germany.txt"
    orders.write_text("purchase:\nresearch 4 dice, chart 2\nbuy 2 inf\n", encoding="utf-8")
    code, out = pbem(capsys, "process", orders, "-g", game, "--demo-seeds")
    assert code == 0, out
    assert "research dice (4 bought for 20 IPCs)" in out
    code, out = pbem(capsys, "verify", "-g", game)
    assert code == 0, out
    assert "1 turns re-adjudicated" in out


def test_the_report_heading_lists_the_technologies_held(g40):
    import attrs

    from adjudicator.present.report import report_text
    state = initial_state(g40, "t")
    state = attrs.evolve(state, extras={**state.extras,
                                        "technologies": {"germany": ["jet_fighters", "radar"]}})
    assert "Technologies held: Jet Fighters, Radar" in report_text([], g40, state)
    assert "Technologies held" not in report_text([], g40, initial_state(g40, "t"))
