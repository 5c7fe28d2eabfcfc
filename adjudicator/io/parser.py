"""Orders text -> :class:`~adjudicator.orders.OrderSet`, and back.

The grammar is ``grammar/orders.lark`` (Lark, LALR).  Every non-blank line is one statement
and is parsed on its own, so all bad lines of a file are reported at once.  Names are
resolved afterwards with :class:`~adjudicator.names.Names`; every unknown name is reported
with its line, column and a "did you mean" suggestion.  All problems are raised together as
one :class:`OrdersError`.

Public API::

    parse_orders(text, game, power=None, *, names=None) -> OrderSet
    format_orders(order_set, game=None) -> str          # canonical text; parses back equal
    pretty(order, game=None) -> str                     # one order as one line
    strip_positions(order_set) -> OrderSet              # line numbers and source removed
"""

from __future__ import annotations

import difflib
import functools
import re

import attrs
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from ..model.errors import OrdersSyntaxError
from ..model.game import Game
from . import orders_text
from .names import Names, UnknownName
from .paths import GRAMMAR_DIR
from ..model.orders import (
    BattleDirective,
    Buy,
    Comparison,
    DefenceOrder,
    Load,
    Move,
    OrderSet,
    Phase,
    Place,
    RetreatCondition,
    SubmergePolicy,
    Unload,
    UnitGroup,
)

GRAMMAR_PATH = GRAMMAR_DIR / "orders.lark"


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


@functools.lru_cache(maxsize=1)
def _lark() -> Lark:
    return Lark(GRAMMAR_PATH.read_text(encoding="utf-8"), parser="lalr", lexer="contextual",
                start="start", propagate_positions=True)


# ---- turning Lark's errors into plain words ---------------------------------------------------

_VERB_TERMINALS = ("MOVE", "LOAD", "UNLOAD", "BUY", "PLACE", "BATTLE", "DEFEND", "POWER",
                   "COMBAT", "NONCOMBAT")
_VERB_WORDS = ("move", "load", "unload", "buy", "place", "battle", "defend", "power",
               "combat", "noncombat", "purchase", "mobilize")

# Plain-words description of each terminal, in the order they are listed in messages.
_DESCRIBE = {
    "_ARROW": "'->'",
    "_COMMA": "','",
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
    "$END": "the end of the line",
}

# Which terminals make sense on each kind of line: LALR shares states between lines, so the
# raw "expected" set can mention tokens of other statements.
_UNIT_LINE = {"INT", "A", "WORD", "_ARROW", "_COMMA", "_LPAR", "_RPAR", "EMPTY", "_COLON", "$END"}
_CONTEXT = {
    "MOVE": _UNIT_LINE, "LOAD": _UNIT_LINE, "UNLOAD": _UNIT_LINE, "BUY": _UNIT_LINE,
    "PLACE": _UNIT_LINE,
    "BATTLE": {"WORD", "INT", "_COLON", "_SEMICOLON", "_COMMA", "RETREAT", "LOSSES", "SUBS",
               "TO", "IF", "OR", "AFTER", "ROUND", "SIDE", "MEASURE", "CMP", "FIRE",
               "SUBMERGE", "$END"},
    "DEFEND": {"WORD", "INT", "_COLON", "_SEMICOLON", "_COMMA", "LOSSES", "SUBMERGE", "POLICY",
               "ALL", "STAR", "$END"},
    "POWER": {"WORD", "INT", "_COLON", "$END"},
    "COMBAT": {"MOVE", "_COLON", "$END"},
    "NONCOMBAT": {"MOVE", "_COLON", "$END"},
}
_EXAMPLES = {
    "MOVE": "move 2 inf Karelia -> Archangel",
    "LOAD": "load 1 inf, 1 tank Germany -> SZ 5",
    "UNLOAD": "unload 1 inf SZ 6 -> Norway Finland",
    "BUY": "buy 3 inf, 1 tank",
    "PLACE": "place 3 inf Germany",
    "BATTLE": "battle Karelia: retreat to West Russia if attackers < 3; losses inf, tank",
    "DEFEND": "defend all: losses inf, tank; submerge losing",
    "POWER": "power: Germany",
}
_LINE_START = ("a line starts with move, load, unload, buy, place, battle, defend, "
               "power:, combat: or noncombat:")


def _line_verb(code: str) -> str | None:
    """The verb terminal name the line starts with, if any."""
    match = re.match(r"\s*([^\s:(),;]+)", code)
    if not match:
        return None
    word = match.group(1)
    parser = _lark()
    for name in _VERB_TERMINALS:
        if re.fullmatch(parser.get_terminal(name).pattern.to_regexp(), word):
            return name
    return None


