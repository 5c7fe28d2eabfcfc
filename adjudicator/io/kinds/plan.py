"""``plan 34: wedge, advance, target tanks, fire at 4``: the attacker's battle plan for a
Taktyczne Starcie board battle in an area it attacks this turn (a formation or own squares
for some units, own mine squares, and the doctrine: advance or hold, target priority, fire
discipline), read forgivingly by ``io.plan_words``.

Its grammar fragment is here (``PLAN_GRAMMAR``, covered by the rules hash as a plug-in's
is); model ``model.orders.PlanOrder`` (a later line for the same area replaces the
earlier); issued by the power whose turn it is; checked against the board rules and read by
``engine.taktyczne.plans`` (``check_plans``, ``plans_for``); its battle shown in the report's
main turn section (``ts_main_turn``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model import orders
from .base import COMBAT, MOVER, is_tree, kind, unit_text

if TYPE_CHECKING:
    from ...model.orders import PlanOrder
    from lark import Tree

PLAN_GRAMMAR = """
plan: PLAN name _COLON _plan_sep* name (_plan_sep+ name)* _plan_sep*
_plan_sep: _COMMA | _SEMICOLON | _AND
PLAN.4: /((battle|attack|attacker'?s?)\\s+)?plan(\\s+(for|in|at|on))?\\b/i
"""

PLAN_CONTEXT = {"WORD", "INT", "_COLON", "_COMMA", "_SEMICOLON", "_AND", "$END"}
PLAN_PROBLEMS = ["plan_formation_unknown", "plan_square_unknown", "plan_square_row",
                 "plan_mine_row", "plan_square_twice", "plan_unit_not_on_board",
                 "plan_unit_wrong_board", "plan_not_attacked", "plan_unit_not_in_battle",
                 "plan_too_many_mines"]


def build_plan(b, line, tree: Tree) -> None:
    # Taktyczne Starcie's helpers, imported on first use: another edition's command loads none
    from ..plan_words import read_plan
    names = [c for c in tree.children if is_tree(c)]
    space = b.resolve_place(line, names[0].children)
    plan = read_plan(b, line, names[1:], "plan")
    if space is None or plan is None:
        return
    b.merge("plan", space, lambda old: orders.PlanOrder(space, plan, line.number), line.number)


def write_plan(order: PlanOrder, names) -> str:
    from ...model.plan_text import plan_text
    return f"plan {order.space}: {plan_text(order.plan, lambda key: unit_text(key, 1, names))}"


kind("plan", ["PLAN"], ["plan"], "plan 34: wedge, advance, target tanks, fire at 4",
     PLAN_CONTEXT, COMBAT, grammar=PLAN_GRAMMAR, model="PlanOrder", issuer=MOVER,
     engine=["taktyczne.plans.check_plans", "taktyczne.plans.plans_for"],
     problems=PLAN_PROBLEMS, report="ts_main_turn")(build_plan)(write_plan)
