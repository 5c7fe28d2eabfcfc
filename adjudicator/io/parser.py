"""Orders text -> :class:`~adjudicator.model.orders.OrderSet`, and back.

The grammar is ``grammar/core.lark`` plus one fragment per order kind the edition accepts
(``grammar/kinds/<kind>.lark``; the kinds are listed in the edition's ``[turn] orders`` and
read and written by their modules in ``io.kinds``), built into one Lark LALR parser per set
of kinds and cached.  Every non-blank line is one statement and is parsed on its own, so all bad lines of
a file are reported at once.  Names are
resolved afterwards with :class:`~adjudicator.names.Names`; every unknown name is reported
with its line, column and a "did you mean" suggestion.  All problems are raised together as
one :class:`OrdersError`.

Orders are read as players write them (``io.loose_text``): mail greetings, quotes and
signatures are skipped with a note, list prefixes, trailing ``;`` and power prefixes
(``Ger:``) are blanked out, and a ``-`` inside a word is an arrow when that is the only
reading in which every name resolves ("Karelia-Archangel", but "Anglo-Egypt Sudan").  Lines
without a verb, with the place first or in prose are read by the grammar's shapes
(``io.order_shapes``); a line that cannot be read and holds no unit count, unit name or
place name is chatter (a note, never an error).  ``parse_orders_partial`` also tells how
each line was read (``echo``: what ``pbem check`` shows) and what an unreadable line was
meant to be (``failed``: so that nothing is blamed on its absence).

Public API::

    parse_orders(text, game, power=None, *, names=None, notes=None) -> OrderSet
    format_orders(order_set, game=None) -> str          # canonical text; parses back equal
    pretty(order, game=None) -> str                     # one order as one line
    strip_positions(order_set) -> OrderSet              # line numbers and source removed
"""

from __future__ import annotations

import copy
import difflib
import functools
import itertools
import re

import attrs
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from ..model.errors import OrdersSyntaxError
from ..model.game import Game
from ..model.orders import Order, OrderSet, Phase, UnitGroup
from . import orders_text
from .orders_text import MAX_COUNT, MAX_UNITS_TEXT
from .loose_text import (
    OrdersNote, blank_prefix, is_chatter, mail_noise, power_prefix, strip_decorations,
)
from .names import Names, UnknownName, names_of
from .kinds import KINDS, section_of
from .order_shapes import SHAPES, fill_place_all
from .paths import GRAMMAR_DIR

CORE_GRAMMAR = GRAMMAR_DIR / "core.lark"
NUMBER_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                "eleven", "twelve")          # grammar/core.lark NUMBER_WORD
MAX_HYPHEN_READINGS = 64    # readings of '-' inside words tried per line (2 ** 6)


class OrdersError(OrdersSyntaxError):
    """Every problem found in one orders file.  ``errors`` holds one
    :class:`OrdersSyntaxError` per problem, in line order; the attributes ``line``,
    ``column``, ``source_line`` and ``suggestion`` are those of the first one."""

    def __init__(self, errors: list[OrdersSyntaxError]):
        if not errors:
            raise ValueError("OrdersError needs at least one error")
        self.errors = sorted(errors, key=lambda e: (e.line, e.column))
        first = self.errors[0]
        super().__init__(first.args[0], first.line, first.column, first.source_line,
                         first.suggestion)

    def __str__(self) -> str:
        count = len(self.errors)
        head = f"{count} error{'s' if count != 1 else ''} in the orders:"
        return "\n".join([head, *(str(e) for e in self.errors)])


ALL_KINDS = ("research", "buy", "repair", "move", "load", "unload", "bomb", "bombard", "battle",
             "place", "defend", "nmr", "concede")


def grammar_text(kinds: tuple[str, ...]) -> str:
    """The whole grammar for an edition accepting ``kinds``."""
    parts = [CORE_GRAMMAR.read_text(encoding="utf-8"),
             "?statement: power_header\n          | section\n          | pass_turn\n"
             "          | bare\n          | located\n          | attack\n          | place_all\n"
             "          | landing\n"
             + "".join(f"          | {k}\n" for k in kinds)]
    for k in kinds:
        parts.append(f"// ---- kinds/{k}.lark\n" + KINDS[k].fragment())
    return "\n".join(parts)


@functools.lru_cache(maxsize=8)
def _lark(kinds: tuple[str, ...] = ALL_KINDS) -> Lark:
    return _build("start", grammar_text(kinds))


def _build(start: str, grammar: str) -> Lark:
    """The LALR parser of ``grammar``, its tables kept in the user's cache folder between
    runs (``io.usercache``): the file is named by a hash of the grammar text, the start
    rule and Lark's version, and Lark itself checks the hash it stored in the file (of
    the grammar, every option, its own and Python's version) before using it, so a
    changed grammar is never read from an old file."""
    import hashlib

    import lark

    from .usercache import private_file
    digest = hashlib.sha256(f"{start}\0{lark.__version__}\0{grammar}".encode()).hexdigest()
    path = private_file(f"lark-{digest[:32]}.pickle")
    try:
        return Lark(grammar, parser="lalr", lexer="contextual", start=start,
                    propagate_positions=True, cache=str(path) if path else False)
    except OSError:      # the cache could not be written: the parser is built all the same
        return Lark(grammar, parser="lalr", lexer="contextual", start=start,
                    propagate_positions=True)


def edition_kinds(game: Game) -> tuple[str, ...]:
    """The order kinds ``game``'s edition accepts (every kind if the data lists none)."""
    listed = game.ruleset.plan.order_kinds
    if not listed:
        return ALL_KINDS
    # the package's kinds in their fixed order, then a plug-in's kinds as the data lists them
    return (tuple(k for k in ALL_KINDS if k in listed)
            + tuple(k for k in listed if k not in ALL_KINDS and k in KINDS))


# ---- turning Lark's errors into plain words ---------------------------------------------------

_DESCRIBE = {
    "_ARROW": "'->'",
    "_COMMA": "','",
    "_AND": "'and'",
    "_THEN": "'then'",
    "_LPAR": "'('",
    "_RPAR": "')'",
    "_COLON": "':'",
    "_SEMICOLON": "';'",
    "RETREAT": "'retreat'",
    "LOSSES": "'losses'",
    "SUBS": "'subs'",
    "SUBMERGE": "'submerge'",
    "FIRE": "'fire'",
    "POLICY": "'never'/'always'/'losing'",
    "TO": "'to'",
    "IF": "'if'",
    "AFTER": "'after'",
    "SIDE": "'attackers'/'defenders'",
    "MEASURE": "'tuv'",
    "ROUND": "'round'",
    "CMP": "a comparison (<, <=, >, >=, =)",
    "OR": "'or'",
    "ALL": "'all'",
    "STAR": "'*'",
    "EMPTY": "'empty'",
    "WORD": "a name",
    "INT": "a number",
    "MOVE": "'move'",
    "NMR_DEADLINE": "a deadline (2025-03-04T12:00Z)",
    "$END": "the end of the line",
}

