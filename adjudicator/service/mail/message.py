"""Reading real-world mail: headers, the text of the body, attachments.

Handles any MIME structure the standard library parses: multipart/alternative and
mixed, HTML-only mail (converted to text), any charset and transfer encoding, a mail
forwarded as an attachment (message/rfc822).  Everything is bounded: a message larger
than the limit is never parsed, a message with more MIME headers than any real mail
(which could nest deeper than the standard parser's recursion) is not parsed either, and
oversized or surplus attachments are dropped with a note.  A message the parser cannot
read raises ``UnreadableMail`` (bad input, never an internal error).  Nothing here
touches the file system: file names are data.
"""

from __future__ import annotations

import email
import email.policy
import email.utils
import hashlib
import re
from email.message import EmailMessage

import attrs

from .address import parse_address
from .config import Limits
from .htmltext import html_to_text

MAX_HEADER_CHARS = 998
MAX_MIME_HEADERS = 200      # Content-Type lines; every level of nesting needs one
_CONTENT_TYPE_RE = re.compile(rb"^content-type[ \t]*:", re.I | re.M)


class UnreadableMail(Exception):
    """The mail cannot be parsed (the reason, for the game master's notice)."""
_TAG_RE = re.compile(r"\[\s*pbem[\s:]+([A-Za-z0-9][A-Za-z0-9._-]{0,99})\s*\]", re.I)
_PREFIX_RE = re.compile(r"^\s*((re|aw|sv|fw|fwd|wg|tr)\s*(\[\d+\])?\s*:\s*)+", re.I)


@attrs.frozen
class Attachment:
    filename: str            # as the sender named it, reduced to a plain name; data only
    content_type: str
    data: bytes


@attrs.frozen
class Incoming:
    """A received mail, reduced to what pbem reads."""

    message_id: str
    sender: str | None            # the From address, lower case; None if unreadable
    recipients: tuple[str, ...]   # To, Cc, Delivered-To, X-Original-To (lower case)
    subject: str
    text: str                     # the body as text (HTML converted), not yet cleaned
    attachments: tuple[Attachment, ...]
    forwarded_text: str = ""      # text of a mail forwarded as an attachment
    html_only: bool = False
    notes: tuple[str, ...] = ()   # what was dropped (oversized attachments, ...)
    raw_message_id: str = ""      # the Message-ID header as written ("" if none)
    auto_submitted: str = ""      # the Auto-Submitted header, lower case
    return_path: str = ""

    @property
    def automatic(self) -> bool:
        """An auto-reply, a bounce or another machine's mail: never answered."""
        return ((self.auto_submitted not in ("", "no")) or self.return_path == "<>"
                or self.sender is None
                or self.sender.split("@")[0] in ("mailer-daemon", "postmaster"))

    @property
    def game_tag(self) -> str | None:
        m = _TAG_RE.search(self.subject)
        return m.group(1) if m else None

    @property
    def topic(self) -> str:
        """The subject without the game tag and Re:/Fwd: prefixes."""
        return _PREFIX_RE.sub("", _TAG_RE.sub(" ", self.subject)).strip()

    @property
    def asks_check(self) -> bool:
        return re.search(r"\bcheck\b", self.topic, re.I) is not None

    def plus_tag(self, address: str) -> str | None:
        """``TAG`` if the mail went to ``local+TAG@domain`` for ``address`` = local@domain."""
        local, _, domain = address.lower().partition("@")
        for r in self.recipients:
            rl, _, rd = r.partition("@")
            base, plus, tag = rl.partition("+")
            if plus and base == local and rd == domain and tag:
                return tag
        return None


def message_key(raw: bytes, message_id: str | None) -> str:
    """What the journal knows a message by: its Message-ID and a digest of its bytes (a
    different mail reusing a known Message-ID is a new message), or the digest alone."""
    digest = "sha256:" + hashlib.sha256(raw).hexdigest()
    if message_id:
        mid = " ".join(str(message_id).split())[:MAX_HEADER_CHARS]
        if mid:
            return f"{mid} {digest}"
    return digest


def header(msg, name: str) -> str:
    try:
        value = msg.get(name)
    except (ValueError, TypeError, IndexError):   # a malformed header
        value = None
    return " ".join(str(value).split())[:MAX_HEADER_CHARS] if value is not None else ""


def parse_headers(raw: bytes) -> EmailMessage:
    return email.message_from_bytes(raw, policy=email.policy.default)


def head_of(raw: bytes) -> bytes:
    """The header block of ``raw`` (up to the first empty line)."""
    for sep in (b"\r\n\r\n", b"\n\n"):
        if sep in raw:
            return raw[:raw.index(sep) + len(sep)]
    return raw


def safe_headers(raw: bytes) -> tuple[str, str | None]:
    """(Message-ID, sender) of a mail whose body cannot be parsed; ("", None) if even
    its headers cannot."""
    try:
        head = parse_headers(head_of(raw)[:64 * 1024])
        return header(head, "Message-ID"), parse_address(header(head, "From"))
    except Exception:       # noqa: BLE001 -- bad input of any kind: nothing to read
        return "", None


def parse_message(raw: bytes, limits: Limits = Limits()) -> Incoming:
    """Read ``raw`` (whose size the caller has bounded) into an ``Incoming``; raises
    ``UnreadableMail`` if it cannot be parsed."""
    if len(_CONTENT_TYPE_RE.findall(raw)) > MAX_MIME_HEADERS:
        raise UnreadableMail(f"it has more than {MAX_MIME_HEADERS} MIME parts (or nests "
                             "them deeper than any mail client does)")
    try:
        return _parse_message(raw, limits)
    except RecursionError:
        raise UnreadableMail("its MIME structure is nested too deeply") from None
    except Exception as exc:    # noqa: BLE001 -- the email package's (or our) error on bad input
        raise UnreadableMail(f"the mail parser failed on it ({type(exc).__name__})") from None


