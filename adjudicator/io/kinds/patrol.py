"""``patrol all: always`` / ``patrol 23: bombers`` / ``patrol S05: never``: whether a power's
fighters based in an area fire at enemy aircraft flying over it (Taktyczne Starcie,
L23.44-L23.46, L23.62), a standing order of the engine's standing kind ``patrol`` (default
always; ``bombers``: at bombers only).  AA guns always fire (L23.61): no order.

Its grammar fragment is here (``PATROL_GRAMMAR``); model ``model.orders.PatrolOrder``;
issued by a power for the turns of others; its value checked by
``engine.turn_rules.check_standing_choices``, read by ``engine.taktyczne.air.fly``; shown in
the report's standing orders section.
"""

from __future__ import annotations

from .base import STANDING, STANDING_ISSUER, kind, standing_syntax

PATROL_GRAMMAR = """
patrol: PATROL name _COLON name
PATROL.2: /patrol\\b/i
"""

build_patrol, write_patrol = standing_syntax("patrol", "PatrolOrder")

kind("patrol", ["PATROL"], ["patrol"], "patrol all: bombers",
     {"WORD", "INT", "_COLON", "$END"}, STANDING, grammar=PATROL_GRAMMAR,
     model="PatrolOrder", issuer=STANDING_ISSUER,
     engine=["turn_rules.check_standing_choices", "taktyczne.air.fly"],
     problems=["standing_unknown", "standing_bad_value"],
     report="standing orders")(build_patrol)(write_patrol)