_CORE_CONTEXT = {
    "POWER": {"WORD", "INT", "_COLON", "$END"},
    "COMBAT": {"MOVE", "_COLON", "$END"},
    "NONCOMBAT": {"MOVE", "_COLON", "$END"},
}


def _line_start(kinds: tuple[str, ...]) -> str:
    words = [KINDS[k].words[0] for k in kinds] + ["power:", "combat:", "noncombat:", "pass"]
    return "a line starts with " + ", ".join(words[:-1]) + " or " + words[-1]


def _first_word(code: str) -> str | None:
    match = re.match(r"\s*([^\s:(),;]+)", code)
    return match.group(1) if match else None


def _line_verb(code: str, kinds: tuple[str, ...]) -> str | None:
    """The kind (or core statement terminal) the line starts with, if any."""
    text = code.lstrip()
    if not text:
        return None
    for found, regexp in _verb_patterns(kinds):
        if _starts_with(regexp, text):
            return found
    return None


@functools.lru_cache(maxsize=32)
def _verb_patterns(kinds: tuple[str, ...]) -> tuple[tuple[str, re.Pattern], ...]:
    """(kind or core terminal, its verb's compiled pattern), in the order ``_line_verb``
    tries them."""
    parser = _lark(kinds)
    found = [(k, terminal) for k in kinds for terminal in KINDS[k].verbs]
    found += [(terminal, terminal) for terminal in _CORE_CONTEXT]
    return tuple((name, re.compile(parser.get_terminal(terminal).pattern.to_regexp()))
                 for name, terminal in found)


def _starts_with(regexp: str | re.Pattern, text: str) -> bool:
    """Whether ``text`` starts with a whole match of ``regexp`` (a verb of one word or of
    several, such as ``middle east``), not with the start of a longer word."""
    match = re.match(regexp, text)
    return bool(match and match.end() and (match.end() == len(text)
                                           or not text[match.end()].isalnum()))


def _foreign_kind(code: str, kinds: tuple[str, ...]) -> str | None:
    """An order kind of another edition that the line starts with (``bomb`` or ``plan`` in
    1941)."""
    text = code.lstrip()
    if not text:
        return None
    patterns = _foreign_verb_patterns()
    for k in patterns:
        if k in kinds:
            continue
        for regexp in patterns[k]:
            if _starts_with(regexp, text):
                return k
    return None


def _every_kind() -> tuple[str, ...]:
    """Every kind the package registers (``io.kinds``), the fixed ones first: another
    edition's verb is any of them ('plan' in 1941 is Taktyczne Starcie's)."""
    return ALL_KINDS + tuple(k for k in KINDS if k not in ALL_KINDS)


@functools.lru_cache(maxsize=1)
def _foreign_verb_patterns() -> dict[str, tuple[str, ...]]:
    """The regular expressions of every package kind's verbs, as the grammar of every kind
    makes them (what ``_foreign_kind`` looks for).  Kept in the user's cache folder
    (``io.usercache``) under a hash of that grammar, the verbs and Lark's version: reading
    one edition's orders then does not load the parser of every kind (issue 24)."""
    import hashlib
    import json

    import lark

    from .usercache import private_file, write_private
    every = _every_kind()
    verbs = "".join(f"{k}:{','.join(KINDS[k].verbs)}\n" for k in every)
    digest = hashlib.sha256(
        f"{lark.__version__}\0{verbs}\0{grammar_text(every)}".encode()).hexdigest()
    path = private_file(f"verbs-{digest[:32]}.json")
    if path is not None:
        try:
            kept = json.loads(path.read_bytes())
            if isinstance(kept, dict) and list(kept) == list(every) and all(
                    isinstance(v, list) and all(isinstance(x, str) for x in v)
                    for v in kept.values()):
                return {k: tuple(v) for k, v in kept.items()}
        except (OSError, ValueError):
            pass
    everything = _lark(every)
    patterns = {k: tuple(everything.get_terminal(t).pattern.to_regexp() for t in KINDS[k].verbs)
                for k in every}
    if path is not None:
        write_private(path, json.dumps(patterns).encode("utf-8"))
    return patterns


def _context(verb: str | None) -> set[str] | None:
    if verb in KINDS:
        return set(KINDS[verb].context)
    return _CORE_CONTEXT.get(verb or "")


def _describe_expected(expected: set[str], verb: str | None) -> str:
    allowed = _context(verb)
    if allowed and expected & allowed:
        expected = expected & allowed
    if "WORD" in expected:
        expected = expected - {"INT"}
    words = [_DESCRIBE[t] for t in _DESCRIBE if t in expected]
    if not words:
        return ""
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _syntax_error(err: UnexpectedInput, number: int, raw: str, code: str,
                  kinds: tuple[str, ...]) -> OrdersSyntaxError:
    source = raw.replace("\t", " ")
    verb = _line_verb(code, kinds)
    suggestion = None
    if isinstance(err, UnexpectedToken):
        token = err.token
        expected = set(err.expected)
        try:       # what really fits here, after any reductions (LALR merges lookaheads)
            accepted = err.interactive_parser.accepts() if err.interactive_parser else set()
        except Exception:  # pragma: no cover - defensive: fall back to Lark's set
            accepted = set()
        if accepted:
            expected = set(accepted)
        if token.type == "$END":
            column = len(code.rstrip()) + 1
            found = "end of line"
        else:
            column = token.column
            found = f"'{token.value}'"
    elif isinstance(err, UnexpectedCharacters):
        column = err.column
        expected = set(err.allowed or ())
        found = f"'{code[err.pos_in_stream]}'" if err.pos_in_stream < len(code) else "this"
    else:  # pragma: no cover - LALR raises only the two above
        column = getattr(err, "column", 1) or 1
        expected = set(getattr(err, "expected", ()) or ())
        found = "this"

    if {"POWER", "BUY", "COMBAT"} <= expected:
        word = found.strip("'")
        spellings = [w for k in kinds for w in KINDS[k].words] + ["power", "combat", "noncombat",
                                                                  "pass"]
        close = difflib.get_close_matches(word.casefold(), spellings, n=1, cutoff=0.6)
        suggestion = close[0] if close else None
        message = f"{found} is not an order: {_line_start(kinds)}"
    elif expected and expected <= {"INT", "A", "PRECOUNT", "UNIT_TIMES"}:
        message = f"expected the number of units in digits (e.g. '2 inf'), found {found}"
    else:
        wanted = _describe_expected(expected, verb)
        message = f"unexpected {found}"
        if wanted:
            message += f"; expected {wanted}"
        if verb in KINDS:
            message += f" (example: '{KINDS[verb].example}')"
    return OrdersSyntaxError(message, number, column, source, suggestion)


