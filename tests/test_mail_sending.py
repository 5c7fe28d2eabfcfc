"""Sending the outbox (issue 20 item 6, issue 25 "Mail sending"), against aiosmtpd on
loopback: one lock for the outbox (two passes at once send every mail once), one
``mail run`` per game at a time, a partial delivery recorded per recipient and never
repeated to those who got it, and a permanent refusal set aside with a notice to the
game master."""

from __future__ import annotations

import email
import email.policy
import threading

import pytest

from adjudicator.io.storage import exclusive_lock
from adjudicator.model.errors import PbemError
from adjudicator.service.mail import compose
from adjudicator.service.mail.config import PasswordSource, SmtpConfig
from adjudicator.service.mail.outbox import LOCK_FILE, Outbox
from adjudicator.service.mail.runner import PASS_BUSY, RUN_LOCK
from adjudicator.service.mail.senders import SmtpSender
from mail_helpers import body_text, game_master, make_game, maildir_toml, write_mail_toml
from mail_servers import PASSWORD, certs, smtp  # noqa: F401

ENV = "PBEM_TEST_MAIL_PASSWORD"
EVERYONE = ["ussr@example.org", "germany@example.org", "uk@example.org"]


@pytest.fixture(autouse=True)
def password_env(monkeypatch):
    monkeypatch.setenv(ENV, PASSWORD)


def _sender(server, certs) -> SmtpSender:
    return SmtpSender(SmtpConfig(host="127.0.0.1", port=server.port, security="starttls",
                                 username="gm", password=PasswordSource(env=ENV),
                                 ca_file=certs["ca"], timeout=10))


def _mail(n: int, to=EVERYONE) -> bytes:
    data = compose.turn_result(sender="gm@example.org", sender_name="GM", to=list(to),
                               game_id="g1", subject=f"turn {n}", body=f"result {n}\n",
                               name=f"t{n}", now=0, turn_number=n, power="ussr",
                               attachments=[])
    return data


def _recipients(server) -> list[str]:
    return sorted(r for _f, rcpts, _d in server.received for r in rcpts)


def test_a_recipient_refused_for_now_gets_it_later_and_only_they(smtp, certs, tmp_path):
    outbox = Outbox(tmp_path)
    outbox.queue("t1", _mail(1))
    smtp.refuse["uk@example.org"] = "450 4.2.1 mailbox busy, try later"
    first = outbox.flush(_sender(smtp, certs))
    assert first.sent == [] and first.failed and "450" in first.failed[0][1]
    assert _recipients(smtp) == ["germany@example.org", "ussr@example.org"]
    assert [p.name for p in outbox.pending()] == ["t1.eml"]
    again = outbox.flush(_sender(smtp, certs))           # still refused: nobody else again
    assert again.failed and _recipients(smtp) == ["germany@example.org", "ussr@example.org"]
    del smtp.refuse["uk@example.org"]
    smtp.received.clear()
    last = outbox.flush(_sender(smtp, certs))
    assert last.sent == ["t1.eml"] and not outbox.pending()
    assert _recipients(smtp) == ["uk@example.org"]       # only the one who did not have it
    assert not (tmp_path / "delivered.jsonl").exists()  # nothing queued: forgotten


def test_a_recipient_refused_for_good_sets_the_mail_aside_and_tells_the_game_master(
        smtp, certs, tmp_path):
    game_dir = tmp_path / "game"
    make_game(game_dir, "g1")
    write_mail_toml(game_dir, maildir_toml(tmp_path / "inbox") + (
        f'[send]\ntype = "smtp"\nhost = "127.0.0.1"\nport = {smtp.port}\n'
        f'security = "starttls"\nusername = "gm"\npassword_env = "{ENV}"\n'
        f'ca_file = "{certs["ca"]}"\n'))
    gm = game_master(game_dir, "g1")
    for name in list(gm.outbox.pending()):
        name.unlink()
    gm.outbox.queue("t1", _mail(1))
    smtp.refuse["uk@example.org"] = "550 5.1.1 no such user"
    result = gm.flush()
    assert [n for n, _ in result.undeliverable] == ["t1.eml"]
    assert "550" in result.undeliverable[0][1]
    assert (gm.outbox.undeliverable_dir / "t1.eml").exists() and not gm.outbox.pending()
    # the others got it once; the game master got the notice
    assert _recipients(smtp) == ["germany@example.org", "gm@example.org", "ussr@example.org"]
    raw = [d for _f, rcpts, d in smtp.received if rcpts == ["gm@example.org"]][0]
    notice = email.message_from_bytes(raw, policy=email.policy.default)
    assert "could not be delivered" in notice["Subject"]
    assert "uk@example.org: 550" in " ".join(body_text(notice).split())
    gm.flush()                                            # never retried
    assert len(smtp.received) == 2


def test_two_passes_at_once_send_each_mail_once(smtp, certs, tmp_path):
    outbox = Outbox(tmp_path)
    for n in range(1, 9):
        outbox.queue(f"t{n}", _mail(n, to=["ussr@example.org"]))
    results = []
    barrier = threading.Barrier(2)

    def flush():
        barrier.wait()
        results.append(Outbox(tmp_path).flush(_sender(smtp, certs)))

    threads = [threading.Thread(target=flush) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(smtp.received) == 8
    assert sorted(n for r in results for n in r.sent) == sorted(f"t{n}.eml" for n in range(1, 9))
    assert not any(r.failed for r in results)
    with exclusive_lock(tmp_path / LOCK_FILE, "held"):    # another pass holds the outbox
        outbox.queue("t9", _mail(9, to=["ussr@example.org"]))
        busy = outbox.flush(_sender(smtp, certs))
        assert busy.busy and not busy.sent and len(smtp.received) == 8


def test_one_mail_run_per_game_at_a_time(tmp_path):
    game_dir = tmp_path / "game"
    make_game(game_dir, "g1")
    write_mail_toml(game_dir, maildir_toml(tmp_path / "inbox"))
    gm = game_master(game_dir, "g1")
    gm.state_dir.mkdir(parents=True, exist_ok=True)
    with exclusive_lock(gm.state_dir / RUN_LOCK, "held"):
        with pytest.raises(PbemError, match="another 'pbem mail run'"):
            gm.run_pass()
    assert PASS_BUSY.startswith("another")
    gm.run_pass()                                          # free again
