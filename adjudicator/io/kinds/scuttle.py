"""``scuttle 23``: Taktyczne Starcie's attacker destroys the empty ferries and carriers he
takes in an area this turn instead of capturing them (L19.43, L27.16, L27.30-L27.31).

Its grammar fragment is here (``SCUTTLE_GRAMMAR``, covered by the rules hash as a plug-in's
is); model ``model.orders.ScuttleOrder``; issued by the power whose turn it is; read by
the main turn (``engine.taktyczne.main_turn``: ``settle_main_map``, and ``scuttle_unused``
after the last order); what it destroyed is in the report's other events.
"""

from __future__ import annotations

from .base import COMBAT, MOVER, kind, place_syntax

SCUTTLE_GRAMMAR = """
scuttle: SCUTTLE name
SCUTTLE.4: /(scuttle|sink\\s+captured|destroy\\s+captured)(\\s+(in|at))?\\b/i
"""


build_scuttle, write_scuttle = place_syntax("scuttle", "ScuttleOrder")

kind("scuttle", ["SCUTTLE"], ["scuttle"], "scuttle 34", {"WORD", "INT", "$END"}, COMBAT,
     grammar=SCUTTLE_GRAMMAR, model="ScuttleOrder", issuer=MOVER,
     engine=["taktyczne.main_turn.settle_main_map", "taktyczne.main_turn.scuttle_unused"],
     problems=["ts_scuttle_unused"], report="other events")(build_scuttle)(write_scuttle)