# ---- building orders from the parse tree ------------------------------------------------------

@attrs.define
class _Line:
    number: int
    raw: str
    code: str

    def text(self, tokens: list[Token]) -> str:
        return self.code[tokens[0].start_pos:tokens[-1].end_pos]

    @property
    def source(self) -> str:
        return self.raw.replace("\t", " ")


# "Buy: 5 arm, 5 inf" and "Place: CV in z5" are orders that also head the lines after them.
_HEADING = re.compile(r"\s*[^\W\d_]+\s*:")
_HEADING_KINDS = {"buy": Phase.PURCHASE, "place": Phase.PLACE}

_SECTIONS = {
    "combat_section": Phase.COMBAT,
    "noncombat_section": Phase.NONCOMBAT,
    "purchase_section": Phase.PURCHASE,
    "place_section": Phase.PLACE,
}


def _tokens(tree: Tree) -> list[Token]:
    return [c for c in tree.children if isinstance(c, Token)]


class _Builder:
    """Collects the orders of one file, line by line.  The kind-specific reading is in
    ``io.kinds``; this class resolves names and reads unit groups for it."""

    def __init__(self, names: Names, power: str | None):
        self.names = names
        self.power_arg = power
        self.header: str | None = None
        self.section: Phase | None = None
        self.errors: list[OrdersSyntaxError] = []
        self.items: list[Order] = []
        self.merged: dict[tuple[str, object], int] = {}   # (kind, key) -> index in items
        self.orders_written = 0                 # statements that are orders (not headers)
        self.pass_line: _Line | None = None
        self.wrong_power: OrdersSyntaxError | None = None
        self.said_none = False                     # a section says it is empty
        self.place_all: list[_Line] = []           # "place all in Russia" lines
        self.notes: list[OrdersNote] = []          # lines ignored on purpose (chatter)
        self.echo: dict[int, tuple[str, ...]] = {}  # line -> how it was read (besides orders)
        self.failed: dict[int, str] = {}           # line not read -> the kind it was meant as

    def fork(self) -> "_Builder":
        """A copy to try one reading of a line on; :meth:`adopt` keeps it."""
        trial = copy.copy(self)
        trial.errors = []
        trial.items = list(self.items)
        trial.merged = dict(self.merged)
        trial.place_all = list(self.place_all)
        trial.echo = dict(self.echo)
        trial.failed = dict(self.failed)
        return trial

    def say(self, number: int, reading: str) -> None:
        """Record how line ``number`` was read, when that is not an order of its own."""
        self.echo[number] = (*self.echo.get(number, ()), reading)

    def adopt(self, trial: "_Builder") -> None:
        errors = self.errors + trial.errors
        self.__dict__.update(trial.__dict__)
        self.errors = errors

    # ---- errors, names, numbers ------------------------------------------------------------

    def error(self, line: _Line, column: int, message: str, suggestion: str | None = None):
        self.errors.append(OrdersSyntaxError(message, line.number, column, line.source,
                                             suggestion))

    def resolve(self, line: _Line, kind: str, tokens: list[Token]) -> str | None:
        try:
            return self.names.resolve(kind, line.text(tokens))
        except UnknownName as exc:
            self.name_error(line, tokens[0].column, exc)
            return None

    def resolve_place(self, line: _Line, tokens: list[Token]) -> str | None:
        """The space ``tokens`` name, allowing a word before it ("in Russia", "on UK",
        "at z5"); an error if there is none."""
        if len(tokens) > 1 and tokens[0].value.casefold() in _LEADING_WORDS \
                and self.names.find("space", line.text(tokens)) is None:
            tokens = tokens[1:]
        return self.resolve(line, "space", tokens)

    def name_error(self, line: _Line, column: int, exc: UnknownName) -> None:
        self.error(line, column, exc.message, exc.suggestion)

    def number(self, line: _Line, token: Token, minimum: int = 1,
               what: str = "a number") -> int | None:
        """An INT token as a bounded integer (``minimum`` .. ``MAX_COUNT``), or an error."""
        if len(token.value) > 6 or int(token.value) > MAX_COUNT:
            self.error(line, token.column, f"{what} {token.value[:12]}{'...' if len(token.value) > 12 else ''} "
                                           f"is too large (at most {MAX_COUNT})")
            return None
        value = int(token.value)
        if value < minimum:
            self.error(line, token.column, f"{what} must be at least {minimum}")
            return None
        return value

    # ---- collecting orders -----------------------------------------------------------------

    def add(self, order: Order) -> None:
        self.items.append(order)

    def merge(self, kind: str, key, update, number: int = 0) -> None:
        """A later line (``number``) about the same battle or standing order changes the
        earlier one (``update(old or None) -> new``), keeping its place."""
        index = self.merged.get((kind, key))
        if index is None:
            self.merged[(kind, key)] = len(self.items)
            self.items.append(update(None))
        else:
            self.items[index] = update(self.items[index])
            self.say(number, f"(joins the {kind} order of line {self.items[index].line})")

    # ---- statements ------------------------------------------------------------------------

    def statement(self, line: _Line, tree: Tree) -> None:
        stmt = tree.children[0]
        if stmt.data in KINDS:
            self.orders_written += 1
            if stmt.data in _HEADING_KINDS and _HEADING.match(line.code):
                self.section = _HEADING_KINDS[stmt.data]    # "Buy: 5 arm" heads what follows
            KINDS[stmt.data].build(self, line, stmt)
        elif stmt.data in SHAPES:
            self.orders_written += 1
            SHAPES[stmt.data](self, line, stmt)
        else:
            getattr(self, "do_" + stmt.data)(line, stmt)

    def do_power_header(self, line: _Line, tree: Tree) -> None:
        name = tree.children[-1]
        key = self.resolve(line, "power", name.children)
        if key is None:
            return
        self.claim_power(line, name.children[0].column, key, "the header")
        self.say(line.number, f"power: {self.names.power_name(key)}")

    def claim_power(self, line: _Line, column: int, key: str, what: str) -> None:
        """A header or a line prefix says the orders are ``key``'s.  The first power named
        (or the ``power`` argument) is whose orders these are; naming another is the one
        error of the file (:attr:`wrong_power`), so that no order is checked as the wrong
        power's."""
        expected = self.power_arg if self.power_arg is not None else self.header
        if expected is None:
            self.header = key
            return
        if key == expected or self.wrong_power is not None:
            return
        name, other = self.names.power_name(expected), self.names.power_name(key)
        if self.power_arg is not None:
            message = (f"these orders are for {name}, but {what} says {other} "
                       f"(one power's orders per file, sent on its turn)")
        else:
            message = (f"a second power: {what} says {other}, but the orders were already "
                       f"for {name} (one power's orders per file)")
        self.wrong_power = OrdersSyntaxError(message, line.number, column, line.source)

    def do_pass_turn(self, line: _Line, tree: Tree) -> None:
        self.pass_line = self.pass_line or line
        self.say(line.number, "pass")

    def _section(self, line: _Line, tree: Tree) -> None:
        self.section = _SECTIONS[tree.data]
        if any(t.type == "EMPTY" for t in _tokens(tree)):
            self.said_none = True               # "Combat move: none": said, not forgotten
        self.say(line.number, f"{self.section.value}:")

    do_combat_section = do_noncombat_section = _section
    do_purchase_section = do_place_section = _section

    # ---- unit groups -----------------------------------------------------------------------

    def count(self, line: _Line, tree: Tree | None, minimum: int = 1) -> int | None:
        """A group's count; no count written is one unit; ``minimum`` 0 lets a list say
        "0 tank" (purchases and placements)."""
        if tree is None:
            return 1
        token = tree.children[0]
        if token.type == "A":
            return 1
        if token.type == "NUMBER_WORD":
            return NUMBER_WORDS.index(token.value.casefold()) + 1
        if token.type == "PRECOUNT":                            # "2x": the digits
            digits = re.search(r"[0-9]+", token.value)
            token = Token("INT", digits.group(), token.start_pos + digits.start(), token.line,
                          token.column + digits.start())
        return self.number(line, token, minimum=minimum, what="a unit count")

    def cargo(self, line: _Line, tree: Tree) -> tuple[UnitGroup, ...] | None:
        if not tree.children or isinstance(tree.children[0], Token):   # () or (empty)
            return ()
        if tree.children[0].data == "cost":
            self.error(line, tree.meta.column, "a cost note ('(24 IPC)') belongs to a purchase "
                                               "line, not a cargo list")
            return None
        groups = tree.children[0].children
        units = [self.unit_only(line, g, what="cargo") for g in groups]
        return None if None in units else tuple(units)

    def unit_only(self, line: _Line, group: Tree, what: str) -> UnitGroup | None:
        """A group that must not be followed by a space (buy lines, cargo lists, groups
        before a ',')."""
        count_tree, name, cargo_tree, place = _group_parts(group)
        count = self.count(line, count_tree, minimum=0 if what in _ZERO_ALLOWED else 1)
        cargo = None
        if cargo_tree is not None and what == "buy" and _is_cost(cargo_tree):
            cargo_tree = None                          # "buy 5 inf (15)": a cost note
        if cargo_tree is not None or group.data == "group_postcount":
            if cargo_tree is not None:
                if what in _NO_CARGO:
                    self.error(line, cargo_tree.meta.column,
                               f"a {what} line lists units only, without cargo")
                cargo = self.cargo(line, cargo_tree)
            if place is not None:
                self.error(line, place.children[0].column,
                           f"'{line.text(place.children)}' is out of place: " + (
                               _no_place(what) if what in _NO_PLACE else
                               "the territory comes once, after the last unit group"))
            unit = self.resolve(line, "unit", name.children)
        else:
            unit = self.names.find("unit", line.text(name.children))
            if unit is None:
                split = self.split(line, name.children, report=False)
                if split is not None:
                    k = split
                    tokens = name.children[k:]
                    self.error(line, tokens[0].column,
                               f"'{line.text(tokens)}' is out of place: " + (
                                   _no_place(what) if what in _NO_PLACE else
                                   "the territory comes once, after the last unit group"))
                    return None
                unit = self.resolve(line, "unit", name.children)
        if count is None or unit is None or (cargo_tree is not None and cargo is None):
            return None
        return UnitGroup(count, unit, cargo)

    def units_and_place(self, line: _Line, groups: Tree, verb: str):
        """Unit groups followed by a space (move/load/unload origin, place territory).
        Returns (tuple of groups or None, space key or None)."""
        *firsts, last = groups.children
        units = [self.unit_only(line, g, what=verb) for g in firsts]
        count_tree, name, cargo_tree, place_tree = _group_parts(last)
        count = self.count(line, count_tree, minimum=0 if verb in _ZERO_ALLOWED else 1)
        cargo = None
        place = None
        if cargo_tree is not None or last.data == "group_postcount":   # the space is apart
            unit = self.resolve(line, "unit", name.children)
            if cargo_tree is not None:
                cargo = self.cargo(line, cargo_tree)
            if place_tree is not None:
                tokens = place_tree.children
                if len(tokens) > 1 and tokens[0].value.casefold() in _PLACE_WORDS \
                        and self.names.find("space", line.text(tokens)) is None:
                    tokens = tokens[1:]              # "(1 inf) from SZ 5"
                place = self.resolve(line, "space", tokens)
            else:
                self.missing_place(line, cargo_tree if cargo_tree is not None else last, verb)
        else:
            unit = place = None
            tokens = name.children
            k = self.split(line, tokens, report=False) if len(tokens) > 1 else None
            if k is not None:
                unit = self.names.find("unit", line.text(tokens[:k]))
                place = self._space_after(line, tokens[k:])
            elif len(tokens) == 1 or self.names.find("unit", line.text(tokens)):
                unit = self.resolve(line, "unit", tokens)
                if unit is not None:
                    self.missing_place(line, name, verb)
            else:
                self.split(line, tokens, report=True)
        if count is not None and unit is not None and not (cargo_tree is not None and cargo is None):
            units.append(UnitGroup(count, unit, cargo))
        else:
            units.append(None)
        if None in units:
            return None, place
        return tuple(units), place

    def segments(self, line: _Line, groups: Tree, verb: str
                 ) -> list[tuple[tuple[UnitGroup, ...], str]] | None:
        """Unit groups each followed by its own space: "3 inf Karelia, 1 tank Caucasus" is
        [((3 inf,), Karelia), ((1 tank,), Caucasus)]; groups without a space share the next
        one's ("3 inf, 1 art Karelia, 2 inf Archangel").  None if anything was wrong (the
        errors are recorded).  Groups of 0 units ("0 tank") are left out."""
        children = groups.children
        if self.leading_place(line, children[0]) is not None:
            return self.place_first_segments(line, children, verb)
        cuts = [i for i, g in enumerate(children[:-1]) if self.has_place(line, g)]
        found: list[tuple[tuple[UnitGroup, ...], str]] = []
        failed = False
        start = 0
        for end in cuts + [len(children) - 1]:
            units, place = self.units_and_place(line, Tree("groups", children[start:end + 1]), verb)
            if units is None or place is None:
                failed = True
            else:
                found.append((tuple(u for u in units if u.count), place))
            start = end + 1
        return None if failed else found

    def leading_place(self, line: _Line, group: Tree
                      ) -> tuple[str, tuple[UnitGroup, ...]] | None:
        """A group written place first, without a colon: "Karelia 3 inf" (a table's
        columns) is (Karelia, (3 inf,)), "Karelia (3 inf, 1 tank)" (Karelia, (3 inf, 1
        tank)); None if it does not read so."""
        _count, name, cargo, place = _group_parts(group)
        if group.data != "group_nocount":
            return None
        tokens = name.children
        if cargo is not None:
            space = self.names.find("space", line.text(tokens))
            if space is None or place is not None or self.names.find("unit", line.text(tokens)):
                return None
            units = self.cargo(line, cargo)
            return (space, units) if units else None
        for k in range(1, len(tokens) - 1):
            if tokens[k].type != "INT":
                continue
            space = self.names.find("space", line.text(tokens[:k]))
            unit = self.names.find("unit", line.text(tokens[k + 1:]))
            if space is not None and unit is not None:
                count = self.number(line, tokens[k], minimum=0, what="a unit count")
                return (space, (UnitGroup(count, unit),)) if count is not None else None
        return None

    def place_first_segments(self, line: _Line, children: list[Tree], verb: str
                             ) -> list[tuple[tuple[UnitGroup, ...], str]] | None:
        """Groups written place first: "Russia 1 tank, 1 ftr" (both from Russia),
        "Karelia 3 inf, Archangel 3 inf", "Kar (3 inf), Arch (3 inf, 1 tank)"."""
        found: list[tuple[list[UnitGroup | None], str]] = []
        for group in children:
            lead = self.leading_place(line, group)
            if lead is not None:
                found.append((list(lead[1]), lead[0]))
            else:
                found[-1][0].append(self.unit_only(line, group, what=verb))
        if any(None in units for units, _space in found):
            return None
        return [(tuple(u for u in units if u.count), space) for units, space in found]

    def has_place(self, line: _Line, group: Tree) -> bool:
        """Whether a group names its own space after the unit ("3 inf Karelia")."""
        _count, name, cargo, place = _group_parts(group)
        if cargo is not None or group.data == "group_postcount":
            return place is not None
        tokens = name.children
        return (self.names.find("unit", line.text(tokens)) is None and len(tokens) > 1
                and self.split(line, tokens, report=False) is not None)

    def missing_place(self, line: _Line, after: Tree, verb: str) -> None:
        column = after.meta.end_column if not after.meta.empty else len(line.code.rstrip()) + 1
        what = "where to place the units" if verb == "place" else "where the units start"
        self.error(line, column, f"say {what} (example: '{KINDS[verb].example}')")

    def _space_after(self, line: _Line, tokens: list[Token]) -> str | None:
        """The space named by ``tokens``, allowing a leading "from", "in" or "at"
        ("move 2 inf from Karelia to Archangel", "place 3 inf in Germany")."""
        found = self.names.find("space", line.text(tokens))
        if found is None and len(tokens) > 1 and tokens[0].value.casefold() in _PLACE_WORDS:
            found = self.names.find("space", line.text(tokens[1:]))
        return found

    def split(self, line: _Line, tokens: list[Token], report: bool) -> int | None:
        """Split a run of words into unit name + space name.  Returns the number of words of
        the unit name when both resolve; otherwise (with ``report``) records the errors of
        the most plausible split and returns None."""
        n = len(tokens)
        units = {k: self.names.find("unit", line.text(tokens[:k])) for k in range(1, n)}
        spaces = {k: self._space_after(line, tokens[k:]) for k in range(1, n)}
        for k in range(n - 1, 0, -1):
            if units[k] and spaces[k]:
                return k
        if not report:
            return None
        for k in range(n - 1, 0, -1):               # the unit is fine: blame the space
            if units[k]:
                self.resolve(line, "space", tokens[k:])
                return None
        for k in range(1, n):                        # the space is fine: blame the unit
            if spaces[k]:
                self.resolve(line, "unit", tokens[:k])
                return None
        self.resolve(line, "unit", tokens[:1])
        self.resolve(line, "space", tokens[1:])
        return None

    # ---- result ----------------------------------------------------------------------------

    def order_set(self, text: str) -> OrderSet:
        return OrderSet(power=self.header if self.header is not None else self.power_arg,
                        items=tuple(self.items), source=text)


