"""``kamikaze all: 2``: how many of Japan's kamikaze tokens strike in a kamikaze zone
attacked in, or assaulted from (Global 1940 [L820-L826]), a standing order of the engine's
standing kind ``kamikaze`` (default 0).

Its grammar fragment is here (``KAMIKAZE_GRAMMAR``, covered by the rules hash as a plug-in's
is); model ``model.orders.KamikazeOrder``; issued by a power for the turns of others; its value
checked by ``engine.turn_rules.check_standing_choices``, read by ``engine.kamikaze``; shown in
the report's standing orders section.
"""

from __future__ import annotations

from ...model.orders import KamikazeOrder
from .base import STANDING, STANDING_ISSUER, kind, standing_syntax

KAMIKAZE_GRAMMAR = """
kamikaze: KAMIKAZE name _COLON name
KAMIKAZE.2: /kamikaze\\b/i
"""

build_kamikaze, write_kamikaze = standing_syntax("kamikaze", KamikazeOrder)

kind("kamikaze", ["KAMIKAZE"], ["kamikaze"], "kamikaze all: 2",
     {"WORD", "INT", "_COLON", "$END"}, STANDING, grammar=KAMIKAZE_GRAMMAR,
     model=KamikazeOrder, issuer=STANDING_ISSUER,
     engine=["turn_rules.check_standing_choices", "kamikaze.fight_kamikaze"],
     problems=["standing_unknown", "standing_bad_value"],
     report="standing orders")(build_kamikaze)(write_kamikaze)
