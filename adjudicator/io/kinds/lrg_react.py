"""``react lrg 23: fire at ferries, tanks`` / ``react lrg all: hold``: what a Taktyczne
Starcie power's long-range guns in an area (or everywhere) do in the turns of others when
that player's units enter an empty area in their range, a loaded ferry entering a sea before
it lands included (L31.38-L31.41): ``fire`` (at the target words after ``at``, then the
default) or ``hold``.  Without the order every gun fires by the default
(``engine.taktyczne.guns`` ``REACT_DEFAULT``: fire, loaded ferries first).

Its grammar fragment is here (``LRG_REACT_GRAMMAR``); model ``model.ts_gun_orders.LrgReactOrder``,
a standing order of the engine's standing kind ``lrg_react`` (value ``hold``, ``fire`` or
``fire at <words>``); issued by a power for the turns of others; checked by
``engine.turn_rules.check_standing_choices`` with ``engine.taktyczne.guns.check_react``; read
by ``guns.react`` (each shot an ``LrgReactionFired`` event naming the order); shown in the
report's standing orders section.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model import orders
from .base import STANDING, STANDING_ISSUER, is_tree, kind, standing_target

if TYPE_CHECKING:
    from ...model.orders import LrgReactOrder
    from lark import Tree

NAME = "lrg_react"

LRG_REACT_GRAMMAR = """
lrg_react: LRG_REACT name _COLON _lrg_react_sep* name (_lrg_react_sep+ name)* _lrg_react_sep*
_lrg_react_sep: _COMMA | _SEMICOLON | _AND | _THEN
LRG_REACT.4: /(react|reaction(\\s+fire)?)\\s+(with\\s+)?(the\\s+)?(lrgs?|long[- ]range\\s+guns?)(\\s+(in|at|from))?\\b/i
"""

_HOLD = ("hold", "hold fire", "never", "no", "none", "off")
_FIRE = ("fire", "always", "yes", "on", "shoot")


def react_value(phrases: list[str]) -> str:
    """The canonical value of the phrases after the colon: ``hold``, ``fire`` or ``fire at
    <words>``; ValueError when unreadable."""
    # Taktyczne Starcie's helpers, imported on first use: another edition's command loads none
    from ...model.ts_targets import priority_text
    from ..target_words import read_targets
    first = " ".join(phrases[0].casefold().split())
    if first in _HOLD:
        if len(phrases) > 1:
            raise ValueError("'hold' takes no targets: say 'hold' or 'fire at tanks, ferries'")
        return "hold"
    verb, _, rest = first.partition(" ")
    if verb not in _FIRE:
        raise ValueError(f"'{phrases[0].strip()}': say 'hold', 'fire' or 'fire at tanks, ferries'")
    rest = rest.removeprefix("at ").strip() if rest != "at" else ""
    words = read_targets([p for p in ([rest] if rest else []) + phrases[1:]])
    return f"fire at {priority_text(words)}" if words else "fire"


def build_lrg_react(b, line, tree: Tree) -> None:
    names = [c for c in tree.children if is_tree(c)]
    known, space = standing_target(b, line, names[0])
    try:
        value = react_value([" ".join(t.value for t in n.children) for n in names[1:]])
    except ValueError as exc:
        b.error(line, names[1].children[0].column, f"react lrg: {exc}")
        return
    if known:
        b.merge(NAME, space, lambda old: orders.LrgReactOrder(NAME, space, value, line.number),
                line.number)


def write_lrg_react(order: LrgReactOrder, names) -> str:
    return f"react lrg {'all' if order.space is None else order.space}: {order.value}"


kind(NAME, ["LRG_REACT"], ["react lrg", "reaction fire"], "react lrg all: fire at ferries, tanks",
     {"WORD", "INT", "_COLON", "_COMMA", "_SEMICOLON", "_AND", "_THEN", "$END"}, STANDING,
     grammar=LRG_REACT_GRAMMAR, model="LrgReactOrder", issuer=STANDING_ISSUER,
     engine=["turn_rules.check_standing_choices", "taktyczne.guns.check_react",
             "taktyczne.guns.react"],
     problems=["standing_unknown", "ts_lrg_react_unreadable"],
     report="standing orders")(build_lrg_react)(write_lrg_react)
