"""``paratroop 2 Western Germany -> Poland``: up to two infantry from the territory of an
operative air base join the attack on a hostile territory up to 3 spaces away (Global
1940's Paratroopers technology [L1182], digest §7 chart 1 #3, §9).

Its grammar fragment is here (``PARATROOP_GRAMMAR``, covered by the rules hash as a
plug-in's is); model ``model.orders.Paratroop``; issued by the mover under 'combat:';
checked and carried out by the rule ``paratroopers`` (``engine/research.py``:
``Paratroopers.at_step``) at the end of its combat move; its ``ParatroopersDropped`` event
is in the report's other events.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model import orders
from .base import COMBAT, kind, tokens_of, is_tree

if TYPE_CHECKING:
    from ...model.orders import Paratroop
    from lark import Tree

PARATROOP_GRAMMAR = """
paratroop: PARATROOP _COLON? name _ARROW name
PARATROOP.2: /paratroo?ps?\\b/i
"""


def build_paratroop(b, line, tree: Tree) -> None:
    """``paratroop [N] BASE -> TARGET``: N (1 or 2; 2 when not written) infantry."""
    names = [part for part in tree.children if is_tree(part)]
    first = tokens_of(names[0])
    count = 2
    if first and first[0].type == "INT" and len(first) > 1:
        count = b.number(line, first[0], what="a number of paratroopers")
        if count is None:
            return
        first = first[1:]
    base = b.resolve(line, "space", first)
    target = b.resolve(line, "space", names[1].children)
    if base is not None and target is not None:
        b.add(orders.Paratroop(count, base, target, line.number))


def write_paratroop(order: Paratroop, names) -> str:
    return f"paratroop {order.count} {order.base} -> {order.target}"


kind("paratroop", ["PARATROOP"], ["paratroop", "paratroops"],
     "paratroop 2 Western Germany -> Poland",
     {"WORD", "INT", "_COLON", "_ARROW", "$END"}, COMBAT,
     grammar=PARATROOP_GRAMMAR, model="Paratroop",
     engine=["research.Paratroopers.at_step"],
     problems=["paratroop_no_technology", "paratroop_too_many", "paratroop_no_base",
               "paratroop_no_infantry", "paratroop_not_hostile", "paratroop_too_far",
               "paratroop_no_attack"],
     report="other events")(build_paratroop)(write_paratroop)