def _describe_expected(expected: set[str], verb: str | None) -> str:
    allowed = _CONTEXT.get(verb or "")
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


def _syntax_error(err: UnexpectedInput, number: int, raw: str, code: str) -> OrdersSyntaxError:
    source = raw.replace("\t", " ")
    verb = _line_verb(code)
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

    if {"MOVE", "BUY", "BATTLE"} <= expected:
        word = found.strip("'")
        close = difflib.get_close_matches(word.casefold(), _VERB_WORDS, n=1, cutoff=0.6)
        suggestion = close[0] if close else None
        message = f"{found} is not an order: {_LINE_START}"
    elif expected and expected <= {"INT", "A"}:
        message = f"expected the number of units in digits (e.g. '2 inf'), found {found}"
    else:
        wanted = _describe_expected(expected, verb)
        message = f"unexpected {found}"
        if wanted:
            message += f"; expected {wanted}"
        if verb in _EXAMPLES:
            message += f" (example: '{_EXAMPLES[verb]}')"
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
_CMP = {"<": Comparison.LT, "<=": Comparison.LE, "≤": Comparison.LE, ">": Comparison.GT,
        ">=": Comparison.GE, "≥": Comparison.GE, "==": Comparison.EQ, "=": Comparison.EQ}
_SECTION_MOVES = (Phase.COMBAT, Phase.NONCOMBAT)


def _tokens(tree: Tree) -> list[Token]:
    return [c for c in tree.children if isinstance(c, Token)]


