"""The journal: what happened to each message, written before the message is moved.

One JSON object per line, appended and fsynced: ``key`` (the Message-ID, or a digest of
the message when it has none), ``outcome``, ``folder`` (where the message goes:
"processed" or "rejected"), and where it applies ``power``, ``turn``, ``digest`` (of the
orders), ``detail`` and ``reply`` (the outbox name and the bytes of the reply, base64, so
that the reply survives a crash that lost its outbox file).  A line torn by a crash is ignored (its message is simply handled
again, which the rest of the design makes harmless).  A ``#checkpoint`` line says that
the outbox files of the entries before it were synced to disk; the replies recorded after
the last one are put back into the outbox if a crash lost them.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from ...io.storage import fsync_dir, loads_json
from ...model.errors import PbemError

JOURNAL_FILE = "journal.jsonl"
CHECKPOINT = "#checkpoint"


class Journal:
    def __init__(self, state_dir: Path):
        self.path = Path(state_dir) / JOURNAL_FILE
        self.entries: dict[str, dict] = {}
        self.unsynced: list[str] = []      # keys recorded after the last checkpoint
        self.dirty = False                 # entries written but not yet fsynced
        self.torn = 0
        self._load()

    def _load(self) -> None:
        if not self.path.exists():
            return
        with open(self.path, "rb") as fh:
            for raw in fh:
                try:
                    entry = loads_json(raw, str(self.path))
                except PbemError:
                    self.torn += 1
                    continue
                if not isinstance(entry, dict) or not isinstance(entry.get("key"), str):
                    continue
                if entry["key"] == CHECKPOINT:
                    self.unsynced = []
                    continue
                self.entries[entry["key"]] = entry
                self.unsynced.append(entry["key"])

    def get(self, key: str) -> dict | None:
        return self.entries.get(key)

    def record(self, key: str, outcome: str, folder: str, *, durable: bool = True,
               **fields) -> dict:
        """Append an entry; durable before returning, or (``durable=False``) at the next
        ``sync`` -- the caller then files the message only after that."""
        entry = {"key": key, "outcome": outcome, "folder": folder,
                 **{k: v for k, v in fields.items() if v is not None}}
        self._append(entry, durable)
        self.entries[key] = entry
        self.unsynced.append(key)
        return entry

    def checkpoint(self) -> None:
        """Everything recorded so far is on disk with its replies (the caller synced)."""
        if self.unsynced:
            self._append({"key": CHECKPOINT})
            self.unsynced = []

    def sync(self) -> None:
        """Make every entry recorded so far durable (one fsync for a batch)."""
        if self.dirty:
            fd = os.open(self.path, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
            self.dirty = False

    def _append(self, entry: dict, durable: bool = True) -> None:
        line = json.dumps(entry, ensure_ascii=False, sort_keys=True).encode("utf-8") + b"\n"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        new = not self.path.exists()
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            # A torn last line (crash mid-write) must not swallow this entry.
            if not new and os.fstat(fd).st_size and not _ends_with_newline(self.path):
                os.write(fd, b"\n")
            os.write(fd, line)
            if durable:
                os.fsync(fd)
            self.dirty = not durable or self.dirty
        finally:
            os.close(fd)
        if new:
            fsync_dir(self.path.parent)

    def replies(self):
        """(outbox name, bytes) of the replies recorded since the last checkpoint (whose
        outbox files a power loss may have lost)."""
        import base64
        for key in self.unsynced:
            r = self.entries[key].get("reply")
            if isinstance(r, dict) and isinstance(r.get("name"), str):
                try:
                    yield r["name"], base64.b64decode(r.get("eml", ""), validate=True)
                except ValueError:
                    continue

    def processed_digests(self) -> dict[tuple[int, str], str]:
        """(turn, power) -> digest of the orders the journal recorded as processed."""
        return {(e["turn"], e["power"]): e["digest"] for e in self.entries.values()
                if e.get("outcome") == "processed" and "turn" in e and "digest" in e}


def _ends_with_newline(path: Path) -> bool:
    with open(path, "rb") as fh:
        fh.seek(-1, os.SEEK_END)
        return fh.read(1) == b"\n"
