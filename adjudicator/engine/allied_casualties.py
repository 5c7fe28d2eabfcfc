"""The Allies' casualty choice against a German submarine (Axis & Allies Europe, digest
§4.2 "German sub vs Allied ships" [L793, L801], §8 #12): rule ``allied_ships_share_sub_hits``.

When an Ally attacks in a sea zone where ships of its allies also stand, a hit that an
enemy submarine scores may be taken by any of those ships, though they are not in the
battle: the Allies choose together among all their ships in the zone.  The ships join the
attacker's side as casualty-only units (``combat.model.BattleUnit.casualty_only``): they
never fire, never retreat and do not keep the battle going; only hits whose target class
carries ``NO_AIR`` (the hits of units that cannot hit aircraft: submarines) may fall on
them.  The attacker's loss order names them like its own units (``losses trn, bb``).
"""

from __future__ import annotations

from ..model.units import Domain
from .combat.board import NO_AIR
from .turn_rules import Rule, register_rule


@register_rule
class AlliedShipsShareSubHits(Rule):
    name = "allied_ships_share_sub_hits"
    doc = "Any Allied ship in the zone may take a hit an enemy submarine scores on the attacker."

    def casualty_pool(self, ctx, space, side, fighting):
        board = ctx.board
        if side != "attacker" or not board.map[space].is_sea:
            return []
        ids = {p.uid for p in fighting}
        return [(p, NO_AIR) for p in board.at(space)
                if p.uid not in ids and p.owner != ctx.power and board.allied(ctx.power, p.owner)
                and board.utype(p).domain == Domain.SEA]
