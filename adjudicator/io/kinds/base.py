"""The order-kind registry: what an order kind declares, and the helpers its reading and
writing share.

A kind is registered under the name editions list in ``[turn] orders``::

    kind(name, verbs, words, example, context, section, grammar="",
         model=..., issuer=MOVER, engine=(...), problems=(...), report="...")(build)(write)

``build(b, line, tree)`` receives the parser's builder ``b`` (``io.parser._Builder``), which
resolves names, reads unit groups and collects the orders; ``write(order, names)`` returns
the order's canonical line.  The rest is declared so that one place says everything about a
kind (``tests/test_order_kinds_complete.py`` checks it): ``io`` imports neither the engine
nor ``present``, so those are named, not imported.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeGuard

import attrs

from ...model import orders
from ..paths import GRAMMAR_DIR

if TYPE_CHECKING:
    from lark import Token, Tree

# The phase a kind's lines belong to: where the canonical text writes them ("phase": the
# order says, as moves do under 'combat:' or 'noncombat:').
PURCHASE, COMBAT, NONCOMBAT, PLACE, STANDING = "purchase", "combat", "noncombat", "place", "standing"
PHASE = "phase"

# Who issues a kind: the power whose turn it is, for this turn (MOVER); a power for the
# turns of others, kept until replaced (STANDING_ISSUER: defence, interception, payments);
# the game master about the turn (GAME_MASTER: a missed deadline).
MOVER, STANDING_ISSUER, GAME_MASTER = "mover", "standing", "game master"
ISSUERS = (MOVER, STANDING_ISSUER, GAME_MASTER)

UNIT_LINE = frozenset({"INT", "A", "WORD", "_ARROW", "_COMMA", "_LPAR", "_RPAR", "EMPTY",
                       "_COLON", "$END"})

KIND_GRAMMARS = GRAMMAR_DIR / "kinds"


@attrs.frozen
class OrderSyntax:
    """Everything one order kind declares.

    Read and written here: ``verbs`` (the terminals that start its lines), ``words`` (its
    verb spellings, for "did you mean"), ``example`` (a line that parses, quoted in error
    messages and round-tripped by the tests), ``context`` (the terminals that make sense on
    its lines, for error messages), ``section`` (its phase: where the canonical text writes
    it), ``build`` and ``write``, ``grammar`` (its fragment, for a kind outside
    ``grammar/kinds/``: a rule named like the kind and its terminals).

    Named for the layers above: ``model`` (its ``model.orders`` class, from ``model_ref``:
    the class or its name there, made on first use), ``issuer`` (one of
    ``ISSUERS``), ``engine`` (the ``adjudicator.engine`` functions that check and carry it
    out, as "module.function"), ``problems`` (the problem codes those raise for it, each
    worded in ``present/wording.py`` ``PROBLEMS``), ``report`` (the report section that shows
    its outcome: a turn step of ``present/report.py`` ``REPORT_SECTIONS`` or one of its
    ``FIXED_SECTIONS``)."""

    kind: str
    verbs: tuple[str, ...]
    words: tuple[str, ...]
    example: str
    context: frozenset[str]
    section: str
    build: Callable
    write: Callable
    grammar: str = ""
    model_ref: type | str | None = None
    issuer: str = MOVER
    engine: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()
    report: str = ""

    @property
    def model(self) -> type | None:
        """Its model class (``model_ref``, the class or its name in ``model.orders``)."""
        return model_class(self.model_ref)

    def fragment(self) -> str:
        """The kind's grammar fragment: its own, else ``grammar/kinds/<kind>.lark``."""
        return self.grammar or (KIND_GRAMMARS / f"{self.kind}.lark").read_text(encoding="utf-8")


KINDS: dict[str, OrderSyntax] = {}


def model_class(ref: type | str | None) -> type | None:
    """An order kind's model class from its reference: the class, or its name in
    ``model.orders`` (the package's kinds name theirs: a class is made only when an order
    of its kind is read or written, issue 24)."""
    return getattr(orders, ref) if isinstance(ref, str) else ref


def kind(name: str, verbs, words, example, context, section, grammar: str = "", *,
         model: type | str | None = None, issuer: str = MOVER, engine=(), problems=(),
         report: str = ""):
    """Register an order kind: ``kind(...)(build)(write)``.  A kind defined outside the
    package (an edition's plug-in) gives its ``grammar`` fragment here (a rule named
    ``name`` and its terminals); the package's own kinds are in ``grammar/kinds/``.
    ``model``: its class, or the class's name in ``model.orders``."""
    if issuer not in ISSUERS:
        raise ValueError(f"order kind '{name}': unknown issuer '{issuer}' (known: {', '.join(ISSUERS)})")

    def wrap(build):
        def register(write):
            KINDS[name] = OrderSyntax(name, tuple(verbs), tuple(words), example,
                                      frozenset(context), section, build, write, grammar,
                                      model, issuer, tuple(engine), tuple(problems), report)
            return write
        return register
    return wrap


