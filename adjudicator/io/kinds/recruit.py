"""``recruit 2 tank_1 44``: Taktyczne Starcie's units, bought at the start of the turn and
placed at once where an object of the buyer's produces them (L19.16, L27.2, L27.10, L27.21).

Its grammar fragment is here (``RECRUIT_GRAMMAR``, covered by the rules hash as a plug-in's
is); model ``model.orders.Recruit``; issued by the mover under 'purchase:'; checked and
carried out by ``engine.taktyczne.economy.recruit`` (step ``ts_recruit``); its
``UnitsRecruited`` event is in the report's other events.  The groups read as a placement's
("2 tank_1 44, 1 warship_1 S05": each group followed by its space).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model import orders
from .base import PURCHASE, UNIT_LINE, groups_text, kind

if TYPE_CHECKING:
    from ...model.orders import Recruit
    from lark import Tree

RECRUIT_GRAMMAR = """
recruit: RECRUIT _COLON? groups
RECRUIT.3: /(recruits?|musters?)\\b/i
"""


def build_recruit(b, line, tree: Tree) -> None:
    for units, space in b.segments(line, tree.children[-1], "recruit") or ():
        if units:
            b.add(orders.Recruit(units, space, line.number))


def write_recruit(order: Recruit, names) -> str:
    return f"recruit {groups_text(order.units, names)} {order.space}"


kind("recruit", ["RECRUIT"], ["recruit", "muster"], "recruit 2 tank_1 44", UNIT_LINE, PURCHASE,
     grammar=RECRUIT_GRAMMAR, model="Recruit", engine=["taktyczne.economy.recruit"],
     problems=["ts_not_buyable", "ts_no_producer", "ts_blockaded", "ts_stack_full",
               "ts_too_expensive", "ts_no_airfield"],
     report="ts_recruit")(build_recruit)(write_recruit)
