"""The package's order kinds, one module each, and the registry plug-ins use.

A kind's module holds all of it, as a godip order file does: its grammar fragment (the
rule named like the kind: ``grammar/kinds/<kind>.lark``, or a ``*_GRAMMAR`` string for the
kinds that came as Europe 1999's plug-ins), its model class (``model.orders``), its reading
(``build``) and canonical writing (``write``), its phase (``section``), who issues it, and
the names of what consumes it in the layers this one may not import: the engine functions
that check and carry it out, the problem codes they raise (worded in
``present/wording.py``) and the report section that shows it.
``tests/test_order_kinds_complete.py`` checks every registered kind against those.

Importing this package registers every kind below in ``KINDS`` (in this order); an
edition's plug-in registers its own with ``kind(...)`` (``io.order_kinds`` is the same
API under its older name).
"""

from __future__ import annotations

from . import (  # noqa: F401  (each module registers its kind)
    buy, repair, place, move, load, unload, battle, bomb, bombard, defend, intercept,
    middle_east, convert, keep, recruit, build, declare, liberation, scramble, kamikaze, canal,
    share, research, rocket, paratroop, nmr, concede, plan, defence_plan, board, live, scuttle,
    strike, air_defence, arm, launch, antimissile, patrol, evacuate,
    minefield, reveal,
)
from . import lrg_fire, lrg_react  # noqa: F401  (Taktyczne Starcie's long-range guns)
from .base import (
    COMBAT, GAME_MASTER, ISSUERS, KIND_GRAMMARS, KINDS, MOVER, NONCOMBAT, PHASE, PLACE,
    PURCHASE, STANDING, STANDING_ISSUER, UNIT_LINE, OrderSyntax, groups_text, kind, losses,
    losses_text, section_of, standing_syntax, standing_target, tokens_of, unit_text,
)

__all__ = [
    "COMBAT", "GAME_MASTER", "ISSUERS", "KIND_GRAMMARS", "KINDS", "MOVER", "NONCOMBAT", "PHASE",
    "PLACE", "PURCHASE", "STANDING", "STANDING_ISSUER", "UNIT_LINE", "OrderSyntax",
    "groups_text", "kind", "losses", "losses_text", "section_of", "standing_syntax",
    "standing_target", "tokens_of", "unit_text",
]
