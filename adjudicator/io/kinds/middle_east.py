"""``middle east: usa, uk``: which Allies pay Germany for the Middle East, first to last
(Europe 1999 [L699]), a standing order of the engine's standing kind ``middle_east``.

Its grammar fragment is here (``MIDDLE_EAST_GRAMMAR``, covered by the rules hash as a
plug-in's is); model ``model.orders.MiddleEastOrder``; issued by an Allied power for
Germany's turns; its value checked by ``engine.turn_rules.check_standing_choices``, read by
``engine.middle_east.payment_order``; shown in the report's standing orders section.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model.orders import StandingChoice
from ...model import orders
from .base import STANDING, STANDING_ISSUER, kind, is_tree

if TYPE_CHECKING:
    from lark import Tree

MIDDLE_EAST_GRAMMAR = """
middle_east: MIDDLE_EAST _COLON name (_COMMA name)*
MIDDLE_EAST.2: /middle[ \\t]+east\\b/i
"""


def build_middle_east(b, line, tree: Tree) -> None:
    powers = []
    for where in tree.children[1:]:
        if is_tree(where):
            power = b.resolve(line, "power", where.children)
            if power is None:
                return
            powers.append(power)
    value = " ".join(powers)
    b.merge("middle_east", None, lambda old: orders.MiddleEastOrder("middle_east", None, value, line.number))


def write_middle_east(order: StandingChoice, names) -> str:
    return "middle east: " + ", ".join(order.value.split())


kind("middle_east", ["MIDDLE_EAST"], ["middle east"], "middle east: usa, uk",
     {"WORD", "INT", "_COLON", "_COMMA", "$END"}, STANDING, grammar=MIDDLE_EAST_GRAMMAR,
     model="MiddleEastOrder", issuer=STANDING_ISSUER,
     engine=["turn_rules.check_standing_choices", "middle_east.payment_order"],
     problems=["standing_unknown", "standing_bad_value"],
     report="standing orders")(build_middle_east)(write_middle_east)
