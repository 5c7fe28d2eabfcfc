"""Sending mail: SMTP (STARTTLS or implicit TLS, with login), a local ``sendmail``, or no
server at all (the .eml files stay in the outbox for your own mail client).

A sender is used as a context manager (one connection for a batch) and raises
``SendError`` when a message cannot be handed over; the outbox keeps it for the next try.
"""

from __future__ import annotations

import re
import smtplib
import socket
import ssl
import subprocess

from ...model.errors import PbemError
from .config import OutboxConfig, SendmailConfig, SmtpConfig
from .login import refused_hint, smtp_login

SENDMAIL_TIMEOUT = 60


class SendError(PbemError):
    """A message could not be handed to the mail system: it stays in the outbox, or
    (``permanent``: the server refused it for good, a 5xx reply) is set aside."""

    def __init__(self, message: str, permanent: bool = False):
        super().__init__(message)
        self.permanent = permanent


def tls_context(ca_file=None) -> ssl.SSLContext:
    """Certificate and host name checked; ``ca_file`` adds a private CA."""
    ctx = ssl.create_default_context()
    if ca_file:
        try:
            ctx.load_verify_locations(cafile=str(ca_file))
        except (OSError, ssl.SSLError) as exc:
            raise PbemError(f"cannot load the CA file {ca_file}: {exc}") from None
    return ctx


class SmtpSender:
    def __init__(self, cfg: SmtpConfig):
        self.cfg = cfg
        self.smtp: smtplib.SMTP | None = None

    @property
    def what(self) -> str:
        return f"SMTP {self.cfg.host}:{self.cfg.port}"

    def __enter__(self):
        cfg = self.cfg
        try:
            if cfg.security == "tls":
                self.smtp = smtplib.SMTP_SSL(cfg.host, cfg.port, timeout=cfg.timeout,
                                             context=tls_context(cfg.ca_file))
            else:
                self.smtp = smtplib.SMTP(cfg.host, cfg.port, timeout=cfg.timeout)
                self.smtp.ehlo()
                if cfg.security == "starttls":
                    if not self.smtp.has_extn("starttls"):
                        raise SendError(f"{self.what} does not offer STARTTLS; refusing to "
                                        "send the login unencrypted")
                    self.smtp.starttls(context=tls_context(cfg.ca_file))
                    self.smtp.ehlo()
            if cfg.username:
                smtp_login(self.smtp, cfg.auth, cfg.username, cfg.password, self.what)
        except smtplib.SMTPAuthenticationError as exc:
            self._close()
            raise SendError(f"{self.what}: login as {cfg.username} refused ({exc.smtp_code} "
                            f"{_text(exc.smtp_error)}); {refused_hint(cfg.host, cfg.auth)}"
                            ) from None
        except (OSError, smtplib.SMTPException, ssl.SSLError) as exc:
            self._close()
            raise SendError(f"{self.what}: {_describe(exc)}") from None
        except BaseException:
            self._close()
            raise
        return self

    def send(self, data: bytes, sender: str, recipients: list[str]) -> dict:
        """Hand the mail over; returns the recipients the server refused while accepting
        others ({address: (code, text)}, as ``smtplib``)."""
        assert self.smtp is not None
        data = re.sub(rb"\r?\n", b"\r\n", data)     # SMTP lines end in CRLF (RFC 5321)
        try:
            return self.smtp.sendmail(sender, recipients, data)
        except smtplib.SMTPRecipientsRefused as exc:
            codes = [code for code, _text in exc.recipients.values()]
            raise SendError(f"{self.what} refused every recipient: " + "; ".join(
                f"{r}: {code} {_text(t)}" for r, (code, t) in exc.recipients.items()),
                permanent=all(500 <= c < 600 for c in codes)) from None
        except smtplib.SMTPResponseException as exc:       # sender or data refused
            raise SendError(f"{self.what}: {_describe(exc)}",
                            permanent=500 <= exc.smtp_code < 600) from None
        except (OSError, smtplib.SMTPException) as exc:
            raise SendError(f"{self.what}: {_describe(exc)}") from None

    def _close(self) -> None:
        if self.smtp is not None:
            try:
                self.smtp.quit()
            except (OSError, smtplib.SMTPException):
                self.smtp.close()
            self.smtp = None

    def __exit__(self, *exc):
        self._close()


class SendmailSender:
    def __init__(self, cfg: SendmailConfig):
        self.cfg = cfg
        self.what = f"sendmail ({self.cfg.command[0]})"

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass

    def send(self, data: bytes, sender: str, recipients: list[str]) -> dict:
        # The recipients come from the message's own headers (-t); the command is the
        # game master's configuration, never mail content.
        try:
            done = subprocess.run(list(self.cfg.command), input=data, capture_output=True,
                                  timeout=SENDMAIL_TIMEOUT, check=False)
        except FileNotFoundError:
            raise SendError(f"{self.what}: command not found") from None
        except subprocess.TimeoutExpired:
            raise SendError(f"{self.what}: no answer within {SENDMAIL_TIMEOUT} s") from None
        except OSError as exc:
            raise SendError(f"{self.what}: {exc.strerror}") from None
        if done.returncode != 0:
            detail = done.stderr.decode("utf-8", "replace").strip()[:200]
            raise SendError(f"{self.what} failed (exit status {done.returncode}) {detail}")
        return {}


class NoSender:
    """No server: messages stay in the outbox as .eml files."""

    what = "the outbox (no server configured)"

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass

    send = None


def make_sender(cfg):
    if isinstance(cfg, SmtpConfig):
        return SmtpSender(cfg)
    if isinstance(cfg, SendmailConfig):
        return SendmailSender(cfg)
    if isinstance(cfg, OutboxConfig):
        return NoSender()
    raise PbemError(f"unknown sender configuration {cfg!r}")


def _text(value) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _describe(exc: BaseException) -> str:
    if isinstance(exc, socket.timeout):
        return "timed out"
    if isinstance(exc, ssl.SSLCertVerificationError):
        return f"the server's certificate does not verify ({exc.verify_message})"
    if isinstance(exc, smtplib.SMTPResponseException):
        return f"{exc.smtp_code} {_text(exc.smtp_error)}"
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused"
    return str(exc) or type(exc).__name__
