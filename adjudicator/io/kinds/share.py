"""``share all: no``: whether allies' units may board the power's transports and land on its
carriers (Global 1940 [L680, L1518]: sharing "only if the players involved agree"), a
standing order of the engine's standing kind ``share`` (default yes).

Its grammar fragment is here (``SHARE_GRAMMAR``, covered by the rules hash as a plug-in's
is); model ``model.orders.ShareOrder``; issued by a power for the turns of others; its value
checked by ``engine.turn_rules.check_standing_choices``, read by ``engine.sharing``
(``may_ride``) when an ally loads onto the power's transport or lands on its carrier; shown in
the report's standing orders section.
"""

from __future__ import annotations

from .base import STANDING, STANDING_ISSUER, kind, standing_syntax

SHARE_GRAMMAR = """
share: SHARE name _COLON name
SHARE.2: /share\\b/i
"""

build_share, write_share = standing_syntax("share", "ShareOrder")

kind("share", ["SHARE"], ["share"], "share all: no",
     {"WORD", "INT", "_COLON", "$END"}, STANDING, grammar=SHARE_GRAMMAR,
     model="ShareOrder", issuer=STANDING_ISSUER,
     engine=["turn_rules.check_standing_choices", "sharing.may_ride"],
     problems=["standing_unknown", "standing_bad_value"],
     report="standing orders")(build_share)(write_share)
