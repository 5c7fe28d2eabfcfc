"""``scramble all: yes``: whether the power's fighters and tactical bombers at an operative
air base scramble into an adjacent sea zone under attack (Global 1940 [L794-L806]), a
standing order of the engine's standing kind ``scramble`` (default no).

Its grammar fragment is here (``SCRAMBLE_GRAMMAR``, covered by the rules hash as a plug-in's
is); model ``model.orders.ScrambleOrder``; issued by a power for the turns of others; its value
checked by ``engine.turn_rules.check_standing_choices``, read by the rule ``scramble``
(``engine.scramble``); shown in the report's standing orders section.
"""

from __future__ import annotations

from .base import STANDING, STANDING_ISSUER, kind, standing_syntax

SCRAMBLE_GRAMMAR = """
scramble: SCRAMBLE name _COLON name
SCRAMBLE.2: /scramble\\b/i
"""

build_scramble, write_scramble = standing_syntax("scramble", "ScrambleOrder")

kind("scramble", ["SCRAMBLE"], ["scramble"], "scramble all: yes",
     {"WORD", "INT", "_COLON", "$END"}, STANDING, grammar=SCRAMBLE_GRAMMAR,
     model="ScrambleOrder", issuer=STANDING_ISSUER,
     engine=["turn_rules.check_standing_choices", "scramble.Scramble"],
     problems=["standing_unknown", "standing_bad_value"],
     report="standing orders")(build_scramble)(write_scramble)
