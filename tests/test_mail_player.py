"""The player's side with Maildirs: fetch adds result mails to the local copy only after
they verify, refuses tampered and out-of-order turns with the reason and leaves the copy
as it was; ``pbem mail send --eml``; the game master's ``--watch``; schema-1 addresses."""

from __future__ import annotations

import email
import email.policy
import mailbox
import threading
import time

import pytest

from adjudicator.cli import main
from adjudicator.service.games import load_game
from adjudicator.service import gamedir
from adjudicator.service.mail.config import load_config
from adjudicator.service.mail.player import fetch_results
from adjudicator.service.mail.players import players_of
from conftest import snapshot
from mail_helpers import (
    EXAMPLE_ORDERS, ROOT, deliver, folder_keys, game_master, make_game, maildir_toml,
    published, write_mail_toml,
)

GAME_ID = "aa1941-example"


def _orders_mail(n: int, sender: str, path) -> bytes:
    msg = email.message.EmailMessage()
    msg["From"], msg["To"] = sender, "gm@example.org"
    msg["Subject"], msg["Message-ID"] = f"[pbem {GAME_ID}] orders", f"<o{n}@x>"
    msg.set_content(path.read_text(encoding="utf-8"))
    return bytes(msg)


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A game master who has processed turns 1 and 2; the mails sent to Ivan (USSR)."""
    base = tmp_path_factory.mktemp("played")
    gm, inbox = base / "gm", base / "gm-inbox"
    make_game(gm, GAME_ID)
    write_mail_toml(gm, maildir_toml(inbox))
    for n, (sender, path) in enumerate([("ivan@example.org", EXAMPLE_ORDERS[0]),
                                        ("hans@example.org", EXAMPLE_ORDERS[1])]):
        deliver(inbox, _orders_mail(n, sender, path))
        game_master(gm, GAME_ID).run_pass()
    mails = {}
    for p in sorted((gm / ".mail" / "outbox").glob("*.eml")):
        msg = email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
        if msg["To"] == "ivan@example.org":
            mails[p.stem.split("-to-")[0].split("-")[0] if p.stem.startswith("welcome") else
                  p.stem[:9]] = p.read_bytes()
    assert set(mails) == {"welcome", "turn-0001", "turn-0002"}
    return gm, mails


def _player(tmp_path):
    d, inbox = tmp_path / "ivan", tmp_path / "ivan-inbox"
    d.mkdir()
    write_mail_toml(d, f'address = "ivan@example.org"\ngame_master = "gm@example.org"\n'
                       f'[inbox]\ntype = "maildir"\npath = "{inbox}"\n')
    return d, inbox


def _fetch(d, game_id=None):
    return fetch_results(d, load_config(d), load_game, game_id=game_id)


def _tamper(raw: bytes, filename: str, change) -> bytes:
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    for part in msg.iter_attachments():
        if part.get_filename() == filename:
            content = part.get_content()
            data = change(content.encode("utf-8") if isinstance(content, str) else content)
            part.set_content(data, maintype="application", subtype="octet-stream",
                             filename=filename)
    return bytes(msg)


def test_fetch_in_any_order_ends_with_a_verified_copy(played, tmp_path):
    gm, mails = played
    d, inbox = _player(tmp_path)
    deliver(inbox, mails["welcome"])
    deliver(inbox, mails["turn-0002"])
    first = _fetch(d, GAME_ID)
    assert first.game_file_added and first.added == []
    (what, reason), = first.refused
    assert what.startswith("turn 2") and "out of order: your copy ends at turn 0" in reason
    deliver(inbox, mails["turn-0001"])
    second = _fetch(d)
    assert second.added == [1, 2] and not second.refused
    assert published(d) == published(gm)
    third = _fetch(d)                                 # nothing new: nothing changes
    assert third.added == [] and third.already == 2 and not third.refused
    assert len(folder_keys(inbox, None)) == 3         # a player's inbox is only read


@pytest.mark.parametrize("filename, change, check", [
    ("0001-ussr.json", lambda b: b.replace(b'"round": 1', b'"round": 2', 1), "signature"),
    ("0001-ussr.txt", lambda b: b.replace(b"buy 2 inf", b"buy 1 inf"), "orders"),
    ("0001-ussr.json.sig", lambda b: b[:60] + (b"A" if b[60:61] != b"A" else b"B") + b[61:],
     "signature"),
])
def test_tampered_turn_is_refused_and_the_copy_unchanged(played, tmp_path, filename, change, check):
    gm, mails = played
    d, inbox = _player(tmp_path)
    deliver(inbox, mails["welcome"])
    _fetch(d, GAME_ID)
    before = snapshot(d)
    deliver(inbox, _tamper(mails["turn-0001"], filename, change))
    result = _fetch(d)
    assert result.added == [] and snapshot(d) == before
    assert result.refused and check in result.refused[0][1], result.refused
    deliver(inbox, mails["turn-0001"])                # the genuine mail still works
    assert _fetch(d).added == [1]


def test_game_file_of_another_game_is_not_adopted(played, tmp_path):
    _gm, mails = played
    d, inbox = _player(tmp_path)
    deliver(inbox, mails["welcome"].replace(f"[pbem {GAME_ID}]".encode(), b"[pbem other]"))
    result = _fetch(d, "other")
    assert not result.game_file_added and not (d / "game.json").exists()
    assert "game file of 'aa1941-example'" in result.refused[0][1]


def test_send_writes_a_signed_eml(tmp_path, capsys):
    gm, key_dir = tmp_path / "gm", tmp_path / "keys"
    make_game(gm, GAME_ID, keyed=True, key_dir=key_dir)
    write_mail_toml(gm, f'address = "ivan@example.org"\ngame_master = "gm@example.org"\n'
                        f'key = "{key_dir / "ussr"}"\n')
    out = tmp_path / "orders.eml"
    assert main(["mail", "send", str(EXAMPLE_ORDERS[0]), "-g", str(gm), "--eml", str(out)]) == 0
    assert "(signed)" in capsys.readouterr().out
    msg = email.message_from_bytes(out.read_bytes(), policy=email.policy.default)
    assert msg["To"] == "gm@example.org" and msg["Subject"].startswith(f"[pbem {GAME_ID}]")
    names = [p.get_filename() for p in msg.iter_attachments()]
    assert names == ["0001-ussr.txt", "0001-ussr.txt.sig"]
    # The game master accepts exactly this mail.
    inbox = tmp_path / "inbox"
    write_mail_toml(gm, maildir_toml(inbox))
    deliver(inbox, out.read_bytes())
    assert game_master(gm, GAME_ID).run_pass().outcomes == {"processed": 1}
    # Errors found locally are not sent.
    bad = tmp_path / "bad.txt"
    bad.write_text(EXAMPLE_ORDERS[0].read_text().replace("Karelia ->", "Karlia ->"))
    write_mail_toml(gm, f'address = "hans@example.org"\ngame_master = "gm@example.org"\n'
                        f'key = "{key_dir / "germany"}"\n')
    assert main(["mail", "send", str(bad), "-g", str(gm), "--eml", str(tmp_path / "b.eml")]) == 1
    assert not (tmp_path / "b.eml").exists()


def _keys_so_far(inbox, folder):
    """The folder's messages, polled while the runner works: the runner may not have made
    the folder yet, or be making it (a Maildir folder's cur/new/tmp appear one after the
    other): no message yet."""
    try:
        return folder_keys(inbox, folder)
    except (FileNotFoundError, mailbox.NoSuchMailboxError):
        return []


def test_watch_answers_new_mail(tmp_path):
    gm, inbox = tmp_path / "gm", tmp_path / "inbox"
    make_game(gm, GAME_ID)
    write_mail_toml(gm, maildir_toml(inbox, extra="poll_seconds = 1"))
    mailbox.Maildir(inbox, create=True)
    stop = threading.Event()
    passes = []
    runner = game_master(gm, GAME_ID)
    thread = threading.Thread(target=runner.watch, args=(stop,),
                              kwargs={"on_pass": passes.append}, daemon=True)
    thread.start()
    try:
        key = deliver(inbox, _orders_mail(1, "ivan@example.org", EXAMPLE_ORDERS[0]))
        deadline = time.monotonic() + 60
        while key not in _keys_so_far(inbox, "processed") and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        stop.set()
        thread.join(30)
    assert not thread.is_alive()
    assert key in folder_keys(inbox, "processed")
    assert gamedir.current_state(gm)[1] == 1
    assert sum(p.outcomes.get("processed", 0) for p in passes) == 1


def test_schema1_game_takes_addresses_from_mail_toml(tmp_path):
    schema1 = ROOT / "tests" / "data" / "aa1941-schema1"
    if not (schema1 / "game.json").exists():
        pytest.skip("no schema-1 example in tests/data")
    gf, _ = gamedir.read_game(schema1)
    write_mail_toml(tmp_path, 'address = "gm@example.org"\n[players]\nussr = "Ivan <IVAN@example.org>"\n')
    players = players_of(gf, load_config(tmp_path))
    assert players["ussr"].email == "ivan@example.org"
    assert players["germany"].email is None
