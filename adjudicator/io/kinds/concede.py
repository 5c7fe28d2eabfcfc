"""``concede``: the power's side gives the game up; the other side wins at the end of the
turn.

Grammar ``grammar/kinds/concede.lark``; model ``model.orders.Concede``; issued by the
mover, alone on the turn; checked and carried out by ``engine.statements``
(``check_statements``, ``conceded_to``); shown in the report's victory panel.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model import orders
from .base import MOVER, STANDING, kind

if TYPE_CHECKING:
    from ...model.orders import Concede
    from lark import Tree


def build_concede(b, line, tree: Tree) -> None:
    b.add(orders.Concede(line.number))


def write_concede(order: Concede, names) -> str:
    return "concede"


kind("concede", ["CONCEDE"], ["concede"], "concede", {"$END"}, STANDING,
     model="Concede", issuer=MOVER,
     engine=["statements.check_statements", "statements.conceded_to"],
     problems=["concede_with_orders", "concede_without_opponent"],
     report="victory")(build_concede)(write_concede)
