"""The mails pbem writes: replies, turn results, orders.

Every mail carries the game tag ``[pbem GAME]`` in its subject so that replies find the
game again, and a Message-ID derived from its outbox name so that a mail queued twice
would be the same mail.  Attachments are added as bytes (base64), so turn files,
signatures and orders arrive byte for byte.
"""

from __future__ import annotations

import email.utils
import hashlib
from email.message import EmailMessage

RESULT_HEADER = "X-Pbem-Turn"     # "<game id> <turn number> <power>" on result mails


def tag(game_id: str) -> str:
    return f"[pbem {game_id}]"


def _domain(address: str) -> str:
    return address.rpartition("@")[2] or "localhost"


def _base(sender: str, sender_name: str, to: list[str], subject: str, name: str,
          now: float, auto: str | None) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = email.utils.formataddr((sender_name, sender)) if sender_name else sender
    msg["To"] = ", ".join(to)
    msg["Subject"] = subject
    msg["Date"] = email.utils.formatdate(now, localtime=False)
    msg["Message-ID"] = f"<pbem.{name}@{_domain(sender)}>"
    if auto:
        msg["Auto-Submitted"] = auto     # RFC 3834: no auto-replies to this, please
    return msg


def reply(*, sender: str, sender_name: str, to: str, game_id: str, subject: str, body: str,
          name: str, now: float, in_reply_to: str | None = None) -> bytes:
    """A reply to a player's mail (check result, rejection, notice)."""
    msg = _base(sender, sender_name, [to], f"{tag(game_id)} {subject}", name, now,
                "auto-replied")
    if in_reply_to and in_reply_to.startswith("<"):
        msg["In-Reply-To"] = in_reply_to
        msg["References"] = in_reply_to
    msg.set_content(body)
    return bytes(msg)


def turn_result(*, sender: str, sender_name: str, to: list[str], game_id: str, subject: str,
                body: str, name: str, now: float, turn_number: int, power: str,
                attachments: list[tuple[str, bytes, str]]) -> bytes:
    """The result of a turn for the players: the report as text, files attached.
    ``attachments``: (file name, bytes, MIME type)."""
    msg = _base(sender, sender_name, to, f"{tag(game_id)} {subject}", name, now,
                "auto-generated")
    msg[RESULT_HEADER] = f"{game_id} {turn_number} {power}"
    msg.set_content(body)
    for filename, data, mime in attachments:
        maintype, _, subtype = mime.partition("/")
        msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=filename)
    return bytes(msg)


def orders_mail(*, sender: str, sender_name: str, to: str, game_id: str, subject: str,
                orders: bytes, signature: str | None, filename: str, now: float,
                note: str = "", cc: list[str] = ()) -> bytes:
    """A player's orders: the text in the body for people, the exact bytes attached (and
    the signature beside them) for pbem.  ``cc``: who gets a copy for the record (the
    other players of a game with dice keepers)."""
    name = "orders." + hashlib.sha256(orders + (signature or "").encode()).hexdigest()[:16] \
           + f".{int(now)}"
    msg = _base(sender, sender_name, [to], f"{tag(game_id)} {subject}", name, now, None)
    if cc:
        msg["Cc"] = ", ".join(cc)
    msg.set_content((note + "\n\n" if note else "") + orders.decode("utf-8", "replace"))
    msg.add_attachment(orders, maintype="text", subtype="plain", filename=filename)
    if signature:
        msg.add_attachment(signature.encode("ascii"), maintype="application",
                           subtype="octet-stream", filename=filename + ".sig")
    return bytes(msg)