_PLACE_WORDS = frozenset({"from", "in", "at", "@"})
_LEADING_WORDS = _PLACE_WORDS | {"on", "of", "to"}      # "Attack on WR", "SBR on UK"
# "buy 2 inf, 0 tank", "3 inf + 0 tank": a list may hold a zero (a group of nothing)
_ZERO_ALLOWED = ("buy", "place", "move", "load", "unload")


def _is_cost(cargo: Tree) -> bool:
    return bool(cargo.children) and isinstance(cargo.children[0], Tree) \
        and cargo.children[0].data == "cost"


def _unit_times(token: Token) -> tuple[Tree, Tree]:
    """An "inf x2" token as a unit name and a count, each keeping its columns."""
    match = re.fullmatch(r"(.*?)\s*[x×]\s*([0-9]+)", token.value, re.IGNORECASE | re.DOTALL)

    def piece(kind: str, group: int) -> Token:
        start = match.start(group)
        return Token(kind, match.group(group), token.start_pos + start, token.line,
                     token.column + start, token.line, token.column + match.end(group),
                     token.start_pos + match.end(group))
    unit, count = piece("WORD", 1), piece("INT", 2)
    return Tree("name", [unit]), Tree("count", [count], meta=None)


_NO_CARGO = ("buy", "bomb", "bombard", "retreat")
_NO_PLACE = _NO_CARGO + ("units",)


