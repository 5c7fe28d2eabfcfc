"""The command line never cries wolf and always says what to do next, end to end:
exit statuses, orders from stdin, ``--json`` (checked against docs/json-schema), colours,
shell completion, progress bars, what ``pbem new``/``process`` say, ``pbem odds`` reading
units as orders do, ``--warn-below``, the check table, ``pbem new --option`` and the HTML
report on a phone (photographed by a real headless chromium)."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

import helpers

from adjudicator.cli import main
from adjudicator.io import layout
from adjudicator.service import gamedir
from adjudicator.service.games import load_game
from cli_helpers import pbem
from conftest import EXAMPLE_ORDERS, ROOT, snapshot

USSR, GERMANY = EXAMPLE_ORDERS[0], EXAMPLE_ORDERS[1]
SCHEMAS = ROOT / "docs" / "json-schema"


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    for name in ("PBEM_DEBUG", "NO_COLOR", "FORCE_COLOR", "PBEM_PROGRESS_DELAY"):
        monkeypatch.delenv(name, raising=False)


def pbem_json(capsys, *args) -> tuple[int, dict, str]:
    """``pbem ARGS`` in-process: (exit status, the JSON on stdout, stderr)."""
    try:
        code = main([str(a) for a in args])
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    return code, json.loads(out.out), out.err


def stdin_of(monkeypatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


def run_pbem(*args, env=None, stdin=None, **kwargs) -> subprocess.CompletedProcess:
    """``pbem ARGS`` as a separate process (``python -m adjudicator``)."""
    full_env = {**os.environ, "COLUMNS": "200", **(env or {})}
    return subprocess.run([sys.executable, "-m", "adjudicator", *map(str, args)], input=stdin,
                          capture_output=True, env=full_env, timeout=300, **kwargs)


@pytest.fixture(scope="module")
def turn_one(tmp_path_factory) -> Path:
    """A game (Germany with a key and an address, the USSR with an address) after the
    USSR's first turn: Germany to move."""
    base = tmp_path_factory.mktemp("ux")
    from adjudicator.io import keys
    keys.new_keypair(base / "hans", "hans@pbem-test")
    directory = base / "game"
    assert main(["new", str(directory), "--demo-seeds", "--unsigned-orders", "--player",
                 f"germany={base / 'hans.pub'},email=hans@example.org,name=Hans",
                 "--email", "ussr=ivan@example.org"]) == 0
    game = load_game("aa1941")
    gamedir.process_turn(directory, game, USSR.read_bytes(), seeds=gamedir.demo_seeds("game"))
    return directory


@pytest.fixture
def game(turn_one, tmp_path) -> Path:
    target = tmp_path / "game"
    shutil.copytree(turn_one, target)
    return target


@pytest.fixture
def fresh(tmp_path, capsys) -> Path:
    directory = tmp_path / "fresh"
    code, out = pbem(capsys, "new", directory, "--demo-seeds")
    assert code == 0, out
    return directory


def germany_orders(tmp_path) -> Path:
    """Germany's example orders with the header lines its key requires (unsigned: check
    reports the missing signature only at process time)."""
    path = tmp_path / "germany.txt"
    path.write_text("game: game\nturn: 2\n" + GERMANY.read_text(encoding="utf-8"), encoding="utf-8")
    return path


# --------------------------------------------------------------------------- JSON schemas

def validate(data: dict, name: str) -> None:
    """``data`` against docs/json-schema/NAME.schema.json (with common.schema.json)."""
    jsonschema = pytest.importorskip("jsonschema")
    from referencing import Registry, Resource
    resources = [(f"pbem/{p.name}", Resource.from_contents(json.loads(p.read_text("utf-8"))))
                 for p in SCHEMAS.glob("*.schema.json")]
    registry = Registry().with_resources(resources)
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator(schema, registry=registry).validate(data)


def validate_error(data: dict, command: str, status: int) -> None:
    error = {"$ref": "pbem/common.schema.json#/$defs/error"}
    jsonschema = pytest.importorskip("jsonschema")
    from referencing import Registry, Resource
    registry = Registry().with_resources(
        [(f"pbem/{p.name}", Resource.from_contents(json.loads(p.read_text("utf-8"))))
         for p in SCHEMAS.glob("*.schema.json")])
    jsonschema.Draft202012Validator(error, registry=registry).validate(data)
    assert data["command"] == command and data["error"]["exit_status"] == status


def test_every_schema_is_a_valid_json_schema():
    jsonschema = pytest.importorskip("jsonschema")
    names = sorted(p.name for p in SCHEMAS.glob("*.schema.json"))
    assert names == ["check.schema.json", "common.schema.json", "odds.schema.json",
                     "show.schema.json", "verify.schema.json"]
    for name in names:
        jsonschema.Draft202012Validator.check_schema(json.loads((SCHEMAS / name).read_text("utf-8")))


