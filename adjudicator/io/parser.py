"""Orders text -> :class:`~adjudicator.model.orders.OrderSet`, and back.

The grammar is ``grammar/core.lark`` plus one fragment per order kind the edition accepts
(``grammar/kinds/<kind>.lark``; the kinds are listed in the edition's ``[turn] orders`` and
read and written by ``io.order_kinds``), built into one Lark LALR parser per set of kinds and
cached.  Every non-blank line is one statement and is parsed on its own, so all bad lines of
a file are reported at once.  Names are
resolved afterwards with :class:`~adjudicator.names.Names`; every unknown name is reported
with its line, column and a "did you mean" suggestion.  All problems are raised together as
one :class:`OrdersError`.

Orders are read as players write them (``io.loose_text``): mail greetings, quotes and
signatures are skipped with a note, list prefixes, trailing ``;`` and power prefixes
(``Ger:``) are blanked out, and a ``-`` inside a word is an arrow when that is the only
reading in which every name resolves ("Karelia-Archangel", but "Anglo-Egypt Sudan").

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
from .loose_text import OrdersNote, blank_prefix, mail_noise, power_prefix, strip_decorations
from .names import Names, UnknownName, names_of
from .order_kinds import KINDS, section_of
from .paths import GRAMMAR_DIR

CORE_GRAMMAR = GRAMMAR_DIR / "core.lark"
KIND_GRAMMARS = GRAMMAR_DIR / "kinds"
MAX_COUNT = 10_000          # largest unit count or number an order may carry
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


ALL_KINDS = ("buy", "repair", "move", "load", "unload", "bomb", "bombard", "battle", "place",
             "defend", "nmr", "concede")


def grammar_text(kinds: tuple[str, ...]) -> str:
    """The whole grammar for an edition accepting ``kinds``."""
    parts = [CORE_GRAMMAR.read_text(encoding="utf-8"),
             "?statement: power_header\n          | section\n          | pass_turn\n"
             + "".join(f"          | {k}\n" for k in kinds)]
    for k in kinds:
        parts.append(f"// ---- kinds/{k}.lark\n" + (KIND_GRAMMARS / f"{k}.lark").read_text(encoding="utf-8"))
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
    return tuple(k for k in ALL_KINDS if k in listed) if listed else ALL_KINDS


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
    word = _first_word(code)
    if word is None:
        return None
    parser = _lark(kinds)
    for k in kinds:
        for terminal in KINDS[k].verbs:
            if re.fullmatch(parser.get_terminal(terminal).pattern.to_regexp(), word):
                return k
    for terminal in _CORE_CONTEXT:
        if re.fullmatch(parser.get_terminal(terminal).pattern.to_regexp(), word):
            return terminal
    return None


def _foreign_kind(code: str, kinds: tuple[str, ...]) -> str | None:
    """An order kind of another edition that the line starts with (``bomb`` in 1941)."""
    word = _first_word(code)
    if word is None:
        return None
    everything = _lark(ALL_KINDS)
    for k in ALL_KINDS:
        if k in kinds:
            continue
        for terminal in KINDS[k].verbs:
            if re.fullmatch(everything.get_terminal(terminal).pattern.to_regexp(), word):
                return k
    return None


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
    ``io.order_kinds``; this class resolves names and reads unit groups for it."""

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

    def fork(self) -> "_Builder":
        """A copy to try one reading of a line on; :meth:`adopt` keeps it."""
        trial = copy.copy(self)
        trial.errors = []
        trial.items = list(self.items)
        trial.merged = dict(self.merged)
        return trial

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

    def merge(self, kind: str, key, update) -> None:
        """A later line about the same battle or standing order changes the earlier one
        (``update(old or None) -> new``), keeping its place."""
        index = self.merged.get((kind, key))
        if index is None:
            self.merged[(kind, key)] = len(self.items)
            self.items.append(update(None))
        else:
            self.items[index] = update(self.items[index])

    # ---- statements ------------------------------------------------------------------------

    def statement(self, line: _Line, tree: Tree) -> None:
        stmt = tree.children[0]
        if stmt.data in KINDS:
            self.orders_written += 1
            KINDS[stmt.data].build(self, line, stmt)
        else:
            getattr(self, "do_" + stmt.data)(line, stmt)

    def do_power_header(self, line: _Line, tree: Tree) -> None:
        name = tree.children[-1]
        key = self.resolve(line, "power", name.children)
        if key is None:
            return
        self.claim_power(line, name.children[0].column, key, "the header")

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

    def _section(self, line: _Line, tree: Tree) -> None:
        self.section = _SECTIONS[tree.data]

    do_combat_section = do_noncombat_section = _section
    do_purchase_section = do_place_section = _section

    # ---- unit groups -----------------------------------------------------------------------

    def count(self, line: _Line, tree: Tree) -> int | None:
        token = tree.children[0]
        if token.type == "A":
            return 1
        if token.type == "PRECOUNT":                            # "2x": the digits
            digits = re.search(r"[0-9]+", token.value)
            token = Token("INT", digits.group(), token.start_pos + digits.start(), token.line,
                          token.column + digits.start())
        return self.number(line, token, what="a unit count")

    def cargo(self, line: _Line, tree: Tree) -> tuple[UnitGroup, ...] | None:
        if not tree.children or isinstance(tree.children[0], Token):   # () or (empty)
            return ()
        groups = tree.children[0].children
        units = [self.unit_only(line, g, what="cargo") for g in groups]
        return None if None in units else tuple(units)

    def unit_only(self, line: _Line, group: Tree, what: str) -> UnitGroup | None:
        """A group that must not be followed by a space (buy lines, cargo lists, groups
        before a ',')."""
        count_tree, name, cargo_tree, place = _group_parts(group)
        count = self.count(line, count_tree)
        cargo = None
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
        count = self.count(line, count_tree)
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


