"""The text of an orders file before the grammar sees it: its size, where its lines end,
which characters it may hold, and the header lines that name the game and the turn.

* **Limits** (docs/orders.md, "Limits"): at most ``MAX_ORDERS_BYTES`` bytes and
  ``MAX_LINES`` lines, each at most ``MAX_LINE_CHARS`` characters; numbers of at most
  ``MAX_NUMBER_DIGITS`` digits; after ``MAX_ERRORS`` errors the rest is not parsed.  The
  whole-file limits are checked before anything is split or parsed.
* **Lines** end at ``\\n`` or ``\\r\\n`` only.  Any other control character (a lone
  ``\\r``, vertical tab, form feed, NEL, U+2028, U+2029, bidirectional overrides...) is an
  error with its line and column, so nothing invisible can start or hide an order.
* **Headers** ``game: <game id>`` and ``turn: <turn number>`` (case-insensitive) may stand
  anywhere before the first order line.  Signed orders must carry both, so a signed mail
  can never be replayed into another game or a later turn.  The parser skips them.

``numbered_lines(text, errors)`` is what the parser iterates over; ``read_headers(text)``
and ``check_headers(text, game_id, turn_number)`` are for whoever accepts orders.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from typing import Iterator

import attrs

from ..model.errors import OrdersSyntaxError, PbemError

MAX_ORDERS_BYTES = 32 * 1024     # an orders file (UTF-8); a full turn is 1-3 KB
MAX_LINES = 500
MAX_LINE_CHARS = 500
MAX_NUMBER_DIGITS = 4            # unit counts, thresholds, rounds: at most 9999
MAX_TURN_DIGITS = 7              # the turn header: at most 9,999,999
MAX_ERRORS = 50                  # errors reported per file; parsing stops after that
MAX_COUNT = 10_000               # largest unit count or number an order may carry
MAX_UNITS_TEXT = 1000            # characters of a unit list given on its own (pbem odds)

_HEADER_RE = re.compile(r"^\s*(game|turn)\s*:(.*)$", re.IGNORECASE)
_POWER_RE = re.compile(r"^\s*power\b", re.IGNORECASE)
_LONG_NUMBER_RE = re.compile(r"(?<!\w)[0-9]{%d,}" % (MAX_NUMBER_DIGITS + 1))
# Control characters other than tab (newlines are split off before this is applied), line
# and paragraph separators, bidirectional controls and a byte-order mark inside the text.
_BAD_CHAR_RE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029"
                          "\u202a-\u202e\u2066-\u2069\ufeff]")
_CHAR_NAMES = {"\r": "a carriage return not followed by a line feed", "\x0b": "a vertical tab",
               "\x0c": "a form feed", "\x85": "a NEL (next line)", "\x00": "a NUL byte",
               "\x1b": "an escape character"}


class OrdersLimitError(OrdersSyntaxError):
    """The orders file as a whole is over a limit (not tied to one position)."""

    def __init__(self, message: str):
        super().__init__(message, 0, 0)

    def __str__(self) -> str:
        return self.args[0]


def is_header_line(code: str) -> bool:
    """Whether a line is written as a ``game:`` or ``turn:`` header (wherever it stands)."""
    return _HEADER_RE.match(code) is not None


def shown_line(raw: str) -> str:
    """A line as it may be shown back to the player: tabs as spaces, and each character
    that is not allowed in orders (a control or invisible layout character) as '?'."""
    return _BAD_CHAR_RE.sub("?", raw.replace("\t", " "))


def describe_char(ch: str) -> str:
    """``'a vertical tab (U+000B)'``: a character named for an error message."""
    name = _CHAR_NAMES.get(ch) or unicodedata.name(ch, "a control character")
    return f"{name} (U+{ord(ch):04X})"


def check_size(text: str) -> str:
    """``text`` without a leading byte-order mark, or ``OrdersLimitError`` if the file is
    over the byte or line limit.  Cheap: nothing is split or copied line by line."""
    if len(text) > MAX_ORDERS_BYTES or (len(text) * 4 > MAX_ORDERS_BYTES
                                        and len(text.encode("utf-8", "surrogatepass"))
                                        > MAX_ORDERS_BYTES):
        raise OrdersLimitError(f"the orders are too long: at most {MAX_ORDERS_BYTES} bytes "
                               f"({MAX_ORDERS_BYTES // 1024} KiB) are accepted")
    lines = text.count("\n") + 1 - text.endswith("\n")
    if lines > MAX_LINES:
        raise OrdersLimitError(f"the orders have {lines} lines; at most {MAX_LINES} are "
                               "accepted")
    return text[1:] if text.startswith("\ufeff") else text


def line_problem(raw: str) -> tuple[int, str] | None:
    """(1-based column, message) of the first thing wrong with the layout of one line --
    its length or a forbidden character -- or None."""
    if len(raw) > MAX_LINE_CHARS:
        return MAX_LINE_CHARS + 1, (f"the line is {len(raw)} characters long; at most "
                                    f"{MAX_LINE_CHARS} are accepted")
    bad = _BAD_CHAR_RE.search(raw)
    if bad:
        return bad.start() + 1, (f"{describe_char(bad.group())} is not allowed in orders "
                                 "(lines end at a line feed, optionally after a carriage return)")
    return None


def number_problem(raw: str) -> tuple[int, str] | None:
    """(1-based column, message) for a number of more than ``MAX_NUMBER_DIGITS`` digits
    outside the comment, or None."""
    long_number = _LONG_NUMBER_RE.search(_code(raw))
    if long_number is None:
        return None
    shown = long_number.group()[:12] + ("..." if len(long_number.group()) > 12 else "")
    return long_number.start() + 1, (f"the number {shown} is too large (at most "
                                     f"{MAX_NUMBER_DIGITS} digits)")


def split_lines(text: str) -> Iterator[tuple[int, str]]:
    """(line number, line) with the line ending (``\\n`` or ``\\r\\n``) removed."""
    for number, raw in enumerate(text.split("\n"), start=1):
        yield number, raw[:-1] if raw.endswith("\r") else raw


def _code(raw: str) -> str:
    return raw.split("#", 1)[0]


def too_many_errors(errors: list, number: int, raw: str) -> bool:
    """Whether to stop before line ``number``: ``errors`` holds ``MAX_ERRORS`` and there is
    more to read (then the last error says so)."""
    if len(errors) >= MAX_ERRORS and raw.strip():
        if not errors[-1].args[0].startswith("stopped after"):
            errors.append(OrdersSyntaxError(
                f"stopped after {MAX_ERRORS} errors; the rest of the orders was not checked",
                number, 1))
        return True
    return False


def numbered_lines(text: str, errors: list) -> Iterator[tuple[int, str]]:
    """The lines the parser should parse, as (line number, line).  Checks the limits first
    (``OrdersLimitError``); a line that is too long or holds a forbidden character or number
    is reported in ``errors`` and not yielded; ``game:``/``turn:`` header lines are not
    yielded.  Stops, with one last error, once ``errors`` holds ``MAX_ERRORS``."""
    in_header = True
    for number, raw in split_lines(check_size(text)):
        if too_many_errors(errors, number, raw):
            return
        problem = line_problem(raw)
        code = _code(raw)
        header = _HEADER_RE.match(code) if problem is None and in_header else None
        if header is not None:           # not an order: only its value is checked
            try:
                _header_value(header, number)
            except OrdersSyntaxError as err:
                errors.append(err)
            continue
        if code.strip() and not _POWER_RE.match(code):
            in_header = False
        problem = problem or number_problem(raw)
        if problem is not None:
            column, message = problem
            errors.append(OrdersSyntaxError(message, number, column,
                                            raw[:MAX_LINE_CHARS].replace("\t", " ")))
            continue
        yield number, raw


# --------------------------------------------------------------------------- headers

@attrs.frozen
class Headers:
    """The ``game:`` and ``turn:`` header lines of an orders file (None: absent)."""

    game: str | None = None
    turn: int | None = None


def read_headers(text: str) -> Headers:
    """The headers before the first order line.  ``OrdersSyntaxError`` for a malformed
    or repeated header, or a text over the limits."""
    found: dict[str, object] = {}
    for number, raw in split_lines(check_size(text)):
        problem = line_problem(raw)
        if problem is not None:
            raise OrdersSyntaxError(problem[1], number, problem[0])
        code = _code(raw)
        match = _HEADER_RE.match(code)
        if match is None:
            if code.strip() and not _POWER_RE.match(code):
                break
            continue
        name, parsed = _header_value(match, number)
        if name in found and found[name] != parsed:
            raise OrdersSyntaxError(f"a second {name} header with another value", number, 1)
        found[name] = parsed
    return Headers(game=found.get("game"), turn=found.get("turn"))


def _header_value(match: re.Match, number: int) -> tuple[str, object]:
    """(name, value) of the header line ``match`` (``_HEADER_RE``) at line ``number``;
    ``OrdersSyntaxError`` at its column for a malformed value."""
    name, value = match.group(1).lower(), match.group(2).strip()
    column = match.start(2) + 1
    if name == "turn":
        if not re.fullmatch(r"[0-9]{1,%d}" % MAX_TURN_DIGITS, value) or int(value) < 1:
            raise OrdersSyntaxError(f"the turn header must be a turn number "
                                    f"(1 to {'9' * MAX_TURN_DIGITS}), not {value[:20]!r}",
                                    number, column)
        return name, int(value)
    if not value or any(c.isspace() for c in value):
        raise OrdersSyntaxError("the game header must be the game id, one word",
                                number, column)
    return name, value


def check_headers(text: str, game_id: str, turn_number: int) -> Headers:
    """Refuse orders whose headers are missing or name another game or turn (for signed
    orders, which must carry both)."""
    headers = read_headers(text)
    missing = [f"'{name}: {value}'" for name, value, got in
               (("game", game_id, headers.game), ("turn", turn_number, headers.turn))
               if got is None]
    if missing:
        raise PbemError("signed orders must name the game and the turn they are for: add "
                        f"the header line{'s' if len(missing) > 1 else ''} "
                        f"{' and '.join(missing)} before the first order, then sign again")
    if headers.game != game_id:
        raise PbemError(f"these orders are for game {headers.game!r}, not {game_id!r}")
    if headers.turn != turn_number:
        raise PbemError(f"these orders are for turn {headers.turn}, but the game is at turn "
                        f"{turn_number}")
    return headers


def canonical_digest(canonical_text: str) -> str:
    """``"sha256:<hex>"`` of the canonical orders text as UTF-8: what the dice are bound to
    (``parser.format_orders`` of the parsed orders)."""
    return "sha256:" + hashlib.sha256(canonical_text.encode("utf-8")).hexdigest()


_NMR_LINE_RE = re.compile(r"^\s*nmr(\s+[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2})?Z)?"
                          r"\s*$", re.IGNORECASE)


def is_nmr_statement(text: str) -> bool:
    """Whether the orders are only the game master's ``nmr`` statement (besides comments,
    blank lines and ``power:``/``game:``/``turn:`` headers).  Such orders record that the
    player sent none, so they carry no player's signature even when the player has a key;
    the game master's signature of the turn file vouches for them."""
    try:
        text = check_size(text)
    except PbemError:
        return False
    statements = 0
    for _number, raw in split_lines(text):
        if line_problem(raw) is not None:
            return False
        code = _code(raw)
        if not code.strip() or _HEADER_RE.match(code) or _POWER_RE.match(code):
            continue
        if not _NMR_LINE_RE.match(code):
            return False
        statements += 1
    return statements == 1
