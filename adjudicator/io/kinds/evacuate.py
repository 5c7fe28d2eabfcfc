"""``evacuate 23: 24, S05`` (or ``evacuate 23 -> 24, S05``; ``evacuate all: nearest``): where
a power's aircraft fly when they lose their base in an area (Taktyczne Starcie: a lost
battle, a destroyed airfield or carrier, a blast; L23.34-L23.35, L23.75), a standing order
of the engine's standing kind ``evacuate``: the bases named, in that order, then the nearest
(the default, ``nearest``: the nearest own base in range with room).

Its grammar fragment is here (``EVACUATE_GRAMMAR``); model ``model.orders.EvacuateOrder``
(value: the bases' keys joined by ", ", or ``nearest``); issued by a power for the turns of
others; checked by ``engine.turn_rules.check_standing_choices`` with the kind's check
(``engine.taktyczne.air``), read by ``engine.taktyczne.air.evacuate``; shown in the report's
standing orders section.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model import orders
from .base import STANDING, STANDING_ISSUER, is_tree, kind, standing_target

if TYPE_CHECKING:
    from ...model.orders import EvacuateOrder

NAME = "evacuate"
NEAREST = "nearest"

EVACUATE_GRAMMAR = """
evacuate: EVACUATE name (_COLON | _ARROW) name (_COMMA name)*
EVACUATE.2: /evacuate\\b/i
"""


def build_evacuate(b, line, tree) -> None:
    names = [c for c in tree.children if is_tree(c)]
    known, space = standing_target(b, line, names[0])
    bases = []
    for where in names[1:]:
        if [t.value.casefold() for t in where.children] == [NEAREST]:
            bases.append(NEAREST)
            continue
        base = b.resolve(line, "space", where.children)
        if base is None:
            return
        bases.append(base)
    if not known:
        return
    value = NEAREST if bases == [NEAREST] else ", ".join(k for k in bases if k != NEAREST)
    b.merge(NAME, space, lambda old: orders.EvacuateOrder(NAME, space, value, line.number))


def write_evacuate(order: EvacuateOrder, names) -> str:
    return f"{NAME} {'all' if order.space is None else order.space}: {order.value}"


kind(NAME, ["EVACUATE"], ["evacuate"], "evacuate all: 24, S05",
     {"WORD", "INT", "_COLON", "_ARROW", "_COMMA", "$END"}, STANDING, grammar=EVACUATE_GRAMMAR,
     model="EvacuateOrder", issuer=STANDING_ISSUER,
     engine=["turn_rules.check_standing_choices", "taktyczne.air.evacuate"],
     problems=["standing_unknown", "ts_evacuate_unknown"],
     report="standing orders")(build_evacuate)(write_evacuate)