def _no_place(what: str) -> str:
    return "a unit list names no territory" if what == "units" else f"a {what} line names no territory"


def _group_parts(group: Tree) -> tuple[Tree | None, Tree, Tree | None, Tree | None]:
    """(count, unit name, cargo, start space) of a group in any form: "2 inf ...",
    "2 trn (1 inf) SZ 5", "inf x2 Karelia" or "tank ..." (no count: None, one unit).  In the first form without cargo the unit
    name may run on into the start space (the caller splits it)."""
    if group.data == "group_postcount":
        token, *more = group.children
        name, count = _unit_times(token)
    elif group.data == "group_nocount":                    # "tank", "CV in z5": one unit
        name, *more = group.children
        count = None
    else:
        count, name, *more = group.children
    cargo = next((m for m in more if m.data == "cargo"), None)
    place = next((m for m in more if m.data == "name"), None)
    return count, name, cargo, place


def _strip_comment(raw: str) -> str:
    return raw.split("#", 1)[0]


def parse_orders(text: str, game: Game, power: str | None = None, *,
                 names: Names | None = None,
                 notes: list[OrdersNote] | None = None) -> OrderSet:
    """Parse one power's orders.  ``power`` (key or any name of a power), if given, is who
    the orders are for: a ``power:`` header naming another power is an error.  Raises
    :class:`OrdersError` listing every problem found.  Lines skipped on purpose (mail
    greetings, quotes, signatures) are appended to ``notes`` if it is given."""
    orders, errors = parse_orders_partial(text, game, power, names=names, notes=notes)
    if errors:
        raise OrdersError(errors)
    return orders


