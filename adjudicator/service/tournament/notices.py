"""Notices to players: pairings, reminders, extensions, NMRs, results, the daily late
notice and every change of a setting.

With a ``mail.toml`` in the tournament directory (the mail layer's format: ``address``,
``name`` and ``[send]``; docs/mail.md) each notice is queued as a mail in the tournament's
outbox and sent (or left there for the organiser's mail client when no server is set);
without one it is written to ``notices/NAME.txt`` (its attachments in ``notices/NAME/``).  A notice has a unique name, so one
that was queued or written before is never sent twice.
"""

from __future__ import annotations

import datetime as dt
import email.utils
import re
from email.message import EmailMessage
from pathlib import Path

import attrs

from ...io.storage import write_atomic
from ..mail import compose
from ...model.errors import PbemError
from .store import NOTICES_DIR, TournamentDir

MAIL_FILE = "mail.toml"
_NAME_RE = re.compile(r"[^A-Za-z0-9._-]+")


@attrs.frozen
class Notice:
    name: str                   # unique: the outbox / file name
    to: tuple[str, ...]         # player ids ("*": every player), or mail addresses
    subject: str
    body: str
    game: str = ""              # the game it is about: its tag in the subject, for replies
    attachments: tuple = ()     # (filename, mime type "text/csv", bytes)


def notice_name(*parts) -> str:
    return _NAME_RE.sub("-", "-".join(str(p) for p in parts)).strip("-")[:150]


def deliver(tdir: TournamentDir, notices, players, tournament_name: str,
            now: dt.datetime) -> list[str]:
    """Send or write every notice; returns what happened, one line each."""
    notices = list(notices)
    if not notices:
        return []
    by_id = {p.id: p for p in players}
    mail = _mail_config(tdir)
    lines = []
    outbox = None
    tid = tdir.config().id
    if mail is not None:
        from ..mail.outbox import Outbox
        outbox = Outbox(mail.state_path)
    def address(who: str) -> str | None:
        if who in by_id:
            return by_id[who].email
        return who if "@" in who else None

    for n in notices:
        ids = [p.id for p in players] + [x for x in n.to if x != "*" and x not in by_id] \
            if "*" in n.to else list(n.to)
        addresses = sorted({a for a in map(address, ids) if a})
        names = ", ".join(by_id[i].name if i in by_id else i for i in ids)
        subject = f"[{tournament_name}] {n.subject}"
        if outbox is not None and addresses:
            tagged = f"{subject} {compose.tag(n.game or tid)}"   # replies find it again
            data = _mail(mail, addresses, tagged, n.body, n.name, now, n.attachments)
            if outbox.queue(n.name, data):
                lines.append(f"queued mail {n.name} to {', '.join(addresses)}")
            continue
        folder = tdir.path(NOTICES_DIR)
        folder.mkdir(exist_ok=True)
        path = folder / f"{n.name}.txt"
        if path.exists():
            continue
        if n.attachments:                # in a folder beside it, before it (it marks done)
            (folder / n.name).mkdir(exist_ok=True)
        for filename, _mime, data in n.attachments:
            write_atomic(folder / n.name / filename, data, overwrite=True)
        write_atomic(path, f"To: {names}\nSubject: {subject}\n\n{n.body}\n".encode("utf-8"))
        lines.append(f"wrote {tdir.relative(path)} (to {names})")
    if outbox is not None:
        from ..mail.senders import make_sender
        result = outbox.flush(make_sender(mail.send))
        lines += [f"sent {name}" for name in result.sent]
        lines += [f"not sent {name}: {why} (retried next time)" for name, why in result.failed]
        lines += [f"not sent {name}: {why} (set aside in {outbox.undeliverable_dir})"
                  for name, why in result.undeliverable]
    return lines


def _mail_config(tdir: TournamentDir):
    path = tdir.path(MAIL_FILE)
    if not path.exists():
        return None
    from ..mail.config import load_config
    return load_config(tdir.dir, path)


def _mail(cfg, to: list[str], subject: str, body: str, name: str, now: dt.datetime,
          attachments=()) -> bytes:
    msg = EmailMessage()
    msg["From"] = email.utils.formataddr((cfg.name, cfg.address)) if cfg.name else cfg.address
    msg["To"] = ", ".join(to)
    msg["Subject"] = subject
    msg["Date"] = email.utils.format_datetime(now.astimezone(dt.timezone.utc))
    domain = cfg.address.rpartition("@")[2] or "localhost"
    msg["Message-ID"] = f"<pbem.{name}@{domain}>"
    msg["Auto-Submitted"] = "auto-generated"
    msg.set_content(body)
    for filename, mime, data in attachments:
        maintype, _, subtype = mime.partition("/")
        msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=filename)
    return bytes(msg)


def mail_settings_for_game(tdir: TournamentDir) -> bytes | None:
    """The tournament's mail.toml, for a new game's own (``pbem mail run -g GAME``)."""
    path = tdir.path(MAIL_FILE)
    if not path.exists():
        return None
    data = path.read_bytes()
    if len(data) > 64 * 1024:
        raise PbemError(f"{path} is too large")
    return data


def reads_mail(tdir: TournamentDir) -> bool:
    """Whether the tournament reads its players' mail (``pbem tournament mail run``): its
    mail.toml has an ``[inbox]``; the notices then say what to mail, not which command
    to run."""
    try:
        mail = _mail_config(tdir)
    except PbemError:
        return False
    return mail is not None and mail.inbox is not None


def game_mail_path(game_dir: Path) -> Path:
    return Path(game_dir) / MAIL_FILE
