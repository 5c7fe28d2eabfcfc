"""Orders written without their verb, with the place first, or in prose, each read as the
order kind it means (grammar/core.lark: ``bare``, ``located``, ``attack``, ``place_all``).

* ``bare``: "3 inf Kar -> WR", "4 arm, 2 art", "2 inf Germany" take the verb of the section
  they are under (combat:/noncombat: move, purchase: buy, place: place);
* ``route``: "Karelia -> West Russia: 3 inf" is the same move, path first;
* ``located``: "Karelia: 3 inf -> West Russia" is a move from Karelia, "West Russia: 3 inf
  from Karelia, 1 tank Caucasus" moves to West Russia; under place: "Germany: 4 arm, 2 art"
  places them in Germany;
* ``attack``: "Attack West Russia with 3 inf from Karelia and 1 tank from Caucasus" is one
  combat move from each origin;
* ``landing``: "bmr lands Norway" flies aircraft on from where their attack went;
* ``place_all``: "place all in Russia" places everything bought this turn there (filled in
  when the whole file has been read: ``fill_place_all``).

Each shape hands its pieces to the kind's own reading (``io.kinds``), so a shape
accepts exactly what the verb it stands for accepts.
"""

from __future__ import annotations

from collections import Counter

from lark import Tree

from ..model.orders import Buy, Move, Phase, Place, UnitGroup
from .kinds.buy import buy_groups, is_cost
from .kinds.move import movement
from .kinds.place import place_groups

_MOVING = (Phase.COMBAT, Phase.NONCOMBAT)


def _parts(tree: Tree) -> dict[str, Tree]:
    return {c.data: c for c in tree.children if isinstance(c, Tree)}


def _start_column(line) -> int:
    return len(line.code) - len(line.code.lstrip()) + 1


def build_bare(b, line, tree: Tree) -> None:
    parts = _parts(tree)
    groups, path, cost = parts["groups"], parts.get("path"), parts.get("cost_note")
    section = b.section
    column = _start_column(line)
    if cost is not None and (section is not Phase.PURCHASE or path is not None):
        b.error(line, cost.meta.column, "a cost note ('= 24 IPC') belongs to a purchase")
        return
    if path is not None and section is Phase.PURCHASE and is_cost(line, path):
        path = None                                     # "8 inf - 24 IPC": a cost note
    if section in _MOVING:
        if path is None:
            b.error(line, groups.meta.end_column,
                    "say where the units go (example: '3 inf Karelia -> West Russia')")
            return
        movement(b, line, "move", column, groups, path, section)
    elif section is Phase.PURCHASE and path is None:
        buy_groups(b, line, groups)
    elif section is Phase.PLACE and path is None:
        place_groups(b, line, groups)
    elif section in (Phase.PURCHASE, Phase.PLACE):
        b.error(line, column, f"a move under '{section.value}:': put moves under 'combat:' "
                              "or 'noncombat:' (or start the line with 'move')")
    elif path is not None:
        b.error(line, column, "a move without a verb before any 'combat:' or 'noncombat:' "
                              "line: write 'move', or put it under 'combat:' or 'noncombat:'")
    else:
        b.error(line, column, "units without a verb: write 'buy' or 'place' in front, or put "
                              "the line under 'purchase:' or 'place:'")


def build_route(b, line, tree: Tree) -> None:
    """"Kar -> WR: 3 inf, 1 tank": the path first, the units after the colon."""
    start, path, groups = [c for c in tree.children if isinstance(c, Tree)]
    first = start.children[0]
    if len(start.children) != 1 or first.data != "group_nocount" or len(first.children) != 1:
        b.error(line, _start_column(line), "write the place the units start before '->' "
                                           "('Karelia -> West Russia: 3 inf')")
        return
    origin = b.resolve(line, "space", first.children[0].children)
    if origin is not None:
        movement(b, line, "move", _start_column(line), groups, path, b.section, origin)


