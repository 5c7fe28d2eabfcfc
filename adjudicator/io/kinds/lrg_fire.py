"""``fire lrg 23 at 24: aa, tanks, factory``: Taktyczne Starcie's mover fires one long-range
gun standing in an area at the units or objects of another player in a bordering area, once
a turn, hitting on a 6 (L31.33-L31.37); the words after the colon are the target priority
(``io.target_words``: classes, unit types, object kinds), then the default.

Its grammar fragment is here (``LRG_FIRE_GRAMMAR``); model ``model.ts_gun_orders.LrgFireOrder``;
issued by the power whose turn it is; carried out in the written order among the moves by
``engine.taktyczne.main_turn`` (``guns.fire_order``); its shot is an ``LrgFired`` event of the
main turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model import orders
from .base import COMBAT, MOVER, is_tree, kind

if TYPE_CHECKING:
    from ...model.orders import LrgFireOrder
    from lark import Tree

LRG_FIRE_GRAMMAR = """
lrg_fire: LRG_FIRE name (_ARROW name)? (_COLON _lrg_fire_sep* name (_lrg_fire_sep+ name)* _lrg_fire_sep*)?
_lrg_fire_sep: _COMMA | _SEMICOLON | _AND | _THEN
LRG_FIRE.4: /(fire|shoot)\\s+(the\\s+|a\\s+|one\\s+)?(lrgs?|long[- ]range\\s+guns?)(\\s+(from|in))?\\b/i
"""


def read_priority(b, line, names: list) -> tuple[str, ...] | None:
    """The target words of ``names`` (each a run of words), or None after an error."""
    # Taktyczne Starcie's helpers, imported on first use: another edition's command loads none
    from ..target_words import read_targets
    if not names:
        return ()
    try:
        return read_targets([" ".join(t.value for t in n.children) for n in names])
    except ValueError as exc:
        b.error(line, names[0].children[0].column, str(exc))
        return None


_AT = ("at", "on", "into")


def build_lrg_fire(b, line, tree: Tree) -> None:
    names = [c for c in tree.children if is_tree(c)]
    where = names[0].children
    cut = next((i for i, t in enumerate(where) if 0 < i < len(where) - 1
                and t.value.casefold() in _AT), None)
    if cut is not None:               # 'fire lrg 23 at 24': a keyword after a name would
        gun, aim, rest = where[:cut], where[cut + 1:], names[1:]     # be reserved in every name
    elif len(names) > 1 and tree.children[2] is names[1]:
        gun, aim, rest = where, names[1].children, names[2:]         # 'fire lrg 23 -> 24'
    else:
        b.error(line, where[0].column, "fire lrg: say the gun's area and the target's: "
                "'fire lrg 23 at 24'", "fire lrg 23 at 24: aa, tanks")
        return
    space = b.resolve_place(line, gun)
    target = b.resolve_place(line, aim)
    priority = read_priority(b, line, rest)
    if space is None or target is None or priority is None:
        return
    b.add(orders.LrgFireOrder(space, target, priority, line.number))


def write_lrg_fire(order: LrgFireOrder, names) -> str:
    from ...model.ts_targets import priority_text
    text = f"fire lrg {order.space} at {order.target}"
    return f"{text}: {priority_text(order.priority)}" if order.priority else text


kind("lrg_fire", ["LRG_FIRE"], ["fire lrg", "shoot lrg"], "fire lrg 23 at 24: aa, tanks, factory",
     {"WORD", "INT", "_ARROW", "_COLON", "_COMMA", "_SEMICOLON", "_AND", "_THEN",
      "$END"}, COMBAT, grammar=LRG_FIRE_GRAMMAR, model="LrgFireOrder", issuer=MOVER,
     engine=["taktyczne.guns.fire_order", "taktyczne.guns.check_attackers"],
     problems=["ts_lrg_missing", "ts_lrg_not_bordering", "ts_lrg_no_target", "ts_lrg_fought",
               "ts_lrg_used"],
     report="ts_main_turn")(build_lrg_fire)(write_lrg_fire)
