"""``defend 22: line, hold`` / ``defend all: wedge, target guns``: a power's standing
battle plan for the Taktyczne Starcie board battles in its areas (one area, or ``all``),
kept until replaced; the same clauses as the attacker's ``plan`` (``io.plan_words``).  A
power that wrote none defends by the documented default (``engine.taktyczne.plans``
``DEFAULT_PLAN``: line, advance, the best exchange, fire at 6).

Its grammar fragment is here (``DEFENCE_PLAN_GRAMMAR``); model
``model.orders.DefencePlanOrder``, a standing order of the engine's standing kind
``defence_plan`` (value: the plan's canonical text, ``model.plan_text``); issued by a power
for the turns of others; checked by ``engine.turn_rules.check_standing_choices`` with
``engine.taktyczne.plans.check_standing_plan`` (readable) and ``check_plans`` (the board
rules), and read by ``plans_for``; shown in the
report's standing orders section.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model import orders
from .base import STANDING, STANDING_ISSUER, is_tree, kind, unit_text

if TYPE_CHECKING:
    from ...model.orders import DefencePlanOrder
    from lark import Tree

NAME = "defence_plan"

DEFENCE_PLAN_GRAMMAR = """
defence_plan: DEFENCE_PLAN name _COLON _defence_plan_sep* name (_defence_plan_sep+ name)* _defence_plan_sep*
_defence_plan_sep: _COMMA | _SEMICOLON | _AND
DEFENCE_PLAN.3: /((defen[cs]e|defend)(\\s+plan)?|(standing|defensive|board)\\s+plan)(\\s+(for|in|at|on))?\\b/i
"""

_EVERYWHERE = ("all", "everywhere", "all areas", "every area", "*")


def build_defence_plan(b, line, tree: Tree) -> None:
    # Taktyczne Starcie's helpers, imported on first use: another edition's command loads none
    from ...model.plan_text import plan_text
    from ..plan_words import read_plan
    names = [c for c in tree.children if is_tree(c)]
    where = names[0].children
    space: str | None = None
    if " ".join(t.value.casefold() for t in where) not in _EVERYWHERE:
        space = b.resolve_place(line, where)
        if space is None:
            read_plan(b, line, names[1:], "defend")       # its problems are said too
            return
    plan = read_plan(b, line, names[1:], "defend")
    if plan is None:
        return
    value = plan_text(plan)
    b.merge(NAME, space, lambda old: orders.DefencePlanOrder(NAME, space, value, line.number), line.number)


def write_defence_plan(order: DefencePlanOrder, names) -> str:
    from ...model.plan_text import plan_from_text, plan_text
    try:
        text = plan_text(plan_from_text(order.value), lambda key: unit_text(key, 1, names))
    except ValueError:         # not this package's canonical text: written as it is
        text = order.value
    return f"defend {'all' if order.space is None else order.space}: {text}"


kind(NAME, ["DEFENCE_PLAN"], ["defend"], "defend all: line, hold, target guns",
     {"WORD", "INT", "_COLON", "_COMMA", "_SEMICOLON", "_AND", "$END"}, STANDING,
     grammar=DEFENCE_PLAN_GRAMMAR, model="DefencePlanOrder", issuer=STANDING_ISSUER,
     engine=["turn_rules.check_standing_choices", "taktyczne.plans.check_standing_plan",
             "taktyczne.plans.check_plans", "taktyczne.plans.plans_for"],
     problems=["standing_unknown", "plan_unreadable", "plan_formation_unknown", "plan_square_unknown",
               "plan_square_row", "plan_mine_row", "plan_square_twice",
               "plan_unit_not_on_board", "plan_unit_wrong_board"],
     report="standing orders")(build_defence_plan)(write_defence_plan)