# --------------------------------------------------------------------------- exit statuses

def _bad_orders(tmp_path) -> Path:
    path = tmp_path / "bad.txt"
    path.write_text(GERMANY.read_text(encoding="utf-8").replace("Karelia", "Karlia"), "utf-8")
    return path


def _bad_ussr(tmp_path) -> Path:
    path = tmp_path / "bad-ussr.txt"
    path.write_text(USSR.read_text(encoding="utf-8").replace("Karelia ->", "Karlia ->"), "utf-8")
    return path


@pytest.mark.parametrize("case, expected", [
    ("rules", 0), ("odds", 0), ("show", 0), ("verify", 0), ("completion", 0),
    ("unknown command", 2), ("unknown option", 2), ("missing orders file", 2),
    ("odds units", 2), ("odds retreat", 2), ("warn-below fraction", 2), ("bad option", 2),
    ("not a game", 2), ("show nowhere", 2), ("stdin not utf-8", 2),
    ("check rejected", 1), ("process rejected", 1), ("verify tampered", 1),
])
def test_exit_status(case, expected, game, fresh, tmp_path, capsys, monkeypatch):
    commands = {
        "rules": ["rules"],
        "odds": ["odds", "1 inf", "vs", "1 inf"],
        "show": ["show", "-g", game],
        "verify": ["verify", "-g", game],
        "completion": ["completion", "bash"],
        "unknown command": ["frobnicate"],
        "unknown option": ["check", "x.txt", "--frobnicate"],
        "missing orders file": ["check", tmp_path / "nothing.txt", "-g", game],
        "odds units": ["odds", "1 tnak", "vs", "1 inf"],
        "odds retreat": ["odds", "1 inf", "vs", "1 inf", "--retreat", "whenever"],
        "warn-below fraction": ["check", GERMANY, "-g", game, "--warn-below", "0.5"],
        "bad option": ["new", tmp_path / "n", "--option", "bogus=1"],
        "not a game": ["verify", "-g", tmp_path],
        "show nowhere": ["show", "-g", tmp_path / "nowhere"],
        "stdin not utf-8": ["check", "-", "-g", game],
        "check rejected": ["check", _bad_orders(tmp_path), "-g", game],
        "process rejected": ["process", _bad_ussr(tmp_path), "-g", fresh],
        "verify tampered": ["verify", "-g", game],
    }
    if case == "stdin not utf-8":
        stdin_of(monkeypatch, b"power: Germany\n\xff\xfe\n")
    if case == "verify tampered":
        turn = layout.list_turns(game)[0][2]
        turn.write_bytes(turn.read_bytes().replace(b'"round": 1', b'"round": 2', 1))
    before = snapshot(game), snapshot(fresh)
    code, out = pbem(capsys, *commands[case])
    assert code == expected, (case, out)
    assert "Traceback" not in out and "internal error" not in out
    if case != "verify tampered":
        assert (snapshot(game), snapshot(fresh)) == before    # a failing command changes nothing
    if expected == 2 and case not in ("unknown command", "unknown option"):
        assert "error:" in out


def test_a_bug_is_exit_status_3_with_a_plain_message(capsys, monkeypatch):
    from adjudicator.cli import rules_command

    def broken(args, console):
        raise ZeroDivisionError("division by zero")
    monkeypatch.setattr(rules_command, "cmd_rules", broken)
    code, out = pbem(capsys, "rules")
    assert code == 3
    assert "internal error" in out and "This is a bug in pbem" in out and "Traceback" not in out


def test_exit_statuses_are_the_documented_ones():
    from adjudicator.cli import common
    doc = (ROOT / "docs" / "cli.md").read_text("utf-8")
    for status in (common.EXIT_OK, common.EXIT_REJECTED, common.EXIT_INPUT, common.EXIT_INTERNAL,
                   common.EXIT_INTERRUPTED):
        assert re.search(rf"^\| {status} \|", doc, re.M), status


# --------------------------------------------------------------------------- stdin

def test_check_and_process_read_orders_from_stdin(game, tmp_path, capsys, monkeypatch):
    orders = germany_orders(tmp_path)
    stdin_of(monkeypatch, orders.read_bytes())
    code, out = pbem(capsys, "check", "-", "-g", game)
    assert code == 0, out
    assert "OK: orders for Germany" in out
    bad = _bad_orders(tmp_path)
    stdin_of(monkeypatch, bad.read_bytes())
    code, out = pbem(capsys, "check", "-", "-g", game)
    assert code == 1 and "stdin: error:" in out and "Karlia" in out
    # process: Germany's key makes a signature necessary, so use a game without keys
    fresh = tmp_path / "plain"
    assert pbem(capsys, "new", fresh, "--demo-seeds")[0] == 0
    stdin_of(monkeypatch, USSR.read_bytes())
    code, out = pbem(capsys, "process", "-", "-g", fresh, "--demo-seeds")
    assert code == 0, out
    assert (fresh / "orders" / "0001-ussr.txt").read_bytes() == USSR.read_bytes()


