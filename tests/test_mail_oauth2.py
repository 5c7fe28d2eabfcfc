"""OAuth2 (SASL XOAUTH2) logins against real servers on loopback: aiosmtpd with an XOAUTH2
mechanism that checks the token, and a small IMAP server speaking the protocol over a real
socket (Dovecot accepts XOAUTH2 only with a token-introspection backend), reached through
imapclient's ``oauth2_login``.  The token comes from password_env / password_command like a
password; a refused login names what to check, per provider."""

from __future__ import annotations

import base64
import socketserver
import sys
import threading
from email.message import EmailMessage

import pytest

from adjudicator.model.errors import PbemError
from adjudicator.service.mail.config import ImapConfig, PasswordSource, SmtpConfig, load_config
from adjudicator.service.mail.imap import ImapSource
from adjudicator.service.mail.login import refused_hint, xoauth2
from adjudicator.service.mail.senders import SendError, SmtpSender
from adjudicator.service.mail.sources import SourceError

from mail_servers import certs, free_port, server_context  # noqa: F401  (certs: a fixture)

TOKEN = "ya29.a0-test-access-token"
ENV = "PBEM_TEST_OAUTH_TOKEN"


def _parse_xoauth2(data: bytes) -> tuple[str | None, str]:
    fields = dict(f.split("=", 1) for f in base64.b64decode(data).decode().split("\x01") if f)
    return fields.get("user"), fields.get("auth", "").removeprefix("Bearer ")


# --------------------------------------------------------------------------- SMTP

class OAuthSmtp:
    """aiosmtpd (STARTTLS) whose only login is XOAUTH2, accepting ``TOKEN`` for any user; a
    wrong token gets Gmail's answer: a 334 challenge with the error, then 535."""

    def __init__(self, certs, offer_xoauth2: bool = True):
        from aiosmtpd.controller import Controller
        from aiosmtpd.smtp import AuthResult

        self.received, self.logins = [], []
        outer = self

        class Handler:
            async def handle_DATA(self, smtp, session, envelope):
                outer.received.append((envelope.mail_from, list(envelope.rcpt_tos)))
                return "250 OK"

            async def auth_XOAUTH2(self, server, args):
                data = args[1].encode() if len(args) > 1 else await server.challenge_auth("")
                user, token = _parse_xoauth2(data)
                if token == TOKEN:
                    outer.logins.append(user)
                    return AuthResult(success=True, handled=False, auth_data=user)
                await server.challenge_auth(b'{"status":"400","schemes":"Bearer"}')
                return AuthResult(success=False, handled=False,
                                  message="535 5.7.8 Username and Password not accepted")

        self.port = free_port()
        excluded = ["PLAIN", "LOGIN"] + ([] if offer_xoauth2 else ["XOAUTH2"])
        self.controller = Controller(
            Handler(), hostname="127.0.0.1", port=self.port, tls_context=server_context(certs),
            require_starttls=True, auth_required=True, auth_require_tls=True,
            auth_exclude_mechanism=excluded)

    def __enter__(self):
        self.controller.start()
        return self

    def __exit__(self, *exc):
        self.controller.stop()


def _mail() -> EmailMessage:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "gm@example.org", "ussr@example.org", "[pbem g1] x"
    msg.set_content("hello\n")
    return msg


def _smtp_cfg(server, certs, **kw) -> SmtpConfig:
    base = dict(host="127.0.0.1", port=server.port, security="starttls", username="gm@example.org",
                password=PasswordSource(env=ENV), ca_file=certs["ca"], timeout=10, auth="oauth2")
    return SmtpConfig(**{**base, **kw})


def test_smtp_xoauth2_login_with_a_token_from_a_command(certs, tmp_path):
    helper = tmp_path / "token-helper"
    helper.write_text(f"#!{sys.executable}\nprint({TOKEN!r})\n")
    helper.chmod(0o755)
    with OAuthSmtp(certs) as server:
        cfg = _smtp_cfg(server, certs, password=PasswordSource(command=(str(helper),)))
        with SmtpSender(cfg) as sender:
            sender.send(bytes(_mail()), "gm@example.org", ["ussr@example.org"])
    assert server.logins == ["gm@example.org"]
    assert server.received == [("gm@example.org", ["ussr@example.org"])]


def test_smtp_refused_token_says_what_to_check(certs, monkeypatch):
    monkeypatch.setenv(ENV, "expired-token")
    with OAuthSmtp(certs) as server:
        with pytest.raises(SendError, match=r"refused \(535 .*valid access token"):
            with SmtpSender(_smtp_cfg(server, certs)):
                pass
    assert server.logins == []


def test_smtp_server_without_xoauth2_is_named(certs, monkeypatch):
    monkeypatch.setenv(ENV, TOKEN)
    with OAuthSmtp(certs, offer_xoauth2=False) as server:
        with pytest.raises(PbemError, match="does not offer XOAUTH2"):
            with SmtpSender(_smtp_cfg(server, certs)):
                pass


# --------------------------------------------------------------------------- IMAP

