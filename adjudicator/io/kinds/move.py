"""``move 2 inf Karelia -> Archangel``: a combat or noncombat move.

Grammar ``grammar/kinds/move.lark``; model ``model.orders.Move``; issued by the mover under
'combat:' or 'noncombat:' (the order's own phase); checked and carried out by
``engine.movement.run_order`` (``may_move``, the path checks, the movers' abilities in
``engine.abilities.movement_rules``), then ``engine.aircraft.check_combat_moves`` (every
attacker in a battle and able to land); shown in the report's combat and noncombat move
sections.  ``movement`` is the reading that ``load`` and ``unload`` share.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model.orders import Phase
from ...model import orders
from .base import KINDS, PHASE, UNIT_LINE, groups_text, kind

if TYPE_CHECKING:
    from ...model.orders import Move
    from lark import Tree


def build_movement(verb: str):
    def build(b, line, tree: Tree) -> None:
        verb_token, groups, path_tree = tree.children
        movement(b, line, verb, verb_token.column, groups, path_tree, b.section)
    return build


def movement(b, line, verb: str, column: int, groups: Tree, path_tree: Tree | None,
             phase: Phase | None, origin: str | None = None, target: str | None = None) -> None:
    """Move, load or unload ``groups`` along ``path_tree`` in ``phase``.  Each group may
    name its own start ("3 inf Karelia, 1 tank Caucasus -> West Russia": one move from
    each); ``origin``: the start written before the units ("Karelia: 3 inf -> ...");
    ``target`` instead of a path: the one space they move to ("Attack WR with ...")."""
    if phase not in (Phase.COMBAT, Phase.NONCOMBAT):
        where = (f"under '{phase.value}:'" if phase is not None
                 else "before any 'combat:' or 'noncombat:' line")
        b.error(line, column, f"'{verb}' {where}: put moves under 'combat:' or 'noncombat:'")
    if origin is None:
        segments = b.segments(line, groups, verb)
    else:
        units = [b.unit_only(line, g, what=verb) for g in groups.children]
        segments = None if None in units else [(tuple(units), origin)]
    rest = [target] if path_tree is None else \
        [b.resolve(line, "space", name.children) for name in path_tree.children]
    if verb in ("load", "unload") and len(rest) > 1:
        b.error(line, path_tree.children[1].children[0].column,
                f"'{verb}' takes a single '->' (example: '{KINDS[verb].example}')")
        return
    if segments is None or None in rest or phase not in (Phase.COMBAT, Phase.NONCOMBAT):
        return
    if origin is not None:
        segments = [(tuple(u for u in units if u.count), start) for units, start in segments]
    if not all(units for units, _start in segments):
        b.error(line, column, f"this '{verb}' moves no units (every count is 0)")
        return
    for units, start in segments:
        if verb == "move":
            b.add(orders.Move(phase, units, (start, *rest), line.number))
        elif verb == "load":
            b.add(orders.Load(phase, units, start, rest[0], line.number))
        else:
            b.add(orders.Unload(phase, units, start, rest[0], line.number))


# The problems of starting any move, load or unload with the units named
# (``engine.movement.may_move`` and ``select``).
STARTING = ("units_not_there", "units_cannot_move", "static_unit", "already_moved",
            "aboard_transport", "carrier_moved_first", "loaded_this_turn", "transport_unloaded",
            "raided_this_turn", "moved_in_combat", "fought_this_turn", "landed_from_sea")


def write_move(order: Move, names) -> str:
    return f"move {groups_text(order.units, names)} " + " -> ".join(order.path)


kind("move", ["MOVE"], ["move"], "move 2 inf Karelia -> Archangel", UNIT_LINE, PHASE,
     model="Move",
     engine=["movement.run_order", "movement.may_move", "abilities.movement_rules",
             "aircraft.check_combat_moves"],
     problems=[*STARTING, "path_too_short", "not_adjacent", "impassable", "land_unit_at_sea",
               "path_too_long", "noncombat_into_enemy", "must_stop_in_enemy",
               "combat_move_to_friendly", "air_range", "ship_on_land", "straits_closed",
               "canal_closed", "canal_not_granted", "sub_stopped_by_anti_sub", "must_stop_in_hostile_zone",
               "noncombat_into_hostile_zone", "moves_only_noncombat", "captured_this_turn",
               "blitz_not_first", "blitz_blocked", "blitz_blocked_by_factory",
               "air_no_battle", "ship_no_battle", "attack_without_attack_value", "air_no_landing", "air_cannot_land_there",
               "carrier_duty_unmet"],
     report="combat_move")(build_movement("move"))(write_move)