def test_stdin_over_the_limit_is_refused(fresh, capsys, monkeypatch):
    from adjudicator.io.orders_text import MAX_ORDERS_BYTES
    stdin_of(monkeypatch, b"# " + b"x" * MAX_ORDERS_BYTES + b"\n")
    code, out = pbem(capsys, "check", "-", "-g", fresh)
    assert code == 2 and "standard input" in out and str(MAX_ORDERS_BYTES) in out


def test_stdin_through_a_real_pipe(fresh):
    done = run_pbem("check", "-", "-g", fresh, "--no-odds", stdin=USSR.read_bytes())
    assert done.returncode == 0, done.stderr
    assert b"OK: orders for Soviet Union" in done.stdout


def test_mail_send_reads_orders_from_stdin(tmp_path, capsys, monkeypatch):
    from mail_helpers import make_game, write_mail_toml
    import email
    import email.policy
    gm = tmp_path / "gm"
    make_game(gm, "stdin-game")
    write_mail_toml(gm, 'address = "ivan@example.org"\ngame_master = "gm@example.org"\n')
    stdin_of(monkeypatch, USSR.read_bytes())
    out = tmp_path / "orders.eml"
    code, text = pbem(capsys, "mail", "send", "-", "-g", gm, "--eml", out)
    assert code == 0, text
    msg = email.message_from_bytes(out.read_bytes(), policy=email.policy.default)
    attached = {p.get_filename(): p.get_content() for p in msg.iter_attachments()}
    assert "move 3 inf Karelia -> West Russia" in attached["0001-ussr.txt"]


# --------------------------------------------------------------------------- --json

def test_show_json(game, capsys):
    code, data, _ = pbem_json(capsys, "show", "-g", game, "--json")
    assert code == 0
    validate(data, "show")
    state, _ = gamedir.current_state(game)
    game_def = load_game("aa1941")
    assert data["to_move"] == state.power == "germany" and data["to_move_name"] == "Germany"
    assert data["turn_number"] == state.turn_number == 2
    assert [p["key"] for p in data["powers"]] == list(game_def.ruleset.turn_order)
    for p in data["powers"]:
        assert p["ipcs"] == state.ipcs[p["key"]]
        assert p["territories"] == sum(o == p["key"] for o in state.owners.values())
    assert data["state"]["owners"] == state.owners
    counted = sum(g.get("count", 1) + sum(c.get("count", 1) for c in g.get("cargo", []))
                  for groups in data["state"]["units"].values() for g in groups)
    assert counted == sum(state.unit_counts(include_cargo=True).values())
    code, out = pbem(capsys, "show", "-g", game, "--json", "--svg", Path(game) / "b.svg")
    assert code == 2 and not (Path(game) / "b.svg").exists()


def test_check_json_problems_have_codes_and_parameters(game, tmp_path, capsys):
    from adjudicator.service.checking import check_orders
    orders = tmp_path / "o.txt"
    orders.write_text("Hi all,\n\ncombat:\nmove 2 inf Germany -> Karelia\n"
                      "move 1 tnak Germany -> Eastern Europe\n", "utf-8")
    code, data, _ = pbem_json(capsys, "check", orders, "-g", game, "--json")
    assert code == 1
    validate(data, "check")
    state, _ = gamedir.current_state(game)
    expected = check_orders(load_game("aa1941"), state, orders.read_text("utf-8"), odds=False)
    rules = [p for p in data["problems"] if p["kind"] == "rules"]
    assert [(p["code"], p["line"]) for p in rules] == [(p.code, p.line or None)
                                                      for p in expected.problems]
    adjacency = next(p for p in rules if p["code"] == "not_adjacent")
    assert {adjacency["params"]["a"], adjacency["params"]["b"]} == {"Germany", "Karelia"}
    syntax = [p for p in data["problems"] if p["kind"] == "syntax"]
    assert [(p["line"], p["column"], p["suggestion"]) for p in syntax] == [(5, 8, "Tank")]
    # Germany's key: signed orders must name the game and the turn
    header = [p for p in data["problems"] if p["kind"] == "header"]
    assert [p["code"] for p in header] == ["orders_header"]
    assert data["notes"][0]["line"] == 1 and "greeting" in data["notes"][0]["message"]
    assert data["ok"] is False and data["error_count"] == len(syntax) + len(header) + sum(
        p["severity"] == "error" for p in rules)
    assert data["battles"] == []                  # no odds for orders that are rejected


