"""Real mail servers on loopback for the mail tests: an aiosmtpd SMTP server (STARTTLS or
implicit TLS, login required) and a Dovecot IMAP server started from
tests/dovecot/dovecot.conf.in.  Both use a certificate authority made here.

The SMTP server delivers what it accepts into the recipients' Dovecot mailboxes (IMAP
APPEND as that user) when a Dovecot is given, so mail really travels SMTP -> IMAP.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import os
import pwd
import shutil
import socket
import ssl
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

HERE = Path(__file__).resolve().parent
DOVECOT = shutil.which("dovecot") or ("/usr/sbin/dovecot" if Path("/usr/sbin/dovecot").exists() else None)
PASSWORD = "s3cret-pw"
USERS = ("gm", "ussr", "germany", "uk", "japan", "usa", "other")
DOMAIN = "example.org"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port}")


# --------------------------------------------------------------------------- certificates

def make_ca(directory: Path) -> dict[str, Path]:
    """A CA (ca.pem) and a server certificate for 127.0.0.1/localhost signed by it."""
    directory.mkdir(parents=True, exist_ok=True)
    now = dt.datetime.now(dt.timezone.utc)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "pbem test CA")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name)
          .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
          .not_valid_before(now - dt.timedelta(days=1)).not_valid_after(now + dt.timedelta(days=30))
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
          .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False),
                         critical=True)
          .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
          .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")]))
            .issuer_name(ca_name).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(days=1)).not_valid_after(now + dt.timedelta(days=30))
            .add_extension(x509.SubjectAlternativeName([
                x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]),
                           critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()),
                           critical=False)
            .sign(ca_key, hashes.SHA256()))
    paths = {"ca": directory / "ca.pem", "cert": directory / "cert.pem", "key": directory / "key.pem"}
    paths["ca"].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    paths["cert"].write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    paths["key"].write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                               serialization.PrivateFormat.PKCS8,
                                               serialization.NoEncryption()))
    return paths


def server_context(certs: dict[str, Path]) -> ssl.SSLContext:
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(certs["cert"], certs["key"])
    return ctx


# --------------------------------------------------------------------------- Dovecot

class Dovecot:
    """A Dovecot instance with one IMAP user per name in USERS (password PASSWORD)."""

    def __init__(self, base: Path, certs: dict[str, Path], oauth2_introspection: str | None = None):
        self.base = base
        self.certs = certs
        self.oauth2_introspection = oauth2_introspection   # a token-introspection URL: XOAUTH2 too
        self.imap_port = free_port()
        self.imaps_port = free_port()
        self.process_started = False

    def start(self) -> None:
        base = self.base
        (base / "run").mkdir(parents=True, exist_ok=True)
        (base / "state").mkdir(exist_ok=True)
        shutil.copy(self.certs["cert"], base / "cert.pem")
        shutil.copy(self.certs["key"], base / "key.pem")
        pw = pwd.getpwnam("dovecot")
        lines = []
        for user in USERS:
            home = base / "home" / user
            (home / "Maildir").mkdir(parents=True, exist_ok=True)
            for p in (base / "home", home, home / "Maildir"):
                os.chown(p, pw.pw_uid, pw.pw_gid)
            lines.append(f"{user}:{{PLAIN}}{PASSWORD}:{pw.pw_uid}:{pw.pw_gid}::{home}")
        (base / "users").write_text("\n".join(lines) + "\n")
        conf = (HERE / "dovecot" / "dovecot.conf.in").read_text()
        conf = (conf.replace("@BASE@", str(base)).replace("@IMAP_PORT@", str(self.imap_port))
                .replace("@IMAPS_PORT@", str(self.imaps_port)))
        if self.oauth2_introspection:
            conf = self._with_oauth2(conf)
        (base / "dovecot.conf").write_text(conf)
        # The daemon keeps inherited pipes open: its output goes to a file.
        with open(base / "start.log", "wb") as out:
            done = subprocess.run([DOVECOT, "-c", str(base / "dovecot.conf")], stdout=out,
                                  stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, timeout=30)
        if done.returncode != 0:
            raise RuntimeError("dovecot did not start: "
                               f"{(base / 'start.log').read_text(errors='replace')}\n{self.log()}")
        self.process_started = True
        wait_port(self.imaps_port)
        wait_port(self.imap_port)
        self._wait_login()

    def _with_oauth2(self, conf: str) -> str:
        """XOAUTH2 logins checked by Dovecot's oauth2 passdb against the introspection URL
        (RFC 7662, POST); passwords still go to the passwd-file passdb first."""
        (self.base / "oauth2.conf.ext").write_text(
            "introspection_mode = post\n"
            f"introspection_url = {self.oauth2_introspection}\n"
            "username_attribute = username\nactive_attribute = active\nactive_value = true\n")
        conf = conf.replace("auth_mechanisms = plain login", "auth_mechanisms = plain login xoauth2")
        return conf + ("passdb {\n  driver = oauth2\n  mechanisms = xoauth2\n"
                       f"  args = {self.base}/oauth2.conf.ext\n}}\n")

    def _wait_login(self) -> None:
        deadline = time.monotonic() + 15
        while True:
            try:
                with self.client("gm") as c:
                    c.noop()
                return
            except Exception:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def log(self) -> str:
        p = self.base / "dovecot.log"
        return p.read_text(errors="replace")[-3000:] if p.exists() else ""

    def stop(self) -> None:
        pidfile = self.base / "run" / "master.pid"
        if not pidfile.exists():
            return
        pid = int(pidfile.read_text().strip())
        try:
            os.kill(pid, 15)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.05)

    def client(self, user: str):
        from imapclient import IMAPClient
        ctx = ssl.create_default_context(cafile=str(self.certs["ca"]))
        c = IMAPClient("127.0.0.1", port=self.imaps_port, ssl=True, ssl_context=ctx, timeout=10)
        c.login(user, PASSWORD)
        return c

    def deliver(self, user: str, data: bytes, folder: str = "INBOX") -> None:
        with self.client(user) as c:
            c.append(folder, data)

    def count(self, user: str, folder: str = "INBOX") -> int:
        with self.client(user) as c:
            if not c.folder_exists(folder):
                return 0
            c.select_folder(folder, readonly=True)
            return len(c.search(["NOT", "DELETED"]))

    def messages(self, user: str, folder: str = "INBOX") -> list[bytes]:
        with self.client(user) as c:
            if not c.folder_exists(folder):
                return []
            c.select_folder(folder, readonly=True)
            uids = c.search(["NOT", "DELETED"])
            data = c.fetch(uids, ["BODY.PEEK[]"]) if uids else {}
            return [bytes(data[u][b"BODY[]"]) for u in sorted(data)]

    def clear(self, user: str) -> None:
        with self.client(user) as c:
            for folder in [f[2] for f in c.list_folders()]:
                c.select_folder(folder)
                uids = c.search(["ALL"])
                if uids:
                    c.delete_messages(uids)
                    c.expunge()
                if folder != "INBOX":
                    c.close_folder()
                    c.delete_folder(folder)


# --------------------------------------------------------------------------- SMTP

class SmtpServer:
    """aiosmtpd on loopback: login required (user = local part, PASSWORD), STARTTLS
    (``implicit=False``) or implicit TLS.  Accepted mail is kept in ``received`` and, with
    a ``dovecot``, appended to each recipient's INBOX."""

    def __init__(self, certs: dict[str, Path], *, implicit: bool = False, dovecot: Dovecot | None = None):
        from aiosmtpd.controller import Controller
        from aiosmtpd.smtp import AuthResult, LoginPassword

        self.received: list[tuple[str, list[str], bytes]] = []
        self.logins: list[str] = []
        self.fail_next = 0                 # reject this many DATA commands (451), for retry tests
        self.refuse: dict[str, str] = {}   # recipient -> the reply refusing it ("550 ...")
        self.lock = threading.Lock()
        server = self

        class Handler:
            async def handle_RCPT(self, smtp, session, envelope, address, rcpt_options):
                if address in server.refuse:
                    return server.refuse[address]
                envelope.rcpt_tos.append(address)
                return "250 OK"

            async def handle_DATA(self, smtp, session, envelope):
                with server.lock:
                    if server.fail_next:
                        server.fail_next -= 1
                        return "451 4.3.0 try again later"
                    server.received.append((envelope.mail_from, list(envelope.rcpt_tos),
                                            bytes(envelope.original_content or envelope.content)))
                if dovecot is not None:
                    for rcpt in envelope.rcpt_tos:
                        user = rcpt.split("@")[0].split("+")[0]
                        if user in USERS:
                            dovecot.deliver(user, envelope.original_content or envelope.content)
                return "250 OK"

        def authenticator(smtp, session, envelope, mechanism, auth_data):
            ok = (isinstance(auth_data, LoginPassword) and auth_data.password == PASSWORD.encode()
                  and auth_data.login.decode() in USERS)
            if ok:
                server.logins.append(auth_data.login.decode())
            return AuthResult(success=ok, handled=False)    # refused: 535

        self.port = free_port()
        ctx = server_context(certs)
        kwargs = dict(authenticator=authenticator, auth_required=True, auth_require_tls=True,
                      hostname="127.0.0.1", port=self.port)
        if implicit:
            # aiosmtpd does not see the wrapped socket as TLS: the whole session is TLS.
            kwargs["auth_require_tls"] = False
            self.controller = Controller(Handler(), ssl_context=ctx, **kwargs)
        else:
            self.controller = Controller(Handler(), tls_context=ctx, require_starttls=True, **kwargs)

    def start(self):
        self.controller.start()
        return self

    def stop(self):
        self.controller.stop()


