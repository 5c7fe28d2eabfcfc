"""``bomb Germany with 2 bmr``: of the bombers that ended their combat move there, these
raid its factory instead of fighting (strategic bombing raid).

Grammar ``grammar/kinds/bomb.lark``; model ``model.orders.Bomb``; issued by the mover in the
combat phase; checked by ``engine.raids.declare_raids``, fought by the edition's raid battle
kind (``engine.raids``, ``engine.escorted_raids``); shown in the report's battle section.
"""

from __future__ import annotations

from lark import Tree

from ...model.orders import Bomb
from .base import COMBAT, UNIT_LINE, groups_text, kind


def build_bomb(b, line, tree: Tree) -> None:
    space = b.resolve_place(line, tree.children[1].children)      # "SBR on UK with 1 bmr"
    groups = tree.children[-1]
    units = [b.unit_only(line, g, what="bomb") for g in groups.children]
    if space is not None and None not in units:
        b.add(Bomb(space, tuple(units), line.number))


def write_bomb(order: Bomb, names) -> str:
    return f"bomb {order.space} with {groups_text(order.units, names)}"


kind("bomb", ["BOMB"], ["bomb", "raid"], "bomb Germany with 2 bmr", UNIT_LINE | {"WITH"}, COMBAT,
     model=Bomb, engine=["raids.declare_raids", "raids.fight_raid"],
     problems=["raid_not_enemy", "raid_no_factory", "raid_not_bomber", "raid_bombers_missing"],
     report="conduct_combat")(build_bomb)(write_bomb)