def section_of(order) -> str:
    """Where the canonical text writes ``order``: its kind's phase, or the order's own."""
    section = KINDS[order.kind].section
    return order.phase.value if section == PHASE else section


# ---- reading helpers -------------------------------------------------------------------------
# lark is imported by the reading only: naming the kinds (a game's rules hash, ``pbem status``,
# ``show``, ``odds``) does not load it (issue 24).

def is_tree(node: object) -> TypeGuard[Tree]:
    """Whether a parse-tree child is a subtree (else a token)."""
    from lark import Tree
    return isinstance(node, Tree)


def is_token(node: object) -> TypeGuard[Token]:
    from lark import Token
    return isinstance(node, Token)


def tokens_of(tree: Tree) -> list[Token]:
    return [c for c in tree.children if is_token(c)]


def losses(b, line, clause: Tree) -> tuple[str, ...]:
    """The unit keys of a ``losses inf, tank`` clause, first lost first."""
    keys = []
    for name in clause.children[1:]:
        key = b.resolve(line, "unit", name.children)
        if key is not None:
            keys.append(key)
    return tuple(keys)


def word_choice(b, line, tree: Tree, words: dict[str, str], expected: str) -> str | None:
    """The value ``words`` gives the line's first ``WORD`` token (case-insensitive), else
    None with an error naming what was ``expected`` (Taktyczne Starcie's ``build factory``,
    ``arm missile``)."""
    word = next(c for c in tree.children if getattr(c, "type", "") == "WORD")
    found = words.get(word.value.casefold())
    if found is None:
        b.error(line, word.column, f"'{word.value}' is not {expected}")
    return found


def name_trees(tree: Tree) -> list[Tree]:
    """The line's ``name`` subtrees, in order."""
    return [c for c in tree.children if getattr(c, "data", "") == "name"]


def standing_target(b, line, where: Tree) -> tuple[bool, str | None]:
    """The space a standing order names (``None`` for 'all' or 'everywhere'); ``False``
    first when the name is unknown (already reported)."""
    if [t.value.casefold() for t in where.children] in (["all"], ["everywhere"]):
        return True, None
    space = b.resolve(line, "space", where.children)
    return space is not None, space


def standing_syntax(name: str, model: type | str):
    """The reading and writing of a standing order ``<verb> <space|all>: <value>`` built as
    ``model`` (a ``model.orders.StandingChoice`` class of kind ``name``, or its name there):
    ``(build, write)``."""
    def build(b, line, tree: Tree) -> None:
        known, space = standing_target(b, line, tree.children[1])
        if not known:
            return
        value = " ".join(t.value for t in tree.children[2].children).casefold()
        b.merge(name, space, lambda old: model_class(model)(name, space, value, line.number))

    def write(order, names) -> str:
        return f"{name} {'all' if order.space is None else order.space}: {order.value}"
    return build, write


def place_syntax(verb: str, model: type | str):
    """The reading and writing of an order ``<verb> <space>`` built as ``model(space,
    line)`` (Taktyczne Starcie's ``live`` and ``scuttle``; ``model``: the class or its name
    in ``model.orders``): ``(build, write)``; the grammar's rule holds the space as its one
    subtree."""
    def build(b, line, tree: Tree) -> None:
        where = next(c for c in tree.children if is_tree(c))
        space = b.resolve_place(line, where.children)
        if space is not None:
            b.add(model_class(model)(space, line.number))

    def write(order, names) -> str:
        return f"{verb} {order.space}"
    return build, write


# ---- writing helpers -------------------------------------------------------------------------

def unit_text(key: str, count: int, names) -> str:
    return names.unit_name(key, count) if names else key


def groups_text(groups, names) -> str:
    parts = []
    for group in groups:
        text = f"{group.count} {unit_text(group.type, group.count, names)}"
        if group.cargo is not None:
            inner = groups_text(group.cargo, names) if group.cargo else "empty"
            text += f" ({inner})"
        parts.append(text)
    return ", ".join(parts)


def losses_text(loss_order: tuple[str, ...], names) -> str:
    return "losses " + ", ".join(unit_text(k, 1, names) for k in loss_order)
