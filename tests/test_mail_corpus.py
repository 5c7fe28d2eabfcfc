"""The corpus of realistic mails (tests/mail_corpus/*.eml) against a real game: each one
alone in a Maildir inbox, one game master pass, and the outcome expected in
tests/mail_corpus/expected.toml (journal outcome, folder, published turn, reply)."""

from __future__ import annotations

import email.message
import io
import zipfile
import tomllib
from xml.etree import ElementTree

import pytest

from adjudicator.io import keys, sshsig
from adjudicator.io.layout import list_turns, orders_path
from adjudicator.service.mail.journal import Journal
from mail_helpers import (
    CORPUS, EXAMPLE_ORDERS, body_text, copy_game, deliver, folder_keys, game_master,
    make_game, maildir_toml, outbox_messages, write_mail_toml,
)

EXPECTED = tomllib.loads((CORPUS / "expected.toml").read_text(encoding="utf-8"))
USSR_ORDERS = EXAMPLE_ORDERS[0].read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def templates(tmp_path_factory):
    base = tmp_path_factory.mktemp("corpus-games")
    make_game(base / "plain", "corpus")
    make_game(base / "keyed", "corpus", keyed=True, key_dir=base / "keys")
    return base


def _signed_mail(templates, text: str, mid: str) -> bytes:
    key = keys.load_private_key(templates / "keys" / "ussr")
    data = text.encode("utf-8")
    msg = email.message.EmailMessage()
    msg["From"] = "Ivan Petrov <ivan@example.org>"
    msg["To"] = "gm@example.org"
    msg["Subject"] = "[pbem corpus] orders"
    msg["Message-ID"] = mid
    msg.set_content("Signed orders attached.\n")
    msg.add_attachment(data, maintype="text", subtype="plain", filename="ussr.txt")
    msg.add_attachment(sshsig.sign(data, key, sshsig.NAMESPACE_ORDERS).encode(),
                       maintype="application", subtype="octet-stream", filename="ussr.txt.sig")
    return bytes(msg)


