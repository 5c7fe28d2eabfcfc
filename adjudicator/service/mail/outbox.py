"""The outbox: every outgoing mail is first a ready-to-send ``.eml`` file.

``queue`` writes ``outbox/NAME.eml`` atomically, once: a name that is already queued or
already sent is not written again, so a pass repeated after a crash queues nothing
twice.  ``flush`` hands each queued file to the sender and only then moves it to
``sent/``; a file whose sending fails stays queued for the next pass.  Without a server
the files simply wait in ``outbox/`` for the game master's own mail client.
"""

from __future__ import annotations

import email.utils
import os
import re
from pathlib import Path

import attrs

from ...io.storage import fsync_dir, temp_name, write_atomic
from ...model.errors import PbemError
from .message import parse_address, parse_headers
from .senders import NoSender, SendError

_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,150}$")


@attrs.define
class FlushResult:
    sent: list[str] = attrs.Factory(list)
    failed: list[tuple[str, str]] = attrs.Factory(list)     # (name, reason)
    waiting: list[str] = attrs.Factory(list)                # no server: left for the GM


class Outbox:
    def __init__(self, state_dir: Path):
        self.dir = Path(state_dir) / "outbox"
        self.sent_dir = Path(state_dir) / "sent"

    def _ensure(self) -> None:
        for d in (self.dir, self.sent_dir):
            d.mkdir(parents=True, exist_ok=True)

    def known(self, name: str) -> bool:
        return (self.dir / f"{name}.eml").exists() or (self.sent_dir / f"{name}.eml").exists()

    def queue(self, name: str, data: bytes, durable: bool = True) -> bool:
        """Queue ``data`` as ``name`` unless that name was queued or sent before.
        ``durable=False`` skips the fsync: for mail whose bytes the journal keeps (see
        ``restore``), so one fsync (the journal's) makes the message's outcome durable."""
        if not _NAME_RE.match(name):
            raise PbemError(f"bad outbox name {name!r}")
        self._ensure()
        if self.known(name):
            return False
        path = self.dir / f"{name}.eml"
        try:
            if durable:
                write_atomic(path, data)
            else:
                tmp = temp_name(path)
                with open(tmp, "xb") as fh:
                    fh.write(data)
                try:
                    os.link(tmp, path)
                finally:
                    os.unlink(tmp)
        except (PbemError, FileExistsError):   # written meanwhile: it exists, all we want
            return False
        return True

    def restore(self, name: str, data: bytes) -> bool:
        """Put back a mail that a crash (power loss) may have lost or truncated, unless it
        is queued intact or already sent."""
        queued = self.dir / f"{name}.eml"
        if (self.sent_dir / f"{name}.eml").exists():
            return False
        try:
            if queued.stat().st_size == len(data):
                return False
        except FileNotFoundError:
            pass
        self._ensure()
        write_atomic(queued, data, overwrite=True)
        return True

    def pending(self) -> list[Path]:
        if not self.dir.is_dir():
            return []
        return sorted(p for p in self.dir.iterdir() if p.suffix == ".eml" and
                      not p.name.startswith("."))

    def flush(self, sender) -> FlushResult:
        result = FlushResult()
        files = self.pending()
        if not files:
            return result
        if isinstance(sender, NoSender):
            result.waiting = [p.name for p in files]
            return result
        try:
            ctx = sender.__enter__()
        except SendError as exc:
            result.failed = [(p.name, str(exc)) for p in files]
            return result
        try:
            for path in files:
                try:
                    data = path.read_bytes()
                    envelope_from, rcpts = envelope(data)
                    ctx.send(data, envelope_from, rcpts)
                except (SendError, PbemError) as exc:
                    result.failed.append((path.name, str(exc)))
                    continue
                os.replace(path, self.sent_dir / path.name)
                fsync_dir(self.sent_dir)
                result.sent.append(path.name)
        finally:
            sender.__exit__(None, None, None)
        return result


def envelope(data: bytes) -> tuple[str, list[str]]:
    """(envelope sender, recipients) from a queued message's own headers."""
    msg = parse_headers(data)
    sender = parse_address(msg.get("From"))
    rcpts = []
    for name in ("To", "Cc"):
        for value in msg.get_all(name) or []:
            for _n, addr in email.utils.getaddresses([str(value)]):
                a = parse_address(addr)
                if a and a not in rcpts:
                    rcpts.append(a)
    if not sender or not rcpts:
        raise PbemError("a queued message has no sender or no recipient")
    return sender, rcpts
