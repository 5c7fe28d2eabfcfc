"""``liberation: 2 inf, 1 tank``: the units a power places free when its capital is
liberated (Global 1940's France [L595-L599]), a standing order of the engine's standing kind
``liberation`` (value ``"type:n,type:n"``).

Its grammar fragment is here (``LIBERATION_GRAMMAR``, covered by the rules hash as a
plug-in's is); model ``model.orders.LiberationOrder``; issued by the power for any turn in
which its capital is freed; its value checked by ``engine.turn_rules.check_standing_choices``
with ``engine.liberation_bonus.check_choice``, read by the rule ``liberation_bonus``; shown in
the report's standing orders section.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model.orders import StandingChoice
from ...model import orders
from .base import STANDING, STANDING_ISSUER, UNIT_LINE, kind, unit_text, is_tree

if TYPE_CHECKING:
    from lark import Tree

LIBERATION_GRAMMAR = """
liberation: LIBERATION _COLON groups
LIBERATION.2: /liberation\\b/i
"""


def build_liberation(b, line, tree: Tree) -> None:
    groups = next(c for c in tree.children if is_tree(c) and c.data == "groups")
    units = [b.unit_only(line, g, what="liberation") for g in groups.children]
    if None in units:
        return
    counts: dict[str, int] = {}
    for u in units:
        counts[u.type] = counts.get(u.type, 0) + u.count
    value = ",".join(f"{k}:{n}" for k, n in counts.items())
    b.merge("liberation", None, lambda old: orders.LiberationOrder("liberation", None, value, line.number))


def write_liberation(order: StandingChoice, names) -> str:
    parts = [p.split(":") for p in order.value.split(",") if p]
    return "liberation: " + ", ".join(f"{n} {unit_text(k, int(n), names)}" for k, n in parts)


kind("liberation", ["LIBERATION"], ["liberation"], "liberation: 2 inf, 1 tank",
     UNIT_LINE, STANDING, grammar=LIBERATION_GRAMMAR, model="LiberationOrder",
     issuer=STANDING_ISSUER,
     engine=["turn_rules.check_standing_choices", "liberation_bonus.check_choice"],
     problems=["standing_unknown", "standing_bad_value", "liberation_bad_units",
               "liberation_not_placeable", "liberation_too_expensive"],
     report="standing orders")(build_liberation)(write_liberation)
