"""Hostile mail (issue 20): a mail that cannot be parsed never stops a pass -- it is
journaled, set aside in the "quarantine" folder and the game master is told, on a real
Dovecot (IMAP) and SMTP server and in a dice keeper's Maildir; and the wording for a
keyless power in a game where other powers have keys."""

from __future__ import annotations

import email
import email.policy
import mailbox

import pytest

from adjudicator.cli import main
from adjudicator.io import keys
from adjudicator.io.layout import list_turns
from adjudicator.service import gamedir
from adjudicator.service.games import load_game
from adjudicator.service.mail import message
from adjudicator.service.mail.journal import Journal
from keeper_helpers import EMAIL, GAME_ID, keeper_game, mail_toml
from mail_helpers import (
    CORPUS, PLAYERS, body_text, deliver, folder_keys, game_master, make_game,
    maildir_toml, outbox_messages, write_mail_toml,
)
from mail_servers import PASSWORD, certs, dovecot, imap, smtp_imap  # noqa: F401

ENV = "PBEM_TEST_MAIL_PASSWORD"
NESTED = (CORPUS / "nested-multipart.eml").read_bytes()


def _pbem(*argv) -> int:
    return main([str(a) for a in argv])


def test_an_unparsable_mail_is_quarantined_and_the_pass_goes_on_imap(
        tmp_path, imap, smtp_imap, certs, monkeypatch, capsys):
    monkeypatch.setenv(ENV, PASSWORD)
    gm = tmp_path / "gm"
    make_game(gm, "corpus")
    write_mail_toml(gm, (
        f'address = "gm@example.org"\nname = "Game Master"\n'
        f'[inbox]\ntype = "imap"\nhost = "127.0.0.1"\nport = {imap.imaps_port}\n'
        f'username = "gm"\npassword_env = "{ENV}"\nca_file = "{certs["ca"]}"\n'
        f'[send]\ntype = "smtp"\nhost = "127.0.0.1"\nport = {smtp_imap.port}\n'
        f'security = "starttls"\nusername = "gm"\npassword_env = "{ENV}"\n'
        f'ca_file = "{certs["ca"]}"\n'))
    imap.deliver("gm", NESTED)                                  # first: it must not block
    imap.deliver("gm", (CORPUS / "qp.eml").read_bytes())
    assert _pbem("mail", "run", "-g", gm, "--demo-seeds") == 0
    assert imap.count("gm", "quarantine") == 1
    assert imap.count("gm", "processed") == 1
    assert [n for n, _p, _x in list_turns(gm)] == [1]
    outcomes = sorted(e["outcome"] for e in Journal(gm / ".mail").entries.values())
    assert outcomes == ["processed", "unreadable"]
    # The game master's notice came back through SMTP into the game master's inbox; the
    # sender (a stranger) got nothing.
    notices = [email.message_from_bytes(m, policy=email.policy.default)
               for m in imap.messages("gm")]
    notice, = [m for m in notices if "could not be read" in m["Subject"]]
    assert "more than 200 MIME parts" in body_text(notice)
    assert "stranger@example.net" in body_text(notice)
    assert "stranger" not in " ".join(r for _f, rcpts, _d in smtp_imap.received for r in rcpts)
    # The next pass files the notice (our own mail) and never reads the quarantined one again.
    assert _pbem("mail", "run", "-g", gm, "--demo-seeds") == 0
    assert imap.count("gm") == 0 and imap.count("gm", "quarantine") == 1


def test_an_unparsable_mail_is_quarantined_by_a_dice_keeper(tmp_path, capsys):
    dirs = keeper_game(tmp_path)
    al = dirs["al"]
    (al / "mail.toml").write_text(mail_toml("al", tmp_path), encoding="utf-8")
    inbox = tmp_path / "inbox" / "al"
    inbox.parent.mkdir()
    key = mailbox.Maildir(inbox, create=True).add(
        NESTED.replace(b"[pbem corpus]", f"[pbem {GAME_ID}]".encode()))
    assert _pbem("mail", "run", "-g", al, "--demo-seeds") == 0
    assert key in folder_keys(inbox, "quarantine")
    notice, = [m for m in outbox_messages(al).values() if "could not be read" in m["Subject"]]
    assert notice["To"] == EMAIL["al"]
    assert _pbem("mail", "run", "-g", al, "--demo-seeds") == 0        # and again: no crash


