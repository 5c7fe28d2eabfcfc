"""``unload 1 inf SZ 6 -> Norway Finland``: cargo lands (in combat: an amphibious assault).

Grammar ``grammar/kinds/unload.lark``; model ``model.orders.Unload``; issued by the mover
under 'combat:' or 'noncombat:'; read like a move (``move.movement``); checked and carried
out by ``engine.movement.run_order`` (``do_unload``), the assault's transports by
``engine.aircraft.check_combat_moves``; shown in the report's move and battle sections.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import PHASE, UNIT_LINE, groups_text, kind
from .move import build_movement

if TYPE_CHECKING:
    from ...model.orders import Unload


def write_unload(order: Unload, names) -> str:
    return f"unload {groups_text(order.units, names)} {order.zone} -> {order.target}"


kind("unload", ["UNLOAD"], ["unload"], "unload 1 inf SZ 6 -> Norway Finland", UNIT_LINE, PHASE,
     model="Unload", engine=["movement.run_order", "movement.do_unload", "aircraft.check_combat_moves"],
     problems=["unload_direction", "not_adjacent", "impassable", "unload_friendly_in_combat",
               "unload_enemy_in_noncombat", "unload_in_hostile_zone", "no_cargo_to_unload",
               "transport_unloaded_elsewhere", "transport_retreated",
               "ally_transport_cargo_next_turn", "ally_cargo_not_yours",
               "transport_moved_in_combat", "assault_zone_stays_hostile",
               "assault_beside_enemy_subs"],
     report="combat_move")(build_movement("unload"))(write_unload)
