"""Game master corrections end to end on real files (``pbem correct``): a mistaken turn is
undone or edited by a signed correction turn in the hash chain, which ``pbem verify``
replays and shows with its reason; a tampered correction, or one not signed by the game
master, fails."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adjudicator.io import keys, sshsig
from adjudicator.io.codec import canonical_json
from adjudicator.io.corrections import CorrectionError, parse_correction
from adjudicator.io.paths import EXAMPLE_DIR
from adjudicator.service import audit
from cli_helpers import pbem

USSR_ORDERS = (EXAMPLE_DIR / "orders" / "01-ussr.txt").read_text()
REASON = "the USSR's orders were typed into the wrong game; replayed at the player's request"


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch):
    monkeypatch.setenv("COLUMNS", "220")


@pytest.fixture
def played(tmp_path, capsys) -> Path:
    """A game whose USSR has a key (so an unsigned turn needs the game master's word), and
    a first turn played: the mistaken one."""
    keys.new_keypair(tmp_path / "su", "su")
    directory = tmp_path / "g"
    code, out = pbem(capsys, "new", directory, "--id", "g7", "--unsigned-orders",
                     "--player", f"ussr={tmp_path / 'su.pub'}")
    assert code == 0, out
    orders = tmp_path / "o.txt"
    orders.write_text("game: g7\nturn: 1\n" + USSR_ORDERS)
    (tmp_path / "o.txt.sig").write_text(sshsig.sign(
        orders.read_bytes(), keys.load_private_key(tmp_path / "su"), sshsig.NAMESPACE_ORDERS))
    code, out = pbem(capsys, "process", orders, "-g", directory,
                     "--signature", tmp_path / "o.txt.sig")
    assert code == 0, out
    return directory


def turn(directory: Path, name: str) -> dict:
    return json.loads((directory / "turns" / name).read_text())


def test_undo_last_restores_the_position_and_verify_shows_the_reason(played, capsys):
    before = json.loads((played / "game.json").read_text())["initial_state"]
    code, out = pbem(capsys, "correct", "-g", played, "--undo-last", "--reason", REASON)
    assert code == 0, out
    assert "turn 1 undone" in out and REASON in out
    corrected = turn(played, "0002-germany.json")
    assert corrected["signer"] == "game_master" and corrected["orders_signature"] is None
    # The whole position before turn 1 comes back; only the count of turns goes on.
    assert {**corrected["state"], "turn_number": 1} == before
    assert corrected["state"]["turn_number"] == 3 and corrected["state"]["power"] == "ussr"
    assert [e["kind"] for e in corrected["events"]] == ["corrected"]
    assert corrected["events"][0]["reason"] == REASON
    # The chain links the correction: its 'previous' is the digest of turn 1.
    from adjudicator.io.turnfile import file_digest
    assert corrected["previous"] == file_digest((played / "turns" / "0001-ussr.json").read_bytes())

    code, out = pbem(capsys, "verify", played)
    assert code == 0, out
    assert "2 turns re-adjudicated" in out
    assert "undo to turn 1" in out and REASON in out
    report = audit.verify_game(played)
    assert report.ok and report.complete
    assert [(c.turn, c.edits, c.reason) for c in report.corrections] == [
        (2, ("undo to turn 1",), REASON)]
    assert report.luck == {}              # the dice of the undone turn no longer count

    code, out = pbem(capsys, "status", "-g", played)      # the USSR moves again, at turn 3
    assert code == 0 and "turn 3" in out and "Soviet Union" in out, out
    assert f"last: turn 2, the game master's correction: {REASON}" in " ".join(out.split())


def test_set_units_ipcs_and_owner_are_replayed(played, capsys):
    code, out = pbem(capsys, "correct", "-g", played, "--set", "Karelia: 2 ussr infantry, 1 ussr tank",
                     "--ipcs", "germany 30", "--owner", "Karelia ussr", "--reason", REASON)
    assert code == 0, out
    state = turn(played, "0002-germany.json")["state"]
    assert state["ipcs"]["germany"] == 30 and state["owners"]["Karelia"] == "ussr"
    karelia = sorted((u["type"], u.get("count", 1)) for u in state["units"]["Karelia"])
    assert karelia == [("infantry", 2), ("tank", 1)], state["units"]["Karelia"]
    assert state["power"] == "germany"                    # Germany still moves next
    code, out = pbem(capsys, "verify", played)
    assert code == 0 and "ipcs germany 30" in out, out


def test_a_tampered_correction_fails_verify(played, capsys):
    """The game master re-signs a correction whose published effect is not what its text
    says: the replay catches it; a change without the signature fails the signature."""
    assert pbem(capsys, "correct", "-g", played, "--ipcs", "germany 30", "--reason", REASON)[0] == 0
    path = played / "turns" / "0002-germany.json"
    doc = json.loads(path.read_text())
    doc["state"]["ipcs"]["germany"] = 40
    path.write_bytes(canonical_json(doc))
    code, out = pbem(capsys, "verify", played)
    assert code == 1 and "signature" in out, out
    gm = keys.load_private_key(played / ".secret" / "gm_ed25519")
    (played / "turns" / "0002-germany.json.sig").write_text(
        sshsig.sign(path.read_bytes(), gm, sshsig.NAMESPACE_TURN))
    code, out = pbem(capsys, "verify", played)
    assert code == 1 and "replay" in out and "state.ipcs.germany" in out, out


def test_a_correction_needs_the_game_masters_key(played, tmp_path, capsys):
    keys.new_keypair(tmp_path / "other", "not the gm")
    code, out = pbem(capsys, "correct", "-g", played, "--undo-last", "--reason", REASON,
                     "--key", tmp_path / "other")
    assert code == 2 and "is not the one this game was created with" in out, out
    assert not (played / "turns" / "0002-germany.json").exists()


def test_a_correction_signed_by_a_player_fails_verify(played, tmp_path, capsys):
    """A correction turn file signed with a player's key instead of the game master's."""
    assert pbem(capsys, "correct", "-g", played, "--undo-last", "--reason", REASON)[0] == 0
    path = played / "turns" / "0002-germany.json"
    (played / "turns" / "0002-germany.json.sig").write_text(sshsig.sign(
        path.read_bytes(), keys.load_private_key(tmp_path / "su"), sshsig.NAMESPACE_TURN))
    report = audit.verify_game(played)
    assert not report.ok and report.failure.check == "signature", report.failure


def test_a_player_cannot_mail_a_correction_as_orders(played, tmp_path, capsys):
    """Correction text sent as a player's orders is not played as a correction."""
    orders = tmp_path / "fake.txt"
    orders.write_text("game: g7\nturn: 2\ncorrection: ipcs germany 99\nreason: mine\n")
    code, out = pbem(capsys, "process", orders, "-g", played)
    assert code != 0, out
    assert not (played / "turns" / "0002-germany.json").exists()


@pytest.mark.parametrize("text, message", [
    ("correction: undo to turn 1\n", "needs a 'reason:' line"),
    ("reason: x\n", "at least one 'correction:' line"),
    ("correction: teleport Karelia\nreason: x\n", "is not an edit"),
    ("correction: set Karelia: lots of tanks\nreason: x\n", "COUNT POWER UNIT"),
    ("correction: ipcs germany 3\nmove 1 inf A -> B\nreason: x\n", "line 2"),
    ("correction: ipcs germany 3\nreason: x\nreason: y\n", "second 'reason:'"),
])
def test_malformed_corrections_say_where(text, message):
    with pytest.raises(CorrectionError, match=message):
        parse_correction(text)


def test_a_game_with_mail_settings_mails_the_correction_to_every_player(played, tmp_path,
                                                                         capsys):
    from mail_helpers import body_text, maildir_toml, outbox_messages, write_mail_toml
    code, out = pbem(capsys, "player", "set", "ussr", "--email", "ivan@example.org",
                     "-g", played)
    assert code == 0, out
    write_mail_toml(played, maildir_toml(tmp_path / "inbox"))
    code, out = pbem(capsys, "correct", "-g", played, "--undo-last", "--reason", REASON)
    assert code == 0 and "Mailed to every player" in out, out
    mail, = [m for name, m in outbox_messages(played).items() if "0002" in name]
    assert mail["To"] == "ivan@example.org"
    names = {part.get_filename() for part in mail.iter_attachments()}
    assert {"0002-germany.json", "0002-germany.json.sig"} <= names, names
    assert REASON in body_text(mail)


def test_a_players_copy_fetches_the_mailed_correction_and_verifies(tmp_path, capsys):
    """Game master and player by Maildir: a turn played by mail, then a correction; the
    player's copy takes every mail, equals the game master's and verifies."""
    from mail_helpers import (
        EXAMPLE_ORDERS, deliver, game_master, make_game, maildir_toml, published,
        write_mail_toml,
    )
    from adjudicator.service.games import load_game
    from adjudicator.service.mail.config import load_config
    from adjudicator.service.mail.player import fetch_results
    import email
    import email.policy

    gm, gm_inbox = tmp_path / "gm", tmp_path / "gm-inbox"
    make_game(gm, "club")
    write_mail_toml(gm, maildir_toml(gm_inbox))
    orders = email.message.EmailMessage()
    orders["From"], orders["To"] = "ivan@example.org", "gm@example.org"
    orders["Subject"], orders["Message-ID"] = "[pbem club] orders", "<o1@x>"
    orders.set_content(EXAMPLE_ORDERS[0].read_text(encoding="utf-8"))
    deliver(gm_inbox, bytes(orders))
    game_master(gm, "club").run_pass()
    code, out = pbem(capsys, "correct", "-g", gm, "--undo-last", "--reason", REASON,
                     "--demo-seeds")
    assert code == 0 and "Mailed to every player" in out, out

    ivan, ivan_inbox = tmp_path / "ivan", tmp_path / "ivan-inbox"
    ivan.mkdir()
    write_mail_toml(ivan, f'address = "ivan@example.org"\ngame_master = "gm@example.org"\n'
                          f'[inbox]\ntype = "maildir"\npath = "{ivan_inbox}"\n')
    for path in sorted((gm / ".mail" / "outbox").glob("*.eml")):
        mail = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        if mail["To"] == "ivan@example.org":
            deliver(ivan_inbox, path.read_bytes())
    result = fetch_results(ivan, load_config(ivan), load_game, game_id="club")
    assert result.added == [1, 2] and not result.refused, result
    assert published(ivan) == published(gm)
    code, out = pbem(capsys, "verify", ivan)
    assert code == 0 and REASON in out, out


def test_a_mistaken_concession_is_undone(tmp_path, capsys):
    """A game ended by a mistaken ``concede`` can be corrected (no other turn can follow a
    win): the undo restores the game in play, and verify accepts it."""
    directory = tmp_path / "g"
    assert pbem(capsys, "new", directory, "--demo-seeds")[0] == 0
    orders = tmp_path / "o.txt"
    orders.write_text("concede\n")
    code, out = pbem(capsys, "process", orders, "-g", directory, "--demo-seeds")
    assert code == 0, out
    assert turn(directory, "0001-ussr.json")["state"]["winner"] == "Axis"
    code, out = pbem(capsys, "process", orders, "-g", directory, "--demo-seeds")
    assert code != 0 and "over" in out, out
    code, out = pbem(capsys, "correct", "-g", directory, "--undo-last", "--demo-seeds",
                     "--reason", "the USSR player sent 'concede' by mistake")
    assert code == 0, out
    assert turn(directory, "0002-germany.json")["state"]["winner"] is None
    code, out = pbem(capsys, "verify", directory)
    assert code == 0 and "sent 'concede' by mistake" in out, out