def parse_orders_partial(text: str, game: Game, power: str | None = None, *,
                         names: Names | None = None,
                         notes: list[OrdersNote] | None = None,
                         echo: dict[int, list[str]] | None = None,
                         failed: dict[int, str] | None = None,
                         ) -> tuple[OrderSet, list[OrdersSyntaxError]]:
    """Like :func:`parse_orders`, but returns the orders from every line that parsed
    together with the errors of the lines that did not (for ``pbem check``, which then
    checks the rules on the rest so that a player sees every problem at once).  ``echo``,
    if given, receives how each line was read: line number -> the canonical text of what
    it says (its orders, a section or power header, "ignored: chatter", ...); ``failed``
    the kind of order each line that could not be read was meant to be ("buy", "move",
    ... or "" when that cannot be told), so that nothing is blamed on its absence."""
    names = names or names_of(game)
    if power is not None:
        power = names.resolve_power(power)
    builder = _Builder(names, power)
    if game.ruleset.plan.move_phase:          # one phase of moves: no header needed
        builder.section = Phase(game.ruleset.plan.move_phase)
    reader = _LineReader(game, edition_kinds(game), builder)
    # The limits, line endings and game:/turn: headers first (orders_text), then the mail
    # around the orders (loose_text), judged on the lines the parser would read.
    text = text.lstrip("\ufeff")
    numbered = list(orders_text.numbered_lines(text, builder.errors))
    readable = {number for number, _ in numbered}
    lines = [raw if number in readable else "" for number, raw in orders_text.split_lines(text)]
    skipped, found_notes = mail_noise(lines)
    if notes is not None:
        notes.extend(found_notes)
    for number, raw in numbered:
        if number - 1 in skipped:
            continue
        if orders_text.too_many_errors(builder.errors, number, raw):
            break
        code = strip_decorations(_strip_comment(raw))
        if not code.strip():
            continue
        reader.read(_Line(number, raw, code))
    if builder.wrong_power is not None:      # one clear error; nothing checked as that power
        return OrderSet(power=power if power is not None else builder.header, source=text), \
            [builder.wrong_power]
    fill_place_all(builder)
    _check_empty_or_pass(builder, lines)
    if notes is not None:
        notes.extend(builder.notes)
        notes.sort(key=lambda n: n.line)
    if echo is not None:
        echo.update(_echo(builder, skipped, found_notes))
    if failed is not None:
        failed.update(builder.failed)
    errors = sorted(builder.errors, key=lambda e: (e.line, e.column))
    return builder.order_set(text), errors


_MAIL_NOTE_KINDS = {"greeting": "greeting", "closing": "closing", "quoted": "quoted text",
                    "the": "signature"}


def _echo(builder: _Builder, skipped: set[int], mail_notes: list[OrdersNote]
          ) -> dict[int, list[str]]:
    """Line number -> how that line was read (see ``parse_orders_partial``)."""
    out: dict[int, list[str]] = {n: list(texts) for n, texts in builder.echo.items()}
    for order in builder.items:       # a move says its phase: the section may have supplied it
        phase = f"{order.phase.value}: " if order.kind in ("move", "load", "unload") else ""
        out.setdefault(order.line, []).append(phase + _pretty(order, builder.names))
    starts = sorted((n.line, n.message.split(" ", 1)[0]) for n in mail_notes)
    for index in sorted(skipped):
        kinds = [word for first, word in starts if first <= index + 1]
        out.setdefault(index + 1, []).append(
            "ignored: " + (_MAIL_NOTE_KINDS.get(kinds[-1], "mail") if kinds else "mail"))
    return out




@functools.lru_cache(maxsize=8)
def _units_lark(kinds: tuple[str, ...] = ALL_KINDS) -> Lark:
    return _build("groups", grammar_text(kinds))


def parse_units(text: str, game: Game, *, names: Names | None = None) -> tuple[UnitGroup, ...]:
    """A unit list on its own, as in an order ("3 inf, 1 tank", "2x inf + 1 arm",
    "1 cv (2 ftr)", "1 trn (1 inf, 1 tank)"), for tools that ask for units (``pbem
    odds``).  Raises :class:`OrdersError` whose columns and source line are ``text``'s own."""
    code = " ".join(text.split("\n"))
    if len(code) > MAX_UNITS_TEXT:
        raise OrdersError([OrdersSyntaxError(
            f"the unit list is too long ({len(code)} characters, at most {MAX_UNITS_TEXT})", 1, 1)])
    line = _Line(1, code, code)
    if not code.strip():
        raise OrdersError([OrdersSyntaxError("no units given (e.g. '3 inf, 1 tank')", 1, 1)])
    kinds = edition_kinds(game)
    try:
        tree = _units_lark(kinds).parse(code)
    except UnexpectedInput as err:
        raise OrdersError([_syntax_error(err, 1, code, code, ())]) from None
    builder = _Builder(names or names_of(game), None)
    groups = [builder.unit_only(line, g, what="units") for g in tree.children]
    if builder.errors:
        raise OrdersError(builder.errors)
    return tuple(groups)