_PLACE_WORDS = frozenset({"from", "in", "at"})


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


_NO_CARGO = ("buy", "bomb", "bombard")
_NO_PLACE = _NO_CARGO + ("units",)


def _no_place(what: str) -> str:
    return "a unit list names no territory" if what == "units" else f"a {what} line names no territory"


def _group_parts(group: Tree) -> tuple[Tree, Tree, Tree | None, Tree | None]:
    """(count, unit name, cargo, start space) of a group in either form: "2 inf ...",
    "2 trn (1 inf) SZ 5" or "inf x2 Karelia".  In the first form without cargo the unit
    name may run on into the start space (the caller splits it)."""
    if group.data == "group_postcount":
        token, *more = group.children
        name, count = _unit_times(token)
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
                         ) -> tuple[OrderSet, list[OrdersSyntaxError]]:
    """Like :func:`parse_orders`, but returns the orders from every line that parsed
    together with the errors of the lines that did not (for ``pbem check``, which then
    checks the rules on the rest so that a player sees every problem at once)."""
    names = names or names_of(game)
    if power is not None:
        power = names.resolve_power(power)
    builder = _Builder(names, power)
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
    _check_empty_or_pass(builder, lines)
    errors = sorted(builder.errors, key=lambda e: (e.line, e.column))
    return builder.order_set(text), errors


MAX_UNITS_TEXT = 1000      # characters of a unit list given on its own (pbem odds)


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
    elif builder.pass_line is None and not builder.orders_written:
        what = "the file is empty" if not any(x.strip() for x in lines) else "no orders found"
        builder.errors.append(OrdersSyntaxError(
            f"{what}: write 'pass' for a turn without orders", 1, 1))


class _LineReader:
    """Reads one line into the builder: its power prefix, then the statement, trying the
    readings of '-' inside words when the line as written does not work."""

    def __init__(self, game: Game, kinds: tuple[str, ...], builder: _Builder):
        self.game = game
        self.kinds = kinds
        self.parser = _lark(kinds)
        self.builder = builder

    def read(self, line: _Line) -> None:
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
        try:
            tree = self.parser.parse(code)
        except UnexpectedInput as err:
            foreign = _foreign_kind(code, self.kinds)
            if foreign is not None:
                builder.error(line, len(code) - len(code.lstrip()) + 1,
                              f"'{_first_word(code)}' orders do not exist in "
                              f"{self.game.ruleset.title or self.game.ruleset.game_id}")
            else:
                builder.errors.append(_syntax_error(err, line.number, line.raw, code, self.kinds))
            return False
        builder.statement(line, tree)
        return True

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
            if rest.strip() and _line_verb(rest, self.kinds) in KINDS:
                section = self.section_prefix(line, prefix)
                if section is not None:
                    return section
                suggestion = b.names.suggest("power", prefix.text)
                if suggestion is not None:
                    b.error(line, prefix.column, f"unknown power '{prefix.text}' in front of "
                                                 "the order", suggestion)
                    return None
            return line
        b.claim_power(line, prefix.column, key, f"'{prefix.text}:'")
        if not rest.strip():
            return None
        return attrs.evolve(line, code=blank_prefix(line.code, prefix))

    def section_prefix(self, line: _Line, prefix) -> _Line | None:
        """"CM: move ..." is a section line and an order on one line."""
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
    return 0 if order.kind in ("move", "load", "unload") else 1 + ALL_KINDS.index(order.kind)


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
