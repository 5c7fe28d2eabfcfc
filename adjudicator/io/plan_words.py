"""A board battle plan as players write it: the clauses after ``plan 34:`` or
``defend 22:`` read into a ``model.tactical.BattlePlan`` (unit types by key), forgivingly.

Clauses are separated by commas, semicolons, ``and`` or ``+`` and come in any order:

* a formation: ``wedge``, ``line``, ``in wedge``, ``wedge formation`` (the board's
  ``[formations]``);
* a stance: ``advance`` (``attack``, ``forward``, ``push``...) or ``hold`` (``stay``,
  ``dig in``, ``hold position``...);
* a target priority: ``target tanks``, ``targets: guns``, ``priority nearest``,
  ``guns first``, ``best exchange``... (``TARGET_WORDS``);
* fire discipline: ``fire at 4``, ``fire at 4+``, ``fire on 5``, ``shoot at 3``,
  ``fire at will`` (= 6);
* own squares for units: ``tank IV at G3``, ``2 tank II at F3 H3``, ``T4 G3`` (the board's
  short names), one square per unit; a clause of squares alone goes on the list before it
  (``tank II at F3, H3``);
* mines: ``mines G5 F5``, ``mine at E4``.

What is not said is the default (``model.tactical``: line, advance, best, fire at 6).  An
unknown word is an error with the nearest known word ("did you mean").  Whether the squares
are in the side's rows and the units in the battle is the engine's check (board rules).
"""

from __future__ import annotations

import difflib
import functools
import re
from pathlib import Path
from typing import TYPE_CHECKING

from ..model.errors import DataError
from ..model.battle_plan import BattlePlan, Doctrine
from .tactical_data import BOARD_FILE, load_board

if TYPE_CHECKING:
    from ..model.tactical import BoardRules
    from lark import Token, Tree

MAX_CLAUSES = 64            # clauses in one plan line (26 squares, 26 mines, the doctrine)

STANCE_WORDS = {
    "advance": "advance", "advancing": "advance", "attack": "advance", "forward": "advance",
    "go forward": "advance", "move forward": "advance", "push": "advance", "push forward": "advance",
    "charge": "advance", "aggressive": "advance", "assault": "advance", "move": "advance",
    "hold": "hold", "holding": "hold", "stay": "hold", "stay put": "hold", "static": "hold",
    "dig in": "hold", "hold position": "hold", "hold ground": "hold", "hold the line": "hold",
    "stand": "hold", "stand fast": "hold", "stand firm": "hold", "entrench": "hold",
    "defensive": "hold", "wait": "hold", "stationary": "hold",
}

TARGET_WORDS = {
    "best": "best", "best exchange": "best", "best trade": "best", "exchange": "best",
    "trade": "best", "value": "best", "best value": "best", "any": "best", "anything": "best",
    "highest rank": "highest_rank", "highest": "highest_rank", "rank": "highest_rank",
    "highest_rank": "highest_rank", "strongest": "highest_rank", "biggest": "highest_rank",
    "heaviest": "highest_rank", "largest": "highest_rank", "high rank": "highest_rank",
    "nearest": "nearest", "closest": "nearest", "near": "nearest", "close": "nearest",
    "guns": "guns_first", "gun": "guns_first", "guns_first": "guns_first",
    "at guns": "guns_first", "at gun": "guns_first", "anti-tank guns": "guns_first",
    "artillery": "guns_first", "lrg": "guns_first", "lrgs": "guns_first",
    "tanks": "tanks_first", "tank": "tanks_first", "tanks_first": "tanks_first",
    "warships": "tanks_first", "warship": "tanks_first", "ships": "tanks_first",
    "ship": "tanks_first", "armour": "tanks_first", "armor": "tanks_first",
    "vehicles": "tanks_first",
}