def _check_empty_or_pass(builder: _Builder, lines: list[str]) -> None:
    """An orders file must say something: orders, or ``pass`` for a turn without any."""
    if builder.errors:
        return
    if builder.pass_line is not None and builder.orders_written:
        line = builder.pass_line
        builder.error(line, len(line.code) - len(line.code.lstrip()) + 1,
                      "'pass' means a turn without orders, but this file has orders: "
                      "remove 'pass' or the orders")
    elif builder.pass_line is None and not builder.orders_written and not builder.said_none:
        what = "the file is empty" if not any(x.strip() for x in lines) else "no orders found"
        builder.errors.append(OrdersSyntaxError(
            f"{what}: write 'pass' for a turn without orders", 1, 1))


# Trees of lines parsed before, by parser and text: orders repeat from turn to turn ("buy 5
# infantry"), and an audit parses every turn of a game.  Only read, never changed.
_TREES: dict[tuple[Lark, str], Tree] = {}
_TREES_KEPT = 4096


def _parse_line(parser: Lark, code: str) -> Tree:
    """``parser.parse(code)``, remembered (``UnexpectedInput`` as it raises)."""
    key = (parser, code)
    tree = _TREES.get(key)
    if tree is None:
        tree = parser.parse(code)
        if len(_TREES) >= _TREES_KEPT:
            _TREES.clear()
        _TREES[key] = tree
    return tree


class _LineReader:
    """Reads one line into the builder: its power prefix, then the statement, trying the
    readings of '-' inside words when the line as written does not work."""

    def __init__(self, game: Game, kinds: tuple[str, ...], builder: _Builder):
        self.game = game
        self.kinds = kinds
        self.parser = _lark(kinds)
        self.builder = builder

    def read(self, line: _Line) -> None:
        """Read one line; a line that cannot be read and holds nothing an order is made of
        is chatter ("Here are my orders:", "Germany R1", "End turn."): a note."""
        outer = self.builder
        trial = self.builder = outer.fork()
        try:
            self.read_line(line)
        finally:
            self.builder = outer
        if trial.errors and trial.wrong_power is None and _line_verb(line.code, self.kinds) is None \
                and not orders_text.is_header_line(line.code) and is_chatter(line.code, lambda kind, text: outer.names.find(kind, text) is not None):
            outer.notes.append(OrdersNote(line.number, f"ignored: chatter '{line.code.strip()}'"))
            outer.say(line.number, "ignored: chatter")
            return
        if trial.errors:
            trial.failed[line.number] = self.meant_kind(line.code, trial.section)
        outer.adopt(trial)

    def meant_kind(self, code: str, section: Phase | None) -> str:
        """The kind of order a line that could not be read was meant to be: its verb's, or
        its section's for a line without one ("" when neither tells)."""
        verb = _line_verb(code, self.kinds)
        prefix = power_prefix(code)
        if verb not in KINDS and prefix is not None:           # "Ger: buy ...", "CM: move ..."
            verb = _line_verb(code[prefix.rest:], self.kinds)
        if verb in KINDS:
            return verb
        misspelt = self.misspelt_verb(code)                   # "plase 2 inf Russia"
        if misspelt is not None:
            return next((k for k in self.kinds if misspelt in KINDS[k].words), "")
        return {Phase.PURCHASE: "buy", Phase.PLACE: "place", Phase.COMBAT: "move",
                Phase.NONCOMBAT: "move"}.get(section, "")

    def read_line(self, line: _Line) -> None:
        line = self.take_prefix(line)
        if line is None:
            return
        hyphens = _word_hyphens(line.code)
        if not hyphens:
            self.parse_into(self.builder, line)
            return
        trial = self.builder.fork()
        parsed = self.parse_into(trial, line)
        if trial.errors:
            trial = self.best_reading(line, hyphens, trial, parsed)
        self.builder.adopt(trial)

    def parse_into(self, builder: _Builder, line: _Line) -> bool:
        """Parse ``line`` and build it into ``builder``; False if it did not parse."""
        code = line.code
        verb = self.misspelt_verb(code)
        if verb is not None:
            builder.error(line, len(code) - len(code.lstrip()) + 1,
                          f"'{_first_word(code)}' is not an order: {_line_start(self.kinds)}", verb)
            return False
        if _foreign_kind(code, self.kinds) is not None and _line_verb(code, self.kinds) is None:
            # another edition's verb ("repair" in 1941): never read as units without a verb
            # (unless one of this edition's kinds has it too: Taktyczne's 'defend 22: line')
            builder.error(line, len(code) - len(code.lstrip()) + 1,
                          f"'{_first_word(code)}' orders do not exist in "
                          f"{self.game.ruleset.title or self.game.ruleset.game_id}")
            return False
        try:
            tree = _parse_line(self.parser, code)
        except UnexpectedInput as err:
            builder.errors.append(_syntax_error(err, line.number, line.raw, code, self.kinds))
            return False
        builder.statement(line, tree)
        return True

    def misspelt_verb(self, code: str) -> str | None:
        """The verb a line's first word misspells ("mvoe"), if that word is no unit, place,
        power, number or verb: a line may start with units ("3 inf Kar -> WR", "bmr ..."),
        so only a word that fits nowhere else is taken for a verb."""
        word = _first_word(code)
        if word is None or not word[0].isalpha() or _line_verb(code, self.kinds) is not None:
            return None
        names = self.builder.names
        if any(names.find(kind, word) is not None for kind in ("unit", "space", "power")):
            return None
        if word.casefold() in NUMBER_WORDS or word.casefold() in ("a", "an"):
            return None
        spellings = [w for k in self.kinds for w in KINDS[k].words] + ["combat", "noncombat"]
        close = difflib.get_close_matches(word.casefold(), spellings, n=1, cutoff=0.7)
        return close[0] if close else None

    # ---- "Ger: move ...", "Germany:" -------------------------------------------------------

    def take_prefix(self, line: _Line) -> _Line | None:
        """``line`` without a power prefix (after checking whose it is), or None when the
        line was only a prefix ("Germany:" is a power header) or a bad one."""
        prefix = power_prefix(line.code)
        if prefix is None:
            return line
        b = self.builder
        rest = line.code[prefix.rest:]
        key = b.names.find("power", prefix.text)
        if key is None:
            if rest.strip():
                section = self.section_prefix(line, prefix)      # "CM: 3 inf Kar -> WR"
                if section is not None:
                    return section
            if rest.strip() and _line_verb(rest, self.kinds) in KINDS:
                suggestion = b.names.suggest("power", prefix.text)
                if suggestion is not None:
                    b.error(line, prefix.column, f"unknown power '{prefix.text}' in front of "
                                                 "the order", suggestion)
                    return None
            return line
        if rest.strip() and _line_verb(rest, self.kinds) is None \
                and b.names.find("space", prefix.text) is not None and self.names_a_place(line, prefix):
            return line             # "Russia: 2 inf" under place:, "Russia: 1 tank -> WR"
        b.claim_power(line, prefix.column, key, f"'{prefix.text}:'")
        if not rest.strip():
            b.say(line.number, f"power: {b.names.power_name(key)}")
            return None
        return attrs.evolve(line, code=blank_prefix(line.code, prefix))

    def names_a_place(self, line: _Line, prefix) -> bool:
        """Whether a power's name in front of units without a verb is the territory of the
        same name: when the line names no other place for them, under place: ("Germany: 4
        arm, 2 art" places them there, "UK: 2 inf India" is the UK's placement in India) or
        in a move ("Russia: 1 tank -> West Russia")."""
        if self.builder.section not in (Phase.PLACE, Phase.COMBAT, Phase.NONCOMBAT):
            return False
        trial = self.builder.fork()
        self.parse_into(trial, attrs.evolve(line, code=blank_prefix(line.code, prefix)))
        return bool(trial.errors)

    def section_prefix(self, line: _Line, prefix) -> _Line | None:
        """"CM: move ...", "CM: 3 inf Kar -> WR" are a section line and an order on one
        line ("CM: none" is a section line alone: None)."""
        try:
            if self.parser.parse(line.code).children[0].data in _SECTIONS:
                return None
        except UnexpectedInput:
            pass
        head = line.code[:prefix.rest]
        try:
            tree = self.parser.parse(head)
        except UnexpectedInput:
            return None
        if tree.children[0].data not in _SECTIONS:
            return None
        self.builder.statement(line, tree)
        return attrs.evolve(line, code=blank_prefix(line.code, prefix))

    # ---- "Karelia-Archangel" ---------------------------------------------------------------

    def best_reading(self, line: _Line, hyphens: list[int], literal: _Builder,
                     literal_parsed: bool) -> _Builder:
        """Try every choice of which hyphens inside words are arrows.  The one reading
        without errors wins; several are an ambiguity error; with none, the reading with
        the most helpful errors is reported (parsed, fewest errors, fewest names without a
        suggestion, fewest arrows)."""
        def score(trial: _Builder, parsed: bool, arrows: int) -> tuple:
            return (not parsed, len(trial.errors),
                    sum(e.suggestion is None for e in trial.errors), arrows)

        best = (score(literal, literal_parsed, 0), literal)
        clean: list[tuple[str, _Builder]] = []
        subsets = itertools.chain.from_iterable(
            itertools.combinations(hyphens, n) for n in range(1, len(hyphens) + 1))
        for chosen in itertools.islice(subsets, MAX_HYPHEN_READINGS - 1):
            code = line.code
            for at in chosen:
                code = code[:at] + "→" + code[at + 1:]          # same length: columns stay
            trial = self.builder.fork()
            parsed = self.parse_into(trial, attrs.evolve(line, code=code))
            if not trial.errors:
                clean.append((code, trial))
            best = min(best, (score(trial, parsed, len(chosen)), trial), key=lambda x: x[0])
        if len(clean) == 1:
            return clean[0][1]
        if len(clean) > 1:
            ambiguous = self.builder.fork()
            readings = " or ".join(f"'{_arrows_text(code)}'" for code, _ in clean)
            column = hyphens[0] + 1
            word = re.search(r"\S+$", line.code[:column]).start() + 1
            ambiguous.error(line, word, "a '-' here can be read in several ways: " + readings
                            + "; write '->' between spaces")
            return ambiguous
        return best[1]


