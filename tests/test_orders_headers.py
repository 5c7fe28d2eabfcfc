"""Malformed ``turn:``/``game:`` headers are errors at their line (issue 20, item 7):
``pbem check`` reports them and ``pbem process`` publishes nothing, signed or not."""

from __future__ import annotations

import pytest

from adjudicator.io import layout
from adjudicator.service import gamedir
from adjudicator.service.games import load_game
from cli_helpers import pbem
from conftest import EXAMPLE_ORDERS

USSR = EXAMPLE_ORDERS[0].read_text(encoding="utf-8")


@pytest.fixture
def game_dir(tmp_path):
    directory = tmp_path / "game"
    gamedir.create_game(directory, load_game("aa1941"), "headers", created="2026-01-01",
                        seeds=gamedir.demo_seeds("headers"))
    return directory


@pytest.mark.parametrize("header, why", [
    ("turn: 99999999", "the turn header must be a turn number"),
    ("turn: 1x", "the turn header must be a turn number"),
    ("turn: 0x10", "the turn header must be a turn number"),
    ("turn: 0", "the turn header must be a turn number"),
    ("game: two words", "the game header must be the game id"),
])
def test_a_malformed_header_is_an_error_at_its_line(game_dir, tmp_path, capsys, header, why):
    orders = tmp_path / "ussr.txt"
    orders.write_text("power: Soviet Union\n" + header + "\n" + USSR, encoding="utf-8")
    code, out = pbem(capsys, "check", orders, "-g", game_dir)
    assert code != 0, out
    text = " ".join(out.split())
    assert f"line 2, column 6: {why}" in text, out
    code, out = pbem(capsys, "process", orders, "-g", game_dir, "--demo-seeds")
    assert code != 0, out
    assert why in " ".join(out.split()), out
    assert layout.list_turns(game_dir) == []


def test_a_good_header_still_passes(game_dir, tmp_path, capsys):
    orders = tmp_path / "ussr.txt"
    orders.write_text("game: headers\nturn: 1\n" + USSR, encoding="utf-8")
    code, out = pbem(capsys, "check", orders, "-g", game_dir)
    assert code == 0, out
