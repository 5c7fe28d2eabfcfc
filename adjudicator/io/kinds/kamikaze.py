"""``kamikaze all: 2``: how many of Japan's kamikaze tokens strike in a kamikaze zone
attacked in, or assaulted from (Global 1940 [L820-L826]), and ``kamikaze SZ 6: 2 on
carrier`` at which ship, a standing order of the engine's standing kind ``kamikaze``
(default 0).

Its grammar fragment is here (``KAMIKAZE_GRAMMAR``, covered by the rules hash as a plug-in's
is); model ``model.orders.KamikazeOrder``; issued by a power for the turns of others; its value
checked by ``engine.turn_rules.check_standing_choices``, read by ``engine.kamikaze``; shown in
the report's standing orders section.
"""

from __future__ import annotations

from ...model import orders
from .base import STANDING, STANDING_ISSUER, kind, standing_syntax, standing_target

KAMIKAZE_GRAMMAR = """
kamikaze: KAMIKAZE name _COLON name
KAMIKAZE.2: /kamikaze\\b/i
"""

_build, write_kamikaze = standing_syntax("kamikaze", "KamikazeOrder")


def build_kamikaze(b, line, tree) -> None:
    """``kamikaze SZ 6: 2 on carriers``: the ship's name is read as a unit type (its key
    kept, so the canonical text is ``2 on carrier``)."""
    words = tree.children[2].children
    if len(words) > 2 and words[1].value.casefold() == "on":
        key = b.resolve(line, "unit", words[2:])
        if key is None:
            return
        known, space = standing_target(b, line, tree.children[1])
        if known:
            value = f"{words[0].value} on {key}"
            b.merge("kamikaze", space, lambda old: orders.KamikazeOrder("kamikaze", space, value, line.number))
        return
    _build(b, line, tree)

kind("kamikaze", ["KAMIKAZE"], ["kamikaze"], "kamikaze all: 2",
     {"WORD", "INT", "_COLON", "$END"}, STANDING, grammar=KAMIKAZE_GRAMMAR,
     model="KamikazeOrder", issuer=STANDING_ISSUER,
     engine=["turn_rules.check_standing_choices", "kamikaze.fight_kamikaze"],
     problems=["standing_unknown", "kamikaze_bad_value", "kamikaze_not_warship"],
     report="standing orders")(build_kamikaze)(write_kamikaze)
