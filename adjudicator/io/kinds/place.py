"""``place 3 inf Germany``: mobilize bought units.

Grammar ``grammar/kinds/place.lark``; model ``model.orders.Place``; issued by the mover in
the place phase; checked and carried out by ``engine.production.mobilize`` (a factory's own
rules: ``engine.abilities.factory``); shown in the report's mobilization section.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model import orders
from .base import PLACE, UNIT_LINE, groups_text, kind

if TYPE_CHECKING:
    from ...model.orders import Place
    from lark import Tree


def build_place(b, line, tree: Tree) -> None:
    place_groups(b, line, tree.children[-1])


def place_groups(b, line, groups: Tree) -> None:
    """Placements of ``groups``, each followed by its space ("2 inf Germany, 1 tank
    Italy"), or all in the space after the last."""
    for units, place in b.segments(line, groups, "place") or ():
        if units:
            b.add(orders.Place(units, place, line.number))


def write_place(order: Place, names) -> str:
    return f"place {groups_text(order.units, names)} {order.space}"


kind("place", ["PLACE"], ["place", "mobilize"], "place 3 inf Germany", UNIT_LINE, PLACE,
     model="Place", engine=["production.mobilize", "abilities.factory"],
     problems=["not_bought", "all_placed", "factory_at_sea", "ship_placed_on_land",
               "land_unit_placed_at_sea", "air_placed_at_sea", "no_carrier_room",
               "no_factory_here", "no_factory_adjacent", "factory_limit", "units_not_placed",
               "factory_not_held_since_start", "factory_territory_too_poor",
               "factory_already_there", "base_at_sea", "base_not_held_since_start",
               "base_already_there", "naval_base_inland"],
     report="mobilize")(build_place)(write_place)
