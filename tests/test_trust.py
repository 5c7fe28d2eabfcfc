"""Forgeries and trust gaps (issue 8): orders signatures without a key, non-canonical or
inconsistent game files, demo seeds and published secrets, equivocation and withheld
turns (pbem verify --known/--record, pbem compare), and player records."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from adjudicator.cli import main
from adjudicator.io import keys, sshsig, turnfile
from adjudicator.io.codec import canonical_json
from adjudicator.service.games import load_game
from adjudicator.service import audit, gamedir, known
from conftest import EXAMPLE_ORDERS

USSR, GERMANY = EXAMPLE_ORDERS[0], EXAMPLE_ORDERS[1]


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch):
    monkeypatch.setenv("COLUMNS", "250")


def pbem(capsys, *args) -> tuple[int, str]:
    code = main([str(a) for a in args])
    out = capsys.readouterr()
    return code, " ".join((out.out + out.err).split())


@pytest.fixture(scope="module")
def one_turn(tmp_path_factory) -> Path:
    """A real 1941 game (secret seeds) after the Soviet turn."""
    d = tmp_path_factory.mktemp("trust") / "game"
    game = load_game("aa1941")
    gamedir.create_game(d, game, "trust-game", created="2026-01-01")
    gamedir.process_turn(d, game, USSR.read_bytes())
    return d


@pytest.fixture
def gm_dir(one_turn, tmp_path) -> Path:
    d = tmp_path / "gm"
    shutil.copytree(one_turn, d)
    return d


def published_copy(d: Path, target: Path) -> Path:
    shutil.copytree(d, target, ignore=shutil.ignore_patterns(".secret"))
    return target


def resign(d: Path, path: Path) -> None:
    gm = keys.load_private_key(d / ".secret" / "gm_ed25519")
    (path.parent / (path.name + ".sig")).write_text(sshsig.sign(path.read_bytes(), gm, "pbem-turn"))


def edit(d: Path, rel: str, change, canonical=True) -> None:
    path = d / rel
    doc = json.loads(path.read_bytes())
    change(doc)
    path.write_bytes(canonical_json(doc) if canonical
                     else json.dumps(doc, indent=4, sort_keys=True).encode())
    resign(d, path)


def failure(d: Path):
    f = audit.verify_game(d, load_game).failure
    return (f.file, f.check, f.detail) if f else None


# --------------------------------------------------------------------------- forgeries

def test_an_orders_signature_without_a_key_is_refused(gm_dir):
    sig = sshsig.sign(USSR.read_bytes(), keys.load_private_key(gm_dir / ".secret" / "gm_ed25519"),
                      "pbem-orders")
    for garbage in ("not a signature at all", sig):
        edit(gm_dir, "turns/0001-ussr.json", lambda doc: doc.update(orders_signature=garbage))
        file, check, detail = failure(gm_dir)
        assert (file, check) == ("turns/0001-ussr.json", "orders_signature")
        assert "lists no key" in detail and "must be null" in detail


def test_a_non_canonical_game_json_is_refused(gm_dir, capsys):
    edit(gm_dir, "game.json", lambda doc: None, canonical=False)
    file, check, detail = failure(gm_dir)
    assert (file, check) == ("game.json", "format") and "not in canonical form" in detail
    code, out = pbem(capsys, "show", "-g", gm_dir)
    assert code == 2 and "not in canonical form" in out


def test_a_player_for_a_power_that_does_not_exist_is_refused(gm_dir):
    edit(gm_dir, "game.json", lambda doc: doc["players"].update(
        atlantis={"key": None, "email": None, "name": None}))
    file, check, detail = failure(gm_dir)
    assert (file, check) == ("game.json", "format")
    assert "players.atlantis: there is no such power" in detail


def test_an_invalid_player_email_in_game_json_is_refused(gm_dir):
    edit(gm_dir, "game.json", lambda doc: doc["players"]["ussr"].update(email="not an address"))
    assert "is not an email address" in failure(gm_dir)[2]


# --------------------------------------------------------------------------- warnings

def test_demo_seeds_and_published_secrets_are_warned_about(tmp_path, capsys):
    demo = tmp_path / "demo"
    assert main(["new", str(demo), "--demo-seeds"]) == 0
    code, out = pbem(capsys, "verify", demo)
    assert code == 0 and "OK with 2 warning(s)" in out
    assert "this game uses demo seeds: anyone can compute every seed in advance" in out
    assert "contains .secret/" in out and "must never be published" in out
    clean = published_copy(demo, tmp_path / "published")
    report = audit.verify_game(clean, load_game)
    assert report.ok and report.warnings == [
        "this game uses demo seeds: anyone can compute every seed in advance, so its dice "
        "prove nothing (for demos and tests only)"]


def test_a_real_game_has_no_warnings_once_published(one_turn, tmp_path):
    report = audit.verify_game(published_copy(one_turn, tmp_path / "pub"), load_game)
    assert report.ok and report.warnings == []
    report = audit.verify_game(one_turn, load_game)
    assert [w.split(":")[0] for w in report.warnings] == ["this directory contains .secret/"]


# --------------------------------------------------------------------------- known digests

@pytest.fixture
def two_histories(gm_dir, tmp_path):
    """The game master publishes turn 2 twice: Germany's real orders in one copy, empty
    orders in the other -- both validly signed."""
    a, b = tmp_path / "a", tmp_path / "b"
    shutil.copytree(gm_dir, a)
    shutil.copytree(gm_dir, b)
    game = load_game("aa1941")
    gamedir.process_turn(a, game, GERMANY.read_bytes())
    gamedir.process_turn(b, game, b"# no orders\npass\n")
    return published_copy(a, tmp_path / "pa"), published_copy(b, tmp_path / "pb")


def test_record_then_known_catches_equivocation_and_withholding(two_histories, tmp_path,
                                                                capsys):
    a, b = two_histories
    record = tmp_path / "my-turns.txt"
    code, out = pbem(capsys, "verify", a, "--record", record)
    assert code == 0 and "Recorded 3 new file digest(s)" in out
    lines = [l for l in record.read_text().splitlines() if not l.startswith("#")]
    assert [l.split()[1] for l in lines] == [
        "game.json", "turns/0001-ussr.json", "turns/0002-germany.json"]
    assert all(l.split()[0] == "trust-game" and l.split()[2].startswith("sha256:") for l in lines)
    code, out = pbem(capsys, "verify", a, "--record", record)       # nothing new
    assert "Recorded 0 new" in out and len(record.read_text().splitlines()) == 4

    code, out = pbem(capsys, "verify", a, "--known", record)
    assert code == 0 and "all 3 file(s) recorded for this game" in out
    code, out = pbem(capsys, "verify", b, "--known", record)
    assert code == 1 and "equivocation: you recorded turns/0002-germany.json" in out
    for p in (b / "turns").glob("0002-*"):
        p.unlink()
    for p in (b / "orders").glob("0002-*"):
        p.unlink()
    code, out = pbem(capsys, "verify", b, "--known", record)
    assert code == 1 and "withheld: you recorded turns/0002-germany.json" in out


def test_known_file_format_errors(tmp_path):
    path = tmp_path / "k.txt"
    path.write_text("# comment\n\ng game.json sha256:" + "0" * 64 + "  # fine\nbad line\n")
    with pytest.raises(Exception, match="line 4: expected 'GAME_ID PATH sha256:<hex>'"):
        known.read_known(path)
    assert known.read_known(tmp_path / "missing.txt") == []
    problem, = known.compare_known("g", [("game.json", "sha256:" + "0" * 64)],
                                   [known.KnownFile("other", "game.json", "x")])
    assert "records no file of the game 'g' (it records 'other')" in problem


# --------------------------------------------------------------------------- compare

def test_compare_shows_the_first_divergence_with_both_signatures(two_histories, capsys):
    a, b = two_histories
    code, out = pbem(capsys, "compare", a, b)
    assert code == 1
    assert "The copies diverge at 0002-germany.json (file 3 of the chain)" in out
    assert out.count("-----BEGIN SSH SIGNATURE-----") == 2
    assert "signed by the game master key SHA256:" in out
    assert "the game master published two different histories" in out


def test_compare_identical_and_prefix(two_histories, tmp_path, capsys):
    a, _ = two_histories
    older = tmp_path / "older"
    shutil.copytree(a, older)
    for p in list((older / "turns").glob("0002-*")) + list((older / "orders").glob("0002-*")):
        p.unlink()
    code, out = pbem(capsys, "compare", a, a)
    assert code == 0 and "No divergence: the 3 file(s) both copies have are identical" in out
    code, out = pbem(capsys, "compare", older, a)
    assert code == 0 and "has 1 more turn file(s) than" in out and "withheld" in out


def test_compare_a_tampered_copy_is_no_proof(two_histories, tmp_path, capsys):
    a, _ = two_histories
    forged = tmp_path / "forged"
    shutil.copytree(a, forged)
    path = forged / "turns" / "0002-germany.json"
    path.write_bytes(path.read_bytes().replace(b'"round": 1', b'"round": 2', 1))
    code, out = pbem(capsys, "compare", a, forged)
    assert code == 1 and "the signature does not verify" in out
    assert "not a proof against the game master" in out


# --------------------------------------------------------------------------- player records

def test_new_with_player_keys_emails_and_names(tmp_path, capsys):
    keys.new_keypair(tmp_path / "de", "de player")
    keys.new_keypair(tmp_path / "su", "su player")
    d = tmp_path / "g"
    code, out = pbem(capsys, "new", d, "--demo-seeds", "--unsigned-orders",
                     "--player", f"Germany={tmp_path / 'de.pub'},email=hans@example.org,name=Hans M.",
                     "--player", f"ussr={tmp_path / 'su.pub'}",
                     "--email", "USSR=olga@example.org", "--email", "uk=tom@example.co.uk")
    assert code == 0, out
    gf, _ = turnfile.read_game_file(d / "game.json")
    assert gf.players["germany"].email == "hans@example.org"
    assert gf.players["germany"].name == "Hans M."
    assert gf.players["germany"].key.endswith(" de player")
    assert gf.players["ussr"] == turnfile.PlayerRecord(
        gf.players["ussr"].key, "olga@example.org", None)
    assert gf.players["uk"] == turnfile.PlayerRecord(None, "tom@example.co.uk", None)
    assert gf.players["japan"] == turnfile.PlayerRecord()


@pytest.mark.parametrize("args, message", [
    (["--email", "uk=not-an-address"], "is not an email address"),
    (["--email", "uk"], "--email wants POWER=ADDRESS"),
    (["--player", "uk=k.pub,phone=1"], "is not KEY.pub, email=ADDRESS or name=NAME"),
    (["--player", "atlantis=k.pub"], "atlantis"),
])
def test_new_refuses_bad_player_options(args, message, tmp_path, capsys):
    code, out = pbem(capsys, "new", tmp_path / "g", "--demo-seeds", "--unsigned-orders", *args)
    assert code == 2 and message in out
    assert not (tmp_path / "g" / "game.json").exists()


def test_check_tells_a_player_with_a_key_to_add_the_headers(tmp_path, capsys):
    keys.new_keypair(tmp_path / "su", "su")
    d = tmp_path / "g"
    assert main(["new", str(d), "--id", "g7", "--demo-seeds", "--unsigned-orders",
                 "--player", f"ussr={tmp_path / 'su.pub'}"]) == 0
    orders = tmp_path / "o.txt"
    orders.write_text(USSR.read_text())
    code, out = pbem(capsys, "check", orders, "-g", d, "--no-odds")
    assert code == 1 and "must name the game and the turn" in out
    assert "'game: g7' and 'turn: 1'" in out
    orders.write_text("game: g7\nturn: 1\n" + USSR.read_text())
    code, out = pbem(capsys, "check", orders, "-g", d, "--no-odds")
    assert code == 0, out
    orders.write_text("game: g7\nturn: 2\n" + USSR.read_text())
    code, out = pbem(capsys, "check", orders, "-g", d, "--no-odds")
    assert code == 1 and "for turn 2, but the game is at turn 1" in out


def test_report_checks_the_turn_signature(gm_dir, capsys):
    path = gm_dir / "turns" / "0001-ussr.json"
    path.write_bytes(path.read_bytes().replace(b'"round": 1', b'"round": 1 ', 1))
    code, out = pbem(capsys, "report", "-g", gm_dir)
    assert code == 2 and "signature does not verify" in out


# --------------------------------------------------------------------------- issue 20

def test_known_without_an_entry_for_this_game_is_an_error(gm_dir, tmp_path, capsys):
    """Item 4: a known-files list that records nothing of this game proves nothing."""
    record = tmp_path / "my-turns.txt"
    code, out = pbem(capsys, "verify", gm_dir, "--record", record)
    assert code == 0
    other = tmp_path / "elsewhere"
    gamedir.create_game(other, load_game("aa1941"), "another-id", created="2026-01-01")
    code, out = pbem(capsys, "verify", other, "--known", record)
    assert code == 1, out
    assert "records no file of the game 'another-id' (it records 'trust-game')" in out
    assert "all 0 file(s)" not in out


def test_a_game_file_naming_this_release_with_another_engine_fails(tmp_path, capsys):
    """Item 3: a game master who writes engine "99" (or another rules hash) into a game
    file of this very release, to skip the rules replay and with it the check of every
    state, is caught: this release never writes that."""
    from adjudicator.io import versions
    d = tmp_path / "game"
    gamedir.create_game(d, load_game("aa1941"), "forged", created="2026-01-01")
    for field, value in (("engine", "99"), ("rules_hash", "sha256:" + "1" * 64)):
        original = (d / "game.json").read_bytes()
        edit(d, "game.json", lambda doc: doc.update({field: value}))
        f = audit.verify_game(d, load_game).failure
        assert (f.file, f.check) == ("game.json", "version"), f
        assert f"this very release ({versions.PROGRAM})" in f.detail
        code, out = pbem(capsys, "verify", d, "--partial")
        assert code == 1 and "FAILED" in out
        (d / "game.json").write_bytes(original)
        resign(d, d / "game.json")


def test_pbem_new_shows_the_residual_risk_of_unsigned_orders(tmp_path, capsys):
    """Item 12: the reordering risk of unsigned orders is shown where the game is made, and
    not when every power has a key (signed orders cannot be reordered)."""
    code, out = pbem(capsys, "new", tmp_path / "open", "--demo-seeds")
    assert code == 0
    assert ("Residual risk: orders of Soviet Union, Germany, United Kingdom, Japan, United "
            "States are not signed") in out and "reorder their independent lines" in out
    players = []
    for power in ("ussr", "germany", "uk", "japan", "usa"):
        keys.new_keypair(tmp_path / power, f"{power}@example.org")
        players += ["--player", f"{power}={tmp_path / power}.pub"]
    # Registered players: every power needs a key, unless the players opt out.
    code, out = pbem(capsys, "new", tmp_path / "signed", "--demo-seeds", *players[:-2])
    assert code == 2 and not (tmp_path / "signed" / "game.json").exists()
    assert ("United States would have no player key: their unsigned orders would count on "
            "the game master's word") in out and "--unsigned-orders" in out
    code, out = pbem(capsys, "new", tmp_path / "signed", "--demo-seeds", "--unsigned-orders",
                     *players[:-2])
    assert code == 0 and "Residual risk: orders of United States are not signed" in out
    code, out = pbem(capsys, "new", tmp_path / "all-signed", "--demo-seeds", *players)
    assert code == 0 and "Residual risk" not in out
