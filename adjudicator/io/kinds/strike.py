"""``strike 34: 2 bomber 22 -> 23 -> 34 -> 23 -> 22, target aa and tanks, stay 2``: a
Taktyczne Starcie air strike on the main map (L23.10-L23.64; fighters alone: a sweep,
L23.48, L23.69): the aircraft of one base along their route out to the target and back
(the part after the target; not written: the way out reversed, ruling G20), then clauses:
``target <words>`` (the shooter's priority, ``io.target_words``), ``stay <n>`` (battle
turns at most, L23.58) and ``return after <n> lost`` (fly home after that many losses).
Lines on one target in one turn are one strike from several bases (L23.74).

Its grammar fragment is here (``STRIKE_GRAMMAR``, covered by the rules hash as a plug-in's
is); model ``model.orders.StrikeOrder``; issued by the power whose turn it is; carried out
in the written order by the main turn (``engine.taktyczne.air_strike.strike``); shown in
the report's main turn section.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...model import orders
from .base import COMBAT, MOVER, UNIT_LINE, groups_text, is_tree, kind, tokens_of

if TYPE_CHECKING:
    from ...model.orders import StrikeOrder
    from lark import Tree

NAME = "strike"
MAX_STAY = 4                  # L23.52 at most four battle turns

STRIKE_GRAMMAR = """
strike: STRIKE name _COLON groups _ARROW path (_COMMA strike_clause)*
strike_clause: STRIKE_TARGET _COLON? name (_AND name)*     -> strike_target
             | STRIKE_STAY name                             -> strike_stay
             | STRIKE_RETURN name                           -> strike_return
STRIKE.4: /(air\\s+strike|air\\s+raid|strike)(\\s+(on|at|against))?\\b/i
STRIKE_TARGET.3: /(targets?|priority)\\b/i
STRIKE_STAY.3: /stay\\b/i
STRIKE_RETURN.3: /(return|leave|fly\\s+home|go\\s+home)\\b/i
"""

_NUMBER = re.compile(r"^\d{1,2}$")


def _words(tree: Tree) -> list[str]:
    return [t.value for c in tree.children if is_tree(c) for t in tokens_of(c)]


def _number(b, line, clause: Tree, what: str, top: int) -> int | None:
    column = clause.children[0].column
    found = [w for w in _words(clause) if _NUMBER.match(w)]
    if len(found) != 1 or not 1 <= int(found[0]) <= top:
        b.error(line, column, f"strike: '{what}' takes one number from 1 to {top} "
                              f"(e.g. '{what} 2')")
        return None
    return int(found[0])


def build_strike(b, line, tree: Tree) -> None:
    # Taktyczne Starcie's helpers, imported on first use: another edition's command loads none
    from ..target_words import read_targets
    subtrees = [c for c in tree.children if is_tree(c)]
    target_name, groups, path_tree, clauses = subtrees[0], subtrees[1], subtrees[2], subtrees[3:]
    target = b.resolve_place(line, target_name.children)
    segments = b.segments(line, groups, NAME)
    rest = [b.resolve(line, "space", name.children) for name in path_tree.children]
    priority: tuple[str, ...] = ()
    stay = leave = 0
    for clause in clauses:
        if clause.data == "strike_target":
            phrases = [" ".join(t.value for t in tokens_of(c)) for c in clause.children
                       if is_tree(c)]
            try:
                priority = read_targets(phrases)
            except ValueError as exc:
                b.error(line, clause.children[0].column, f"strike: {exc}")
                return
        elif clause.data == "strike_stay":
            stay = _number(b, line, clause, "stay", MAX_STAY) or 0
        else:
            leave = _number(b, line, clause, "return after", 12) or 0
    if target is None or segments is None or None in rest:
        return
    for units, start in segments:
        if not units:
            b.error(line, tree.children[0].column, "this 'strike' sends no aircraft (every count is 0)")
            return
        b.add(orders.StrikeOrder(target, units, (start, *rest), priority, stay, leave, line.number))


def write_strike(order: StrikeOrder, names) -> str:
    from ...model.ts_targets import priority_text
    text = f"strike {order.target}: {groups_text(order.units, names)} " + " -> ".join(order.path)
    if order.priority:
        text += ", target " + priority_text(order.priority).replace(", ", " and ")
    if order.stay:
        text += f", stay {order.stay}"
    if order.leave_after:
        text += f", return after {order.leave_after} lost"
    return text


kind(NAME, ["STRIKE"], ["strike", "air strike", "air raid"],
     "strike 34: 2 bomber 22 -> 23 -> 34, target aa and tanks, stay 2",
     UNIT_LINE | {"STRIKE_TARGET", "STRIKE_STAY", "STRIKE_RETURN", "_AND"}, COMBAT,
     grammar=STRIKE_GRAMMAR, model="StrikeOrder", issuer=MOVER,
     engine=["taktyczne.air_strike.strike", "taktyczne.air_strike.flight"],
     problems=["ts_strike_no_enemy", "ts_strike_not_aircraft", "ts_strike_route",
               "ts_strike_range", "ts_strike_over", "ts_strike_base", "ts_strike_after_board",
               "ts_units_missing", "ts_strike_clauses_differ", "ts_air_over_guns"],
     report="ts_main_turn")(build_strike)(write_strike)