FIRE_WILL = {"will", "freely", "free", "all", "always", "any", "anything", "everything", "once"}
_FIRE_HEADS = {"fire", "fires", "firing", "shoot", "shoots", "shooting", "discipline"}
_FIRE_FILLER = {"at", "on", "only", "when", "if", "need", "needing", "needed", "needs",
                "roll", "rolls", "rolling", "of", "a", "discipline", "hit", "hits", "to",
                "with", "or", "better", "more", "less", "plus", "up"}
_TARGET_HEADS = {"target", "targets", "targeting", "targetting", "priority", "priorities",
                 "focus", "aim", "kill", "prefer", "prefers"}
_TARGET_FILLER = {"at", "on", "the", "priority", "first", "on:", "is"}
_MINE_HEADS = {"mine", "mines", "minefield", "minefields"}
_FORMATION_WORDS = {"formation", "in", "form", "deploy", "deployment", "as"}
_SQUARE_FILLER = {"at", "on", "in", "to", "square", "squares"}
_SQUARE = re.compile(r"^([A-Za-z])([1-9][0-9]?)$")
_ROMAN = {"1": "i", "2": "ii", "3": "iii", "4": "iv"}
DEFAULT_FORMATIONS = ("line", "wedge")


@functools.lru_cache(maxsize=8)
def _board_of(folder: str) -> BoardRules | None:
    try:
        return load_board(folder)
    except DataError:
        return None


def board_for(game) -> BoardRules | None:
    """The battle board of ``game``'s data folder, if it has one."""
    folder = getattr(game, "source_dir", "") or ""
    if not folder or not (Path(folder) / BOARD_FILE).is_file():
        return None
    return _board_of(str(Path(folder).resolve()))


class _Plan:
    """The plan being read, clause by clause."""

    def __init__(self) -> None:
        self.formation: str | None = None
        self.stance: str | None = None
        self.target: str | None = None
        self.fire_at: int | None = None
        self.squares: list[tuple[str, str]] = []
        self.mines: list[str] = []
        self.last: str | None = None          # the list a bare square goes on: a unit key or "mines"

    def plan(self) -> BattlePlan:
        default = Doctrine()
        return BattlePlan(formation=self.formation or BattlePlan().formation,
                          squares=tuple(self.squares), mines=tuple(self.mines),
                          doctrine=Doctrine(stance=self.stance or default.stance,
                                            target=self.target or default.target,
                                            fire_at=self.fire_at or default.fire_at))


def read_plan(b, line, clauses: list[Tree], verb: str) -> BattlePlan | None:
    """The plan the clauses (``name`` trees) say, or None after reporting each problem."""
    board = board_for(b.names.game)
    if len(clauses) > MAX_CLAUSES:
        b.error(line, clauses[MAX_CLAUSES].meta.column,
                f"{verb}: {len(clauses)} clauses, more than the {MAX_CLAUSES} a plan may have")
        return None
    plan = _Plan()
    errors = len(b.errors)
    for clause in clauses:
        _clause(b, line, list(clause.children), plan, board, verb)
    return plan.plan() if len(b.errors) == errors else None


def _words(tokens: list[Token]) -> list[str]:
    return [t.value.casefold() for t in tokens]


