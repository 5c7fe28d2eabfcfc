"""A local Maildir as the inbox (what fetchmail, getmail, mbsync or a local MTA fill).

Messages wait in ``new/`` and ``cur/``; filing one is a single ``rename`` into the
``.processed`` or ``.rejected`` subfolder (Maildir++), so a message is never in two
places and never lost.  The folders are created with the standard ``mailbox`` module.
"""

from __future__ import annotations

import mailbox
import os
import time
from pathlib import Path

from .config import MaildirConfig
from .message import header, parse_headers
from .sources import MessageRef, SourceError, folders_of

POLL_STEP = 0.2


class MaildirSource:
    def __init__(self, cfg: MaildirConfig, filing: bool = True):
        self.cfg = cfg
        self.filing = filing
        self.root = Path(cfg.path)
        self.what = f"Maildir {self.root}"

    def __enter__(self):
        try:
            self.box = mailbox.Maildir(self.root, create=True)
            self.folders = {}
            for role, name in folders_of(self.cfg).items() if self.filing else ():
                existing = self.box.list_folders()
                self.folders[role] = self.root / f".{name}"
                if name not in existing:
                    self.box.add_folder(name)
        except OSError as exc:
            raise SourceError(f"{self.what}: {exc.strerror or exc}") from None
        return self

    def __exit__(self, *exc):
        pass

    def _paths(self) -> dict[str, Path]:
        found: dict[str, Path] = {}
        for sub in ("new", "cur"):
            d = self.root / sub
            try:
                entries = list(os.scandir(d))
            except FileNotFoundError:
                continue
            for e in entries:
                if e.name.startswith(".") or not e.is_file(follow_symlinks=False):
                    continue
                found[e.name.split(":", 1)[0]] = Path(e.path)
        return found

    def list(self, subject: str | None = None) -> list[MessageRef]:
        refs = []
        self._known = self._paths()
        for key, path in self._known.items():
            try:
                st = path.stat()
            except FileNotFoundError:
                continue
            refs.append((st.st_mtime, key, MessageRef(key, st.st_size)))
        refs = [r for _m, _k, r in sorted(refs)]
        if subject is not None:
            wanted = subject.lower()
            refs = [r for r in refs if wanted in header(parse_headers(self.read_head(r)),
                                                        "Subject").lower()]
        return refs

    def _path(self, ref: MessageRef) -> Path:
        path = getattr(self, "_known", {}).get(ref.id)
        if path is not None and os.path.exists(path):
            return path
        path = self._paths().get(ref.id)
        if path is None:
            raise SourceError(f"{self.what}: message {ref.id} is gone")
        return path

    def read(self, ref: MessageRef) -> bytes:
        return self._path(ref).read_bytes()

    def read_head(self, ref: MessageRef, limit: int = 64 * 1024) -> bytes:
        with open(self._path(ref), "rb") as fh:
            data = fh.read(limit)
        for sep in (b"\r\n\r\n", b"\n\n"):
            if sep in data:
                return data[:data.index(sep) + len(sep)]
        return data

    def move(self, ref: MessageRef, folder: str) -> None:
        src = self._path(ref)
        info = src.name.split(":", 1)[1] if ":" in src.name else "2,S"
        dest = self.folders[folder] / "cur" / f"{ref.id}:{info}"
        # No fsync: if the rename is lost in a crash the message shows up again, and the
        # journal (which is durable) files it without handling it twice.
        os.rename(src, dest)

    def wait(self, seconds: float, stop) -> None:
        deadline = time.monotonic() + seconds
        before = set(self._paths())
        while time.monotonic() < deadline and not stop.is_set():
            if set(self._paths()) - before:
                return
            stop.wait(min(POLL_STEP, max(0.0, deadline - time.monotonic())))
