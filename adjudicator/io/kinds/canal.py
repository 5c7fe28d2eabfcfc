"""``canal Egypt: yes``: whether the power lets ships of a power of the other side that it
is not at war with pass a canal or strait it holds (Global 1940 [L312]: "you must ask it
for permission, which may be refused"), a standing order of the engine's standing kind
``canal`` (default no).

Its grammar fragment is here (``CANAL_GRAMMAR``, covered by the rules hash as a plug-in's
is); model ``model.orders.CanalOrder``; issued by a power for the turns of others; its value
checked by ``engine.turn_rules.check_standing_choices``, read by ``engine.movement``
(``canal_problem``) when a ship's path crosses the canal; shown in the report's standing
orders section.
"""

from __future__ import annotations

from .base import STANDING, STANDING_ISSUER, kind, standing_syntax

CANAL_GRAMMAR = """
canal: CANAL name _COLON name
CANAL.2: /canal\\b/i
"""

build_canal, write_canal = standing_syntax("canal", "CanalOrder")

kind("canal", ["CANAL"], ["canal"], "canal Egypt: yes",
     {"WORD", "INT", "_COLON", "$END"}, STANDING, grammar=CANAL_GRAMMAR,
     model="CanalOrder", issuer=STANDING_ISSUER,
     engine=["turn_rules.check_standing_choices", "movement.canal_problem"],
     problems=["standing_unknown", "standing_bad_value", "canal_not_granted"],
     report="standing orders")(build_canal)(write_canal)