def _huge() -> bytes:
    msg = email.message.EmailMessage()
    msg["From"] = "ivan@example.org"
    msg["To"] = "gm@example.org"
    msg["Subject"] = "[pbem corpus] holiday pictures"
    msg["Message-ID"] = "<huge-1@mail.example.org>"
    msg.set_content(USSR_ORDERS)
    msg.add_attachment(bytes(range(256)) * (3 * 1024 * 1024 // 256), maintype="image",
                       subtype="jpeg", filename="beach.jpg")
    return bytes(msg)


def _messages(name: str, templates) -> list[bytes]:
    """What arrives for corpus entry ``name`` (in this order)."""
    signed_text = "game: corpus\nturn: 1\n" + USSR_ORDERS
    if name == "huge":
        return [_huge()]
    if name == "replayed-signed":
        return [_signed_mail(templates, signed_text, "<signed-1@x>"),
                _signed_mail(templates, signed_text, "<signed-2@x>")]
    if name == "reused-message-id":
        orders = (CORPUS / "qp.eml").read_bytes()
        stranger = (CORPUS / "untagged.eml").read_bytes().replace(
            b"ivan@example.org", b"stranger@example.net")
        return [stranger.replace(b"<untag-1@mail.example.org>", b"<qp-1@mail.example.org>"),
                orders]
    if name == "replayed-signed-rejected":
        other = signed_text.replace("buy 2 inf ", "buy 1 inf ")
        return [_signed_mail(templates, signed_text, "<signed-1@x>"),
                _signed_mail(templates, other, "<signed-3@x>")]
    return [(CORPUS / f"{name}.eml").read_bytes()]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_corpus_message(name, templates, tmp_path):
    want = EXPECTED[name]
    game_dir = copy_game(templates / want.get("game", "plain"), tmp_path / "game")
    inbox = tmp_path / "inbox"
    write_mail_toml(game_dir, maildir_toml(inbox))
    gm = game_master(game_dir, "corpus")
    messages = _messages(name, templates)
    for i, raw in enumerate(messages):
        key = deliver(inbox, raw)
        summary = gm.run_pass()
        last = i == len(messages) - 1
        if not last:
            # A first, genuine copy: processed as turn 1, its results queued (or what
            # "first" says).
            assert summary.outcomes == {want.get("first", "processed"): 1}, summary.line()
            continue
        if want["outcome"] == "left":
            assert summary.other_games == 1 and not summary.outcomes
        else:
            assert dict(summary.outcomes) == {want["outcome"]: 1}, summary.line()
        where = {"inbox": None, "processed": "processed", "rejected": "rejected",
                 "quarantine": "quarantine"}[want["folder"]]
        assert key in folder_keys(inbox, where)
        if where is not None:
            assert key not in folder_keys(inbox, None)

    turns = list_turns(game_dir)
    assert [n for n, _p, _path in turns] == ([1] if "turn" in want or len(messages) > 1 else [])
    if "orders_contain" in want:
        assert want["orders_contain"] in orders_path(game_dir, 1, "ussr").read_text("utf-8")
    for hidden in want.get("orders_lack", []):
        assert hidden not in orders_path(game_dir, 1, "ussr").read_text("utf-8")

    mails = outbox_messages(game_dir)
    replies = {k: m for k, m in mails.items() if k.startswith("reply-")}
    results = {k: m for k, m in mails.items() if k.startswith("turn-")}
    if turns:
        # Every player gets the result once, with the published files attached.
        assert sorted(m["To"] for m in results.values()) == sorted(
            ["ivan@example.org", "hans@example.org", "tom@example.org", "taro@example.org",
             "sam@example.org"])
        parts = {p.get_filename(): p for p in next(iter(results.values())).iter_attachments()}
        assert set(parts) == {"0001-ussr.json", "0001-ussr.json.sig", "0001-ussr.txt",
                              "report-0001-ussr.zip"}         # the game file: in the welcome
        with zipfile.ZipFile(io.BytesIO(parts["report-0001-ussr.zip"].get_content())) as z:
            assert z.namelist() == ["report-0001-ussr.html"]       # it shows the board
            html = z.read("report-0001-ussr.html").decode("utf-8")
            board = ElementTree.fromstring(html[html.index("<svg"):html.index("</svg>") + 6])
        assert board.tag == "{http://www.w3.org/2000/svg}svg"
    else:
        assert not results
    if want["reply"]:
        assert [m["To"] for m in replies.values()] == [want["reply"]]
        reply = next(iter(replies.values()))
        assert want["says"] in body_text(reply), body_text(reply)
        assert reply["Subject"].startswith("[pbem corpus]")
        assert reply["Auto-Submitted"] == "auto-replied"
    else:
        assert not replies
    # Journal: one entry per message handled, none for a message left alone.
    journal = Journal(game_dir / ".mail")
    assert len(journal.entries) == (0 if want["outcome"] == "left" else len(messages))


def test_second_pass_changes_nothing(templates, tmp_path):
    """A message already handled is never handled again, even if it arrives twice."""
    game_dir = copy_game(templates / "plain", tmp_path / "game")
    inbox = tmp_path / "inbox"
    write_mail_toml(game_dir, maildir_toml(inbox))
    raw = (CORPUS / "qp.eml").read_bytes()
    deliver(inbox, raw)
    gm = game_master(game_dir, "corpus")
    assert gm.run_pass().outcomes == {"processed": 1}
    before = outbox_messages(game_dir)
    deliver(inbox, raw)                         # the same mail delivered again
    assert gm.run_pass().outcomes == {"processed": 1}     # filed from the journal
    assert [n for n, _p, _x in list_turns(game_dir)] == [1]
    assert outbox_messages(game_dir).keys() == before.keys()
    assert len(folder_keys(inbox, "processed")) == 2 and not folder_keys(inbox, None)


def test_second_different_submission_gets_a_clear_reply(templates, tmp_path):
    """Unsigned, without a turn header: new orders from the power that just moved are only
    checked, and the reply says its turn was already processed."""
    game_dir = copy_game(templates / "plain", tmp_path / "game")
    inbox = tmp_path / "inbox"
    write_mail_toml(game_dir, maildir_toml(inbox))
    gm = game_master(game_dir, "corpus")
    deliver(inbox, (CORPUS / "base64.eml").read_bytes())
    assert gm.run_pass().outcomes == {"processed": 1}
    changed = (CORPUS / "top-posted.eml").read_bytes().replace(b"buy 2 inf ", b"buy 1 inf ")
    deliver(inbox, changed)
    assert gm.run_pass().outcomes == {"checked": 1}
    reply, = [m for k, m in outbox_messages(game_dir).items() if k.startswith("reply-")]
    assert "turn 1 was already processed with the orders received earlier" in body_text(reply)
    assert [n for n, _p, _x in list_turns(game_dir)] == [1]


def test_orders_after_an_nmr_say_so(templates, tmp_path):
    """The USSR's turn was played as an NMR at its deadline; its orders mailed afterwards
    are only checked, and the reply says they came too late for that turn."""
    from adjudicator.service import gamedir
    from adjudicator.service.games import load_game
    game_dir = copy_game(templates / "plain", tmp_path / "game")
    gamedir.process_turn(game_dir, load_game("aa1941"), "nmr 2025-03-04T12:00:00Z\n")
    inbox = tmp_path / "inbox"
    write_mail_toml(game_dir, maildir_toml(inbox))
    gm = game_master(game_dir, "corpus")
    deliver(inbox, (CORPUS / "base64.eml").read_bytes())
    assert gm.run_pass().outcomes == {"checked": 1}
    reply, = [m for k, m in outbox_messages(game_dir).items() if k.startswith("reply-")]
    text = body_text(reply)
    assert "Soviet Union's turn 1 was played as an NMR at its deadline 2025-03-04T12:00:00Z" \
        in text and "came too late" in text and "received earlier" not in text
    assert [n for n, _p, _x in list_turns(game_dir)] == [1]


def test_signature_counts_from_another_address(templates, tmp_path):
    """In a game with keys the signature decides: signed orders from the player's other
    address are processed; unsigned ones from it are mail from a stranger."""
    game_dir = copy_game(templates / "keyed", tmp_path / "game")
    inbox = tmp_path / "inbox"
    write_mail_toml(game_dir, maildir_toml(inbox))
    gm = game_master(game_dir, "corpus")
    raw = _signed_mail(templates, "game: corpus\nturn: 1\n" + USSR_ORDERS, "<mobile-1@x>")
    deliver(inbox, raw.replace(b"ivan@example.org", b"ivan.phone@example.net"))
    deliver(inbox, (CORPUS / "base64.eml").read_bytes().replace(b"ivan@example.org",
                                                                  b"ivan.phone@example.net"))
    assert gm.run_pass().outcomes == {"processed": 1, "unknown-sender": 1}
    assert [n for n, _p, _x in list_turns(game_dir)] == [1]
    assert not [k for k in outbox_messages(game_dir) if k.startswith("reply-")]
