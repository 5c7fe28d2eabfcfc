"""An IMAP mailbox as the inbox, over TLS (implicit, or STARTTLS), with IMAPClient.

Messages are addressed by UID; filing one uses MOVE where the server has it (Gmail,
Fastmail, Dovecot all do), else COPY + \\Deleted + expunge.  ``wait`` uses IDLE where the
server offers it, else it polls.
"""

from __future__ import annotations

import socket
import ssl
import time

from .config import ImapConfig
from .login import imap_login, refused_hint
from .senders import tls_context
from .sources import MessageRef, SourceError, folders_of

IDLE_SLICE = 5.0


def _imap_errors():
    from imapclient.exceptions import IMAPClientError
    return (IMAPClientError, OSError, ssl.SSLError, socket.timeout)


class ImapSource:
    def __init__(self, cfg: ImapConfig, filing: bool = True):
        self.cfg = cfg
        self.filing = filing
        self.what = f"IMAP {cfg.username}@{cfg.host}:{cfg.port}"
        self.client = None

    def __enter__(self):
        from imapclient import IMAPClient
        from imapclient.exceptions import LoginError
        cfg = self.cfg
        try:
            ctx = tls_context(cfg.ca_file)
            self.client = IMAPClient(cfg.host, port=cfg.port, ssl=cfg.security == "tls",
                                     ssl_context=ctx, timeout=cfg.timeout)
            if cfg.security == "starttls":
                self.client.starttls(ctx)
            imap_login(self.client, cfg.auth, cfg.username, cfg.password, self.what)
            self.client.select_folder(cfg.folder)
            for folder in folders_of(cfg).values() if self.filing else ():
                if not self.client.folder_exists(folder):
                    self.client.create_folder(folder)
        except LoginError:
            self._close()
            raise SourceError(f"{self.what}: login refused; "
                              f"{refused_hint(cfg.host, cfg.auth)}") from None
        except ssl.SSLCertVerificationError as exc:
            self._close()
            raise SourceError(f"{self.what}: the server's certificate does not verify "
                              f"({exc.verify_message}); set ca_file for a private CA") from None
        except _imap_errors() as exc:
            self._close()
            raise SourceError(f"{self.what}: {exc or type(exc).__name__}") from None
        except BaseException:
            self._close()
            raise
        return self

    def _close(self) -> None:
        if self.client is not None:
            try:
                self.client.logout()
            except Exception:       # the connection may already be dead
                try:
                    self.client.shutdown()
                except Exception:
                    pass
            self.client = None

    def __exit__(self, *exc):
        self._close()

    def _call(self, fn, *args):
        try:
            return fn(*args)
        except _imap_errors() as exc:
            raise SourceError(f"{self.what}: {exc or type(exc).__name__}") from None

    def list(self, subject: str | None = None) -> list[MessageRef]:
        criteria = ["NOT", "DELETED"] + (["SUBJECT", subject] if subject else [])
        uids = self._call(self.client.search, criteria)
        if not uids:
            return []
        sizes = self._call(self.client.fetch, uids, ["RFC822.SIZE"])
        return [MessageRef(str(uid), int(sizes[uid][b"RFC822.SIZE"]))
                for uid in sorted(uids) if uid in sizes]

    def _fetch(self, ref: MessageRef, item: bytes) -> bytes:
        uid = int(ref.id)
        data = self._call(self.client.fetch, [uid], [item.decode()])
        if uid not in data:
            raise SourceError(f"{self.what}: message {ref.id} is gone")
        value = data[uid].get(item) or data[uid].get(item.replace(b".PEEK", b""))
        return bytes(value or b"")

    def read(self, ref: MessageRef) -> bytes:
        return self._fetch(ref, b"BODY.PEEK[]")

    def read_head(self, ref: MessageRef, limit: int = 64 * 1024) -> bytes:
        return self._fetch(ref, b"BODY.PEEK[HEADER]")[:limit]

    def move(self, ref: MessageRef, folder: str) -> None:
        folder = folders_of(self.cfg)[folder]
        uid = int(ref.id)
        if self.client.has_capability("MOVE"):
            self._call(self.client.move, [uid], folder)
            return
        self._call(self.client.copy, [uid], folder)
        self._call(self.client.add_flags, [uid], [b"\\Deleted"])
        if self.client.has_capability("UIDPLUS"):
            self._call(self.client.uid_expunge, [uid])
        else:
            self._call(self.client.expunge)

    def wait(self, seconds: float, stop) -> None:
        deadline = time.monotonic() + seconds
        if not (self.cfg.idle and self.client.has_capability("IDLE")):
            stop.wait(seconds)
            return
        self._call(self.client.idle)
        try:
            while not stop.is_set():
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                responses = self._call(self.client.idle_check, min(IDLE_SLICE, left))
                if any(len(r) > 1 and r[1] in (b"EXISTS", b"RECENT") for r in responses):
                    break
        finally:
            self._call(self.client.idle_done)