def _parse_message(raw: bytes, limits: Limits) -> Incoming:
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    collector = _Collector(limits)
    collector.walk(msg, forwarded=False)
    plain, html = collector.plain, collector.html
    text = plain[0] if plain else (html_to_text(html[0]) if html else "")
    mid = header(msg, "Message-ID")
    return Incoming(
        message_id=message_key(raw, mid),
        sender=parse_address(header(msg, "From")),
        recipients=_recipients(msg),
        subject=header(msg, "Subject"),
        text=text,
        attachments=tuple(collector.attachments),
        forwarded_text=collector.forwarded_text(),
        html_only=not plain and bool(html),
        notes=tuple(collector.notes),
        raw_message_id=mid,
        auto_submitted=header(msg, "Auto-Submitted").lower(),
        return_path=header(msg, "Return-Path"))


def _recipients(msg) -> tuple[str, ...]:
    found: list[str] = []
    for name in ("To", "Cc", "Delivered-To", "X-Original-To"):
        try:
            values = msg.get_all(name) or []
        except (ValueError, TypeError, IndexError):
            values = []
        for value in values[:20]:
            for _n, addr in email.utils.getaddresses([str(value)[:MAX_HEADER_CHARS * 4]]):
                a = parse_address(addr)
                if a and a not in found:
                    found.append(a)
    return tuple(found)


def part_text(part) -> str:
    """A text part's content as str, whatever its charset and transfer encoding."""
    try:
        content = part.get_content()
        if isinstance(content, str):
            return content
    except (LookupError, UnicodeError, ValueError, AssertionError, KeyError):
        pass
    payload = part.get_payload(decode=True) or b""
    return decode_bytes(payload, part.get_content_charset())


def decode_bytes(data: bytes, charset: str | None = None) -> str:
    for cs in (charset, "utf-8"):
        if cs:
            try:
                return data.decode(cs)
            except (LookupError, UnicodeDecodeError):
                continue
    return data.decode("windows-1252", "replace")


def _filename(part) -> str:
    try:
        name = part.get_filename() or ""
    except (ValueError, TypeError, IndexError):
        name = ""
    name = name.replace("\\", "/").rsplit("/", 1)[-1]
    name = "".join(c for c in name if c.isprintable()).strip()
    return name[:200]


def _flowed(part, text: str) -> str:
    """Undo RFC 3676 format=flowed soft line breaks."""
    params = {k.lower(): str(v).lower() for k, v in part.get_params() or () if v is not None}
    if params.get("format") != "flowed":
        return text
    delsp = params.get("delsp") == "yes"
    out: list[str] = []
    buf = ""
    for line in text.split("\n"):
        line = line.rstrip("\r")
        if line.startswith(" "):
            line = line[1:]                       # space-stuffing
        if line.endswith(" ") and line != "-- " and not line.startswith(">"):
            buf += line[:-1] if delsp else line
            continue
        out.append(buf + line)
        buf = ""
    if buf:
        out.append(buf)
    return "\n".join(out)


class _Collector:
    def __init__(self, limits: Limits):
        self.limits = limits
        self.plain: list[str] = []
        self.html: list[str] = []
        self.forwarded_plain: list[str] = []
        self.forwarded_html: list[str] = []
        self.attachments: list[Attachment] = []
        self.notes: list[str] = []
        self.parts = 0

    def forwarded_text(self) -> str:
        if self.forwarded_plain:
            return self.forwarded_plain[0]
        return html_to_text(self.forwarded_html[0]) if self.forwarded_html else ""

    def walk(self, part, forwarded: bool, depth: int = 0) -> None:
        self.parts += 1
        if depth > 10 or self.parts > 200:
            if "too deeply nested" not in " ".join(self.notes):
                self.notes.append("the message is too deeply nested; the rest was ignored")
            return
        ctype = part.get_content_type()
        if ctype == "message/rfc822":
            for inner in part.iter_parts():
                self.walk(inner, True, depth + 1)
            return
        if part.is_multipart():
            for inner in part.iter_parts():
                self.walk(inner, forwarded, depth + 1)
            return
        disposition = (part.get_content_disposition() or "").lower()
        name = _filename(part)
        if disposition == "attachment" or (name and ctype not in ("text/html",)
                                           and disposition != "inline"):
            self._attachment(part, name, ctype)
            return
        if ctype == "text/plain":
            (self.forwarded_plain if forwarded else self.plain).append(
                _flowed(part, part_text(part)))
        elif ctype == "text/html":
            (self.forwarded_html if forwarded else self.html).append(part_text(part))

    def _attachment(self, part, name: str, ctype: str) -> None:
        if len(self.attachments) >= self.limits.max_attachments:
            self.notes.append(f"more than {self.limits.max_attachments} attachments; "
                              f"{name or 'an attachment'} was ignored")
            return
        data = part.get_payload(decode=True) or b""
        if len(data) > self.limits.max_attachment_bytes:
            self.notes.append(f"attachment {name or '(unnamed)'} is larger than "
                              f"{self.limits.max_attachment_bytes} bytes and was ignored")
            return
        self.attachments.append(Attachment(name, ctype, data))
