"""``build factory 44``, ``build shipyard 44 over S05``, ``build carrier S05``: Taktyczne
Starcie's objects and carriers, bought at the end of the turn (L19.16, L27.2-L27.8, L27.12).

Its grammar fragment is here (``BUILD_GRAMMAR``); model ``model.orders.Build``; issued by the
mover under 'place:' (the end of the turn); checked and carried out by
``engine.taktyczne.economy.build`` (step ``ts_build``, prices by
``engine.taktyczne.prices.object_price``); its ``ObjectBuilt`` event is in the report's other
events.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model import orders
from .base import PLACE, kind, name_trees, word_choice

if TYPE_CHECKING:
    from ...model.orders import Build
    from lark import Tree

BUILD_GRAMMAR = """
build: BUILD _COLON? WORD name (OVER name)?
BUILD.3: /(build|builds|construct)\\b/i
OVER.2: /(over|on)\\b/i
"""

OBJECT_WORDS = {"factory": "factory", "factories": "factory", "shipyard": "shipyard",
                "shipyards": "shipyard", "airfield": "airfield", "carrier": "carrier",
                "silo": "silo", "launcher": "launcher"}


def build_build(b, line, tree: Tree) -> None:
    what = word_choice(b, line, tree, OBJECT_WORDS, "something to build: factory, shipyard, "
                                                    "airfield, silo, launcher or carrier")
    if what is None:
        return
    names = name_trees(tree)
    space = b.resolve(line, "space", names[0].children)
    over = b.resolve(line, "space", names[1].children) if len(names) > 1 else ""
    if space is not None and over is not None:
        b.add(orders.Build(what, space, over, line.number))


def write_build(order: Build, names) -> str:
    return f"build {order.what} {order.space}" + (f" over {order.over}" if order.over else "")


kind("build", ["BUILD"], ["build"], "build shipyard 44 over S15", {"WORD", "INT", "OVER", "$END"},
     PLACE, grammar=BUILD_GRAMMAR, model="Build", engine=["taktyczne.economy.build"],
     problems=["ts_no_presence", "ts_no_coast", "ts_sea_occupied", "ts_too_expensive",
               "ts_no_shipyard", "ts_build_where"],
     report="ts_build")(build_build)(write_build)
