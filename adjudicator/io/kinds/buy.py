"""``buy 3 inf, 1 tank``: the purchase.

Grammar ``grammar/kinds/buy.lark`` (``BUY`` is a core word: "purchase:" sections); model
``model.orders.Buy``; issued by the mover in the purchase phase; checked and carried out by
``engine.production.purchase``; shown in the report's purchase section.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model import orders
from .base import KINDS, PURCHASE, UNIT_LINE, groups_text, kind, is_tree

if TYPE_CHECKING:
    from ...model.orders import Buy
    from lark import Tree

MONEY_WORDS = frozenset({"ipc", "ipcs", "pu", "pus"})     # grammar/core.lark MONEY


def is_cost(line, path: Tree) -> bool:
    """Whether what follows a '-' is a cost note ("24", "24 IPC"), not a place."""
    if len(path.children) != 1:
        return False
    tokens = path.children[0].children
    return tokens[0].type == "INT" and all(t.value.casefold() in MONEY_WORDS for t in tokens[1:])


def build_buy(b, line, tree: Tree) -> None:
    groups = next(c for c in tree.children if is_tree(c) and c.data == "groups")
    path = next((c for c in tree.children if is_tree(c) and c.data == "path"), None)
    if path is not None and not is_cost(line, path):
        b.error(line, path.meta.column, "a purchase goes nowhere: 'buy' takes units only "
                                        f"(example: '{KINDS['buy'].example}')")
        return
    buy_groups(b, line, groups)


def buy_groups(b, line, groups: Tree) -> None:
    """A purchase of ``groups`` (a cost note after them is the player's own arithmetic)."""
    units = [b.unit_only(line, g, what="buy") for g in groups.children]
    if None not in units:
        bought = tuple(u for u in units if u.count)          # "0 tank" buys nothing
        if bought:
            b.add(orders.Buy(bought, line.number))


def write_buy(order: Buy, names) -> str:
    return f"buy {groups_text(order.units, names)}"


kind("buy", ["BUY"], ["buy", "purchase"], "buy 3 inf, 1 tank", UNIT_LINE, PURCHASE,
     model="Buy", engine=["production.purchase"],
     problems=["capital_lost_no_purchase", "not_buyable", "purchase_too_expensive",
               "overbuying", "naval_overbuying", "overbuying_refunded",
               "naval_overbuying_refunded"],
     report="purchase")(build_buy)(write_buy)