def build_located(b, line, tree: Tree) -> None:
    lead, groups, *rest = [c for c in tree.children if isinstance(c, Tree)]
    path = rest[0] if rest else None
    section = b.section
    if path is not None:
        origin = b.resolve(line, "space", lead.children)
        if origin is not None:
            movement(b, line, "move", _start_column(line), groups, path, section, origin)
        return
    if section in _MOVING:                  # "West Russia: 3 inf from Karelia, 1 tank Cauc"
        trial = b.fork()
        if trial.segments(line, groups, "move") and not trial.errors:
            target = b.resolve(line, "space", lead.children)
            if target is not None:
                movement(b, line, "move", _start_column(line), groups, None, section,
                         target=target)
            return
    if section is Phase.PLACE:
        space = b.resolve(line, "space", lead.children)
        units = [b.unit_only(line, g, what="place") for g in groups.children]
        if space is not None and None not in units:
            kept = tuple(u for u in units if u.count)
            if kept:
                b.add(Place(kept, space, line.number))
        return
    b.error(line, _start_column(line),
            f"'{line.text(lead.children)}:' in front of units: write where they go "
            "('Karelia: 3 inf -> West Russia'), or put the line under 'place:' to place them "
            "there")


def build_attack(b, line, tree: Tree) -> None:
    verb, target_tree, *_with, groups = tree.children
    target = b.resolve_place(line, target_tree.children)      # "Attack on WR with ..."
    if target is None:
        return
    movement(b, line, "move", verb.column, groups, None, Phase.COMBAT, target=target)


def build_landing(b, line, tree: Tree) -> None:
    """"bmr lands Norway": a noncombat move of aircraft from where their combat move ended
    (the one place this file's combat moves took that unit type), by the shortest path."""
    groups, _lands, target_tree = tree.children
    target = b.resolve_place(line, target_tree.children)
    units = [b.unit_only(line, g, what="units") for g in groups.children]
    if target is None or None in units:
        return
    for unit in units:
        ends = {o.path[-1] for o in b.items if isinstance(o, Move) and o.phase is Phase.COMBAT
                and any(g.type == unit.type for g in o.units)}
        if len(ends) != 1:
            name = b.names.unit_name(unit.type, unit.count)
            b.error(line, _start_column(line), (
                f"no combat move above takes {name} anywhere" if not ends else
                f"{name} attacked {' and '.join(sorted(ends))}") +
                f": write where they fly from ('move 1 {unit.type} Karelia -> {target}')")
            continue
        path = _air_path(b.names.game.map, ends.pop(), target)
        if path is None:
            b.error(line, _start_column(line), f"no way to fly to {target}: write the path")
            continue
        b.add(Move(Phase.NONCOMBAT, (unit,), path, line.number))


def _air_path(board, start: str, target: str) -> tuple[str, ...] | None:
    """The shortest path over spaces that may be flown over (every space but impassable
    neutrals), first found in name order: what the reading shows the player."""
    before: dict[str, str | None] = {start: None}
    frontier = [start]
    while frontier and target not in before:
        following = []
        for here in frontier:
            for there in sorted(board.neighbours(here)):
                if there not in before and not board[there].impassable:
                    before[there] = here
                    following.append(there)
        frontier = following
    if target not in before:
        return None
    path = [target]
    while before[path[-1]] is not None:
        path.append(before[path[-1]])
    return tuple(reversed(path))


PLACE_ALL_MARK = "*"          # the unit type of a "place all" until the file is read


def build_place_all(b, line, tree: Tree) -> None:
    space = b.resolve_place(line, tree.children[-1].children)    # "place all in Russia"
    if space is not None:
        b.place_all.append(line)
        b.add(Place((UnitGroup(1, PLACE_ALL_MARK),), space, line.number))


def fill_place_all(b) -> None:
    """Replace the "place all" line with what was bought and not placed by another line
    (once the whole file is read: the purchase may come after it)."""
    if not b.place_all:
        return
    left: Counter[str] = Counter()
    for order in b.items:
        if isinstance(order, Buy):
            left.update({g.type: g.count for g in order.units})
        elif isinstance(order, Place) and order.units[0].type != PLACE_ALL_MARK:
            left.subtract({g.type: g.count for g in order.units})
    units = tuple(UnitGroup(n, key) for key, n in left.items() if n > 0)
    first, *others = b.place_all
    for line in others:
        b.error(line, _start_column(line), "'place all' twice: only one line can place "
                                           "everything that is left")
    if not units:
        b.error(first, _start_column(first), "'place all', but nothing bought is left to place")
    items = []
    for order in b.items:
        if isinstance(order, Place) and order.units[0].type == PLACE_ALL_MARK:
            if units and order.line == first.number:
                items.append(Place(units, order.space, order.line))
            continue
        items.append(order)
    b.items = items


SHAPES = {"bare": build_bare, "route": build_route, "located": build_located,
          "landing": build_landing, "attack": build_attack,
          "place_all": build_place_all}
