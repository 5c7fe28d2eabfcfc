"""``declare war on japan``: a declaration of war (Global 1940 [L659-L673]), taken at the
start of the declarer's combat move, before any unit moves, wherever the line is written.

Its grammar fragment is here (``DECLARE_GRAMMAR``, covered by the rules hash as a plug-in's
is); model ``model.orders.Declare``; issued by the mover under 'combat:'; checked and
carried out by the rule ``engine.politics`` (``Declarations.at_step``, which writes
``GameState.relations``); its ``WarDeclared``, ``AtWar`` and ``DeclarationDeferred`` events
are in the report's other events.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model import orders
from .base import COMBAT, KINDS, kind, is_tree

if TYPE_CHECKING:
    from ...model.orders import Declare
    from lark import Token, Tree

DECLARE_FILLER = frozenset({"war", "on", "upon", "against", "with", "the"})

DECLARE_GRAMMAR = """
declare: DECLARE _COLON? name ((_COMMA | _AND) name)*
DECLARE.2: /declare[sd]?\\b/i
"""


def build_declare(b, line, tree: Tree) -> None:
    """``declare war on japan``, ``declare war on germany and italy``, ``declare: usa``:
    the words around the powers' names are optional."""
    groups: list[list[Token]] = []
    for where in tree.children[1:]:
        if is_tree(where):
            groups.append([])
            for token in where.children:
                word = token.value.casefold().rstrip(".!")
                if word in ("and", "&"):
                    groups.append([])
                elif word not in DECLARE_FILLER or groups[-1]:
                    groups[-1].append(token)
    targets = []
    for tokens in groups:
        if not tokens:
            continue
        power = b.resolve(line, "power", tokens)
        if power is None:
            return
        if power not in targets:
            targets.append(power)
    if not targets:
        b.error(line, tree.children[0].column,
                f"declare war on whom? (example: '{KINDS['declare'].example}')")
        return
    b.add(orders.Declare(tuple(targets), line.number))


def write_declare(order: Declare, names) -> str:
    return "declare war on " + ", ".join(names.power_name(p) if names else p for p in order.targets)


kind("declare", ["DECLARE"], ["declare"], "declare war on japan",
     {"WORD", "INT", "_COLON", "_COMMA", "_AND", "$END"}, COMBAT,
     grammar=DECLARE_GRAMMAR, model="Declare",
     engine=["politics.Declarations.at_step"],
     problems=["declare_not_enemy", "already_at_war", "may_not_declare"],
     report="other events")(build_declare)(write_declare)