class _Builder:
    def __init__(self, names: Names, power: str | None):
        self.names = names
        self.power_arg = power
        self.header: str | None = None
        self.section: Phase | None = None
        self.errors: list[OrdersSyntaxError] = []
        self.buys: list[Buy] = []
        self.moves: dict[Phase, list] = {Phase.COMBAT: [], Phase.NONCOMBAT: []}
        self.places: list[Place] = []
        self.battles: dict[str, BattleDirective] = {}
        self.defences: dict[str | None, DefenceOrder] = {}

    # ---- errors and names ------------------------------------------------------------------

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

    # ---- statements ------------------------------------------------------------------------

    def statement(self, line: _Line, tree: Tree) -> None:
        stmt = tree.children[0]
        getattr(self, "do_" + stmt.data)(line, stmt)

    def do_power_header(self, line: _Line, tree: Tree) -> None:
        name = tree.children[-1]
        key = self.resolve(line, "power", name.children)
        if key is None:
            return
        column = name.children[0].column
        if self.power_arg is not None and key != self.power_arg:
            self.error(line, column,
                       f"these orders are for {self.names.power_name(self.power_arg)}, "
                       f"but the header says {self.names.power_name(key)}")
        elif self.header is not None and key != self.header:
            self.error(line, column,
                       f"a second power header: the orders were already for "
                       f"{self.names.power_name(self.header)}")
        else:
            self.header = key

    def _section(self, line: _Line, tree: Tree) -> None:
        self.section = _SECTIONS[tree.data]

    do_combat_section = do_noncombat_section = _section
    do_purchase_section = do_place_section = _section

    def do_buy(self, line: _Line, tree: Tree) -> None:
        groups = tree.children[-1]
        units = []
        for group in groups.children:
            unit = self.unit_only(line, group, what="buy")
            if unit is not None:
                units.append(unit)
        if len(units) == len(groups.children):
            self.buys.append(Buy(tuple(units), line.number))

    def do_place(self, line: _Line, tree: Tree) -> None:
        units, place = self.units_and_place(line, tree.children[-1], "place")
        if units is not None and place is not None:
            self.places.append(Place(units, place, line.number))

    def do_move(self, line: _Line, tree: Tree) -> None:
        self.movement(line, tree, "move")

    def do_load(self, line: _Line, tree: Tree) -> None:
        self.movement(line, tree, "load")

    def do_unload(self, line: _Line, tree: Tree) -> None:
        self.movement(line, tree, "unload")

    def movement(self, line: _Line, tree: Tree, verb: str) -> None:
        verb_token, groups, path_tree = tree.children
        phase = self.section
        if phase not in _SECTION_MOVES:
            where = (f"under '{phase.value}:'" if phase is not None
                     else "before any 'combat:' or 'noncombat:' line")
            self.error(line, verb_token.column,
                       f"'{verb}' {where}: put moves under 'combat:' or 'noncombat:'")
        units, origin = self.units_and_place(line, groups, verb)
        rest = [self.resolve(line, "space", name.children) for name in path_tree.children]
        if verb in ("load", "unload") and len(rest) > 1:
            self.error(line, path_tree.children[1].children[0].column,
                       f"'{verb}' takes a single '->' (example: '{_EXAMPLES[verb.upper()]}')")
            return
        if units is None or origin is None or None in rest or phase not in _SECTION_MOVES:
            return
        if verb == "move":
            order = Move(phase, units, (origin, *rest), line.number)
        elif verb == "load":
            order = Load(phase, units, origin, rest[0], line.number)
        else:
            order = Unload(phase, units, origin, rest[0], line.number)
        self.moves[phase].append(order)

    def do_battle(self, line: _Line, tree: Tree) -> None:
        space = self.resolve(line, "space", tree.children[1].children)
        retreat: list[RetreatCondition] | None = None
        losses: tuple[str, ...] | None = None
        subs: str | None = None
        for clause in tree.children[2:]:
            if clause.data == "retreat":
                retreat = (retreat or []) + self.retreat(line, clause)
            elif clause.data == "losses":
                losses = self.losses(line, clause)
            elif clause.data == "subs":
                subs = clause.children[1].value.casefold()
        if space is None:
            return
        old = self.battles.get(space)
        if old is None:
            old = BattleDirective(space, line=line.number)
        self.battles[space] = attrs.evolve(
            old,
            retreat=tuple(retreat) if retreat is not None else old.retreat,
            loss_order=losses if losses is not None else old.loss_order,
            subs=subs if subs is not None else old.subs,
        )

    def retreat(self, line: _Line, clause: Tree) -> list[RetreatCondition]:
        destination = None
        conditions = []
        for child in clause.children:
            if not isinstance(child, Tree):
                continue
            if child.data == "name":
                destination = self.resolve(line, "space", child.children)
            elif child.data == "compare_condition":
                fields = {t.type: t for t in _tokens(child)}
                side = fields["SIDE"].value.casefold()
                side = "attackers" if side.startswith("att") else "defenders"
                measure = "tuv" if "MEASURE" in fields and \
                    fields["MEASURE"].value.casefold() != "units" else "units"
                conditions.append(dict(side=side, comparison=_CMP[fields["CMP"].value],
                                       threshold=int(fields["INT"].value), measure=measure))
            elif child.data == "round_condition":
                number = next(t for t in _tokens(child) if t.type == "INT")
                if int(number.value) < 1:
                    self.error(line, number.column, "the round number must be at least 1")
                conditions.append(dict(after_round=int(number.value)))
        return [RetreatCondition(destination=destination, **c) for c in conditions]

    def losses(self, line: _Line, clause: Tree) -> tuple[str, ...]:
        keys = []
        for name in clause.children[1:]:
            key = self.resolve(line, "unit", name.children)
            if key is not None:
                keys.append(key)
        return tuple(keys)

    def do_defend(self, line: _Line, tree: Tree) -> None:
        target = tree.children[1]
        first = target.children[0]
        space: str | None = None
        known = True
        if isinstance(first, Tree):            # otherwise: all / everywhere / *
            space = self.resolve(line, "space", first.children)
            known = space is not None
        losses: tuple[str, ...] | None = None
        policy: SubmergePolicy | None = None
        for clause in tree.children[2:]:
            if clause.data == "losses":
                losses = self.losses(line, clause)
            else:
                policy = SubmergePolicy(clause.children[1].value.casefold())
        if not known:
            return
        old = self.defences.get(space) or DefenceOrder(space, line=line.number)
        self.defences[space] = attrs.evolve(
            old,
            loss_order=losses if losses is not None else old.loss_order,
            submerge=policy if policy is not None else old.submerge,
        )

    # ---- unit groups -----------------------------------------------------------------------

    def count(self, line: _Line, tree: Tree) -> int | None:
        token = tree.children[0]
        if token.type == "A":
            return 1
        value = int(token.value)
        if value < 1:
            self.error(line, token.column, "a unit count must be at least 1")
            return None
        return value

    def cargo(self, line: _Line, tree: Tree) -> tuple[UnitGroup, ...] | None:
        if not tree.children or isinstance(tree.children[0], Token):   # () or (empty)
            return ()
        groups = tree.children[0].children
        units = [self.unit_only(line, g, what="cargo") for g in groups]
        return None if None in units else tuple(units)

    def unit_only(self, line: _Line, group: Tree, what: str) -> UnitGroup | None:
        """A group that must not be followed by a space (buy lines, cargo lists, groups
        before a ',')."""
        count_tree, name, *more = group.children
        count = self.count(line, count_tree)
        cargo = None
        if more:
            if what == "buy":
                self.error(line, more[0].meta.column,
                           "a buy line lists units only, without cargo")
            cargo = self.cargo(line, more[0])
            if len(more) > 1:
                self.error(line, more[1].children[0].column,
                           f"'{line.text(more[1].children)}' is out of place: the territory "
                           "comes once, after the last unit group")
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
                                   "a buy line names no territory" if what == "buy" else
                                   "the territory comes once, after the last unit group"))
                    return None
                unit = self.resolve(line, "unit", name.children)
        if count is None or unit is None or (more and cargo is None):
            return None
        return UnitGroup(count, unit, cargo)

    def units_and_place(self, line: _Line, groups: Tree, verb: str):
        """Unit groups followed by a space (move/load/unload origin, place territory).
        Returns (tuple of groups or None, space key or None)."""
        *firsts, last = groups.children
        units = [self.unit_only(line, g, what=verb) for g in firsts]
        count_tree, name, *more = last.children
        count = self.count(line, count_tree)
        cargo = None
        place = None
        if more:
            unit = self.resolve(line, "unit", name.children)
            cargo = self.cargo(line, more[0])
            if len(more) > 1:
                tokens = more[1].children
                if len(tokens) > 1 and tokens[0].value.casefold() in _PLACE_WORDS \
                        and self.names.find("space", line.text(tokens)) is None:
                    tokens = tokens[1:]              # "(1 inf) from SZ 5"
                place = self.resolve(line, "space", tokens)
            else:
                self.missing_place(line, more[0], verb)
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
        if count is not None and unit is not None and not (more and cargo is None):
            units.append(UnitGroup(count, unit, cargo))
        else:
            units.append(None)
        if None in units:
            return None, place
        return tuple(units), place

    def missing_place(self, line: _Line, after: Tree, verb: str) -> None:
        column = after.meta.end_column if not after.meta.empty else len(line.code.rstrip()) + 1
        what = "where to place the units" if verb == "place" else "where the units start"
        self.error(line, column, f"say {what} (example: '{_EXAMPLES[verb.upper()]}')")

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
        return OrderSet(
            power=self.header if self.header is not None else self.power_arg,
            buys=tuple(self.buys),
            combat=tuple(self.moves[Phase.COMBAT]),
            noncombat=tuple(self.moves[Phase.NONCOMBAT]),
            places=tuple(self.places),
            battles=tuple(self.battles.values()),
            defences=tuple(self.defences.values()),
            source=text,
        )


