"""Mail transports against real servers on loopback: SMTP (aiosmtpd, STARTTLS and
implicit TLS, login), sendmail (a script), the outbox with retry, IMAP (Dovecot, TLS
and STARTTLS, MOVE, IDLE); passwords from env, a command and the keyring; mail.toml."""

from __future__ import annotations

import stat
import sys
import threading
import time
from pathlib import Path

import pytest

from adjudicator.model.errors import PbemError
from adjudicator.service.mail import compose
from adjudicator.service.mail.config import (
    ConfigError, ImapConfig, PasswordSource, SendmailConfig, SmtpConfig, load_config,
)
from adjudicator.service.mail.inbox import open_source
from adjudicator.service.mail.outbox import Outbox
from adjudicator.service.mail.passwords import get_password
from adjudicator.service.mail.senders import SendError, SendmailSender, SmtpSender
from adjudicator.service.mail.sources import SourceError
from mail_servers import PASSWORD, SmtpServer, certs, dovecot, imap, smtp  # noqa: F401

ENV = "PBEM_TEST_MAIL_PASSWORD"


@pytest.fixture
def password_env(monkeypatch):
    monkeypatch.setenv(ENV, PASSWORD)


def _smtp_cfg(server, certs, **kw) -> SmtpConfig:
    base = dict(host="127.0.0.1", port=server.port, security="starttls", username="gm",
                password=PasswordSource(env=ENV), ca_file=certs["ca"], timeout=10)
    base.update(kw)
    return SmtpConfig(**base)


def _mail(n: int = 1, to: str = "ussr@example.org") -> bytes:
    return compose.reply(sender="gm@example.org", sender_name="GM", to=to, game_id="g1",
                         subject=f"test {n}", body=f"body {n}\n", name=f"t{n}", now=0)


# --------------------------------------------------------------------------- SMTP

def test_smtp_starttls_login_delivers(smtp, certs, password_env):
    with SmtpSender(_smtp_cfg(smtp, certs)) as s:
        s.send(_mail(), "gm@example.org", ["ussr@example.org"])
    assert smtp.logins == ["gm"]
    (frm, rcpts, data), = smtp.received
    assert frm == "gm@example.org" and rcpts == ["ussr@example.org"]
    assert b"Subject: [pbem g1] test 1" in data


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
def test_smtp_implicit_tls(certs, password_env):
    server = SmtpServer(certs, implicit=True).start()
    try:
        with SmtpSender(_smtp_cfg(server, certs, security="tls")) as s:
            s.send(_mail(), "gm@example.org", ["ussr@example.org"])
    finally:
        server.stop()
    assert len(server.received) == 1 and server.logins == ["gm"]


def test_smtp_wrong_password_is_a_clear_error(smtp, certs, monkeypatch):
    monkeypatch.setenv(ENV, "wrong")
    with pytest.raises(SendError, match="login as gm refused"):
        with SmtpSender(_smtp_cfg(smtp, certs)):
            pass
    assert not smtp.received


def test_smtp_untrusted_certificate_is_refused(smtp, certs, password_env):
    with pytest.raises(SendError, match="certificate does not verify"):
        with SmtpSender(_smtp_cfg(smtp, certs, ca_file=None)):
            pass


def test_outbox_keeps_failed_mail_and_retries(smtp, certs, password_env, tmp_path):
    outbox = Outbox(tmp_path)
    assert outbox.queue("a", _mail(1)) and outbox.queue("b", _mail(2))
    assert not outbox.queue("a", _mail(1))               # the same name is queued once
    smtp.fail_next = 1
    first = outbox.flush(SmtpSender(_smtp_cfg(smtp, certs)))
    assert first.sent == ["b.eml"] and [n for n, _ in first.failed] == ["a.eml"]
    assert "451" in first.failed[0][1]
    assert [p.name for p in outbox.pending()] == ["a.eml"]
    second = outbox.flush(SmtpSender(_smtp_cfg(smtp, certs)))
    assert second.sent == ["a.eml"] and not second.failed and not outbox.pending()
    assert sorted(p.name for p in (tmp_path / "sent").iterdir()) == ["a.eml", "b.eml"]
    assert not outbox.queue("a", _mail(1))               # sent before: not again
    assert len(smtp.received) == 2


def test_outbox_without_server_waits_for_the_mail_client(tmp_path):
    from adjudicator.service.mail.senders import NoSender
    outbox = Outbox(tmp_path)
    outbox.queue("a", _mail(1))
    result = outbox.flush(NoSender())
    assert result.waiting == ["a.eml"] and not result.sent
    assert (tmp_path / "outbox" / "a.eml").read_bytes() == _mail(1)


def test_outbox_server_down_keeps_everything(tmp_path, certs, password_env):
    from mail_servers import free_port
    outbox = Outbox(tmp_path)
    outbox.queue("a", _mail(1))
    cfg = SmtpConfig(host="127.0.0.1", port=free_port(), security="starttls", username="gm",
                     password=PasswordSource(env=ENV), ca_file=certs["ca"], timeout=5)
    result = outbox.flush(SmtpSender(cfg))
    assert [n for n, _ in result.failed] == ["a.eml"] and "connection refused" in result.failed[0][1]
    assert [p.name for p in outbox.pending()] == ["a.eml"]


