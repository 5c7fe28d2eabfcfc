"""The text of a game master's correction turn (``model.corrections``): what
``pbem correct`` writes as the turn's orders and what the audit reads back.

::

    game: club-7
    turn: 12
    correction: undo to turn 11
    correction: set Karelia: 3 germany infantry, 1 germany tank
    correction: set Sea Zone 5: empty
    correction: ipcs germany 30
    correction: owner Karelia ussr
    reason: Germany's orders were played for the wrong turn

One or more ``correction:`` lines and exactly one ``reason:`` line; blank lines and the
``game:``/``turn:`` headers are allowed, nothing else.  Names are resolved as in orders
(``io.names``) when the game is given; ``format_correction`` writes the canonical text,
with keys, whose digest the turn records.
"""

from __future__ import annotations

import re

from ..model.corrections import IPCS, OWNER, SET, UNDO, Correction, Edit
from ..model.errors import PbemError
from . import orders_text

MAX_REASON = 500
MAX_EDITS = 200
_LINE_RE = re.compile(r"^\s*(correction|reason)\s*:(.*)$", re.IGNORECASE)
_UNDO_RE = re.compile(r"^undo\s+to\s+turn\s+([0-9]{1,6})$", re.IGNORECASE)
_SET_RE = re.compile(r"^set\s+(.+?)\s*:\s*(.*)$", re.IGNORECASE)
_IPCS_RE = re.compile(r"^ipcs\s+(.+?)\s+(-?[0-9]{1,6})$", re.IGNORECASE)
_OWNER_RE = re.compile(r"^owner\s+(.+)\s+(\S+)$", re.IGNORECASE)
_UNITS_RE = re.compile(r"^([0-9]{1,4})\s+(\S+)\s+(.+)$")


class CorrectionError(PbemError):
    """The text of a correction is malformed or names something the game does not have."""


def is_correction_statement(text: str) -> bool:
    """Whether ``text`` is a correction (its first line that is not blank or a header is a
    ``correction:`` line).  Such a turn is the game master's, like an ``nmr``: no
    player signs it, the game master's signature of the turn file vouches for it."""
    try:
        text = orders_text.check_size(text)
    except PbemError:
        return False
    for _number, raw in orders_text.split_lines(text):
        if not raw.strip() or orders_text.is_header_line(raw):
            continue
        match = _LINE_RE.match(raw)
        return match is not None and match.group(1).lower() == "correction"
    return False


def game_master_statement(text: str) -> tuple[str, str] | None:
    """(what it is, what it does) if ``text`` is a game master's statement that no player
    signs -- an ``nmr`` (a missed deadline) or a correction (``io.corrections``) -- else
    None."""
    if orders_text.is_nmr_statement(text):
        return "nmr statement", "record a missed deadline"
    if is_correction_statement(text):
        return "correction", "correct the position"
    return None


def parse_correction(text: str, game=None) -> Correction:
    """The correction ``text`` states (``CorrectionError`` naming the line otherwise).
    With ``game``, names are resolved to keys and checked against it."""
    text = orders_text.check_size(text)
    edits: list[Edit] = []
    reason = None
    for number, raw in orders_text.split_lines(text):
        problem = orders_text.line_problem(raw)
        if problem is not None:
            raise CorrectionError(f"line {number}: {problem[1]}")
        if not raw.strip() or orders_text.is_header_line(raw):
            continue
        match = _LINE_RE.match(raw)
        if match is None:
            raise CorrectionError(f"line {number}: a correction has only 'correction:' lines "
                                  f"and one 'reason:' line, not {raw.strip()[:60]!r}")
        word, rest = match.group(1).lower(), match.group(2).strip()
        if word == "reason":
            if reason is not None:
                raise CorrectionError(f"line {number}: a second 'reason:' line")
            if not rest or len(rest) > MAX_REASON:
                raise CorrectionError(f"line {number}: the reason must be 1 to {MAX_REASON} "
                                      "characters")
            reason = rest
            continue
        if len(edits) >= MAX_EDITS:
            raise CorrectionError(f"line {number}: at most {MAX_EDITS} edits in one correction")
        try:
            edits.append(_edit(rest, game))
        except PbemError as exc:
            raise CorrectionError(f"line {number} ('{raw.strip()[:80]}'): {exc}") from None
    if not edits:
        raise CorrectionError("a correction needs at least one 'correction:' line")
    if reason is None:
        raise CorrectionError("a correction needs a 'reason:' line saying why it was made")
    return Correction(tuple(edits), reason)


def _edit(text: str, game) -> Edit:
    if m := _UNDO_RE.match(text):
        return Edit(UNDO, turn=int(m.group(1)))
    if m := _SET_RE.match(text):
        return Edit(SET, target=_name(game, "space", m.group(1)), units=_units(m.group(2), game))
    if m := _IPCS_RE.match(text):
        return Edit(IPCS, target=_name(game, "power", m.group(1)), amount=int(m.group(2)))
    if m := _OWNER_RE.match(text):
        power = m.group(2)
        return Edit(OWNER, target=_name(game, "space", m.group(1)),
                    power="" if power.lower() == "neutral" else _name(game, "power", power))
    raise CorrectionError(f"{text[:60]!r} is not an edit: 'undo to turn N', 'set SPACE: "
                          "N POWER UNIT, ...', 'ipcs POWER N' or 'owner TERRITORY POWER'")


def _units(text: str, game) -> dict[str, dict[str, int]]:
    """``3 germany infantry, 1 germany tank`` (or ``empty``) as {owner: {type: count}}."""
    units: dict[str, dict[str, int]] = {}
    if text.strip().lower() == "empty":
        return units
    for part in text.split(","):
        m = _UNITS_RE.match(part.strip())
        if m is None or int(m.group(1)) < 1:
            raise CorrectionError(f"{part.strip()[:40]!r}: write units as 'COUNT POWER UNIT' "
                                  "(e.g. '3 germany infantry'), or 'empty'")
        owner, unit = _name(game, "power", m.group(2)), _name(game, "unit", m.group(3))
        mine = units.setdefault(owner, {})
        mine[unit] = mine.get(unit, 0) + int(m.group(1))
    return units


def _name(game, kind: str, text: str) -> str:
    if game is None:
        return text.strip()
    from .names import names_of
    return names_of(game).resolve(kind, text.strip())


def format_correction(correction: Correction, game=None) -> str:
    """The canonical text of ``correction`` (keys, units sorted by owner and type)."""
    lines = [f"correction: {edit_text(edit)}" for edit in correction.edits]
    return "\n".join([*lines, f"reason: {correction.reason}"]) + "\n"


def edit_text(edit: Edit) -> str:
    """One edit as written after ``correction:``."""
    if edit.action == UNDO:
        return f"undo to turn {edit.turn}"
    if edit.action == SET:
        return f"set {edit.target}: {units_text(edit.units)}"
    if edit.action == IPCS:
        return f"ipcs {edit.target} {edit.amount}"
    return f"owner {edit.target} {edit.power or 'neutral'}"


def units_text(units: dict[str, dict[str, int]]) -> str:
    parts = [f"{count} {owner} {unit}" for owner in sorted(units)
             for unit, count in sorted(units[owner].items())]
    return ", ".join(parts) or "empty"


def correction_text(game_id: str, turn_number: int, edits: list[str], reason: str) -> str:
    """The text ``pbem correct`` publishes: headers, one ``correction:`` line per edit as
    given, and the reason."""
    reason = " ".join(reason.split())
    return "".join([f"game: {game_id}\n", f"turn: {turn_number}\n",
                    *(f"correction: {e.strip()}\n" for e in edits), f"reason: {reason}\n"])
