"""``nmr 2025-03-04T12:00Z``: the game master's statement that no orders came by the
deadline; the turn is played with no purchase and no moves, income is collected.

Grammar ``grammar/kinds/nmr.lark``; model ``model.orders.Nmr``; issued by the game master,
alone on the turn; checked and announced by ``engine.statements``; shown in the report's
heading.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model import orders
from .base import GAME_MASTER, PURCHASE, kind, tokens_of

if TYPE_CHECKING:
    from ...model.orders import Nmr
    from lark import Tree


def build_nmr(b, line, tree: Tree) -> None:
    stamp = next((t.value for t in tokens_of(tree) if t.type == "NMR_DEADLINE"), "")
    b.add(orders.Nmr(stamp, line.number))


def write_nmr(order: Nmr, names) -> str:
    return f"nmr {order.deadline}" if order.deadline else "nmr"


kind("nmr", ["NMR"], ["nmr"], "nmr 2025-03-04T12:00Z", {"NMR_DEADLINE", "$END"}, PURCHASE,
     model="Nmr", issuer=GAME_MASTER,
     engine=["statements.check_statements", "statements.announce_statements"],
     problems=["nmr_with_orders"],
     report="heading")(build_nmr)(write_nmr)
