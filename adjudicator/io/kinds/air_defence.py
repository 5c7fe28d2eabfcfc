"""``air defence 34: target fighters and bombers; bombers hold`` / ``air defence all:
bombers bomb``: a Taktyczne Starcie power's standing order for the strikes and attacks on
its areas in other players' turns (one area, or ``all``), kept until replaced: the target
priority of its AA guns and fighters against a strike (words of ``io.target_words``), and
whether its bombers based in an attacked area bomb the attackers first (L23.77-L23.78).
Not said: bombers, then fighters, and the bombers bomb (``engine.taktyczne.air_strike``,
ruling defending_bombers).

Its grammar fragment is here (``AIR_DEFENCE_GRAMMAR``); model
``model.orders.AirDefenceOrder``, a standing order of the engine's standing kind
``air_defence`` (value ``model.ts_targets.air_defence_text``); checked by
``engine.turn_rules.check_standing_choices``; read by ``engine.taktyczne.air_strike``;
shown in the report's standing orders section.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model import orders
from .base import STANDING, STANDING_ISSUER, is_tree, kind, standing_target, tokens_of

if TYPE_CHECKING:
    from ...model.orders import AirDefenceOrder
    from lark import Tree

NAME = "air_defence"

AIR_DEFENCE_GRAMMAR = """
air_defence: AIR_DEFENCE name _COLON _air_defence_sep* name (_air_defence_sep+ name)* _air_defence_sep*
_air_defence_sep: _COMMA | _SEMICOLON | _AND
AIR_DEFENCE.3: /air[\\s_]+defen[cs]e(\\s+(for|in|at|on))?\\b/i
"""

# the bombers' words: whether they bomb (``ts_targets.BOMB``) or hold (``HOLD``)
_BOMBERS = {"bombers bomb": True, "bombers attack": True, "bomb": True,
            "bombers hold": False, "bombers stay": False, "no bombing": False, "hold": False}


def build_air_defence(b, line, tree: Tree) -> None:
    # Taktyczne Starcie's helpers, imported on first use: another edition's command loads none
    from ...model import ts_targets
    from ..target_words import read_targets
    names = [c for c in tree.children if is_tree(c)]
    known, space = standing_target(b, line, names[0])
    if not known:
        return
    phrases: list[str] = []
    bombers = ""
    for name in names[1:]:
        text = " ".join(t.value for t in tokens_of(name)).casefold()
        if text in _BOMBERS:
            bombers = ts_targets.BOMB if _BOMBERS[text] else ts_targets.HOLD
            continue
        if text.startswith(("target ", "targets ")):
            text = text.split(" ", 1)[1]
        phrases.append(text)
    try:
        priority = read_targets(phrases) if phrases else ()
    except ValueError as exc:
        b.error(line, names[1].children[0].column, f"air defence: {exc}")
        return
    value = ts_targets.air_defence_text(priority, bombers)
    if not value:
        b.error(line, names[0].children[0].column,
                "air defence: say targets or 'bombers bomb' / 'bombers hold'")
        return
    b.merge(NAME, space, lambda old: orders.AirDefenceOrder(NAME, space, value, line.number), line.number)


def write_air_defence(order: AirDefenceOrder, names) -> str:
    from ...model.ts_targets import read_air_defence
    try:
        priority, bombers = read_air_defence(order.value)
    except ValueError:
        return f"air defence {'all' if order.space is None else order.space}: {order.value}"
    parts = []
    if priority:
        parts.append("target " + " and ".join(priority))
    if bombers:
        parts.append(f"bombers {bombers}")
    return f"air defence {'all' if order.space is None else order.space}: " + "; ".join(parts)


kind(NAME, ["AIR_DEFENCE"], ["air defence", "air defense"],
     "air defence all: target fighters and bombers; bombers hold",
     {"WORD", "INT", "_COLON", "_COMMA", "_SEMICOLON", "_AND", "$END"}, STANDING,
     grammar=AIR_DEFENCE_GRAMMAR, model="AirDefenceOrder", issuer=STANDING_ISSUER,
     engine=["turn_rules.check_standing_choices", "taktyczne.air_strike.air_defence"],
     problems=["standing_unknown", "ts_air_defence_unreadable"],
     report="standing orders")(build_air_defence)(write_air_defence)
