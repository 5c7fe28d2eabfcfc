"""``reveal 22: F5 G5 H7 salt_<hex>``: the owner's reveal of the sealed mine layout a board
battle waits for (Taktyczne Starcie, docs/taktyczne-mines.md): the squares (own rows 4-10)
and the salt that open the commitment of its ``minefield`` line for that area (or
``all``).  ``pbem mines reveal`` writes it from the owner's ``.secret/``.

Its grammar fragment is here (``REVEAL_GRAMMAR``); model ``model.mine_orders.RevealOrder``;
issued by the power whose layout the paused turn waits for; checked against the
commitment and used by ``engine.taktyczne.mines.MineReveals.pending_turn``; shown in the
report's other events (``ts_mine_layout_revealed``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model import orders
from .base import PURCHASE, kind, standing_target

if TYPE_CHECKING:
    from ...model.orders import RevealOrder
    from lark import Tree

REVEAL_GRAMMAR = """
reveal: REVEAL_VERB name _COLON name
REVEAL_VERB.3: /reveal\\b/i
"""


def build_reveal(b, line, tree: Tree) -> None:
    # Taktyczne Starcie's helpers, imported on first use: another edition's command loads none
    from ...model.mine_seal import MAX_SQUARES, SALT_PREFIX
    known, space = standing_target(b, line, tree.children[1])
    if not known:
        return
    words = [t.value for t in tree.children[2].children][:MAX_SQUARES + 2]
    salt = ""
    squares = []
    for word in words:
        if word.casefold().startswith(SALT_PREFIX):
            salt = word[len(SALT_PREFIX):].casefold()
        else:
            squares.append(word.upper())
    b.add(orders.RevealOrder(space, tuple(squares), salt, line.number))


def write_reveal(order: RevealOrder, names) -> str:
    from ...model.mine_seal import SALT_PREFIX
    where = "all" if order.space is None else order.space
    return f"reveal {where}: {' '.join((*order.squares, SALT_PREFIX + order.salt))}"


kind("reveal", ["REVEAL_VERB"], ["reveal"],
     "reveal 22: F5 G5 salt_5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8",
     {"WORD", "INT", "_COLON", "$END"}, PURCHASE, grammar=REVEAL_GRAMMAR, model="RevealOrder",
     engine=["taktyczne.mines.MineReveals.pending_turn"],
     problems=["ts_reveal_not_wanted", "ts_reveal_scope", "ts_reveal_unreadable",
               "ts_reveal_wrong", "ts_reveal_missing", "ts_reveal_other_orders",
               "ts_reveal_wrong_power"],
     report="other events")(build_reveal)(write_reveal)
