"""``keep 4``: an Ally keeps part of its side's pre-game special cash for its turn 1
(Europe 1999 [L250-L251], §9.1).

Its grammar fragment is here (``KEEP_GRAMMAR``, covered by the rules hash as a plug-in's
is); model ``model.orders.Keep``; issued by the mover in the pre-game round (round 0),
under 'purchase:'; checked and carried out by the rule ``engine.special_cash``; its
``SpecialCashKept`` event is in the report's other events.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model import orders
from .base import PURCHASE, kind, tokens_of

if TYPE_CHECKING:
    from ...model.orders import Keep
    from lark import Tree

KEEP_GRAMMAR = """
keep: KEEP _COLON? INT MONEY?
KEEP.2: /keep\\b/i
"""


def build_keep(b, line, tree: Tree) -> None:
    amount = next(t for t in tokens_of(tree) if t.type == "INT")
    b.add(orders.Keep(int(amount.value), line.number))


def write_keep(order: Keep, names) -> str:
    return f"keep {order.amount}"


kind("keep", ["KEEP"], ["keep"], "keep 4", {"INT", "MONEY", "_COLON", "$END"}, PURCHASE,
     grammar=KEEP_GRAMMAR, model="Keep",
     engine=["special_cash.SpecialCash.at_step"],
     problems=["special_cash_keep_too_much", "keep_not_in_pregame"],
     report="other events")(build_keep)(write_keep)