@pytest.fixture(scope="session")
def certs(tmp_path_factory):
    return make_ca(tmp_path_factory.mktemp("certs"))


@pytest.fixture(scope="session")
def dovecot(tmp_path_factory, certs):
    if DOVECOT is None or os.geteuid() != 0:
        pytest.skip("Dovecot IMAP tests need the dovecot binary (apt-get install dovecot-imapd; "
                    ".ci/run installs it) and root to start it")
    # Not under pytest's private temp dir: Dovecot's mail processes run as the dovecot
    # user and must reach the homes.
    base = Path(tempfile.mkdtemp(prefix="pbem-dovecot-"))
    os.chmod(base, 0o755)
    server = Dovecot(base, certs)
    try:
        server.start()
        yield server
    finally:
        server.stop()
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
def imap(dovecot):
    """The session's Dovecot with every mailbox emptied before the test."""
    for user in USERS:
        dovecot.clear(user)
    return dovecot


@pytest.fixture
def smtp(certs):
    server = SmtpServer(certs).start()
    yield server
    server.stop()


@pytest.fixture
def smtp_imap(certs, imap):
    """SMTP (STARTTLS + login) that delivers into the Dovecot mailboxes."""
    server = SmtpServer(certs, dovecot=imap).start()
    yield server
    server.stop()
