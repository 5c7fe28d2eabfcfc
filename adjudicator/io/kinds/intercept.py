"""``intercept <space|all>: yes|no``: whether the power's fighters intercept raids (Europe
1999 [L601]), a standing order of the engine's standing kind ``intercept`` (default yes).

Its grammar fragment is here (``INTERCEPT_GRAMMAR``, covered by the rules hash as a
plug-in's is); model ``model.orders.InterceptOrder``; issued by a power for the turns of
others; its value checked by ``engine.turn_rules.check_standing_choices``, read by
``engine.escorted_raids`` (``RaidInterceptors``); shown in the report's standing orders
section.
"""

from __future__ import annotations

from .base import STANDING, STANDING_ISSUER, kind, standing_syntax

INTERCEPT_GRAMMAR = """
intercept: INTERCEPT name _COLON name
INTERCEPT.2: /intercept\\b/i
"""


build_intercept, write_intercept = standing_syntax("intercept", "InterceptOrder")

kind("intercept", ["INTERCEPT"], ["intercept"], "intercept all: no",
     {"WORD", "INT", "_COLON", "$END"}, STANDING, grammar=INTERCEPT_GRAMMAR,
     model="InterceptOrder", issuer=STANDING_ISSUER,
     engine=["turn_rules.check_standing_choices", "escorted_raids.RaidInterceptors"],
     problems=["standing_unknown", "standing_bad_value"],
     report="standing orders")(build_intercept)(write_intercept)
