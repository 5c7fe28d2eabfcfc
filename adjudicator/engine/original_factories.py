"""Unlimited placement at a power's original factories (Axis & Allies Europe, digest §5.6
[L679, L721]): rule ``original_factories``.  A factory in a territory tagged
``original_factory`` that its original owner holds places any number of units; a captured
one places up to the territory's value (the factories' own capacity)."""

from __future__ import annotations

from .turn_rules import Rule, register_rule

ORIGINAL_FACTORY = "original_factory"
UNLIMITED = 10**6


@register_rule
class OriginalFactories(Rule):
    name = "original_factories"
    doc = "Factories a power owned from the start place any number of units."

    def placement_capacity(self, ctx, space, owner, origin, unit_type, base):
        if origin == owner and ORIGINAL_FACTORY in ctx.board.map[space].tags:
            return UNLIMITED
        return base
