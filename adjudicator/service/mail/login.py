"""Logging in to mail servers: a password, or an OAuth2 access token (SASL XOAUTH2, what
Gmail and Outlook.com accept) through imapclient's ``oauth2_login`` and smtplib's ``auth``.

The token comes from the same sources as a password (``password_command`` above all: a
helper that prints a fresh access token, docs/mail.md).  A refused login gets a hint for the
provider the host belongs to (:func:`refused_hint`).
"""

from __future__ import annotations

import smtplib

from ...model.errors import PbemError
from .config import PasswordSource
from .passwords import get_password

AUTH_METHODS = ("password", "oauth2")
_GMAIL = ("gmail.com", "googlemail.com", "google.com")
_MICROSOFT = ("outlook.com", "office365.com", "hotmail.com", "live.com", "outlook.office.com")


def xoauth2(user: str, token: str) -> str:
    """The SASL XOAUTH2 initial response (before base64), as Google and Microsoft define it."""
    return f"user={user}\x01auth=Bearer {token}\x01\x01"


def smtp_login(smtp: smtplib.SMTP, auth: str, username: str, source: PasswordSource,
               what: str) -> None:
    """Log in on an open (TLS) SMTP session; a refusal raises SMTPAuthenticationError."""
    secret = get_password(source, username, what)
    if auth != "oauth2":
        smtp.login(username, secret)
        return
    smtp.ehlo_or_helo_if_needed()
    offered = smtp.esmtp_features.get("auth", "").upper().split()
    if "XOAUTH2" not in offered:
        raise PbemError(f"{what} does not offer XOAUTH2 (it offers: "
                        f"{' '.join(offered) or 'no login'}); set auth = \"password\"")

    def respond(challenge: bytes | None = None) -> str:
        # A refused token gets a 334 challenge with the error details: an empty answer
        # ends the exchange, and the server then says 535.
        return xoauth2(username, secret) if challenge is None else ""

    smtp.auth("XOAUTH2", respond, initial_response_ok=True)


def imap_login(client, auth: str, username: str, source: PasswordSource, what: str) -> None:
    """Log in on an open IMAPClient; a refusal raises imapclient's LoginError."""
    secret = get_password(source, username, what)
    if auth == "oauth2":
        client.oauth2_login(username, secret)
    else:
        client.login(username, secret)


def _provider(host: str) -> str | None:
    host = host.lower().rstrip(".")
    for name, domains in (("gmail", _GMAIL), ("microsoft", _MICROSOFT)):
        if any(host == d or host.endswith("." + d) for d in domains):
            return name
    return None


def refused_hint(host: str, auth: str) -> str:
    """What to check when ``host`` refused a login made with ``auth``."""
    provider = _provider(host)
    if provider == "gmail":
        if auth == "oauth2":
            return ("Gmail refused the access token: it may have expired (tokens last an "
                    "hour, so password_command must print a fresh one) or lack the scope "
                    "https://mail.google.com/ (docs/mail.md, Gmail)")
        return ("Gmail refuses the account's password: use an app password (Google account, "
                "2-step verification, app passwords) or auth = \"oauth2\" (docs/mail.md, Gmail)")
    if provider == "microsoft":
        if auth == "oauth2":
            return ("Outlook refused the access token: it may have expired or lack the scope "
                    "IMAP.AccessAsUser.All / SMTP.Send (docs/mail.md, Outlook)")
        return ("Outlook.com no longer accepts passwords for IMAP and SMTP: set auth = "
                "\"oauth2\" with a password_command that prints an access token "
                "(docs/mail.md, Outlook)")
    if auth == "oauth2":
        return "check the user name and that password_command prints a valid access token"
    return "check the user name and the password source"
