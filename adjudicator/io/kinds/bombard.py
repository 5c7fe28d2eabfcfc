"""``bombard Western Europe with 1 bb, 1 ca``: which ships bombard an amphibious assault
(without 'with': every eligible ship, the default).

Grammar ``grammar/kinds/bombard.lark``; model ``model.orders.Bombard``; issued by the mover
in the combat phase; checked by ``engine.battles.check_bombard_orders``, fired by the
bombardment battle step (``engine.abilities.bombard``); shown in the report's battle section.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model import orders
from .base import COMBAT, UNIT_LINE, groups_text, kind, is_tree

if TYPE_CHECKING:
    from ...model.orders import Bombard
    from lark import Tree


def build_bombard(b, line, tree: Tree) -> None:
    space = b.resolve(line, "space", tree.children[1].children)
    units: list = []
    if is_tree(tree.children[-1]) and tree.children[-1].data == "groups":
        units = [b.unit_only(line, g, what="bombard") for g in tree.children[-1].children]
    if space is not None and None not in units:
        b.add(orders.Bombard(space, tuple(units), line.number))


def write_bombard(order: Bombard, names) -> str:
    tail = f" with {groups_text(order.units, names)}" if order.units else ""
    return f"bombard {order.target}{tail}"


kind("bombard", ["BOMBARD"], ["bombard"], "bombard Western Europe with 1 bb, 1 ca",
     UNIT_LINE | {"WITH"}, COMBAT, model="Bombard",
     engine=["battles.check_bombard_orders", "abilities.bombard"],
     problems=["bombard_no_assault", "bombard_not_able", "bombard_ships_missing",
               "bombard_more_than_landing"],
     report="conduct_combat")(build_bombard)(write_bombard)