_WORD_HYPHEN = re.compile(r"(?<=[^\s(),:;#<>=→⇒+&×\-–—])-(?=[^\s(),:;#<>=→⇒+&×\-–—])")


def _word_hyphens(code: str) -> list[int]:
    """Positions of the hyphens inside words ("Karelia-Archangel", "Anglo-Egypt")."""
    return [m.start() for m in _WORD_HYPHEN.finditer(code)]


def _arrows_text(code: str) -> str:
    """One reading of a line, each hyphen read as an arrow shown as ' -> '."""
    return re.sub(r"\s+", " ", code.replace("→", " -> ")).strip()


# ---- writing orders back as text --------------------------------------------------------------

SECTION_ORDER = ("purchase", "combat", "noncombat", "place", "standing")
SECTION_HEADERS = {"combat": "combat:", "noncombat": "noncombat:"}


def _pretty(order, names: Names | None) -> str:
    try:
        return KINDS[order.kind].write(order, names)
    except (KeyError, AttributeError):
        raise TypeError(f"not an order: {order!r}") from None


def pretty(order, game: Game | None = None) -> str:
    """One order as one line of canonical orders text.  Without ``game`` units are written
    by key, with it by display name (both parse back to the same key)."""
    return _pretty(order, names_of(game) if game is not None else None)


def _written_position(order: Order) -> int:
    """Movement keeps the order it was written in (a load before the move that uses it);
    other kinds follow it, kind by kind."""
    if order.kind in ("move", "load", "unload"):
        return 0
    if order.kind in ALL_KINDS:
        return 1 + ALL_KINDS.index(order.kind)
    return 1 + len(ALL_KINDS) + sorted(KINDS).index(order.kind)    # a plug-in's kinds last


def format_orders(order_set: OrderSet, game: Game | None = None) -> str:
    """The whole order set as canonical orders text, section by section, each kind in the
    order written: ``parse_orders(format_orders(o), game) == o`` up to line numbers and
    source, and up to the order of kinds within a section.  No orders at all is ``pass``."""
    names = names_of(game) if game is not None else None
    lines: list[str] = []
    if order_set.power is not None:
        lines.append(f"power: {names.power_name(order_set.power) if names else order_set.power}")
    by_section: dict[str, list[Order]] = {s: [] for s in SECTION_ORDER}
    for order in order_set.items:
        by_section[section_of(order)].append(order)
    for section in SECTION_ORDER:
        orders = sorted(by_section[section], key=_written_position)
        if orders and section in SECTION_HEADERS:
            lines.append(SECTION_HEADERS[section])
        lines += [_pretty(o, names) for o in orders]
    if not order_set.items:
        lines.append("pass")
    return "\n".join(lines) + "\n"


def strip_positions(order_set: OrderSet) -> OrderSet:
    """``order_set`` with every ``line`` set to 0 and no source text (for comparisons)."""
    return attrs.evolve(order_set, items=tuple(attrs.evolve(o, line=0) for o in order_set.items),
                        source="")
