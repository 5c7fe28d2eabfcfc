"""``rocket Holland Belgium -> Western Germany``: a rocket attack from the operative air
base in the first territory on an enemy facility in the second (Global 1940's Rockets
technology [L1180], digest §7 chart 1 #2, §9).

Its grammar fragment is here (``ROCKET_GRAMMAR``, covered by the rules hash as a plug-in's
is); model ``model.orders.Rocket``; issued by the mover under 'combat:'; checked and
carried out by the rule ``rockets`` (``engine/research.py``: ``Rockets.at_step``) at the start of its
Conduct Combat, with the raids; its ``RocketFired`` event is in the report's other events.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model import orders
from .base import COMBAT, kind, is_tree

if TYPE_CHECKING:
    from ...model.orders import Rocket
    from lark import Tree

ROCKET_GRAMMAR = """
rocket: ROCKET _COLON? name _ARROW name
ROCKET.2: /rockets?\\b/i
"""


def build_rocket(b, line, tree: Tree) -> None:
    names = [part for part in tree.children if is_tree(part)]
    base = b.resolve(line, "space", names[0].children)
    target = b.resolve(line, "space", names[1].children)
    if base is not None and target is not None:
        b.add(orders.Rocket(base, target, line.number))


def write_rocket(order: Rocket, names) -> str:
    return f"rocket {order.base} -> {order.target}"


kind("rocket", ["ROCKET"], ["rocket"], "rocket Holland Belgium -> Western Germany",
     {"WORD", "INT", "_COLON", "_ARROW", "$END"}, COMBAT,
     grammar=ROCKET_GRAMMAR, model="Rocket",
     engine=["research.Rockets.at_step"],
     problems=["rocket_no_technology", "rocket_no_base", "rocket_base_used", "rocket_no_target",
               "rocket_too_far"],
     report="other events")(build_rocket)(write_rocket)