_PLACE_WORDS = frozenset({"from", "in", "at"})


def _strip_comment(raw: str) -> str:
    return raw.split("#", 1)[0]


def parse_orders(text: str, game: Game, power: str | None = None, *,
                 names: Names | None = None) -> OrderSet:
    """Parse one power's orders.  ``power`` (key or any name of a power), if given, is who
    the orders are for: a ``power:`` header naming another power is an error.  Raises
    :class:`OrdersError` listing every problem found."""
    orders, errors = parse_orders_partial(text, game, power, names=names)
    if errors:
        raise OrdersError(errors)
    return orders


def parse_orders_partial(text: str, game: Game, power: str | None = None, *,
                         names: Names | None = None) -> tuple[OrderSet, list[OrdersSyntaxError]]:
    """Like :func:`parse_orders`, but returns the orders from every line that parsed
    together with the errors of the lines that did not (for ``pbem check``, which then
    checks the rules on the rest so that a player sees every problem at once)."""
    names = names or Names(game)
    if power is not None:
        power = names.resolve_power(power)
    builder = _Builder(names, power)
    parser = _lark()
    for number, raw in orders_text.numbered_lines(text, builder.errors):
        code = _strip_comment(raw)
        if not code.strip():
            continue
        line = _Line(number, raw, code)
        try:
            tree = parser.parse(code)
        except UnexpectedInput as err:
            builder.errors.append(_syntax_error(err, number, raw, code))
            continue
        builder.statement(line, tree)
    errors = sorted(builder.errors, key=lambda e: (e.line, e.column))
    return builder.order_set(text), errors


# ---- writing orders back as text --------------------------------------------------------------

def _unit_text(key: str, count: int, names: Names | None) -> str:
    return names.unit_name(key, count) if names else key


