"""``launch 23``, ``launch 23 from 12``: Taktyczne Starcie's nuclear missile, fired from the
mover's armed silo (the first, or the one named) at any area (L19.58).

Its grammar fragment is here (``LAUNCH_GRAMMAR``); model ``model.orders.Launch``; issued by
the mover with his moves; carried out by ``engine.taktyczne.nuclear.launch`` (step
``ts_launch``, before the moves: an anti-missile may stop it, then the blast); its events
are in the report's other events.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model import orders
from .base import COMBAT, is_tree, kind

if TYPE_CHECKING:
    from ...model.orders import Launch
    from lark import Tree

LAUNCH_GRAMMAR = """
launch: LAUNCH _COLON? name (LAUNCH_FROM name)?
LAUNCH.3: /launch(es)?\\b/i
LAUNCH_FROM.2: /from\\b/i
"""


def build_launch(b, line, tree: Tree) -> None:
    names = [c for c in tree.children if is_tree(c)]
    target = b.resolve(line, "space", names[0].children)
    silo = b.resolve(line, "space", names[1].children) if len(names) > 1 else ""
    if target is not None and silo is not None:
        b.add(orders.Launch(target, silo, line.number))


def write_launch(order: Launch, names) -> str:
    return f"launch {order.target}" + (f" from {order.silo}" if order.silo else "")


kind("launch", ["LAUNCH"], ["launch"], "launch 23 from 12",
     {"WORD", "INT", "LAUNCH_FROM", "_COLON", "$END"}, COMBAT,
     grammar=LAUNCH_GRAMMAR, model="Launch", engine=["taktyczne.nuclear.launch"],
     problems=["ts_no_armed_silo", "ts_blast_own_units"], report="other events")(build_launch)(write_launch)
