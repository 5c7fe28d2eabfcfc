"""OAuth2 (SASL XOAUTH2) logins against real servers on loopback: aiosmtpd with an XOAUTH2
mechanism that checks the token, and Dovecot with its oauth2 passdb asking a token-
introspection endpoint (RFC 7662) served here, reached through imapclient's ``oauth2_login``.  The token comes from password_env / password_command like a
password; a refused login names what to check, per provider."""

from __future__ import annotations

import base64
import json
import os
import shutil
import sys
import tempfile
import threading
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs

import pytest

from adjudicator.model.errors import PbemError
from adjudicator.service.mail.config import ImapConfig, PasswordSource, SmtpConfig, load_config
from adjudicator.service.mail.imap import ImapSource
from adjudicator.service.mail.login import refused_hint, xoauth2
from adjudicator.service.mail.senders import SendError, SmtpSender
from adjudicator.service.mail.sources import SourceError

from mail_servers import (  # noqa: F401  (certs: a fixture)
    DOVECOT, PASSWORD, Dovecot, certs, free_port, server_context,
)

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

class Introspection(ThreadingHTTPServer):
    """An OAuth2 token-introspection endpoint (RFC 7662) on loopback for Dovecot's oauth2
    passdb: ``TOKEN`` is active for the user gm, anything else is not."""

    daemon_threads = True

    def __init__(self):
        self.asked: list[str] = []
        super().__init__(("127.0.0.1", 0), _IntrospectionHandler)
        self.url = f"http://127.0.0.1:{self.server_address[1]}/introspect"

    def __enter__(self):
        threading.Thread(target=self.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc):
        self.shutdown()
        self.server_close()


class _IntrospectionHandler(BaseHTTPRequestHandler):
    def do_POST(self):
        form = parse_qs(self.rfile.read(int(self.headers.get("Content-Length", 0))).decode())
        token = form.get("token", [""])[0]
        self.server.asked.append(token)
        body = json.dumps({"active": True, "username": "gm"} if token == TOKEN
                          else {"active": False}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def oauth_imap(certs):
    """A Dovecot of its own whose XOAUTH2 logins are checked by the introspection endpoint."""
    if DOVECOT is None or os.geteuid() != 0:
        pytest.skip("the Dovecot OAuth2 test needs the dovecot binary and root (.ci/run)")
    base = Path(tempfile.mkdtemp(prefix="pbem-dovecot-oauth2-"))
    os.chmod(base, 0o755)
    with Introspection() as endpoint:
        server = Dovecot(base, certs, oauth2_introspection=endpoint.url)
        try:
            server.start()
            yield server, endpoint
        finally:
            server.stop()
            shutil.rmtree(base, ignore_errors=True)


def _imap_cfg(server, certs, **kw) -> ImapConfig:
    base = dict(host="127.0.0.1", port=server.imaps_port, security="tls", username="gm",
                password=PasswordSource(env=ENV), ca_file=certs["ca"], timeout=10, auth="oauth2")
    return ImapConfig(**{**base, **kw})


def test_imap_xoauth2_login_through_imapclient(oauth_imap, certs, monkeypatch):
    server, endpoint = oauth_imap
    server.clear("gm")
    server.deliver("gm", bytes(_mail()))
    monkeypatch.setenv(ENV, TOKEN)
    with ImapSource(_imap_cfg(server, certs)) as source:
        assert len(source.list()) == 1
    assert endpoint.asked[-1] == TOKEN                    # Dovecot asked the endpoint
    monkeypatch.setenv(ENV, PASSWORD)                     # passwords still work beside it
    with ImapSource(_imap_cfg(server, certs, auth="password")) as source:
        assert len(source.list()) == 1


def test_imap_refused_token_says_what_to_check(oauth_imap, certs, monkeypatch):
    server, endpoint = oauth_imap
    monkeypatch.setenv(ENV, "stale")
    with pytest.raises(SourceError, match="login refused; .*valid access token"):
        with ImapSource(_imap_cfg(server, certs), filing=False):
            pass
    assert endpoint.asked[-1] == "stale"
    monkeypatch.setenv(ENV, "wrong password")
    with pytest.raises(SourceError, match="login refused; check the user name and the "
                                          "password source"):
        with ImapSource(_imap_cfg(server, certs, auth="password"), filing=False):
            pass


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