def _groups_text(groups, names: Names | None) -> str:
    parts = []
    for group in groups:
        text = f"{group.count} {_unit_text(group.type, group.count, names)}"
        if group.cargo is not None:
            inner = _groups_text(group.cargo, names) if group.cargo else "empty"
            text += f" ({inner})"
        parts.append(text)
    return ", ".join(parts)


def _condition_text(cond: RetreatCondition) -> str:
    if cond.side is not None and cond.after_round is None:
        if cond.comparison is None or cond.threshold is None:
            raise ValueError(f"incomplete retreat condition: {cond!r}")
        measure = " tuv" if cond.measure == "tuv" else ""
        return f"if {cond.side}{measure} {Comparison(cond.comparison).value} {cond.threshold}"
    if cond.after_round is not None and cond.side is None:
        return f"after round {cond.after_round}"
    raise ValueError(f"retreat condition cannot be written as text: {cond!r}")


def _retreat_text(conditions: tuple[RetreatCondition, ...]) -> list[str]:
    clauses: list[str] = []
    runs: list[list[RetreatCondition]] = []
    for cond in conditions:
        if runs and runs[-1][0].destination == cond.destination:
            runs[-1].append(cond)
        else:
            runs.append([cond])
    for run in runs:
        head = "retreat" if run[0].destination is None else f"retreat to {run[0].destination}"
        clauses.append(head + " " + " or ".join(_condition_text(c) for c in run))
    return clauses


def _losses_text(loss_order: tuple[str, ...], names: Names | None) -> str:
    return "losses " + ", ".join(_unit_text(k, 1, names) for k in loss_order)


def _pretty(order, names: Names | None) -> str:
    if isinstance(order, Buy):
        return f"buy {_groups_text(order.units, names)}"
    if isinstance(order, Move):
        return f"move {_groups_text(order.units, names)} " + " -> ".join(order.path)
    if isinstance(order, Load):
        return f"load {_groups_text(order.units, names)} {order.origin} -> {order.zone}"
    if isinstance(order, Unload):
        return f"unload {_groups_text(order.units, names)} {order.zone} -> {order.target}"
    if isinstance(order, Place):
        return f"place {_groups_text(order.units, names)} {order.space}"
    if isinstance(order, BattleDirective):
        clauses = _retreat_text(order.retreat)
        if order.loss_order:
            clauses.append(_losses_text(order.loss_order, names))
        if order.subs:
            clauses.append(f"subs {order.subs}")
        return f"battle {order.space}: " + "; ".join(clauses)
    if isinstance(order, DefenceOrder):
        clauses = []
        if order.loss_order:
            clauses.append(_losses_text(order.loss_order, names))
        if order.submerge is not None:
            clauses.append(f"submerge {SubmergePolicy(order.submerge).value}")
        target = "all" if order.space is None else order.space
        return f"defend {target}: " + "; ".join(clauses)
    raise TypeError(f"not an order: {order!r}")


def pretty(order, game: Game | None = None) -> str:
    """One order as one line of canonical orders text.  Without ``game`` units are written
    by key, with it by display name (both parse back to the same key)."""
    return _pretty(order, Names(game) if game is not None else None)


def format_orders(order_set: OrderSet, game: Game | None = None) -> str:
    """The whole order set as canonical orders text:
    ``parse_orders(format_orders(o), game) == o`` up to line numbers and source."""
    names = Names(game) if game is not None else None
    lines: list[str] = []
    if order_set.power is not None:
        lines.append(f"power: {names.power_name(order_set.power) if names else order_set.power}")
    lines += [_pretty(b, names) for b in order_set.buys]
    if order_set.combat or order_set.battles:
        lines.append("combat:")
        lines += [_pretty(m, names) for m in order_set.combat]
        lines += [_pretty(b, names) for b in order_set.battles]
    if order_set.noncombat:
        lines.append("noncombat:")
        lines += [_pretty(m, names) for m in order_set.noncombat]
    lines += [_pretty(p, names) for p in order_set.places]
    lines += [_pretty(d, names) for d in order_set.defences]
    return "\n".join(lines) + "\n"


def strip_positions(order_set: OrderSet) -> OrderSet:
    """``order_set`` with every ``line`` set to 0 and no source text (for comparisons)."""
    def clear(items):
        return tuple(attrs.evolve(item, line=0) for item in items)

    return attrs.evolve(
        order_set,
        buys=clear(order_set.buys),
        combat=clear(order_set.combat),
        noncombat=clear(order_set.noncombat),
        places=clear(order_set.places),
        battles=clear(order_set.battles),
        defences=clear(order_set.defences),
        source="",
    )
