"""``convert 1 inf Moscow``: the Soviet "Great Patriotic War" (Europe 1999 [L665]): Allied
units in a Soviet factory territory become the phasing power's (noncombat only).

Its grammar fragment is here (``CONVERT_GRAMMAR``, covered by the rules hash as a plug-in's
is); model ``model.orders.Convert``; issued by the mover under 'noncombat:'; checked and
carried out by the rule ``engine.great_patriotic_war`` (``GreatPatrioticWar.at_step``);
its ``UnitsConverted`` event is in the report's other events.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model.orders import Phase
from ...model import orders
from .base import NONCOMBAT, UNIT_LINE, groups_text, kind

if TYPE_CHECKING:
    from ...model.orders import Convert
    from lark import Tree

CONVERT_GRAMMAR = """
convert: CONVERT _COLON? groups
CONVERT.2: /convert\\b/i
"""


def build_convert(b, line, tree: Tree) -> None:
    if b.section != Phase.NONCOMBAT:
        b.error(line, tree.children[0].column, "'convert' belongs under 'noncombat:'")
        return
    units, space = b.units_and_place(line, tree.children[-1], "convert")
    if units is not None and space is not None:
        b.add(orders.Convert(units, space, line.number))


def write_convert(order: Convert, names) -> str:
    return f"convert {groups_text(order.units, names)} {order.space}"


kind("convert", ["CONVERT"], ["convert"], "convert 1 inf Moscow", UNIT_LINE, NONCOMBAT,
     grammar=CONVERT_GRAMMAR, model="Convert",
     engine=["great_patriotic_war.GreatPatrioticWar.at_step"],
     problems=["convert_not_soviet", "convert_not_soviet_factory", "convert_units_missing"],
     report="other events")(build_convert)(write_convert)
