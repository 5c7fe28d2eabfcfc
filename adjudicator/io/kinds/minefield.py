"""``minefield 22: sha256_<hex>`` / ``minefield all: …`` / ``minefield 22: none``: a power's
sealed layout of its board mines in the battles of one area or of all its areas
(Taktyczne Starcie, docs/taktyczne-mines.md), a standing order of the engine's standing
kind ``minefield`` (default ``none``: the formation's public mine squares).  The value is a
commitment only (``model.mine_seal``); ``pbem mines seal`` writes the line and keeps the
squares in the owner's ``.secret/``.

Its grammar fragment is here (``MINEFIELD_GRAMMAR``); model
``model.mine_orders.MinefieldOrder``; issued by a power for the turns of others; its value
checked by ``engine.turn_rules.check_standing_choices`` with
``engine.taktyczne.mines.check_minefield``, read by ``engine.taktyczne.mines.unseal``;
shown in the report's standing orders section.
"""

from __future__ import annotations

from .base import STANDING, STANDING_ISSUER, kind, standing_syntax

MINEFIELD_GRAMMAR = """
minefield: MINEFIELD name _COLON name
MINEFIELD.2: /(sealed\\s+)?mine\\s*fields?\\b/i
"""

build_minefield, write_minefield = standing_syntax("minefield", "MinefieldOrder")

kind("minefield", ["MINEFIELD"], ["minefield"],
     "minefield 22: sha256_5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8",
     {"WORD", "INT", "_COLON", "$END"}, STANDING, grammar=MINEFIELD_GRAMMAR,
     model="MinefieldOrder", issuer=STANDING_ISSUER,
     engine=["turn_rules.check_standing_choices", "taktyczne.mines.check_minefield",
             "taktyczne.mines.unseal"],
     problems=["standing_unknown", "ts_minefield_value"],
     report="standing orders")(build_minefield)(write_minefield)
