"""The journal: what happened to each message, written before the message is moved.

One JSON object per line, appended and fsynced: ``key`` (the Message-ID, or a digest of
the message when it has none), ``outcome``, ``folder`` (where the message goes:
"processed" or "rejected"), and where it applies ``power``, ``turn``, ``digest`` (of the
orders) and ``detail``.  A line torn by a crash is ignored (its message is simply handled
again, which the rest of the design makes harmless).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from ...io.storage import fsync_dir

JOURNAL_FILE = "journal.jsonl"


class Journal:
    def __init__(self, state_dir: Path):
        self.path = Path(state_dir) / JOURNAL_FILE
        self.entries: dict[str, dict] = {}
        self.torn = 0
        self._load()

    def _load(self) -> None:
        if not self.path.exists():
            return
        with open(self.path, "rb") as fh:
            for raw in fh:
                try:
                    entry = json.loads(raw)
                except (ValueError, UnicodeDecodeError):
                    self.torn += 1
                    continue
                if isinstance(entry, dict) and isinstance(entry.get("key"), str):
                    self.entries[entry["key"]] = entry

    def get(self, key: str) -> dict | None:
        return self.entries.get(key)

    def record(self, key: str, outcome: str, folder: str, **fields) -> dict:
        """Append an entry and make it durable before returning."""
        entry = {"key": key, "outcome": outcome, "folder": folder,
                 **{k: v for k, v in fields.items() if v is not None}}
        line = json.dumps(entry, ensure_ascii=False, sort_keys=True).encode("utf-8") + b"\n"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        new = not self.path.exists()
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            # A torn last line (crash mid-write) must not swallow this entry.
            if not new and os.fstat(fd).st_size and not _ends_with_newline(self.path):
                os.write(fd, b"\n")
            os.write(fd, line)
            os.fsync(fd)
        finally:
            os.close(fd)
        if new:
            fsync_dir(self.path.parent)
        self.entries[key] = entry
        return entry

    def processed_digests(self) -> dict[tuple[int, str], str]:
        """(turn, power) -> digest of the orders the journal recorded as processed."""
        return {(e["turn"], e["power"]): e["digest"] for e in self.entries.values()
                if e.get("outcome") == "processed" and "turn" in e and "digest" in e}


def _ends_with_newline(path: Path) -> bool:
    with open(path, "rb") as fh:
        fh.seek(-1, os.SEEK_END)
        return fh.read(1) == b"\n"
