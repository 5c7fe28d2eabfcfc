"""What players write around their orders, found before the orders are parsed, and
chatter (``is_chatter``: a line that holds nothing an order is made of).

Orders arrive pasted from forum posts and mail bodies.  This module finds the text that is
not orders (greetings, sign-offs, a ``-- `` signature, ``>`` quoted history) and the
decorations players put around an order (a list prefix ``1.``, ``-`` or ``*``, a power prefix
``Ger:``, a trailing ``;``).  It only looks at the text: deciding whether a prefix names a
power is the parser's job (it knows the game's names).  Decorations are blanked out with
spaces, never cut, so that every column the parser reports is still the player's column.
"""

from __future__ import annotations

import re

import attrs

MAX_NOISE_WORDS = 8       # a greeting or closing line is short


@attrs.frozen
class OrdersNote:
    """Something the parser ignored on purpose and tells the player about (not an error)."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: note: {self.message}"


_GREETING = re.compile(
    r"(hi|hello|hallo|hey|hiya|howdy|greetings|dear|good\s+(morning|afternoon|evening|day)|"
    r"morning|evening|yo)\b(?:[^\W\d_]|[\s,.!'’-])*", re.IGNORECASE)
_CLOSING = re.compile(
    r"(cheers|thanks|thank\s+you|thx|ta|regards|kind\s+regards|best\s+regards|best\s+wishes|"
    r"best|bye|good\s+luck|gl(\s+hf)?|have\s+fun|see\s+you|cu|ciao|yours|sincerely)\b"
    r"(?:[^\W\d_]|[\s,.!'’-])*", re.IGNORECASE)
_NAME_LINE = re.compile(r"[^\W\d_][\w.'’-]*(\s+[^\W\d_][\w.'’-]*){0,2}[\s,.!]*")
_QUOTE = re.compile(r"\s*>")
_WROTE = re.compile(r".{0,200}\bwrote:\s*", re.IGNORECASE)
_SIGNATURE = re.compile(r"--\s*")

_LIST_PREFIX = re.compile(r"(\s*)(\d{1,3}[.)]|\(\d{1,3}\)|[-*•·])(?=\s)")
_TRAILING_SEMICOLONS = re.compile(r";[;\s]*$")
_MARKUP = re.compile(r"\*\*|__|`")        # Markdown bold and code marks of forum and chat posts
# A remark in parentheses at the end of a line, without a number: "(blitz)", "(landing)".
_TRAILING_REMARK = re.compile(r"(?<=\S)\s*\([^()0-9]*\)\s*$")
_POWER_PREFIX = re.compile(r"(\s*)([^\W\d_][\w .'’-]{0,39}?)\s*:")


# A number followed by one of these words is not a unit count ("24 IPC", "round 1 of 3"),
# nor is a number after the words of _NUMBERED ("round 1", "turn 2").
_NOT_COUNTED = frozenset({"ipc", "ipcs", "pu", "pus", "of", "am", "pm", "and", "or", "to",
                          "round", "rounds", "turn", "turns", "percent", "left", "saved"})
_NUMBERED = frozenset({"round", "turn", "r", "t", "no", "number", "game", "move", "phase",
                       "total", "spent", "saved", "left", "bank", "banked", "income",
                       "ipc", "ipcs"})
_WORD = re.compile(r"[^\W_]+(?:[.'’][^\W_]+)*")
MAX_NAME_WORDS = 4        # the longest unit or place name ("Union of South Africa")


def is_chatter(code: str, known) -> bool:
    """Whether a line that is not an order holds nothing an order is made of: no unit
    count (a number followed by a word: "3 inf", "2x"), no unit name and no place name
    (a power's name is not a place here: "Germany R1" is a title).  ``known(kind, text)``
    says whether ``text`` names a "unit", "space" or "power".  A word of one or two
    letters counts only in capitals ("WR", "DD"; "me", "we" are English), a place of
    three letters too ("Kar" is written with a count or a verb anyway)."""
    words = _WORD.findall(code)
    folded = [w.casefold() for w in words]
    for i, word in enumerate(folded):
        if re.fullmatch(r"[0-9]+[x×]", word):
            return False
        if word.isdigit() and i + 1 < len(words) and folded[i + 1] not in _NOT_COUNTED \
                and not folded[i + 1][0].isdigit() \
                and (i == 0 or folded[i - 1] not in _NUMBERED):
            return False
    for size in range(MAX_NAME_WORDS, 0, -1):
        for i in range(len(words) - size + 1):
            text = " ".join(words[i:i + size])
            short = size == 1 and not text.isupper() and not any(c.isdigit() for c in text)
            if short and len(text) <= 2:
                continue
            if known("unit", text):
                return False
            if short and len(text) <= 3:
                continue
            if known("space", text) and not known("power", text):
                return False
    return True


def _short(line: str) -> bool:
    return len(line.split()) <= MAX_NOISE_WORDS


def _content(line: str) -> bool:
    """Not blank and not only a comment."""
    return bool(line.split("#", 1)[0].strip())


def _lines_text(first: int, last: int) -> str:
    return f"line {first}" if first == last else f"lines {first}-{last}"


def mail_noise(lines: list[str]) -> tuple[set[int], list[OrdersNote]]:
    """The 0-based indexes of ``lines`` that are mail around the orders, and one note per
    ignored block: greetings before the first order, a ``-- `` signature and everything
    after it, ``>`` quoted lines (with the "... wrote:" line that introduces them), and a
    closing ("Cheers,", "Thanks") with the name under it after the last order."""
    ignored: set[int] = set()
    notes: list[OrdersNote] = []
    end = len(lines)
    for i, line in enumerate(lines):
        if _SIGNATURE.fullmatch(line):
            ignored.update(range(i, end))
            after = sum(_content(x) for x in lines[i + 1:])
            rest = {0: "", 1: "and the line after it "}.get(after, f"and the {after} lines after it ")
            notes.append(OrdersNote(i + 1, f"the signature ('-- ') {rest}ignored"))
            end = i
            break
    i = 0
    while i < end:                                   # quoted history, in blocks
        if _QUOTE.match(lines[i]) or (_WROTE.fullmatch(lines[i]) and _next_is_quote(lines, i, end)):
            first = i
            while i < end and (_QUOTE.match(lines[i]) or not lines[i].strip()
                               or (i == first and _WROTE.fullmatch(lines[i]))):
                i += 1
            last = i - 1
            while last > first and not lines[last].strip():
                last -= 1
            ignored.update(range(first, last + 1))
            notes.append(OrdersNote(first + 1, f"quoted text ('>') ignored "
                                              f"({_lines_text(first + 1, last + 1)})"))
        else:
            i += 1
    content = [i for i in range(end) if i not in ignored and _content(lines[i])]
    for i in content:                                # greetings before the first order
        if _GREETING.fullmatch(lines[i].strip()) and _short(lines[i]):
            ignored.add(i)
            notes.append(OrdersNote(i + 1, f"greeting ignored: '{lines[i].strip()}'"))
        else:
            break
    content = [i for i in content if i not in ignored]
    for k, i in enumerate(content):                  # a closing and the name under it
        tail = content[k + 1:]
        if _CLOSING.fullmatch(lines[i].strip()) and _short(lines[i]) \
                and all(_NAME_LINE.fullmatch(lines[j].strip()) for j in tail) and len(tail) <= 2:
            ignored.update([i, *tail])
            notes.append(OrdersNote(i + 1, f"closing ignored: '{lines[i].strip()}'"
                                           + (f" ({_lines_text(i + 1, tail[-1] + 1)})" if tail else "")))
            break
    notes.sort(key=lambda n: n.line)
    return ignored, notes


def _next_is_quote(lines: list[str], i: int, end: int) -> bool:
    for line in lines[i + 1:end]:
        if line.strip():
            return bool(_QUOTE.match(line))
    return False


def _blank(text: str, start: int, stop: int) -> str:
    return text[:start] + " " * (stop - start) + text[stop:]


def strip_decorations(code: str) -> str:
    """``code`` (one line, comment removed) with Markdown marks (``**CM:**``, `` `...` ``),
    a list prefix (``1.``, ``2)``, ``-``, ``*``), trailing ``;`` and a remark in
    parentheses at the end (``(blitz)``) blanked out."""
    code = _MARKUP.sub(lambda m: " " * len(m.group()), code)
    match = _LIST_PREFIX.match(code)
    if match and code[match.end():].strip():
        code = _blank(code, match.start(2), match.end(2))
    match = _TRAILING_SEMICOLONS.search(code)
    if match:
        code = _blank(code, match.start(), match.end())
    match = _TRAILING_REMARK.search(code)
    if match and not re.search(r"\(\s*(empty|none|nothing)\s*\)\s*$", code, re.IGNORECASE):
        code = _blank(code, match.start(), match.end())
    return code


@attrs.frozen
class Prefix:
    """A ``name:`` in front of a line that may name a power: the name, its 1-based column,
    and where the rest of the line starts (0-based)."""

    text: str
    column: int
    rest: int


def power_prefix(code: str) -> Prefix | None:
    """The ``name:`` at the start of ``code``, if there is one (whether it names a power is
    for the caller to decide)."""
    match = _POWER_PREFIX.match(code)
    if not match:
        return None
    return Prefix(match.group(2).strip(), match.start(2) + 1, match.end())


def blank_prefix(code: str, prefix: Prefix) -> str:
    return _blank(code, 0, prefix.rest)
