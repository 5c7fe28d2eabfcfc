"""``board T1 -> C4a C5a, fire at t9 2 shots, then C6a``: one unit's action in a live
board battle's battle turn (issue 26, Taktyczne Starcie's live-by-mail mode).

Its grammar fragment is here (``BOARD_GRAMMAR``, covered by the rules hash as a plug-in's
is); model ``model.live_battle.BoardAction``; issued by the power whose battle turn it is;
checked and played by ``engine.taktyczne.live``; its board events are in the report's
other events.  The unit is its id on the board, squares are whole-board names (``C4a``:
the attacker's row 4, ``C7d``: the defender's row 7), the moves before the shot after the
arrow, those after it after ``then``; ``fire at <unit>`` optionally with the number of
shots (at most the unit's rank; all of them when not given).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model import orders
from .base import PURCHASE, is_tree, kind, tokens_of

if TYPE_CHECKING:
    from ...model.orders import BoardAction
    from lark import Tree

BOARD_GRAMMAR = """
board: BOARD_VERB WORD _COLON? board_before? board_fire? board_after?
board_before: _ARROW board_squares
board_fire: _COMMA? BOARD_FIRE BOARD_AT? WORD (INT BOARD_SHOTS?)?
board_after: _COMMA? _THEN _ARROW? board_squares
board_squares: WORD+
BOARD_VERB.3: /board\\b/i
BOARD_FIRE.2: /(fire|fires|shoot|shoots)\\b/i
BOARD_AT.2: /at\\b/i
BOARD_SHOTS.2: /(shots?)\\b/i
"""


def _squares(tree: Tree) -> tuple[str, ...]:
    squares = next(c for c in tree.children if is_tree(c) and c.data == "board_squares")
    return tuple(t.value for t in tokens_of(squares))


def build_board(b, line, tree: Tree) -> None:
    piece = next(t.value for t in tokens_of(tree) if t.type == "WORD")
    before: tuple[str, ...] = ()
    after: tuple[str, ...] = ()
    target, shots = None, None
    for part in tree.children:
        if not is_tree(part):
            continue
        if part.data == "board_before":
            before = _squares(part)
        elif part.data == "board_after":
            after = _squares(part)
        elif part.data == "board_fire":
            words = [t for t in tokens_of(part) if t.type in ("WORD", "INT")]
            target = words[0].value
            if len(words) > 1:
                shots = min(int(words[1].value), 99)
    from ...model.live_battle import MAX_PATH      # with its classes: read a board line first
    if len(before) + len(after) > MAX_PATH:
        before, after = before[:MAX_PATH], after[:MAX_PATH]
    b.add(orders.BoardAction(piece, before, target, shots, after, line.number))


def write_board(order: BoardAction, names) -> str:
    text = f"board {order.piece}"
    if order.before:
        text += " -> " + " ".join(order.before)
    if order.target is not None:
        text += f", fire at {order.target}"
        if order.shots is not None:
            text += f" {order.shots} shot{'s' if order.shots != 1 else ''}"
    if order.after:
        text += ", then " + " ".join(order.after)
    return text


kind("board", ["BOARD_VERB"], ["board"], "board T1 -> C4a C5a, fire at t9 2 shots, then C6a",
     {"WORD", "INT", "_ARROW", "_COMMA", "_COLON", "_THEN", "BOARD_FIRE", "BOARD_AT",
      "BOARD_SHOTS", "$END"}, PURCHASE,
     grammar=BOARD_GRAMMAR, model="BoardAction",
     engine=["taktyczne.live.check_battle_turn", "taktyczne.live_turn.LiveBattles.pending_turn"],
     problems=["board_not_live", "board_live_order_repeated", "board_live_other_orders"],
     report="other events")(build_board)(write_board)
