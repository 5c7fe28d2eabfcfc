"""Every JSON the program reads has a depth bound (issue 20, item 10): a file nested
100,000 deep is bad input with a clear message, never an internal error."""

from __future__ import annotations

import pytest

from adjudicator.io import layout
from adjudicator.io.limits import MAX_JSON_DEPTH
from adjudicator.io.storage import loads_json
from adjudicator.model.errors import StateFileError
from adjudicator.service import gamedir, verified_cache
from adjudicator.service.games import load_game
from adjudicator.service.mail.journal import Journal
from cli_helpers import pbem
from conftest import EXAMPLE_ORDERS

DEEP = b"[" * 100_000 + b"]" * 100_000


def nested(depth: int) -> bytes:
    return b'{"a":' * (depth - 1) + b"[]" + b"}" * (depth - 1)


@pytest.mark.parametrize("data", [DEEP, b'{"x": ' + DEEP + b"}", nested(MAX_JSON_DEPTH + 1)])
def test_too_deep_is_bad_input(data):
    with pytest.raises(StateFileError, match="nested too deeply"):
        loads_json(data, "test.json")


def test_the_bound_itself_is_allowed():
    assert loads_json(nested(MAX_JSON_DEPTH), "test.json")["a"]


def test_a_deep_verified_cache_is_ignored_and_process_goes_on(tmp_path, capsys):
    directory = tmp_path / "game"
    gamedir.create_game(directory, load_game("aa1941"), "deep", created="2026-01-01",
                        seeds=gamedir.demo_seeds("deep"))
    verified_cache.cache_path(directory).write_bytes(DEEP)
    code, out = pbem(capsys, "process", EXAMPLE_ORDERS[0], "-g", directory, "--demo-seeds")
    assert code == 0, out
    assert [n for n, _p, _x in layout.list_turns(directory)] == [1]


def test_a_deep_journal_line_is_a_torn_line(tmp_path):
    (tmp_path / "journal.jsonl").write_bytes(DEEP + b'\n{"key": "k", "outcome": "x", "folder": "f"}\n')
    journal = Journal(tmp_path)
    assert journal.torn == 1 and list(journal.entries) == ["k"]


def test_a_deep_game_file_is_refused_with_a_message(tmp_path, capsys):
    directory = tmp_path / "game"
    gamedir.create_game(directory, load_game("aa1941"), "deep", created="2026-01-01",
                        seeds=gamedir.demo_seeds("deep"))
    (directory / layout.GAME_FILE).write_bytes(b'{"x": ' + DEEP + b"}")
    code, out = pbem(capsys, "verify", "-g", directory)
    assert code not in (0, 3), out
    assert "internal error" not in out