class MiniImap(socketserver.ThreadingTCPServer):
    """IMAP4rev1 on loopback, enough for a login and SELECT: AUTHENTICATE XOAUTH2 accepts
    ``TOKEN`` (a wrong one: Gmail's error challenge, then NO); LOGIN is always refused."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self):
        self.seen: list[tuple[str | None, str]] = []
        super().__init__(("127.0.0.1", 0), _ImapSession)
        self.port = self.server_address[1]

    def __enter__(self):
        threading.Thread(target=self.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc):
        self.shutdown()
        self.server_close()


class _ImapSession(socketserver.StreamRequestHandler):
    def say(self, line: str) -> None:
        self.wfile.write(line.encode() + b"\r\n")

    def handle(self) -> None:
        self.say("* OK [CAPABILITY IMAP4rev1 AUTH=XOAUTH2] ready")
        authenticated = False
        for raw in self.rfile:
            tag, _, rest = raw.decode().strip().partition(" ")
            command, _, args = rest.partition(" ")
            command = command.upper()
            if command == "CAPABILITY":
                self.say("* CAPABILITY IMAP4rev1 AUTH=XOAUTH2")
                self.say(f"{tag} OK CAPABILITY completed")
            elif command == "AUTHENTICATE" and args.split()[0].upper() == "XOAUTH2":
                parts = args.split()
                if len(parts) < 2:
                    self.say("+ ")
                    parts.append(self.rfile.readline().decode().strip())
                user, token = _parse_xoauth2(parts[1].encode())
                self.server.seen.append((user, token))
                if token == TOKEN:
                    authenticated = True
                    self.say(f"{tag} OK AUTHENTICATE completed")
                else:
                    error = base64.b64encode(b'{"status":"400","schemes":"Bearer"}').decode()
                    self.say(f"+ {error}")
                    self.rfile.readline()
                    self.say(f"{tag} NO [AUTHENTICATIONFAILED] Invalid credentials (Failure)")
            elif command == "LOGIN":
                self.say(f"{tag} NO [AUTHENTICATIONFAILED] passwords are not accepted")
            elif command in ("SELECT", "EXAMINE") and authenticated:
                for line in ("* FLAGS (\\Seen)", "* 0 EXISTS", "* 0 RECENT",
                             "* OK [UIDVALIDITY 1] UIDs valid"):
                    self.say(line)
                self.say(f"{tag} OK [READ-WRITE] SELECT completed")
            elif command == "NOOP":
                self.say(f"{tag} OK NOOP completed")
            elif command == "LOGOUT":
                self.say("* BYE logging out")
                self.say(f"{tag} OK LOGOUT completed")
                return
            else:
                self.say(f"{tag} BAD not here")


def _imap_cfg(server, **kw) -> ImapConfig:
    base = dict(host="127.0.0.1", port=server.port, security="none", username="gm@example.org",
                password=PasswordSource(env=ENV), timeout=10, auth="oauth2")
    return ImapConfig(**{**base, **kw})


def test_imap_xoauth2_login_through_imapclient(monkeypatch):
    monkeypatch.setenv(ENV, TOKEN)
    with MiniImap() as server:
        with ImapSource(_imap_cfg(server), filing=False) as source:
            assert source.client is not None
    assert server.seen == [("gm@example.org", TOKEN)]


def test_imap_refused_token_and_refused_password_say_what_to_check(monkeypatch):
    monkeypatch.setenv(ENV, "stale")
    with MiniImap() as server:
        with pytest.raises(SourceError, match="login refused; .*valid access token"):
            with ImapSource(_imap_cfg(server), filing=False):
                pass
        with pytest.raises(SourceError, match="login refused; check the user name and the "
                                              "password source"):
            with ImapSource(_imap_cfg(server, auth="password"), filing=False):
                pass
    assert server.seen == [("gm@example.org", "stale")]


# --------------------------------------------------------------------------- settings, hints

def test_mail_toml_auth_setting(tmp_path):
    (tmp_path / "mail.toml").write_text(
        'address = "gm@example.org"\n'
        '[inbox]\ntype = "imap"\nhost = "outlook.office365.com"\nusername = "gm@outlook.com"\n'
        'auth = "oauth2"\npassword_command = "oama access gm@outlook.com"\n'
        '[send]\ntype = "smtp"\nhost = "smtp.gmail.com"\nusername = "gm@gmail.com"\n'
        'auth = "oauth2"\npassword_command = "oama access gm@gmail.com"\n')
    cfg = load_config(tmp_path)
    assert cfg.inbox.auth == "oauth2" and cfg.send.auth == "oauth2"
    (tmp_path / "mail.toml").write_text('address = "gm@example.org"\n[send]\ntype = "smtp"\n'
                                        'host = "smtp.example.org"\nauth = "kerberos"\n')
    with pytest.raises(PbemError, match="auth"):
        load_config(tmp_path)


@pytest.mark.parametrize("host, auth, expected", [
    ("imap.gmail.com", "password", "app password"),
    ("smtp.gmail.com", "oauth2", "https://mail.google.com/"),
    ("outlook.office365.com", "password", "no longer accepts passwords"),
    ("smtp-mail.outlook.com", "oauth2", "SMTP.Send"),
    ("smtp.office365.com", "password", 'auth = "oauth2"'),
    ("mail.example.org", "password", "password source"),
    ("evilgmail.com", "password", "password source"),          # not a subdomain of gmail.com
])
def test_refused_login_hint_per_provider(host, auth, expected):
    assert expected in refused_hint(host, auth)


def test_xoauth2_string_is_the_documented_format():
    assert xoauth2("u@example.org", "tok") == "user=u@example.org\x01auth=Bearer tok\x01\x01"
