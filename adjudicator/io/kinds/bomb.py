"""``bomb Germany with 2 bmr``: of the bombers that ended their combat move there, these
raid its factory instead of fighting (strategic bombing raid); ``bomb Germany with 2 bmr:
air base`` names the facility raided (Global 1940: else the first each bomber may hit,
factory, then air base, then naval base).

Grammar ``grammar/kinds/bomb.lark``; model ``model.orders.Bomb``; issued by the mover in the
combat phase; checked by ``engine.raids.declare_raids``, fought by the edition's raid battle
kind (``engine.raids``, ``engine.escorted_raids``); shown in the report's battle section.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model import orders
from .base import COMBAT, UNIT_LINE, groups_text, kind, unit_text

if TYPE_CHECKING:
    from ...model.orders import Bomb
    from lark import Tree


def build_bomb(b, line, tree: Tree) -> None:
    space = b.resolve_place(line, tree.children[1].children)      # "SBR on UK with 1 bmr"
    groups = tree.children[3]
    units = [b.unit_only(line, g, what="bomb") for g in groups.children]
    target = ""
    if len(tree.children) > 4:                                    # "...: air base"
        target = b.resolve(line, "unit", tree.children[4].children)
    if space is not None and None not in units and target is not None:
        b.add(orders.Bomb(space, tuple(units), line.number, target))


def write_bomb(order: Bomb, names) -> str:
    target = f": {unit_text(order.target, 1, names)}" if order.target else ""
    return f"bomb {order.space} with {groups_text(order.units, names)}{target}"


kind("bomb", ["BOMB"], ["bomb", "raid"], "bomb Germany with 2 bmr", UNIT_LINE | {"WITH", "_COLON"}, COMBAT,
     model="Bomb", engine=["raids.declare_raids", "raids.fight_raid"],
     problems=["raid_not_enemy", "raid_no_factory", "raid_not_bomber", "raid_bombers_missing",
               "raid_no_such_target"],
     report="conduct_combat")(build_bomb)(write_bomb)
