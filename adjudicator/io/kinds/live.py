"""``live 34``: the board battle of this turn's attack on area 34 is played live by mail
(issue 26, Taktyczne Starcie): the turn pauses there and each battle turn is a turn file
of its own (``board`` lines).

Its grammar fragment is here (``LIVE_GRAMMAR``, covered by the rules hash as a plug-in's
is); model ``model.live_battle.LiveOrder``; issued by the mover; read by
``engine.taktyczne.live_turn.wants_live`` when the battle starts; the battle's events are
in the report's other events.
"""

from __future__ import annotations

from .base import PURCHASE, kind, place_syntax

LIVE_GRAMMAR = """
live: LIVE_VERB _COLON? name
LIVE_VERB.3: /live\\b/i
"""


build_live, write_live = place_syntax("live", "LiveOrder")

kind("live", ["LIVE_VERB"], ["live"], "live 23", {"WORD", "INT", "_COLON", "$END"}, PURCHASE,
     grammar=LIVE_GRAMMAR, model="LiveOrder",
     engine=["taktyczne.live_turn.wants_live", "taktyczne.live_turn.LiveBattles.at_step"],
     problems=["live_not_attacked"],
     report="other events")(build_live)(write_live)
