"""Finding the orders (and their signature) in a mail.

Where the orders are, in order of preference:

1. one text attachment (``.txt`` or ``text/plain``): taken as is, byte for byte;
2. the body (the text/plain part, or the HTML part converted to text), cleaned of
   quoted reply history (``>`` lines, "On ... wrote:", Outlook's header block and
   "Original Message" line; a reply written below the history -- bottom-posted, with
   nothing above it -- is kept: after a ``>`` quote, or, below history that is not
   quoted, from its last group of header lines), of the mail
   signature after ``-- `` and of a forward's
   header block; if it contains a header line (``power:``, ``game:``, ``turn:``) the
   orders start at the first one, so a greeting before them does no harm;
3. the text of a mail forwarded as an attachment, cleaned the same way.

A signature is an armored SSH signature: a ``.sig`` attachment or a block pasted into
the body after the orders.  Two orders attachments are refused: which one was meant?
"""

from __future__ import annotations

import re

import attrs

from .message import Attachment, Incoming, decode_bytes

SIG_BEGIN = "-----BEGIN SSH SIGNATURE-----"
SIG_END = "-----END SSH SIGNATURE-----"
_SIG_BLOCK = re.compile(re.escape(SIG_BEGIN) + r"[\sA-Za-z0-9+/=]{0,8000}?" + re.escape(SIG_END))
_HEADER_LINE = re.compile(r"^\s*(power|game|turn)\s*:", re.I)
_WROTE = re.compile(r"^\s*(on|am|le|el|il|op|den|w dniu)\b.{0,300}"
                    r"(wrote|schrieb|a écrit|escribió|ha scritto|schreef|skrev|napisał)\s*:\s*$",
                    re.I)
_ORIGINAL = re.compile(r"^\s*-{2,}\s*(original message|ursprüngliche nachricht|"
                       r"message d'origine|mensaje original)\s*-{2,}\s*$", re.I)
_FORWARD = re.compile(r"^\s*(-{3,}\s*forwarded message\s*-{3,}|begin forwarded message:|"
                      r"-{3,}\s*weitergeleitete nachricht\s*-{3,})\s*$", re.I)
_MAIL_HEADER = re.compile(r"^\s*\*?(from|sent|date|to|cc|subject|von|gesendet|an|betreff|de|"
                          r"envoyé|à|objet)\s*:\*?\s", re.I)
_UNDERSCORES = re.compile(r"^\s*_{10,}\s*$")


class ExtractError(Exception):
    """The mail's orders cannot be told apart (a reason for the reply)."""


@attrs.frozen
class FoundOrders:
    text: str                     # the orders as found (attachment: exact; body: cleaned)
    signature: str | None         # armored SSHSIG, if any
    source: str                   # "the attachment NAME", "the mail body", ...

    def candidates(self) -> list[str]:
        """The texts the signature may have been made over, most exact first (mail may
        change line endings and the final newline)."""
        lf = self.text.replace("\r\n", "\n")
        out = []
        for t in (self.text, lf, lf.rstrip("\n") + "\n", lf.rstrip("\n")):
            if t not in out:
                out.append(t)
        return out


def _is_signature(att: Attachment) -> bool:
    name = att.filename.lower()
    return name.endswith((".sig", ".asc")) or SIG_BEGIN.encode() in att.data[:200]


def _is_orders(att: Attachment) -> bool:
    name = att.filename.lower()
    if _is_signature(att):
        return False
    return name.endswith(".txt") or (att.content_type == "text/plain" and not name.endswith(
        (".json", ".html", ".htm", ".eml")))


def attachment_text(att: Attachment) -> str:
    data = att.data
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return decode_bytes(data)


def find_orders(msg: Incoming) -> FoundOrders | None:
    """The orders in ``msg`` (None: the mail holds no text at all).  Raises
    ``ExtractError`` when the mail is ambiguous."""
    sigs = [a for a in msg.attachments if _is_signature(a)]
    orders = [a for a in msg.attachments if _is_orders(a)]
    if len(orders) > 1:
        names = ", ".join(a.filename or "(unnamed)" for a in orders)
        raise ExtractError(f"the mail has {len(orders)} orders attachments ({names}); "
                           "send one turn's orders in one attachment")
    if len(sigs) > 1:
        raise ExtractError(f"the mail has {len(sigs)} signature attachments; send one")
    signature = _armored(attachment_text(sigs[0])) if sigs else None
    body = msg.text
    if signature is None:
        signature = _armored(body)
    if orders:
        return FoundOrders(attachment_text(orders[0]), signature,
                           f"the attachment {orders[0].filename or '(unnamed)'}")
    text = clean_body(_SIG_BLOCK.sub("", body))
    source = "the mail body"
    if not text.strip() and msg.forwarded_text:
        if signature is None:
            signature = _armored(msg.forwarded_text)
        text = clean_body(_SIG_BLOCK.sub("", msg.forwarded_text))
        source = "the forwarded mail"
    if not text.strip():
        return None
    return FoundOrders(text, signature, source)


