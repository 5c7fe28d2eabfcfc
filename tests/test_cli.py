"""The ``pbem`` command line end to end, through ``adjudicator.cli.main``.

Every user mistake must end with a message and exit status 1 (orders rejected, audit
failed) or 2 (unusable input) -- never a traceback, never 3 (internal error) -- and a
command that fails must leave the game directory exactly as it was.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator.service import gamedir
from adjudicator.io import layout
from adjudicator.service.games import load_game
from cli_helpers import pbem
from conftest import EXAMPLE_ORDERS, snapshot

USSR, GERMANY = EXAMPLE_ORDERS[0], EXAMPLE_ORDERS[1]


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")     # rich wraps at the terminal width
    monkeypatch.delenv("PBEM_DEBUG", raising=False)


def assert_clean_failure(code, out, expected=(1, 2)):
    assert "Traceback" not in out, out
    assert "internal error" not in out, out
    assert code in expected, (code, out)


@pytest.fixture
def game(tmp_path, capsys) -> Path:
    directory = tmp_path / "game"
    code, out = pbem(capsys, "new", directory, "--demo-seeds")
    assert code == 0, out
    return directory


@pytest.fixture(scope="module")
def played_template(tmp_path_factory) -> Path:
    """A game with the first two example turns processed (copied by ``played``)."""
    directory = tmp_path_factory.mktemp("played") / "game"
    game = load_game("aa1941")
    seeds = gamedir.demo_seeds("game")
    gamedir.create_game(directory, game, "game", created="2026-01-01", seeds=seeds)
    for path in EXAMPLE_ORDERS[:2]:
        gamedir.process_turn(directory, game, path.read_bytes(), seeds=seeds)
    return directory


@pytest.fixture
def played(played_template, tmp_path) -> Path:
    target = tmp_path / "played"
    shutil.copytree(played_template, target)
    return target


def write(path: Path, data: str | bytes) -> Path:
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


def text_of_html(path: Path) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", path.read_text("utf-8"))).split())


# --------------------------------------------------------------------------- happy paths

def test_new_and_show(game, capsys):
    assert (game / "game.json").is_file() and (game / "game.json.sig").is_file()
    assert (game / ".secret" / "next-seed").is_file()
    code, out = pbem(capsys, "show", "-g", game)
    assert code == 0, out
    assert "round 1, Soviet Union to play" in out
    assert "Karelia" in out
    code, out = pbem(capsys, "show", "-g", game, "--power", "Germany")
    assert code == 0 and "Germany" in out


def test_new_refuses_an_existing_game(game, capsys):
    before = snapshot(game)
    code, out = pbem(capsys, "new", game, "--demo-seeds")
    assert_clean_failure(code, out, (2,))
    assert "already exists" in out
    assert snapshot(game) == before


def test_check_valid_orders(game, capsys):
    before = snapshot(game)
    code, out = pbem(capsys, "check", USSR, "-g", game)
    assert code == 0, out
    assert "OK" in out and "Soviet Union" in out
    assert "West Russia" in out                 # the planned battle and its odds
    assert snapshot(game) == before


def test_check_reports_a_misspelt_name_with_line_column_and_suggestion(game, capsys, tmp_path):
    orders = write(tmp_path / "o.txt", "power: USSR\ncombat:\nmove 3 inf Karlia -> West Russia\n")
    before = snapshot(game)
    code, out = pbem(capsys, "check", orders, "-g", game)
    assert_clean_failure(code, out, (1,))
    assert "line 3, column 12" in out
    assert "did you mean 'Karelia'" in out
    assert snapshot(game) == before


def test_check_lists_every_error(game, capsys, tmp_path):
    orders = write(tmp_path / "o.txt", "power: USSR\nbuy 30 tank\ncombat:\n"
                   "move 3 inf Siberia -> West Russia\nmove 1 tank Russia -> Germany\n")
    before = snapshot(game)
    code, out = pbem(capsys, "check", orders, "-g", game)
    assert_clean_failure(code, out, (1,))
    assert "the purchase costs 180 IPCs; Soviet Union has 7" in out
    assert "Siberia is not adjacent to West Russia" in out
    assert "Russia is not adjacent to Germany" in out
    assert f"{orders}:2:" in out and f"{orders}:4:" in out and f"{orders}:5:" in out
    assert "3 error(s)" in out
    assert snapshot(game) == before


def test_check_reads_a_pasted_mail_and_notes_what_it_skipped(game, capsys, tmp_path):
    body = ("Hi all,\n\n" + re.sub(r"(?m)^combat:", "CM:", USSR.read_text(encoding="utf-8"))
            + "\nCheers,\nIvan\n-- \nsent from my phone\n")
    orders = write(tmp_path / "mail.txt", body)
    code, out = pbem(capsys, "check", orders, "-g", game, "--no-odds")
    assert code == 0, out
    assert "line 1: note: greeting ignored: 'Hi all,'" in out
    assert "note: closing ignored: 'Cheers,'" in out and "note: the signature" in out


def test_check_says_once_that_the_orders_are_another_powers(game, capsys, tmp_path):
    orders = write(tmp_path / "german.txt", GERMANY.read_text(encoding="utf-8").replace(
        "power: Germany", ""))
    code, out = pbem(capsys, "check", orders, "-g", game)
    assert_clean_failure(code, out, (1,))
    assert "these look like Germany's orders" in out
    assert "1 error(s)" in out


def test_check_lists_every_syntax_error(game, capsys, tmp_path):
    orders = write(tmp_path / "o.txt", "my orders:\ncombat:\nmove 2 inf Karlia -> Archangel\n"
                   "$$$ garbage\nmove\nbuy 2 infantery\n")
    code, out = pbem(capsys, "check", orders, "-g", game)
    assert_clean_failure(code, out, (1,))
    for line in (3, 5, 6):
        assert f"line {line}, column" in out, line
    assert "did you mean 'Karelia'" in out
    for line in (1, 4):                   # chatter: a note, never an error
        assert f"line {line}: note: ignored: chatter" in out, line
        assert f"line {line}, column" not in out, line
    assert "  3  move 2 inf Karlia -> Archangel  -> not read: see the error below" in out


def test_process_writes_turn_and_report(game, capsys, tmp_path):
    report = tmp_path / "out.html"
    code, out = pbem(capsys, "process", USSR, "-g", game, "--demo-seeds", "--report", report)
    assert code == 0, out
    turn = game / "turns" / "0001-ussr.json"
    assert turn.is_file() and (game / "turns" / "0001-ussr.json.sig").is_file()
    assert (game / "orders" / "0001-ussr.txt").read_bytes() == USSR.read_bytes()
    from adjudicator.io.turnfile import read_turn_file
    from adjudicator.present.report import battle_summaries
    summaries = battle_summaries(read_turn_file(turn)[0].events, load_game("aa1941"))
    assert summaries, "the USSR's first turn fights in West Russia"
    page = text_of_html(report)
    for summary in summaries:
        assert " ".join(summary.split()) in page
        assert summary in out
    assert "Report saved to" in out

    # The same command again: the report exists, so nothing is processed or overwritten.
    before, report_bytes = snapshot(game), report.read_bytes()
    code, out = pbem(capsys, "process", USSR, "-g", game, "--demo-seeds", "--report", report)
    assert_clean_failure(code, out, (2,))
    assert "already exists" in out
    # ... and with a new report path: the USSR has played, so these orders are recognised
    # as done (as after a crash right after publishing) and nothing changes.
    code, out = pbem(capsys, "process", USSR, "-g", game, "--demo-seeds",
                     "--report", tmp_path / "other.html")
    assert code == 0 and "turn 1 (ussr) was already processed with these orders" in out, out
    assert snapshot(game) == before
    # other USSR orders are checked against Germany's turn and rejected
    other = write(tmp_path / "ussr-again.txt", USSR.read_text() + "\n# again\n")
    code, out = pbem(capsys, "process", other, "-g", game, "--demo-seeds")
    assert_clean_failure(code, out, (1,))
    assert "Germany" in out
    assert snapshot(game) == before
    assert report.read_bytes() == report_bytes
    assert not (tmp_path / "other.html").exists()

    # The next power goes on from there; the game still verifies.
    code, out = pbem(capsys, "process", GERMANY, "-g", game, "--demo-seeds")
    assert code == 0, out
    code, out = pbem(capsys, "verify", game)
    assert code == 0, out


def test_report(played, capsys, tmp_path):
    code, out = pbem(capsys, "report", "-g", played)
    assert code == 0, out
    assert "Germany" in out and "West Russia" in out
    code, out = pbem(capsys, "report", "-g", played, "1", "--out", tmp_path / "r1.txt")
    assert code == 0, out
    assert "Soviet Union" in (tmp_path / "r1.txt").read_text("utf-8")
    for bad in (["9"], ["--out", tmp_path / "r.pdf"], ["--out", tmp_path / "nowhere" / "r.html"],
                ["--out", tmp_path / "r1.txt"]):
        code, out = pbem(capsys, "report", "-g", played, *bad)
        assert_clean_failure(code, out, (2,))


def test_report_without_turns(game, capsys):
    code, out = pbem(capsys, "report", "-g", game)
    assert_clean_failure(code, out, (2,))
    assert "no turn has been processed yet" in out


def test_verify_and_tamper(played, capsys):
    code, out = pbem(capsys, "verify", played)
    assert code == 0, out
    assert "OK" in out
    path = played / "turns" / "0001-ussr.json"
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))
    code, out = pbem(capsys, "verify", played)
    assert_clean_failure(code, out, (1,))
    assert "FAILED" in out and "check: signature" in out
    assert "turns/0001-ussr.json.sig" in out


def test_keys_new(tmp_path, capsys):
    key = tmp_path / "gm"
    code, out = pbem(capsys, "keys", "new", key)
    assert code == 0, out
    assert "SHA256:" in out
    assert key.is_file() and (tmp_path / "gm.pub").is_file()
    assert (key.stat().st_mode & 0o777) == 0o600
    assert (tmp_path / "gm.pub").read_text().startswith("ssh-ed25519 ")
    before = snapshot(tmp_path)
    code, out = pbem(capsys, "keys", "new", key)
    assert_clean_failure(code, out, (2,))
    assert "refusing to overwrite" in out
    assert snapshot(tmp_path) == before
    # and the key can run a game
    code, out = pbem(capsys, "new", tmp_path / "g", "--key", key)
    assert code == 0, out
    assert not (tmp_path / "g" / ".secret" / "gm_ed25519").exists()


def test_rules(capsys):
    code, out = pbem(capsys, "rules")
    assert code == 0, out
    assert "Axis & Allies 1941" in out
    assert "sha256:" in out


def test_demo(tmp_path, capsys):
    out_dir = tmp_path / "demo"
    code, out = pbem(capsys, "demo", "--turns", "2", "--out", out_dir)
    assert code == 0, out
    assert sorted(p.name for p in (out_dir / "turns").glob("*.json")) == [
        "0001-ussr.json", "0002-germany.json"]
    assert "OK" in out
    code, out = pbem(capsys, "demo", "--out", out_dir)           # not empty
    assert_clean_failure(code, out, (2,))


# --------------------------------------------------------------------------- bad orders

BAD_ORDERS = {
    # name: (file content or None for a missing file, expected exit status, text in output)
    "garbage": (b"hello world\n$$$ %%%\n\x01\x02\n", 1, "is not allowed in orders"),
    "unknown names": (b"buy 2 panzers\ncombat:\nmove 3 inf Karlia -> Narnia\n", 1, "Karlia"),
    "missing file": (None, 2, "does not exist"),
    "not UTF-8": (b"power: USSR\nbuy 2 inf \xff\xfe\n", 2, "not UTF-8"),
    "wrong power": (b"power: Germany\nbuy 2 inf\n", 1, "Germany"),
    "unknown power": (b"power: Atlantis\n", 1, "Atlantis"),
    "rich markup": (b"move [/bold] [red]x\n", 1, "[/bold]"),
    "binary": (bytes(range(256)), 2, "not UTF-8"),
}


@pytest.mark.parametrize("command", ["check", "process"])
@pytest.mark.parametrize("case", sorted(BAD_ORDERS))
def test_bad_orders_fail_cleanly_and_change_nothing(case, command, game, capsys, tmp_path):
    content, expected, message = BAD_ORDERS[case]
    orders = tmp_path / "orders.txt"
    if content is not None:
        write(orders, content)
    before = snapshot(game)
    code, out = pbem(capsys, command, orders, "-g", game, *(["--demo-seeds"] if command == "process" else []))
    assert_clean_failure(code, out, (expected,))
    assert message in out
    assert snapshot(game) == before


@pytest.mark.parametrize("content", ["", "\n\n   \n# only a comment\n", "\ufeffpower: USSR\n",
                                     "Hi all,\n-- \nIvan\n"])
@pytest.mark.parametrize("command", ["check", "process"])
def test_an_empty_orders_file_is_rejected(content, command, game, capsys, tmp_path):
    orders = write(tmp_path / "empty.txt", content)
    before = snapshot(game)
    code, out = pbem(capsys, command, orders, "-g", game, *(["--demo-seeds"] if command == "process" else []))
    assert_clean_failure(code, out, (1,))
    assert "write 'pass' for a turn without orders" in out
    assert snapshot(game) == before


@pytest.mark.parametrize("content", ["pass\n", "\ufeffpower: USSR\npass # nothing this turn\n",
                                     "Hello GM,\n\nUSSR: pass\n\nCheers,\nIvan\n"])
def test_pass_is_a_legal_turn_without_orders(content, game, capsys, tmp_path):
    orders = write(tmp_path / "empty.txt", content)
    code, out = pbem(capsys, "check", orders, "-g", game)
    assert code == 0 and "OK" in out, out
    code, out = pbem(capsys, "process", orders, "-g", game, "--demo-seeds")
    assert code == 0, out
    state, last = gamedir.current_state(game)
    assert (last, state.power) == (1, "germany")
    assert state.ipcs["ussr"] == 14              # nothing bought, income collected
    code, out = pbem(capsys, "verify", game)
    assert code == 0, out


# --------------------------------------------------------------------------- corrupt games

def _edit_json(path: Path, edit) -> None:
    data = json.loads(path.read_bytes())
    edit(data)
    path.write_text(json.dumps(data), encoding="utf-8")


def _half(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _set(*keys, value):
    def edit(data):
        for k in keys[:-1]:
            data = data[k]
        data[keys[-1]] = value
    return edit


LAST_TURN = "turns/0002-germany.json"
CORRUPTIONS = {
    "truncated turn file": lambda d: _half(d / LAST_TURN),
    "truncated game.json": lambda d: _half(d / "game.json"),
    "empty game.json": lambda d: (d / "game.json").write_bytes(b""),
    "invalid JSON": lambda d: (d / LAST_TURN).write_bytes(b'{"state": [1, 2,'),
    "JSON array": lambda d: (d / LAST_TURN).write_bytes(b"[]"),
    "not UTF-8": lambda d: (d / "game.json").write_bytes(b'{"game_id": "\xff"}'),
    "round is a string": lambda d: _edit_json(d / LAST_TURN, _set("state", "round", value="two")),
    "ipcs is a list": lambda d: _edit_json(d / LAST_TURN, _set("state", "ipcs", value=[1, 2])),
    "units is a string": lambda d: _edit_json(d / LAST_TURN, _set("state", "units", value="x")),
    "count is negative": lambda d: _edit_json(
        d / LAST_TURN, _set("state", "units", "Germany", 0, "count", value=-3)),
    "initial state missing": lambda d: _edit_json(
        d / "game.json", lambda g: g.pop("initial_state")),
    "unknown unit owner": lambda d: _edit_json(
        d / LAST_TURN, _set("state", "units", "Germany", 0, "owner", value="atlantis")),
    "unknown unit type": lambda d: _edit_json(
        d / LAST_TURN, _set("state", "units", "Germany", 0, "type", value="dragon")),
    "unknown territory owner": lambda d: _edit_json(
        d / LAST_TURN, _set("state", "owners", "Karelia", value="atlantis")),
    "unknown territory": lambda d: _edit_json(
        d / LAST_TURN, _set("state", "owners", "Narnia", value="ussr")),
    "unknown power to play": lambda d: _edit_json(
        d / LAST_TURN, _set("state", "power", value="atlantis")),
    "game.json is a directory": lambda d: ((d / "game.json").unlink(), (d / "game.json").mkdir()),
}


def _command(name: str, directory: Path, orders: Path) -> list:
    return {"show": ["show", "-g", directory],
            "check": ["check", orders, "-g", directory],
            "process": ["process", orders, "-g", directory, "--demo-seeds"],
            "report": ["report", "-g", directory],
            "verify": ["verify", directory]}[name]


@pytest.mark.parametrize("corruption", sorted(CORRUPTIONS))
def test_corrupt_game_fails_cleanly(corruption, played, capsys, tmp_path):
    CORRUPTIONS[corruption](played)
    orders = write(tmp_path / "empty.txt", "")
    before = snapshot(played)
    for name in ("show", "check", "process", "report", "verify"):
        code, out = pbem(capsys, *_command(name, played, orders))
        assert_clean_failure(code, out)
        assert snapshot(played) == before, name


@pytest.mark.parametrize("name", ["show", "check", "process", "report", "verify"])
def test_missing_game_directory(name, tmp_path, capsys):
    orders = write(tmp_path / "empty.txt", "")
    code, out = pbem(capsys, *_command(name, tmp_path / "nowhere", orders))
    assert_clean_failure(code, out)
    assert "nowhere" in out
    assert not (tmp_path / "nowhere").exists()


def test_missing_secret_seed(game, capsys, tmp_path):
    (game / ".secret" / "next-seed").unlink()
    before = snapshot(game)
    code, out = pbem(capsys, "process", USSR, "-g", game, "--demo-seeds")
    assert_clean_failure(code, out, (2,))
    assert "secret seed" in out
    assert snapshot(game) == before


def _disk_full_for_json(monkeypatch):
    """Make renaming a .json file into place fail as on a full disk; returns the real
    ``commit_temp`` so a test can restore it."""
    real_commit = gamedir.commit_temp

    def failing_commit(tmp, path, overwrite=False):
        if Path(path).suffix == ".json":
            raise OSError(28, "No space left on device", str(path))
        return real_commit(tmp, path, overwrite=overwrite)

    monkeypatch.setattr(gamedir, "commit_temp", failing_commit)
    return real_commit


def test_interrupted_process_leaves_no_turn(game, capsys, monkeypatch):
    """A failure while the files are being renamed into place: no turn file appears, no
    temporary file is left behind, the position is unchanged, and the next run works."""
    real_commit = _disk_full_for_json(monkeypatch)
    seed_before = (game / ".secret" / "next-seed").read_bytes()
    code, out = pbem(capsys, "process", USSR, "-g", game, "--demo-seeds")
    assert_clean_failure(code, out, (2,))
    assert "No space left on device" in out
    assert layout.list_turns(game) == []
    assert [p.name for p in game.rglob("*.tmp")] == []
    assert (game / ".secret" / "next-seed").read_bytes() == seed_before
    assert gamedir.current_state(game)[1] == 0

    monkeypatch.setattr(gamedir, "commit_temp", real_commit)
    code, out = pbem(capsys, "process", USSR, "-g", game, "--demo-seeds")
    assert code == 0, out
    code, out = pbem(capsys, "verify", game)
    assert code == 0, out


def test_interrupted_process_leaves_the_directory_unchanged(game, capsys, monkeypatch):
    _disk_full_for_json(monkeypatch)
    before = snapshot(game)
    code, out = pbem(capsys, "process", USSR, "-g", game, "--demo-seeds")
    assert_clean_failure(code, out, (2,))
    assert snapshot(game) == before


# --------------------------------------------------------------------------- a real process

def _pbem_command() -> list[str]:
    """The installed ``pbem`` on PATH, else the package run as ``python -m adjudicator``."""
    exe = shutil.which("pbem")
    return [exe] if exe else [sys.executable, "-m", "adjudicator"]


def test_installed_command(tmp_path):
    env = {**os.environ, "COLUMNS": "200"}
    env.pop("PBEM_DEBUG", None)
    game = tmp_path / "g"
    run = lambda *args: subprocess.run([*_pbem_command(), *map(str, args)], env=env,  # noqa: E731
                                       capture_output=True, text=True, timeout=60)
    result = run("new", game, "--demo-seeds")
    assert result.returncode == 0, result.stderr
    bad = write(tmp_path / "bad.txt", "power: USSR\ncombat:\nmove 3 inf Karlia -> West Russia\n")
    result = run("check", bad, "-g", game)
    assert result.returncode == 1
    assert "Traceback" not in result.stdout + result.stderr
    assert "did you mean 'Karelia'" in result.stdout + result.stderr
    result = run("--help")
    assert result.returncode == 0 and "verify" in result.stdout
    result = run("frobnicate")
    assert result.returncode == 2 and "Traceback" not in result.stderr


def test_command_fallback_without_pbem_on_path(monkeypatch):
    """No ``pbem`` on PATH (a venv that is not activated): the fallback command still runs."""
    monkeypatch.setenv("PATH", "/nonexistent")
    command = _pbem_command()
    assert command == [sys.executable, "-m", "adjudicator"]
    result = subprocess.run([*command, "--version"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[-1][0].isdigit()


# --------------------------------------------------------------------------- pbem odds

def test_odds_one_infantry_each_closed_form(capsys):
    # Per round: attacker hits 1/6, defender 2/6.  P(A only) = 4/36, P(both) = 2/36,
    # P(D only) = 10/36, P(neither) = 20/36, so the battle ends 25% / 12.5% / 62.5%.
    code, out = pbem(capsys, "odds", "1 inf", "vs", "1 inf")
    assert code == 0, out
    rows = {line.split("│")[1].strip(): line.split("│")[2].strip()
            for line in out.splitlines() if line.count("│") >= 3}
    assert rows["Attacker wins"] == "25.0%"
    assert rows["Both destroyed"] == "12.5%"
    assert rows["Defender wins"] == "62.5%"


def test_odds_with_retreat_amphibious_and_loss_orders(capsys):
    code, out = pbem(capsys, "odds", "1 tank", "vs", "3 inf", "--from-sea", "2 inf, 1 tank",
                     "--retreat", "attackers < 2", "--attacker-losses", "inf, tank",
                     "--monte-carlo", "500")
    assert code == 0, out
    assert "Attacker retreats" in out and "Monte Carlo" in out


def test_odds_numbers_every_unit_apart_however_many(capsys):
    # 600 attackers used to share uids with the units from the sea (numbered from 500):
    # a sea-borne casualty then removed a survivor too.  Every unit has its own uid now.
    code, out = pbem(capsys, "odds", "600 inf", "vs", "1 inf", "--from-sea", "2 inf",
                     "--monte-carlo", "50", "--json")
    assert code == 0, out
    found = json.loads(out)
    assert found["monte_carlo"]["captured"] == 1.0
    assert {tuple(s["units"].items()) for s in found["monte_carlo"]["attacker_survivors"]} <= {
        (("infantry", 602),), (("infantry", 601),)}


def test_odds_low_luck_and_max_error(capsys):
    # Low Luck: 2 tanks (6 points) always hit once; 3 infantry (6 points) too, so after
    # round 1 it is 1 tank vs 2 infantry (tests/test_low_luck.py derives 10% / 5% / 85%).
    code, out = pbem(capsys, "odds", "2 tank", "vs", "3 inf", "--low-luck")
    assert code == 0, out
    rows = {line.split("│")[1].strip(): line.split("│")[2].strip()
            for line in out.splitlines() if line.count("│") >= 3}
    assert (rows["Attacker wins"], rows["Both destroyed"], rows["Defender wins"]) == (
        "10.0%", "5.0%", "85.0%")
    assert "Low Luck" in out and "Exact" in out
    code, out = pbem(capsys, "odds", "20 inf, 10 tank", "vs", "25 inf, 5 tank", "--max-error", "1e-3")
    assert code == 0, out
    assert "approximate" in out and "Approximate (--max-error 0.001)" in " ".join(out.split())
    code, out = pbem(capsys, "odds", "1 inf", "vs", "1 inf", "--max-error", "2")
    assert code != 0 and "between 0 and 1" in out


def test_new_game_with_low_luck(tmp_path, capsys):
    code, out = pbem(capsys, "new", tmp_path / "ll", "--option", "low_luck=true", "--demo-seeds")
    assert code == 0, out
    assert json.loads((tmp_path / "ll" / "game.json").read_text())["options"]["low_luck"] is True
    code, out = pbem(capsys, "new", tmp_path / "bad", "--option", "low_lock=true")
    assert_clean_failure(code, out)
    assert "has no option 'low_lock'" in out and "low_luck (default false)" in out


def test_odds_bad_input_is_a_message(capsys):
    for args in (("1 infantery", "vs", "1 inf"), ("1 inf", "vs", "1 inf", "--retreat", "whenever"),
                 ("1 bb", "vs", "1 dd", "--sea", "--from-sea", "1 inf")):
        code, out = pbem(capsys, "odds", *args)
        assert_clean_failure(code, out)


def test_process_refuses_to_extend_a_game_whose_published_dice_were_changed(game, capsys):
    # Verify before writing: a die changed (and re-signed by a dishonest game master) in
    # turn 1 is caught before turn 2 is adjudicated, and nothing is written.
    from adjudicator.io import keys, sshsig
    from adjudicator.io.codec import canonical_json
    code, out = pbem(capsys, "process", USSR, "-g", game, "--demo-seeds")
    assert code == 0, out
    path = game / "turns" / "0001-ussr.json"
    doc = json.loads(path.read_bytes())
    faces = doc["dice"][0]["faces"]
    faces[0] = 1 if faces[0] != 1 else 2
    path.write_bytes(canonical_json(doc))
    gm = keys.load_private_key(game / ".secret" / "gm_ed25519")
    layout.sig_path(path).write_text(sshsig.sign(path.read_bytes(), gm, "pbem-turn"))
    before = snapshot(game)
    code, out = pbem(capsys, "process", GERMANY, "-g", game, "--demo-seeds")
    assert_clean_failure(code, out, (2,))
    assert "dice check" in out
    assert snapshot(game) == before


def test_demo_seeds_are_refused_for_a_game_with_secret_seeds(tmp_path, capsys):
    directory = tmp_path / "real"
    code, out = pbem(capsys, "new", directory)
    assert code == 0, out
    before = snapshot(directory)
    code, out = pbem(capsys, "process", USSR, "-g", directory, "--demo-seeds")
    assert_clean_failure(code, out, (2,))
    assert "seeds are secret" in out
    assert snapshot(directory) == before
