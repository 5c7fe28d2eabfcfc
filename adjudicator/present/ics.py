"""A calendar file (iCalendar, RFC 5545) of a few events, written with the standard library:
CRLF line ends, content lines folded at 75 octets (never inside a UTF-8 character), TEXT
values escaped, UTC times.  Nothing here reads the clock: DTSTAMP is given."""

from __future__ import annotations

import datetime as dt

import attrs

MAX_OCTETS = 75


@attrs.frozen
class Event:
    uid: str                                # stable: the same event keeps its UID
    summary: str
    start: dt.date | dt.datetime            # a date: an all-day event
    end: dt.date | dt.datetime | None = None    # exclusive (all-day: the day after)
    description: str = ""
    sequence: int = 0


def escape_text(text: str) -> str:
    """A TEXT value (RFC 5545 3.3.11)."""
    return (text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
            .replace("\r\n", "\n").replace("\n", "\\n"))


def fold(line: str) -> str:
    """One content line folded into lines of at most 75 octets (3.1)."""
    out, current, size = [], [], 0
    for char in line:
        n = len(char.encode("utf-8"))
        limit = MAX_OCTETS if not out else MAX_OCTETS - 1      # a continuation's space
        if size + n > limit:
            out.append("".join(current))
            current, size = [], 0
        current.append(char)
        size += n
    out.append("".join(current))
    return "\r\n ".join(out)


def _when(name: str, value) -> str:
    if isinstance(value, dt.datetime):
        utc = value.astimezone(dt.timezone.utc)
        return f"{name}:{utc:%Y%m%dT%H%M%SZ}"
    return f"{name};VALUE=DATE:{value:%Y%m%d}"


def calendar(events, *, prodid: str, stamp: dt.datetime, name: str = "") -> bytes:
    """The VCALENDAR of ``events`` (METHOD:PUBLISH), as bytes with CRLF line ends."""
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", f"PRODID:{prodid}", "CALSCALE:GREGORIAN",
             "METHOD:PUBLISH"]
    if name:
        lines.append(f"X-WR-CALNAME:{escape_text(name)}")
    for e in events:
        lines += ["BEGIN:VEVENT", f"UID:{e.uid}", _when("DTSTAMP", stamp.replace(microsecond=0)),
                  _when("DTSTART", e.start)]
        if e.end is not None:
            lines.append(_when("DTEND", e.end))
        lines += [f"SEQUENCE:{e.sequence}", f"SUMMARY:{escape_text(e.summary)}"]
        if e.description:
            lines.append(f"DESCRIPTION:{escape_text(e.description)}")
        lines += ["TRANSP:TRANSPARENT", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    return "".join(fold(line) + "\r\n" for line in lines).encode("utf-8")
