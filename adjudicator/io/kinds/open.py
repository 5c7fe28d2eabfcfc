"""``open 23: leaves G h<hex> …`` (7 leaves) and ``open 23: G5 mine salt_<hex>`` / ``… G6 empty
salt_<hex>``: the owner's openings of a square-by-square sealed mine layout in a live
battle (Taktyczne Starcie, docs/taktyczne-mines.md §3): the leaves of every column when
the battle starts, then only the squares the attacker's written paths enter.  ``pbem mines
reveal`` writes them from the owner's ``.secret/``.

Its grammar fragment is here (``OPEN_GRAMMAR``); model ``model.mine_orders.OpenOrder``;
issued by the power whose layout a live battle waits for; checked against the ``grid_``
commitment and its leaves by ``engine.taktyczne.sealed_live``; shown in the report's other
events (``ts_mine_leaves_published``, ``ts_mine_squares_opened``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model import orders
from .base import PURCHASE, kind, standing_target

if TYPE_CHECKING:
    from ...model.orders import OpenOrder
    from lark import Tree

OPEN_GRAMMAR = """
open: OPEN_VERB name _COLON name
OPEN_VERB.3: /open\\b/i
"""
LEAVES = "leaves"
LEAF_PREFIX = "h"          # a leaf is written h<64 hex> (a word, never a number; 7 fit a line)
MINED = {"mine": True, "empty": False}


def build_open(b, line, tree: Tree) -> None:
    # Taktyczne Starcie's helpers, imported on first use: another edition's command loads none
    from ...model.mine_grid import ROWS
    from ...model.mine_seal import SALT_PREFIX
    known, space = standing_target(b, line, tree.children[1])
    if not known:
        return
    words = [t.value for t in tree.children[2].children][:len(ROWS) + 3]
    if words and words[0].casefold() == LEAVES:
        column = words[1].upper() if len(words) > 1 else ""
        leaves = tuple(w.casefold().removeprefix(LEAF_PREFIX) for w in words[2:])
        b.add(orders.OpenOrder(space, column=column, leaves=leaves, line=line.number))
        return
    square = words[0].upper() if words else ""
    mined = MINED.get(words[1].casefold()) if len(words) > 1 else None
    salt = words[2].casefold() if len(words) > 2 else ""
    if salt.startswith(SALT_PREFIX):
        salt = salt[len(SALT_PREFIX):]
    b.add(orders.OpenOrder(space, square, mined, salt, line=line.number))


def leaves_line(where: str, column: str, leaves) -> str:
    """``open 23: leaves G h<hex> …``: one column's leaves (rows 4-10)."""
    return f"open {where}: {LEAVES} {column} {' '.join(LEAF_PREFIX + v for v in leaves)}"


def write_open(order: OpenOrder, names) -> str:
    from ...model.mine_seal import SALT_PREFIX
    where = "all" if order.space is None else order.space
    if order.column:
        return leaves_line(where, order.column, order.leaves)
    state = {True: "mine", False: "empty"}.get(order.mined, "?")
    return f"open {where}: {order.square} {state} {SALT_PREFIX}{order.salt}"


kind("open", ["OPEN_VERB"], ["open"],
     "open 23: G5 mine salt_5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8",
     {"WORD", "INT", "_COLON", "$END"}, PURCHASE, grammar=OPEN_GRAMMAR, model="OpenOrder",
     engine=["taktyczne.sealed_live.LayoutOpenings.pending_turn", "taktyczne.live_turn.own_squares"],
     problems=["ts_open_not_wanted", "ts_open_unreadable", "ts_open_wrong", "ts_open_missing",
               "ts_open_other_orders", "ts_open_wrong_power", "ts_open_own_mine"],
     report="other events")(build_open)(write_open)