def test_check_json_battles_and_warnings(game, tmp_path, capsys):
    code, data, _ = pbem_json(capsys, "check", germany_orders(tmp_path), "-g", game, "--json",
                              "--warn-below", "45%")
    assert code == 0 and data["ok"] and data["warn_below"] == 0.45
    validate(data, "check")
    assert {b["space"] for b in data["battles"]} == {"West Russia", "Anglo-Egypt Sudan",
                                                     "Sea Zone 10"}
    for b in data["battles"]:
        outcomes = b["odds"]["outcomes"]
        assert sum(outcomes.values()) == pytest.approx(1.0, abs=1e-9)
        assert b["success"] == outcomes["success"]
        assert b["warning"] == (b["success"] < 0.45)
        odds = b["odds"]
        assert odds["attacker_wins"] + odds["defender_wins"] + odds["both_destroyed"] + \
            odds["attacker_retreats"] + odds["stalemate"] == pytest.approx(1.0, abs=1e-9)


def test_odds_json_one_infantry_each_closed_form(capsys):
    # Per round: attacker hits 1/6, defender 2/6; the battle ends 25% / 12.5% / 62.5%.
    code, data, _ = pbem_json(capsys, "odds", "1 inf", "vs", "1 inf", "--json",
                              "--monte-carlo", "300")
    assert code == 0
    validate(data, "odds")
    exact = data["exact"]
    assert exact["attacker_wins"] == pytest.approx(0.25)
    assert exact["both_destroyed"] == pytest.approx(0.125)
    assert exact["defender_wins"] == pytest.approx(0.625)
    assert exact["captured"] == pytest.approx(0.25)
    assert exact["outcomes"] == pytest.approx({"success": 0.25, "held": 0.625, "retreat": 0.0,
                                               "neither": 0.125})
    assert exact["attacker_survivors"][0] == {"units": {}, "probability": pytest.approx(0.75)}
    assert data["monte_carlo"]["runs"] == 300
    assert abs(data["monte_carlo"]["attacker_wins"] - 0.25) < 5 * data["monte_carlo"]["stderr"]["attacker_wins"] + 1e-9
    low, high = data["monte_carlo"]["intervals"]["attacker_wins"]       # its Wilson interval
    assert low < data["monte_carlo"]["attacker_wins"] < high and low <= 0.25 <= high
    assert set(data["monte_carlo"]["intervals"]) == {"attacker_wins", "defender_wins", "both_destroyed",
                                                     "attacker_retreats", "stalemate", "captured"}


def test_verify_json(game, capsys, tmp_path):
    from adjudicator.service.audit import verify_game
    code, data, _ = pbem_json(capsys, "verify", "-g", game, "--json",
                              "--record", tmp_path / "mine.txt")
    assert code == 0
    validate(data, "verify")
    report = verify_game(game, load_game)
    assert data["ok"] and data["audit_ok"] and data["failure"] is None
    assert data["turns_checked"] == report.turns_checked == 1
    assert data["dice_checked"] == report.dice_checked
    assert [(f["path"], f["digest"]) for f in data["verified_files"]] == report.verified_files
    assert data["recorded"] == len(report.verified_files)
    # tampered: exit 1, the failure with its check
    turn = layout.list_turns(game)[0][2]
    turn.write_bytes(turn.read_bytes().replace(b'"round": 1', b'"round": 2', 1))
    code, data, _ = pbem_json(capsys, "verify", "-g", game, "--json", "--known", tmp_path / "mine.txt")
    assert code == 1 and not data["ok"] and not data["audit_ok"]
    validate(data, "verify")
    assert data["failure"]["check"] == "signature"
    assert data["failure"]["file"] == "turns/0001-ussr.json.sig"
    assert data["known"]["files_recorded"] == 2


@pytest.mark.parametrize("args, command, status", [
    (["verify", "-g", "{tmp}", "--json"], "verify", 2),
    (["check", "{tmp}/none.txt", "-g", "{game}", "--json"], "check", 2),
    (["odds", "1 tnak", "vs", "1 inf", "--json"], "odds", 2),
    (["show", "-g", "{tmp}/nowhere", "--json"], "show", 2),
])
def test_json_failures_are_json_too(args, command, status, game, tmp_path, capsys):
    args = [a.format(tmp=tmp_path, game=game) for a in args]
    code, data, err = pbem_json(capsys, *args)
    assert code == status and "error:" in err
    validate_error(data, command, status)


# --------------------------------------------------------------------------- colours

COLOUR = re.compile(r"\x1b\[[0-9;]*(?:3[0-9]|9[0-7]|38;)[0-9;]*m")