# --------------------------------------------------------------------------- sendmail

def _script(path: Path, body: str) -> Path:
    path.write_text(f"#!{sys.executable}\n{body}")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


def test_sendmail_pipes_the_message(tmp_path):
    out = tmp_path / "delivered.eml"
    script = _script(tmp_path / "sendmail", "import sys\n"
                     f"open({str(out)!r}, 'wb').write(sys.stdin.buffer.read())\n"
                     f"open({str(out) + '.args'!r}, 'w').write(' '.join(sys.argv[1:]))\n")
    with SendmailSender(SendmailConfig((str(script), "-t", "-i"))) as s:
        s.send(_mail(), "gm@example.org", ["ussr@example.org"])
    assert out.read_bytes() == _mail()
    assert Path(str(out) + ".args").read_text() == "-t -i"


def test_sendmail_failure_is_a_send_error(tmp_path):
    script = _script(tmp_path / "sendmail", "import sys\nsys.stderr.write('queue full')\nsys.exit(75)\n")
    with pytest.raises(SendError, match="exit status 75.*queue full"):
        SendmailSender(SendmailConfig((str(script),))).send(_mail(), "a@b.org", ["c@d.org"])


# --------------------------------------------------------------------------- IMAP

def _imap_cfg(server, certs, **kw) -> ImapConfig:
    base = dict(host="127.0.0.1", port=server.imaps_port, security="tls", username="gm",
                password=PasswordSource(env=ENV), ca_file=certs["ca"], timeout=10)
    base.update(kw)
    return ImapConfig(**base)


def test_imap_lists_reads_and_files(imap, certs, password_env):
    imap.deliver("gm", _mail(1, "gm@example.org"))
    imap.deliver("gm", _mail(2, "gm@example.org"))
    with open_source(_imap_cfg(imap, certs)) as src:
        refs = src.list()
        assert len(refs) == 2 and all(r.size > 0 for r in refs)
        assert b"body 1" in src.read(refs[0])
        head = src.read_head(refs[1])
        assert b"Subject: [pbem g1] test 2" in head and b"body 2" not in head
        src.move(refs[0], "processed")
        src.move(refs[1], "rejected")
        assert src.list() == []
    assert imap.count("gm", "processed") == 1 and imap.count("gm", "rejected") == 1
    assert imap.count("gm") == 0


def test_imap_starttls_and_subject_search(imap, certs, password_env):
    imap.deliver("ussr", _mail(1))
    imap.deliver("ussr", compose.reply(sender="gm@example.org", sender_name="", to="ussr@example.org",
                                       game_id="other", subject="x", body="y\n", name="o", now=0))
    cfg = _imap_cfg(imap, certs, port=imap.imap_port, security="starttls", username="ussr")
    with open_source(cfg, filing=False) as src:
        assert len(src.list()) == 2
        assert len(src.list(subject="[pbem g1]")) == 1
    assert imap.count("ussr", "processed") == 0      # a player's inbox gets no folders


def test_imap_wrong_password_and_untrusted_server(imap, certs, monkeypatch):
    monkeypatch.setenv(ENV, "wrong")
    with pytest.raises(SourceError, match="login refused"):
        with open_source(_imap_cfg(imap, certs)):
            pass
    monkeypatch.setenv(ENV, PASSWORD)
    with pytest.raises(SourceError, match="certificate does not verify"):
        with open_source(_imap_cfg(imap, certs, ca_file=None)):
            pass


def test_imap_idle_returns_when_mail_arrives(imap, certs, password_env):
    stop = threading.Event()
    with open_source(_imap_cfg(imap, certs)) as src:
        assert src.client.has_capability("IDLE")
        timer = threading.Timer(0.5, lambda: imap.deliver("gm", _mail(3, "gm@example.org")))
        timer.start()
        started = time.monotonic()
        src.wait(60, stop)
        waited = time.monotonic() - started
        timer.join()
        assert waited < 30             # woken by the new mail, not by the 60 s timeout
        assert len(src.list()) == 1


# --------------------------------------------------------------------------- passwords

def test_password_sources(tmp_path, monkeypatch):
    monkeypatch.setenv(ENV, "from-env")
    assert get_password(PasswordSource(env=ENV), "u", "x") == "from-env"
    monkeypatch.delenv(ENV)
    with pytest.raises(PbemError, match=f"{ENV} .* is not set"):
        get_password(PasswordSource(env=ENV), "u", "x")
    script = _script(tmp_path / "pw", "print('from-command')\nprint('ignored')\n")
    assert get_password(PasswordSource(command=(str(script),)), "u", "x") == "from-command"
    bad = _script(tmp_path / "bad", "import sys\nsys.stderr.write('vault locked')\nsys.exit(2)\n")
    with pytest.raises(PbemError, match="exit status 2.*vault locked"):
        get_password(PasswordSource(command=(str(bad),)), "u", "x")
    with pytest.raises(PbemError, match="not found"):
        get_password(PasswordSource(command=(str(tmp_path / "missing"),)), "u", "x")