def _clause(b, line, tokens: list[Token], plan: _Plan, board: BoardRules | None, verb: str) -> None:
    words = _words(tokens)
    column = tokens[0].column
    phrase = " ".join(words)
    if _short_name(board, words[0]) and len(words) > 1:
        _unit_squares(b, line, tokens, plan, board, verb)
    elif all(_is_square(w) for w in words):
        _more_squares(b, line, tokens, plan, verb)
    elif words[0] in _MINE_HEADS:
        rest = [t for t in tokens[1:] if t.value.casefold() not in _SQUARE_FILLER]
        if not rest:
            b.error(line, column, f"{verb}: '{phrase}' names no square for the mines (e.g. 'mines G5 F5')")
            return
        plan.last = "mines"
        _more_squares(b, line, rest, plan, verb)
    elif any(t.type == "INT" for t in tokens) and (words[0] in _FIRE_HEADS or _fire_words(words)):
        _fire(b, line, tokens, plan, verb)
    elif words[0] in _FIRE_HEADS and set(words[1:]) - _FIRE_FILLER <= FIRE_WILL and len(words) > 1:
        _set(b, line, column, plan, "fire_at", 6, verb, "fire discipline")
    elif words[0] in _TARGET_HEADS or (words[-1] == "first" and len(words) > 1) \
            or (words[0] in _FIRE_HEADS and len(words) > 1):
        _target(b, line, tokens, plan, verb)
    elif phrase in STANCE_WORDS:
        _set(b, line, column, plan, "stance", STANCE_WORDS[phrase], verb, "stance")
    elif phrase in TARGET_WORDS and phrase not in ("tank", "gun", "ship", "warship", "lrg"):
        _set(b, line, column, plan, "target", TARGET_WORDS[phrase], verb, "target priority")
    elif _formation_words(words, board) is not None:
        _set(b, line, column, plan, "formation", _formation_words(words, board), verb, "formation")
    elif _ends_in_squares(words):
        _unit_squares(b, line, tokens, plan, board, verb)
    else:
        _unknown(b, line, column, phrase, board, verb)


def _is_square(word: str) -> bool:
    """A square, or several joined by '/' (``F3/H3``)."""
    return all(_SQUARE.match(part) is not None for part in word.split("/"))


def _fire_words(words: list[str]) -> bool:
    return all(w in _FIRE_FILLER or w.isdigit() or w in _FIRE_HEADS for w in words)


def _short_name(board: BoardRules | None, word: str) -> str | None:
    """The unit kind a board short name (``T4``, ``AT``) names, unless it is a square of
    this board too."""
    if board is None:
        return None
    for key, kind in board.kinds.items():
        if kind.short and kind.short.casefold() == word:
            match = _SQUARE.match(word)
            if match and ord(match.group(1).upper()) - 64 <= board.columns:
                return None
            return key
    return None


def _set(b, line, column, plan: _Plan, field: str, value, verb: str, what: str) -> None:
    old = getattr(plan, field)
    if old is not None and old != value:
        b.error(line, column, f"{verb}: two {what}s, '{old}' and '{value}': say one")
        return
    setattr(plan, field, value)


def _fire(b, line, tokens: list[Token], plan: _Plan, verb: str) -> None:
    numbers = [t for t in tokens if t.type == "INT"]
    others = [w for w in _words(tokens) if not w.isdigit() and w not in _FIRE_FILLER | _FIRE_HEADS]
    if len(numbers) != 1 or others:
        b.error(line, tokens[0].column,
                f"{verb}: fire discipline is one roll needed, 2 to 6 ('fire at 4'), "
                f"not '{' '.join(t.value for t in tokens)}'", "fire at 4")
        return
    value = int(numbers[0].value) if len(numbers[0].value) < 4 else 0
    if not 2 <= value <= 6:
        b.error(line, numbers[0].column,
                f"{verb}: 'fire at {numbers[0].value[:6]}': the roll needed is 2 to 6 on a six-sided die "
                f"(2 next to the target, 6 with four free squares between)")
        return
    _set(b, line, tokens[0].column, plan, "fire_at", value, verb, "fire discipline")


def _target(b, line, tokens: list[Token], plan: _Plan, verb: str) -> None:
    words = [w for w in _words(tokens)
             if w not in _TARGET_HEADS | _TARGET_FILLER and w not in _FIRE_HEADS]
    phrase = " ".join(words)
    found = TARGET_WORDS.get(phrase) or TARGET_WORDS.get(phrase.replace("-", " "))
    if found is None:
        close = difflib.get_close_matches(phrase, list(TARGET_WORDS), n=1, cutoff=0.6)
        b.error(line, tokens[0].column,
                f"{verb}: unknown target priority '{phrase or ' '.join(_words(tokens))}' "
                f"(known: best, highest rank, nearest, guns, tanks)",
                f"target {close[0]}" if close else None)
        return
    _set(b, line, tokens[0].column, plan, "target", found, verb, "target priority")