@pytest.mark.parametrize("how", ["flag before", "flag after", "NO_COLOR"])
def test_no_color(how, game, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("FORCE_COLOR", "1")          # rich: colour even into a pipe
    args = ["check", _bad_orders(tmp_path), "-g", game]
    code, coloured = pbem(capsys, *args)
    assert code == 1 and COLOUR.search(coloured)    # the control: colours are there
    if how == "NO_COLOR":
        monkeypatch.setenv("NO_COLOR", "1")
    else:
        args = ["--no-color", *args] if how == "flag before" else [*args, "--no-color"]
    code, plain = pbem(capsys, *args)
    assert code == 1 and not COLOUR.search(plain), plain
    assert re.sub(r"\x1b\[[0-9;]*m", "", plain) == re.sub(r"\x1b\[[0-9;]*m", "", coloured)


# --------------------------------------------------------------------------- completion

@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize("line, expected", [
    ("pbem ch", {"check"}),
    ("pbem check orders.txt --wa", {"--warn-below"}),
    ("pbem odds 1 vs 2 --defender-submerge ", {"never", "always", "losing"}),
    ("pbem mail s", {"send"}),
    ("pbem completion ", {"bash", "zsh", "tcsh"}),
])
def test_bash_completion(line, expected, tmp_path, capsys):
    code, script = pbem(capsys, "completion", "bash")
    assert code == 0
    path = tmp_path / "pbem.bash"
    path.write_text(script)
    words = line.split(" ")
    probe = (f"source {path}\nCOMP_WORDS=({' '.join(repr(w) for w in words)})\n"
             f"COMP_CWORD={len(words) - 1}\nCOMP_LINE={line!r}\nCOMP_POINT={len(line)}\n"
             f"_shtab_pbem pbem {words[-1]!r} {words[-2]!r}\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n")
    done = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert set(done.stdout.split()) == expected


def test_zsh_completion_script(capsys):
    code, script = pbem(capsys, "completion", "zsh")
    assert code == 0 and script.startswith("#compdef pbem")
    for command in ("check", "process", "verify", "odds", "completion"):
        assert command in script
    code, out = pbem(capsys, "completion", "fish")
    assert code == 2


# --------------------------------------------------------------------------- progress

def _on_a_terminal(*args, env=None) -> tuple[int, str]:
    """Run pbem with stderr on a pseudo-terminal: (exit status, what the terminal got)."""
    import pty
    master, slave = pty.openpty()
    try:
        done = subprocess.Popen([sys.executable, "-m", "adjudicator", *map(str, args)],
                                stdout=subprocess.DEVNULL, stderr=slave, stdin=subprocess.DEVNULL,
                                env={**os.environ, "COLUMNS": "120", **(env or {})})
        os.close(slave)
        chunks = []
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:            # the other end closed
                break
            if not chunk:
                break
            chunks.append(chunk)
        status = done.wait(timeout=300)
    finally:
        os.close(master)
    return status, b"".join(chunks).decode("utf-8", "replace")


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_progress_bars_on_a_terminal_only(game):
    status, seen = _on_a_terminal("verify", "-g", game, env={"PBEM_PROGRESS_DELAY": "0"})
    assert status == 0 and "Verifying turns" in seen and "1/1" in seen
    status, seen = _on_a_terminal("odds", "2 inf", "vs", "2 inf", "--monte-carlo", "600",
                                  env={"PBEM_PROGRESS_DELAY": "0"})
    assert status == 0 and "Monte Carlo, 600 battles" in seen and "600/600" in seen
    # not a terminal: nothing
    done = run_pbem("verify", "-g", game, env={"PBEM_PROGRESS_DELAY": "0"})
    assert done.returncode == 0 and b"Verifying turns" not in done.stderr + done.stdout
    # quick work on a terminal: nothing before the delay
    status, seen = _on_a_terminal("verify", "-g", game, env={"PBEM_PROGRESS_DELAY": "60"})
    assert status == 0 and "Verifying turns" not in seen


# --------------------------------------------------------------------------- new / process say what next

def test_new_and_process_say_what_to_send_to_whom(tmp_path, capsys):
    from adjudicator.io import keys
    keys.new_keypair(tmp_path / "hans", "hans@pbem-test")
    directory = tmp_path / "g"
    code, out = pbem(capsys, "new", directory, "--demo-seeds", "--unsigned-orders", "--player",
                     f"germany={tmp_path / 'hans.pub'},email=hans@example.org,name=Hans",
                     "--email", "ussr=ivan@example.org")
    assert code == 0, out
    assert f"{directory / 'game.json'}, {directory / 'game.json.sig'}" in out
    assert "ivan@example.org (Soviet Union)" in out and "Hans <hans@example.org> (Germany)" in out
    assert ("no address yet for United Kingdom, Japan, United States: pbem player set POWER "
            "--email ADDRESS") in out
    assert "First to move: Soviet Union. Ask ivan@example.org (Soviet Union)" in out
    report = tmp_path / "r1.html"
    code, out = pbem(capsys, "process", USSR, "-g", directory, "--demo-seeds", "--report", report)
    assert code == 0, out
    tpath = layout.list_turns(directory)[0][2]
    written = [directory / "orders" / "0001-ussr.txt", tpath, Path(str(tpath) + ".sig")]
    assert all(p.exists() for p in written)
    assert "Wrote " + ", ".join(map(str, written)) + "." in out
    assert f"Report saved to {report}." in out
    # turn 1: the game file goes out too; every address is named
    send = next(line for line in out.splitlines() if line.startswith("Send to"))
    for p in [directory / "game.json", *written, report]:
        assert str(p) in send
    assert "ivan@example.org" in send and "hans@example.org" in send
    state, _ = gamedir.current_state(directory)
    assert state.power == "germany"
    assert (f"Next to move: Germany (turn {state.turn_number}, round {state.round}). "
            "Ask Hans <hans@example.org> (Germany) for the orders") in out
    assert "Germany's orders must be signed" in out and "'turn: 2'" in out


def test_process_without_addresses_says_every_player(fresh, capsys):
    code, out = pbem(capsys, "process", USSR, "-g", fresh, "--demo-seeds")
    assert code == 0
    assert "Send to every player (the game has no addresses yet: pbem player set" in out
    assert "Next to move: Germany" in out


# --------------------------------------------------------------------------- pbem odds

@pytest.mark.parametrize("args, says, column", [
    (["3 inf, 1 tnak", "vs", "1 inf"], "the attackers '3 inf, 1 tnak', column 10: unknown unit type 'tnak' (did you mean 'Tank'?)", 10),
    (["1 inf", "vs", "2 inf, Germany"], "the defenders '2 inf, Germany', column 8:", 8),
    (["1 inf", "vs", "1 inf", "--retreat", "whenever"], "--retreat 'whenever', column 1: unexpected 'whenever'", 1),
    (["1 inf", "vs", "1 inf", "--retreat", "attackers < x"], "--retreat 'attackers < x', column 13:", 13),
    (["2 inf", "vs", "1 inf", "--attacker-losses", "inf, tnak"], "--attacker-losses 'inf, tnak', column 6:", 6),
    (["1 bb", "vs", "1 dd", "--sea", "--bombard", "1 bb"], None, None),
])
def test_odds_errors_speak_of_what_was_typed(args, says, column, capsys):
    code, out = pbem(capsys, "odds", *args)
    assert code == 2, out
    assert "buy" not in out and "battle Archangel" not in out and "line 2" not in out
    if says:
        assert says in out
        typed = says.split("'")[1]
        lines = out.splitlines()
        at = lines.index(f"    {typed}")
        assert lines[at + 1] == "    " + " " * (column - 1) + "^"


def test_odds_cargo_as_in_orders(capsys):
    def odds(*args):
        code, data, _ = pbem_json(capsys, "odds", *args, "--json")
        assert code == 0
        return data
    # a defending carrier's fighters defend beside it: the same battle as listing them
    aboard = odds("2 dd", "vs", "1 cv (2 ftr)", "--sea")
    beside = odds("2 dd", "vs", "1 cv, 2 ftr", "--sea")
    assert aboard["exact"] == beside["exact"]
    assert aboard["battle"]["defenders"] == {"carrier": 1, "fighter": 2}
    # an attacking carrier's own fighters do not fight (as the engine plays it), with a note
    attacking = odds("1 cv (2 ftr), 1 dd", "vs", "1 sub", "--sea")
    alone = odds("1 cv, 1 dd", "vs", "1 sub", "--sea")
    assert attacking["exact"] == alone["exact"] and attacking["notes"]
    # land units aboard a transport cannot fight and are lost with it: same outcome odds,
    # and the attacker's expected loss grows by their cost times the chance the transport sinks
    loaded = odds("1 trn (1 inf, 1 tank), 1 dd", "vs", "1 dd", "--sea")["exact"]
    empty = odds("1 trn, 1 dd", "vs", "1 dd", "--sea")["exact"]
    for name in ("attacker_wins", "defender_wins", "both_destroyed"):
        assert loaded[name] == pytest.approx(empty[name])
    game = load_game("aa1941")
    cargo_cost = game.ruleset.units["infantry"].cost + game.ruleset.units["tank"].cost
    sunk = sum(s["probability"] for s in loaded["attacker_survivors"] if "transport" not in s["units"])
    assert loaded["attacker_tuv_lost"] == pytest.approx(empty["attacker_tuv_lost"] + cargo_cost * sunk)
    # what cannot be carried is refused
    for bad in ("1 cv (3 ftr)", "1 inf (1 inf)", "1 trn (2 tank)", "1 trn (1 ftr)"):
        code, out = pbem(capsys, "odds", bad, "vs", "1 dd", "--sea")
        assert code == 2 and bad in out, out


def test_odds_reads_forum_style_units(capsys):
    code, data, _ = pbem_json(capsys, "odds", "2x inf + 1 arm", "vs", "inf x2 and a tank", "--json")
    assert code == 0
    assert data["battle"]["attackers"] == {"infantry": 2, "tank": 1}
    assert data["battle"]["defenders"] == {"infantry": 2, "tank": 1}


# --------------------------------------------------------------------------- --warn-below, the check table

@pytest.mark.parametrize("value, fraction", [("50", 0.5), ("50%", 0.5), ("12.5", 0.125),
                                             ("0", 0.0), ("0.5%", 0.005), ("100", 1.0)])
def test_warn_below_takes_a_percentage(value, fraction):
    from adjudicator.cli.common import percentage
    assert percentage(value) == pytest.approx(fraction)


@pytest.mark.parametrize("value", ["0.5", "0.99", "101", "-5", "half", "nan"])
def test_warn_below_refuses_what_is_not_a_percentage(value, game, capsys):
    code, out = pbem(capsys, "check", GERMANY, "-g", game, "--warn-below", value)
    assert code == 2 and "--warn-below" in out and "Traceback" not in out
    if value == "0.5":
        assert "give a percentage, e.g. 50 for 50%" in out


def test_check_table_columns_add_up(game, tmp_path, capsys):
    code, out = pbem(capsys, "check", germany_orders(tmp_path), "-g", game, "--warn-below", "45")
    assert code == 0, out
    header = next(line for line in out.splitlines() if "Success" in line)
    assert header.split() == ["Battle", "Attackers", "Defenders", "Success", "Held", "Retreat",
                              "Neither", "Swing"]
    rows = [line for line in out.splitlines() if line.count("%") == 4]
    assert len(rows) == 3
    _, data, _ = pbem_json(capsys, "check", germany_orders(tmp_path), "-g", game, "--json")
    successes = {b["space"]: b["success"] for b in data["battles"]}
    for row in rows:
        figures = [float(x) for x in re.findall(r"(\d+\.\d)%", row)]
        assert sum(figures) == pytest.approx(100.0, abs=1e-9), row    # exactly 100.0
        space = next(s for s in successes if row.strip().startswith(s))
        assert figures[0] == pytest.approx(100 * successes[space], abs=0.051)
    warned = {s for s, p in successes.items() if p < 0.45}
    assert warned and all(f"attack on {s} succeeds only" in out for s in warned)
    assert sum("succeeds only" in line for line in out.splitlines()) == len(warned)


def test_mail_check_reply_columns_add_up(game, tmp_path):
    from adjudicator.present.check_view import check_text
    from adjudicator.service.checking import check_orders
    state, _ = gamedir.current_state(game)
    g = load_game("aa1941")
    result = check_orders(g, state, germany_orders(tmp_path).read_text("utf-8"))
    text = check_text(g, state, result)
    rows = [line for line in text.splitlines() if line.count("%") == 4]
    assert len(rows) == len(result.battles) == 3
    for row in rows:
        assert sum(float(x) for x in re.findall(r"(\d+\.\d)%", row)) == pytest.approx(100.0)


# --------------------------------------------------------------------------- pbem new --option

def test_new_sets_rule_options(tmp_path, capsys):
    directory = tmp_path / "straits"
    code, out = pbem(capsys, "new", directory, "--option", "turkish_straits=false",
                     "--option", "short_game=yes")
    assert code == 0, out
    gf, _ = gamedir.read_game(directory)
    assert gf.options == {"turkish_straits": False, "short_game": True,
                          "default_losses": "weakest"}
    from adjudicator.cli.common import game_of
    played = game_of(str(directory))
    default = load_game("aa1941")
    assert played.ruleset.options["turkish_straits"] is False
    assert default.map.closed_zones and not played.map.closed_zones
    code, out = pbem(capsys, "show", "-g", directory)
    assert code == 0
    code, out = pbem(capsys, "new", tmp_path / "s42", "--ruleset", "aa1942",
                     "--option", "unit_stats=seed")
    assert code == 0, out
    assert game_of(str(tmp_path / "s42")).ruleset.units["tank"].attack == 5            # [L727]
    assert "Unit stats: seed (The seed's literal" in out
    code, out = pbem(capsys, "new", tmp_path / "e42", "--ruleset", "aa1942")
    assert code == 0 and "Unit stats: original (The printed English" in out
    assert "--option unit_stats=seed" in out
    code, out = pbem(capsys, "new", tmp_path / "g41")
    assert code == 0 and "Unit stats" not in out                  # 1941 has one set of numbers


@pytest.mark.parametrize("option, says", [
    ("bogus=1", "has no option 'bogus'; its options: default_losses (default weakest), "
                "low_luck (default false), short_game (default false), turkish_straits "
                "(default true)"),
    ("turkish_straits=maybe", "give true or false"),
    ("turkish_straits", "--option wants NAME=VALUE"),
    ("=true", "--option wants NAME=VALUE"),
])
def test_new_refuses_unknown_options_and_values(option, says, tmp_path, capsys):
    code, out = pbem(capsys, "new", tmp_path / "g", "--option", option)
    assert code == 2 and says in out and not (tmp_path / "g").exists()
    code, out = pbem(capsys, "new", tmp_path / "g", "--ruleset", "aa1942", "--option",
                     "unit_stats=x")
    assert code == 2 and "unit_stats 'x' is not a profile" in out


def test_new_refuses_an_unknown_default_loss_order(tmp_path, capsys):
    code, out = pbem(capsys, "new", tmp_path / "g", "--option", "default_losses=random")
    assert code == 2 and "default_losses must be one of cheapest, weakest" in out, out
    code, out = pbem(capsys, "new", tmp_path / "g", "--option", "default_losses=cheapest")
    assert code == 0, out


def test_rules_shows_options_and_how_to_set_them(capsys):
    code, out = pbem(capsys, "rules", "--ruleset", "aa1942")
    assert code == 0
    game = load_game("aa1942")
    for name, value in game.ruleset.options.items():
        shown = str(value).lower() if isinstance(value, bool) else value
        assert f"option {name} = {shown}" in out
    assert "--option NAME=VALUE" in out


def test_new_help_reads_well(capsys):
    code, out = pbem(capsys, "new", "--help")
    assert code == 0
    flat = " ".join(out.split())
    for phrase in ("--option NAME=VALUE", "turkish_straits=false", "--player",
                   "germany=hans.pub,email=hans@example.org,name=Hans", "--email POWER=ADDRESS",
                   "uk=tom@example.org", "ssh-keygen -Y sign"):
        assert phrase in flat, phrase


# --------------------------------------------------------------------------- the HTML report

def test_html_report_title_next_and_summary(game, tmp_path, capsys):
    from adjudicator.io.turnfile import read_turn_file
    from adjudicator.present.report import battle_summaries
    out = tmp_path / "r.html"
    code, text = pbem(capsys, "report", "-g", game, "--out", out)
    assert code == 0, text
    page = out.read_text("utf-8")
    tf = read_turn_file(layout.list_turns(game)[0][2])[0]
    title = f"{tf.game_id}: turn {tf.turn_number}, Soviet Union"
    assert f"<title>{title} — Axis &amp; Allies 1941, round {tf.round}</title>" in page
    assert f"<h1>{title}</h1>" in page
    assert (f'<p class="next">Next to move: Germany (turn {tf.state.turn_number}, round '
            f'{tf.state.round})</p>') in page
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    for summary in battle_summaries(tf.events, load_game("aa1941")):
        assert f"<li>{summary}</li>" in page
    assert page.index("<h1>") < page.index("<svg") < page.index("<pre>")


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


@pytest.mark.skipif(shutil.which("chromium") is None and shutil.which("chromium-browser") is None
                    and not os.environ.get("CHROMIUM"), reason="needs a headless chromium")
def test_html_report_reads_on_a_phone(tmp_path):
    module = helpers.script("screenshot_report")
    from adjudicator.io.turnfile import read_turn_file
    game_dir = ROOT / "turns" / "aa1941-example" / "game"
    page = module.write_report(game_dir, tmp_path)
    found = module.photograph(page, tmp_path)
    tf = read_turn_file(layout.list_turns(game_dir)[-1][2])[0]
    game = load_game("aa1941")
    assert found["viewport"] == 390
    assert found["scroll_width"] <= 390                        # the page never scrolls sideways
    assert found["h1"] == f"{tf.game_id}: turn {tf.turn_number}, {game.ruleset.powers[tf.power].name}"
    assert found["next"].startswith(f"Next to move: {game.ruleset.powers[tf.state.power].name}")
    assert found["text_px"] >= 14 and found["h1_px"] > found["text_px"] and found["report_px"] >= 11
    assert found["board_width"] <= 390 and found["report_width"] <= 390
    assert found["report_scrolls"] == "auto"                   # wide tables scroll in their box
    assert _png_size(tmp_path / "phone.png") == (390, 844)
    assert _png_size(tmp_path / "phone-full.png") == (390, found["page_height"])
    assert _png_size(tmp_path / "desktop.png") == (1280, 900)
