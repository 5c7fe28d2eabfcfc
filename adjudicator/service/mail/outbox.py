"""The outbox: every outgoing mail is first a ready-to-send ``.eml`` file.

``queue`` writes ``outbox/NAME.eml`` atomically, once: a name that is already queued or
already sent is not written again, so a pass repeated after a crash queues nothing
twice.  ``flush`` holds the outbox lock (a second pass at the same time sends nothing,
so no mail goes out twice), hands each queued file to the sender, records (fsynced, in
``delivered.jsonl``) the recipients the server accepted, and only then moves the file to
``sent/``: a crash repeats at most the one mail being handed over.  A recipient the
server refused for now (4xx) is tried again on the next pass, never those who got it; a
mail refused for good (5xx) is moved to ``undeliverable/`` and reported
(``FlushResult.undeliverable``) for a notice to the game master.  Without a server the
files simply wait in ``outbox/`` for the game master's own mail client.
"""

from __future__ import annotations

import contextlib
import email.utils
import json
import os
import re
from pathlib import Path

import attrs

from ...io.storage import (
    exclusive_lock, fsync_dir, loads_json, read_regular, temp_name, write_atomic,
)
from ...model.errors import PbemError
from .message import parse_address, parse_headers
from .senders import NoSender, SendError

_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,150}$")


DELIVERED_LOG = "delivered.jsonl"
LOCK_FILE = "outbox.lock"
MAX_DELIVERED_LOG_BYTES = 16 * 1024 * 1024


@attrs.define
class FlushResult:
    sent: list[str] = attrs.Factory(list)
    failed: list[tuple[str, str]] = attrs.Factory(list)     # (name, reason)
    waiting: list[str] = attrs.Factory(list)                # no server: left for the GM
    undeliverable: list[tuple[str, str]] = attrs.Factory(list)   # refused for good
    busy: bool = False                                      # another pass holds the outbox


class Outbox:
    def __init__(self, state_dir: Path):
        self.state_dir = Path(state_dir)
        self.dir = self.state_dir / "outbox"
        self.sent_dir = self.state_dir / "sent"
        self.undeliverable_dir = self.state_dir / "undeliverable"

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
        if not self.pending():
            return result
        if isinstance(sender, NoSender):
            result.waiting = [p.name for p in self.pending()]
            return result
        self._ensure()
        try:
            with exclusive_lock(self.state_dir / LOCK_FILE, _BUSY):
                self._flush_locked(sender, result)
        except PbemError as exc:
            if str(exc) != _BUSY:
                raise
            result.busy = True            # the other pass sends them
        return result

    def _flush_locked(self, sender, result: FlushResult) -> None:
        files = self.pending()     # again, under the lock: the other pass may have sent some
        if not files:
            return
        delivered = self._delivered()
        try:
            ctx = sender.__enter__()
        except SendError as exc:
            result.failed = [(p.name, str(exc)) for p in files]
            return
        try:
            for path in files:
                self._send_one(ctx, path, delivered.get(path.name, set()), result)
        finally:
            sender.__exit__(None, None, None)
        if not self.pending():
            self._forget_delivered()

    def _send_one(self, ctx, path: Path, done: set[str], result: FlushResult) -> None:
        """Hand one queued mail to the server, for the recipients who do not have it yet."""
        try:
            data = path.read_bytes()
            envelope_from, rcpts = envelope(data)
        except (OSError, PbemError) as exc:
            result.failed.append((path.name, str(exc)))
            return
        todo = [r for r in rcpts if r not in done]
        refused: dict = {}
        if todo:
            try:
                refused = ctx.send(data, envelope_from, todo) or {}
            except SendError as exc:
                if exc.permanent:
                    self._set_aside(path, result, str(exc))
                else:
                    result.failed.append((path.name, str(exc)))
                return
            accepted = [r for r in todo if r not in refused]
            if accepted:
                self._record(path.name, accepted)         # before the file moves
        if not refused:
            os.replace(path, self.sent_dir / path.name)
            fsync_dir(self.sent_dir)
            result.sent.append(path.name)
            return
        why = "; ".join(f"{r}: {code} {_text(text)}" for r, (code, text) in refused.items())
        if any(not 500 <= code < 600 for code, _t in refused.values()):
            result.failed.append((path.name, f"refused for now: {why}"))
        else:
            self._set_aside(path, result, f"refused for good: {why}")

    def _set_aside(self, path: Path, result: FlushResult, why: str) -> None:
        self.undeliverable_dir.mkdir(parents=True, exist_ok=True)
        os.replace(path, self.undeliverable_dir / path.name)
        fsync_dir(self.undeliverable_dir)
        result.undeliverable.append((path.name, why))

    def _delivered(self) -> dict[str, set[str]]:
        """Outbox name -> the recipients the server accepted (a torn line is ignored: its
        recipients get the mail again, the one repeat a crash may cause)."""
        found: dict[str, set[str]] = {}
        path = self.state_dir / DELIVERED_LOG
        if not path.exists():
            return found
        for line in read_regular(path, "delivery log", MAX_DELIVERED_LOG_BYTES).split(b"\n"):
            try:
                entry = loads_json(line, str(path))
            except PbemError:
                continue
            if (isinstance(entry, dict) and isinstance(entry.get("name"), str)
                    and isinstance(entry.get("to"), list)):
                found.setdefault(entry["name"], set()).update(
                    r for r in entry["to"] if isinstance(r, str))
        return found

    def _record(self, name: str, recipients: list[str]) -> None:
        line = json.dumps({"name": name, "to": recipients}, sort_keys=True).encode() + b"\n"
        fd = os.open(self.state_dir / DELIVERED_LOG, os.O_WRONLY | os.O_APPEND | os.O_CREAT,
                     0o600)
        try:
            os.write(fd, b"\n" + line)       # after a torn line, on a line of its own
            os.fsync(fd)
        finally:
            os.close(fd)

    def _forget_delivered(self) -> None:
        """Nothing queued: the log has nothing left to say."""
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.state_dir / DELIVERED_LOG)


_BUSY = "the outbox is being sent by another pass"


def _text(value) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


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