def _armored(text: str) -> str | None:
    m = _SIG_BLOCK.search(text or "")
    if not m:
        return None
    inner = "".join(m.group(0)[len(SIG_BEGIN):-len(SIG_END)].split())
    lines = [inner[i:i + 70] for i in range(0, len(inner), 70)]
    return "\n".join([SIG_BEGIN, *lines, SIG_END]) + "\n"


def clean_body(text: str) -> str:
    """The part of a mail body that can be orders (see the module docstring)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    lines = [line.replace("\xa0", " ").replace("\u200b", "").replace("\ufeff", "")
             for line in lines]
    kept: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.rstrip()
        if stripped in ("--", "-- ") or line == "-- ":
            break                                           # mail signature
        wrote = 1 if _WROTE.match(line) else 2 if (
            i + 1 < len(lines) and _WROTE.match(line + " " + lines[i + 1])) else 0
        if wrote and _quoted_block_ends(lines, i + wrote) is not None:
            i = _quoted_block_ends(lines, i + wrote)        # a bottom-posted reply: the
            continue                                        # orders may follow the quote
        if (_ORIGINAL.match(line) or wrote                  # quoted history follows, or
                or (_UNDERSCORES.match(line) and _header_block_at(lines, i + 1))  # Outlook
                or (_header_block_at(lines, i) and not _FORWARD.match(lines[i - 1] if i else ""))):
            below = None if any(k.strip() for k in kept) else _reply_below(lines, i)
            if below is None:
                break                                       # a reply above the history
            i = below                                       # nothing above: bottom-posted
            continue
        if _FORWARD.match(line):
            i += 1
            while i < len(lines) and (_MAIL_HEADER.match(lines[i]) or not lines[i].strip()):
                i += 1                                      # the forwarded mail's headers
            continue
        if line.lstrip().startswith(">"):
            i += 1
            continue
        kept.append(line.rstrip())
        i += 1
    for n, line in enumerate(kept):
        if _HEADER_LINE.match(line):
            kept = kept[n:]
            break
    while kept and not kept[-1].strip():
        kept.pop()
    while kept and not kept[0].strip():
        kept.pop(0)
    return "\n".join(kept) + "\n" if kept else ""


def _reply_below(lines: list[str], i: int) -> int | None:
    """Where a bottom-posted reply starts below the history that starts at line ``i``
    (nothing was written above it), or None.  History quoted with ``>`` ends where the
    quote ends; history that is not quoted (Outlook's) cannot be told from the reply, so
    the reply is taken to start at the last group of ``power:``/``game:``/``turn:`` lines
    below it (none: no reply below)."""
    j = i + 1
    while j < len(lines) and (not lines[j].strip() or _MAIL_HEADER.match(lines[j])
                              or _header_block_at(lines, j)):
        j += 1
    if j < len(lines) and lines[j].lstrip().startswith(">"):
        return _quoted_block_ends(lines, j)
    starts = [k for k in range(j, len(lines)) if _HEADER_LINE.match(lines[k])
              and not (k > j and _HEADER_LINE.match(lines[k - 1]))]
    return starts[-1] if starts else None


def _quoted_block_ends(lines: list[str], i: int) -> int | None:
    """If the lines from ``i`` are a ``>`` quoted block (after blank lines) with more text
    after it, the index just after the block; else None (nothing but history follows)."""
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i >= len(lines) or not lines[i].lstrip().startswith(">"):
        return None
    while i < len(lines) and (lines[i].lstrip().startswith(">") or not lines[i].strip()):
        i += 1
    return i if i < len(lines) else None


def _header_block_at(lines: list[str], i: int) -> bool:
    """Does an Outlook-style header block (From: then Sent:/Date: and To:/Subject:) start
    at line ``i``?"""
    if i >= len(lines) or not re.match(r"^\s*\*?(from|von|de)\s*:", lines[i], re.I):
        return False
    following = " ".join(lines[i + 1:i + 6]).lower()
    return (re.search(r"\b(sent|date|gesendet|envoyé|datum)\s*:", following) is not None
            and re.search(r"\b(to|subject|an|betreff|à|objet)\s*:", following) is not None)


_HEADER_VALUE = re.compile(r"^\s*(power|game|turn)\s*:?\s*(.*?)\s*$", re.I)


def orders_headers(text: str) -> dict[str, str]:
    """The header lines of an orders text (``power: Germany``, ``game: g1``,
    ``turn: 7``), first of each, lower-case names; comments are ignored."""
    out: dict[str, str] = {}
    for line in text.splitlines()[:400]:
        code = line.split("#", 1)[0]
        m = _HEADER_LINE.match(code)
        if not m:
            continue
        vm = _HEADER_VALUE.match(code)
        name, value = vm.group(1).lower(), vm.group(2)
        if value and name not in out:
            out[name] = value
    return out
