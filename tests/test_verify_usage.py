"""``pbem verify`` never cries wolf: a path that is not a game, or a private key given as
the expected game master key, is a usage error (exit 2) saying so -- not a "FAILED" audit,
which players read as evidence of cheating.  ``-g`` works as for every other command."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from adjudicator.io import keys
from adjudicator.io.paths import EXAMPLE_DIR
from cli_helpers import pbem

PUBLISHED = EXAMPLE_DIR / "game"


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.delenv("PBEM_DEBUG", raising=False)


@pytest.fixture
def game(tmp_path, capsys) -> Path:
    directory = tmp_path / "game"
    code, out = pbem(capsys, "new", directory, "--demo-seeds")
    assert code == 0, out
    return directory


def assert_usage_error(code, out, *words):
    assert code == 2, (code, out)
    assert "FAILED" not in out and "Traceback" not in out, out
    for word in words:
        assert word in out, (word, out)


def test_verify_takes_g_like_every_command_and_the_positional(capsys):
    for args in (["-g", PUBLISHED], [PUBLISHED], ["--game", PUBLISHED], [PUBLISHED, "-g", PUBLISHED]):
        code, out = pbem(capsys, "verify", *args)
        assert code == 0 and "OK" in out, (args, out)


def test_verify_defaults_to_the_current_directory(capsys, monkeypatch):
    monkeypatch.chdir(PUBLISHED)
    code, out = pbem(capsys, "verify")
    assert code == 0 and "OK" in out, out


def test_two_different_games_is_a_usage_error(game, capsys):
    code, out = pbem(capsys, "verify", game, "-g", PUBLISHED)
    assert_usage_error(code, out, "give one")


@pytest.mark.parametrize("where", ["empty", "missing", "file", "unrelated"])
def test_a_path_that_is_not_a_game(where, tmp_path, capsys):
    path = {"empty": tmp_path, "missing": tmp_path / "nowhere",
            "file": EXAMPLE_DIR / "orders" / "01-ussr.txt", "unrelated": EXAMPLE_DIR}[where]
    for args in ([path], ["-g", path]):
        code, out = pbem(capsys, "verify", *args)
        assert_usage_error(code, out, str(path))


def test_a_game_that_lost_its_game_file_still_fails_the_audit(tmp_path, capsys):
    """Published turns without game.json are a damaged game, not a wrong path."""
    copy = tmp_path / "game"
    shutil.copytree(PUBLISHED, copy)
    (copy / "game.json").unlink()
    code, out = pbem(capsys, "verify", "-g", copy)
    assert code == 1 and "FAILED" in out and "game file is missing" in out, out


def test_private_key_as_expected_gm_key(game, capsys):
    private = game / ".secret" / "gm_ed25519"
    code, out = pbem(capsys, "verify", "-g", game, "--gm-key", private)
    assert_usage_error(code, out, "is a private key, not a public key", ".pub")
    code, out = pbem(capsys, "verify", "-g", game, "--gm-key", game / "no-such.pub")
    assert_usage_error(code, out, "not found")
    code, out = pbem(capsys, "verify", "-g", game, "--gm-key", private.with_name("gm_ed25519.pub"))
    assert code == 0, out


def test_a_different_gm_key_is_still_a_failed_audit(game, capsys, tmp_path):
    """Being signed by someone else is what the audit is for: exit 1, FAILED."""
    other = tmp_path / "other"
    keys.new_keypair(other)
    code, out = pbem(capsys, "verify", "-g", game, "--gm-key", other.with_name("other.pub"))
    assert code == 1 and "FAILED" in out and "gm_key" in out, out