def test_a_keyless_power_among_keyed_ones_is_told_it_has_no_key(tmp_path):
    key_dir = tmp_path / "keys"
    key_dir.mkdir()
    players = {power: {"email": address} for power, address in PLAYERS.items()}
    for power in ("germany", "uk", "japan", "usa"):
        keys.new_keypair(key_dir / power, f"{power}@pbem-test")
        players[power]["key"] = str(key_dir / f"{power}.pub")
    game_dir = tmp_path / "game"
    gamedir.create_game(game_dir, load_game("aa1941"), "corpus", created="2026-03-01",
                        players=players, seeds=gamedir.demo_seeds("corpus"))
    inbox = tmp_path / "inbox"
    write_mail_toml(game_dir, maildir_toml(inbox))
    deliver(inbox, (CORPUS / "check-subject.eml").read_bytes())
    assert game_master(game_dir, "corpus").run_pass().outcomes == {"checked": 1}
    reply, = [m for k, m in outbox_messages(game_dir).items() if k.startswith("reply-")]
    text = " ".join(body_text(reply).split())
    assert "Soviet Union has no player key in this game (other powers have one)" in text
    assert "this game has no player keys" not in text


@pytest.mark.parametrize("signed", [True, False])
def test_a_rejection_in_a_game_with_keys_never_says_it_has_none(signed, tmp_path):
    """Every power has a key: a rejected mail -- invalid signed orders, or orders that
    are not signed -- says why, and never that the game has no player keys (issue 23)."""
    from adjudicator.io import sshsig
    key_dir = tmp_path / "keys"
    game_dir = tmp_path / "game"
    make_game(game_dir, "corpus", keyed=True, key_dir=key_dir)
    inbox = tmp_path / "inbox"
    write_mail_toml(game_dir, maildir_toml(inbox))
    orders = b"game: corpus\nturn: 1\nbuy 99 battleship\n"
    msg = email.message.EmailMessage()
    msg["From"], msg["To"] = PLAYERS["ussr"], "gm@example.org"
    msg["Subject"], msg["Message-ID"] = "[pbem corpus] orders", "<keyed-1@x>"
    msg.set_content("My orders are attached.\n")
    msg.add_attachment(orders, maintype="text", subtype="plain", filename="orders.txt")
    if signed:
        signature = sshsig.sign(orders, keys.load_private_key(key_dir / "ussr"),
                                sshsig.NAMESPACE_ORDERS)
        msg.add_attachment(signature.encode(), maintype="application",
                           subtype="octet-stream", filename="orders.txt.sig")
    deliver(inbox, bytes(msg))
    outcomes = game_master(game_dir, "corpus").run_pass().outcomes
    assert outcomes == {"invalid" if signed else "unauthorised": 1}, outcomes
    reply, = [m for k, m in outbox_messages(game_dir).items() if k.startswith("reply-")]
    text = " ".join(body_text(reply).split())
    assert "no player key" not in text and "sender address alone" not in text, text


def test_any_parser_exception_is_unreadable_mail_never_an_internal_error(monkeypatch):
    """Whatever the email package (or our reader) raises on bad input is bad input."""

    def broken(*_args, **_kwargs):
        raise AttributeError("the parser tripped over a header")

    monkeypatch.setattr(message.email, "message_from_bytes", broken)
    with pytest.raises(message.UnreadableMail, match="AttributeError"):
        message.parse_message((CORPUS / "qp.eml").read_bytes())
    monkeypatch.undo()
    with pytest.raises(message.UnreadableMail, match="more than 200 MIME parts"):
        message.parse_message(NESTED)
