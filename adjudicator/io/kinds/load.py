"""``load 1 inf, 1 tank Germany -> SZ 5``: land units board transports (a single '->').

Grammar ``grammar/kinds/load.lark``; model ``model.orders.Load``; issued by the mover under
'combat:' or 'noncombat:'; read like a move (``move.movement``); checked and carried out by
``engine.movement.run_order`` (``do_load``), cargo loaded for an assault by
``engine.aircraft.check_combat_moves``; shown in the report's move sections.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import PHASE, UNIT_LINE, groups_text, kind
from .move import STARTING, build_movement

if TYPE_CHECKING:
    from ...model.orders import Load


def write_load(order: Load, names) -> str:
    return f"load {groups_text(order.units, names)} {order.origin} -> {order.zone}"


kind("load", ["LOAD"], ["load"], "load 1 inf, 1 tank Germany -> SZ 5", UNIT_LINE, PHASE,
     model="Load", engine=["movement.run_order", "movement.do_load", "movement.may_move",
             "aircraft.check_combat_moves"],
     problems=[*STARTING, "load_direction", "not_adjacent", "load_in_hostile_zone",
               "load_not_land", "no_transport_room", "cargo_not_unloaded"],
     report="combat_move")(build_movement("load"))(write_load)