def test_password_from_keyring(monkeypatch):
    keyring = pytest.importorskip("keyring")
    from keyring.backend import KeyringBackend

    class Memory(KeyringBackend):
        priority = 1
        store: dict = {}

        def get_password(self, service, username):
            return self.store.get((service, username))

        def set_password(self, service, username, password):
            self.store[(service, username)] = password

        def delete_password(self, service, username):
            self.store.pop((service, username), None)

    previous = keyring.get_keyring()
    keyring.set_keyring(Memory())
    try:
        keyring.set_password("pbem-smtp", "gm", "from-keyring")
        assert get_password(PasswordSource(keyring_service="pbem-smtp"), "gm", "x") == "from-keyring"
        with pytest.raises(PbemError, match="keyring set pbem-smtp other"):
            get_password(PasswordSource(keyring_service="pbem-smtp"), "other", "x")
    finally:
        keyring.set_keyring(previous)


def test_password_keyring_without_the_optional_package(monkeypatch):
    """keyring is an extra: without it, password_keyring says how to get it."""
    monkeypatch.setitem(sys.modules, "keyring", None)          # import keyring -> ImportError
    with pytest.raises(PbemError, match=r"pbem-adjudicator\[keyring\]"):
        get_password(PasswordSource(keyring_service="pbem-smtp"), "gm", "x")


# --------------------------------------------------------------------------- mail.toml

def _load(tmp_path, text):
    (tmp_path / "mail.toml").write_text(text)
    return load_config(tmp_path)


def test_config_full_example(tmp_path):
    cfg = _load(tmp_path, '''
address = "GM <gm@example.org>"
poll_seconds = 30
[players]
ussr = "ivan@example.org"
[inbox]
type = "imap"
host = "imap.example.org"
username = "gm@example.org"
password_command = "pass show mail/pbem"
[send]
type = "smtp"
host = "smtp.example.org"
username = "gm@example.org"
password_keyring = "pbem-smtp"
[limits]
max_message_bytes = 100000
''')
    assert cfg.address == "gm@example.org" and cfg.players == {"ussr": "ivan@example.org"}
    assert (cfg.inbox.port, cfg.inbox.security) == (993, "tls")
    assert cfg.inbox.password.command == ("pass", "show", "mail/pbem")
    assert (cfg.send.port, cfg.send.security) == (587, "starttls")
    assert cfg.limits.max_message_bytes == 100000 and cfg.poll_seconds == 30
    assert cfg.state_path == tmp_path / ".mail"


@pytest.mark.parametrize("text, message", [
    ('address = "gm@example.org"\nadress = "x"\n', "adress: unknown setting"),
    ('address = "gm@example.org"\n[send]\ntype = "smtp"\nhost = "h.example.org"\n'
     'username = "u"\npassword = "hunter2"\n', "passwords are never stored in mail.toml"),
    ('address = "gm@example.org"\n[inbox]\ntype = "imap"\nhost = "imap.example.org"\n'
     'security = "none"\nusername = "u"\npassword_env = "X"\n', "only for a server on this machine"),
    ('address = "gm@example.org"\n[inbox]\ntype = "imap"\nhost = "h.example.org"\nusername = "u"\n',
     "needs a password source"),
    ('address = "not an address"\n', "is not a mail address"),
    ('address = "gm@example.org"\n[inbox]\ntype = "pop3"\n', "must be one of imap, maildir"),
    ('address = "gm@example.org"\n[limits]\nmax_attachments = 0\n', "positive whole number"),
    ('address = = "x"\n', "not valid TOML"),
])
def test_config_errors_say_where_and_why(tmp_path, text, message):
    with pytest.raises(ConfigError, match=message):
        _load(tmp_path, text)


def test_config_missing_file(tmp_path):
    with pytest.raises(ConfigError, match="mail.toml does not exist"):
        load_config(tmp_path)


@pytest.mark.parametrize("send, kind", [
    ("", "outbox"),                                         # no [send] table
    ("[send]\n", "outbox"),                                 # an empty one: the same
    ('[send]\nhost = "smtp.example.org"\n', "smtp"),
    ('[send]\ncommand = "/usr/sbin/sendmail -t -i"\n', "sendmail"),
    ('[send]\ntype = "outbox"\n', "outbox"),
])
def test_send_type_defaults_as_documented(send, kind, tmp_path):
    """docs/mail.md: ``[send]`` defaults to the outbox, and its ``type`` to smtp with a
    host, sendmail with a command, else outbox (issue 23: "required" and "defaults to
    outbox" at once)."""
    from adjudicator.service.mail.config import load_config
    (tmp_path / "mail.toml").write_text('address = "gm@example.org"\n' + send)
    assert load_config(tmp_path).send.kind == kind