def _formation_words(words: list[str], board: BoardRules | None) -> str | None:
    known = tuple(board.formations) if board is not None else DEFAULT_FORMATIONS
    rest = [w for w in words if w not in _FORMATION_WORDS]
    if len(rest) == 1 and rest[0] in known:
        return rest[0]
    if board is None and len(rest) == 1 and len(words) > 1:       # 'formation X' with no board data
        return rest[0]
    return None


def _ends_in_squares(words: list[str]) -> bool:
    return len(words) >= 2 and _is_square(words[-1])


def _unit_squares(b, line, tokens: list[Token], plan: _Plan, board: BoardRules | None, verb: str) -> None:
    """``2 tank II at F3 H3``, ``tank IV G3``, ``T4 at G3``."""
    words = _words(tokens)
    cut = next((i for i, w in enumerate(words) if w in _SQUARE_FILLER and i > 0), None)
    if cut is None:
        cut = len(words)
        while cut > 1 and _is_square(words[cut - 1]):
            cut -= 1
    unit, squares = tokens[:cut], [t for t in tokens[cut:] if t.value.casefold() not in _SQUARE_FILLER]
    count = None
    if unit and unit[0].type == "INT":
        count = b.number(line, unit[0], what="a unit count")
        unit = unit[1:]
        if count is None:
            return
    if not unit or not squares:
        b.error(line, tokens[0].column,
                f"{verb}: '{' '.join(t.value for t in tokens)}' is not a unit and its squares "
                f"(e.g. 'tank IV at G3')")
        return
    key = _unit_key(b, line, unit, board)
    if key is None:
        return
    if count is not None and count != len(squares):
        b.error(line, tokens[0].column,
                f"{verb}: {count} {' '.join(t.value for t in unit)} but {len(squares)} "
                f"square{'s' if len(squares) != 1 else ''}: one square for each unit")
        return
    plan.last = key
    _more_squares(b, line, squares, plan, verb)


def _unit_key(b, line, unit: list[Token], board: BoardRules | None) -> str | None:
    text = " ".join(t.value for t in unit).casefold()
    short = _short_name(board, text)
    if short is not None:
        return short
    names = b.names
    for attempt in (text, re.sub(r"\b([1-4])$", lambda m: _ROMAN[m.group(1)], text)):
        found = names.find("unit", attempt)
        if found is not None:
            return found
    return b.resolve(line, "unit", unit)


def _more_squares(b, line, tokens: list[Token], plan: _Plan, verb: str) -> None:
    if plan.last is None:
        b.error(line, tokens[0].column,
                f"{verb}: squares '{' '.join(t.value for t in tokens)}' without a unit or 'mines' "
                f"before them (e.g. 'tank IV at G3', 'mines G5 F5')")
        return
    for token in tokens:
        for part in token.value.split("/"):
            match = _SQUARE.match(part)
            if match is None:
                b.error(line, token.column,
                        f"{verb}: '{part}' is not a square (a column letter and a row: G3)")
                return
            square = match.group(1).upper() + match.group(2)
            if plan.last == "mines":
                plan.mines.append(square)
            else:
                plan.squares.append((plan.last, square))


def _unknown(b, line, column: int, phrase: str, board: BoardRules | None, verb: str) -> None:
    formations = tuple(board.formations) if board is not None else DEFAULT_FORMATIONS
    vocabulary = [*STANCE_WORDS, *formations, "target tanks", "target guns", "target nearest",
                  "fire at 4", "mines"]
    close = difflib.get_close_matches(phrase, vocabulary, n=1, cutoff=0.6)
    b.error(line, column,
            f"{verb}: '{phrase}' is not a formation ({', '.join(formations)}), a stance "
            f"(advance, hold), a target, fire discipline, a unit's squares or mines",
            close[0] if close else None)
