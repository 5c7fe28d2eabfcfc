"""``antimissile all: reach``: when the power's armed anti-missile launcher fires at
another player's nuclear missile (Taktyczne Starcie, L19.66-L19.68, ruling G25), a standing
order of the engine's standing kind ``antimissile``: ``own`` (only at a missile aimed at one
of its areas, L19.67), ``reach`` (also at one whose blast would reach its areas, L19.68:
the default), ``never`` (G25: the owner may decline); for one target area or ``all``.

Its grammar fragment is here (``ANTIMISSILE_GRAMMAR``); model
``model.orders.AntimissileOrder``; issued by a power for the turns of others; its value
checked by ``engine.turn_rules.check_standing_choices``, read by
``engine.taktyczne.nuclear.intercepted``; shown in the report's standing orders section.
"""

from __future__ import annotations

from .base import STANDING, STANDING_ISSUER, kind, standing_syntax

ANTIMISSILE_GRAMMAR = """
antimissile: ANTIMISSILE name _COLON name
ANTIMISSILE.2: /anti-?missiles?\\b/i
"""

build_antimissile, write_antimissile = standing_syntax("antimissile", "AntimissileOrder")

kind("antimissile", ["ANTIMISSILE"], ["antimissile"], "antimissile all: own",
     {"WORD", "INT", "_COLON", "$END"}, STANDING, grammar=ANTIMISSILE_GRAMMAR,
     model="AntimissileOrder", issuer=STANDING_ISSUER,
     engine=["turn_rules.check_standing_choices", "taktyczne.nuclear.intercepted"],
     problems=["standing_unknown", "standing_bad_value"],
     report="standing orders")(build_antimissile)(write_antimissile)
