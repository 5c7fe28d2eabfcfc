"""Crash safety of the game master's pass: the runner is killed (SIGKILL) at randomly
chosen points of a pass -- before the k-th file-system or SMTP operation (rename, link,
unlink, fsync, write, SMTP send) -- and one more pass must leave every message handled
exactly once, the published game verifiable and every mail sent.

The pass handles seven mails: an invalid order, two valid turns, a repeat, a check, an
unknown sender and an empty mail; mail goes out through a real SMTP server."""

from __future__ import annotations

import email
import email.message
import email.policy
import os
import random
import signal
import smtplib
from collections import Counter

import pytest

from adjudicator.io.layout import list_turns
from adjudicator.service.games import load_game
from adjudicator.service.audit import verify_game
from adjudicator.service.mail.journal import Journal
from mail_helpers import (
    EXAMPLE_ORDERS, copy_game, deliver, folder_keys, game_master, make_game, write_mail_toml,
)
from mail_servers import PASSWORD, certs, smtp  # noqa: F401

GAME_ID = "aa1941-example"
ENV = "PBEM_TEST_MAIL_PASSWORD"
POINTS = 22
HOOKED = [(os, "replace"), (os, "rename"), (os, "link"), (os, "unlink"), (os, "fsync"),
          (os, "write"), (smtplib.SMTP, "sendmail")]


def _mail(mid: str, sender: str, subject: str, body: str) -> bytes:
    msg = email.message.EmailMessage()
    msg["From"], msg["To"], msg["Subject"], msg["Message-ID"] = sender, "gm@example.org", subject, mid
    msg.set_content(body)
    return bytes(msg)


def _inbox_mails() -> list[bytes]:
    ussr, germany = (p.read_text(encoding="utf-8") for p in EXAMPLE_ORDERS[:2])
    tag = f"[pbem {GAME_ID}]"
    return [
        _mail("<m1@x>", "ivan@example.org", tag, ussr.replace("Karelia ->", "Karlia ->")),
        _mail("<m2@x>", "ivan@example.org", tag, ussr),
        _mail("<m3@x>", "ivan@example.org", tag + " again", ussr),
        _mail("<m4@x>", "hans@example.org", tag + " check", germany),
        _mail("<m5@x>", "hans@example.org", tag, germany),
        _mail("<m6@x>", "mallory@evil.example.net", tag, ussr),
        _mail("<m7@x>", "hans@example.org", tag, ""),
    ]


EXPECTED = {"<m1@x>": "invalid", "<m2@x>": "processed", "<m3@x>": "duplicate",
            "<m4@x>": "checked", "<m5@x>": "processed", "<m6@x>": "unknown-sender",
            "<m7@x>": "no-orders"}


@pytest.fixture(scope="module")
def template(tmp_path_factory, certs):
    base = tmp_path_factory.mktemp("crash")
    game = base / "game"
    make_game(game, GAME_ID)
    inbox = base / "inbox"
    for raw in _inbox_mails():
        deliver(inbox, raw)
    return base


def _setup(template, tmp_path, smtp, certs):
    base = copy_game(template, tmp_path / "run")
    write_mail_toml(base / "game", (
        f'address = "gm@example.org"\n'
        f'[inbox]\ntype = "maildir"\npath = "{base / "inbox"}"\n'
        f'[send]\ntype = "smtp"\nhost = "127.0.0.1"\nport = {smtp.port}\nusername = "gm"\n'
        f'password_env = "{ENV}"\nca_file = "{certs["ca"]}"\n'))
    return base


def _pass_in_child(base, crash_at: int, count_file) -> int:
    """Run one pass in a forked child, killed before operation ``crash_at`` (0: never).
    Returns the child's wait status."""
    pid = os.fork()
    if pid == 0:                                     # the child: never returns
        try:
            calls = [0]

            def hook(owner, name):
                real = getattr(owner, name)

                def counted(*args, **kwargs):
                    calls[0] += 1
                    if calls[0] == crash_at:
                        os.kill(os.getpid(), signal.SIGKILL)
                    return real(*args, **kwargs)
                setattr(owner, name, counted)

            gm = game_master(base / "game", GAME_ID)
            for owner, name in HOOKED:
                hook(owner, name)
            gm.run_pass()
            with open(count_file, "w") as fh:
                fh.write(str(calls[0]))
            os._exit(0)
        except BaseException:
            os._exit(1)
    _pid, status = os.waitpid(pid, 0)
    return status


def _check_after_recovery(base, smtp, expected_mail_ids):
    game, inbox = base / "game", base / "inbox"
    summary = game_master(game, GAME_ID).run_pass()
    assert not summary.flush.failed
    # Every message filed once, in the right folder; none left.
    assert not folder_keys(inbox, None)
    filed = folder_keys(inbox, "processed") + folder_keys(inbox, "rejected")
    assert len(filed) == len(set(filed)) == len(EXPECTED)
    journal = Journal(game / ".mail")
    # keyed by Message-ID and the digest of the mail's bytes
    assert {k.split(" sha256:")[0]: e["outcome"] for k, e in journal.entries.items()} == EXPECTED
    # The game: exactly the two turns, verifiable with a full replay.
    assert [n for n, _p, _x in list_turns(game)] == [1, 2]
    report = verify_game(game, load_game)
    assert report.ok, report.failure
    # Every mail went out; only the one in flight at the crash may have gone twice.
    sent = Counter(email.message_from_bytes(data, policy=email.policy.default)["Message-ID"]
                   for _f, _r, data in smtp.received)
    assert set(sent) == expected_mail_ids
    assert sum(n - 1 for n in sent.values()) <= 1
    assert not list((game / ".mail" / "outbox").glob("*.eml"))


def test_clean_pass_reference(template, tmp_path, smtp, certs, monkeypatch):
    monkeypatch.setenv(ENV, PASSWORD)
    base = _setup(template, tmp_path, smtp, certs)
    count_file = tmp_path / "count"
    assert _pass_in_child(base, 0, count_file) == 0
    ids = {email.message_from_bytes(d, policy=email.policy.default)["Message-ID"]
           for _f, _r, d in smtp.received}
    # 5 welcome + 2 x 5 results + replies to m1 (invalid), m3 (duplicate), m4 (check), m7 (empty)
    assert len(ids) == 5 + 10 + 4
    _check_after_recovery(base, smtp, ids)
    assert int(count_file.read_text()) >= POINTS


def test_killed_anywhere_one_more_pass_recovers(template, tmp_path, smtp, certs, monkeypatch):
    monkeypatch.setenv(ENV, PASSWORD)
    # The operations of a clean pass, and the mails it sends.
    ref = _setup(template, tmp_path / "ref", smtp, certs)
    count_file = tmp_path / "count"
    assert _pass_in_child(ref, 0, count_file) == 0
    total = int(count_file.read_text())
    expected_ids = {email.message_from_bytes(d, policy=email.policy.default)["Message-ID"]
                    for _f, _r, d in smtp.received}
    points = sorted(random.Random(20260301).sample(range(1, total + 1), POINTS))
    for i, at in enumerate(points):
        smtp.received.clear()
        base = _setup(template, tmp_path / f"crash{i}", smtp, certs)
        status = _pass_in_child(base, at, tmp_path / f"count{i}")
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, at
        try:
            _check_after_recovery(base, smtp, expected_ids)
        except AssertionError as exc:
            raise AssertionError(f"killed before operation {at} of {total}: {exc}") from exc
