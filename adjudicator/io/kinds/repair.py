"""``repair 3 Germany``: remove factory damage, 1 IPC a point.

Grammar ``grammar/kinds/repair.lark``; model ``model.orders.Repair``; issued by the mover in
the purchase phase; checked and carried out by ``engine.production.repair`` (before the
purchase); shown in the report's purchase section.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model import orders
from .base import PURCHASE, kind, tokens_of

if TYPE_CHECKING:
    from ...model.orders import Repair
    from lark import Tree


def build_repair(b, line, tree: Tree) -> None:
    number = next(t for t in tokens_of(tree) if t.type == "INT")
    points = b.number(line, number)
    space = b.resolve(line, "space", tree.children[-1].children)
    if points is not None and space is not None:
        b.add(orders.Repair(space, points, line.number))


def write_repair(order: Repair, names) -> str:
    return f"repair {order.points} {order.space}"


kind("repair", ["REPAIR"], ["repair"], "repair 3 Germany", {"INT", "WORD", "$END"}, PURCHASE,
     model="Repair", engine=["production.repair"],
     problems=["capital_lost_no_purchase", "nothing_to_repair", "repair_too_much",
               "repair_too_expensive"],
     report="purchase")(build_repair)(write_repair)
