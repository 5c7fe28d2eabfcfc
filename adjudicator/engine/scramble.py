"""Scramble (Global 1940 digest §6.3.6, seed 004 [L794-L806, L1275, L1406]): rule
``scramble``, ability ``scrambles`` and the standing order kind ``scramble``.

At the start of conduct combat (the end of the attacker's combat move, every attack
declared), each territory next to a sea zone where a sea battle will be fought or from which
an amphibious assault is launched, holding an operative air base (``engine.bases``) of a
power at war with the attacker, sends up to the base's ``scramble`` count (3) of its
aircraft able to (``scrambles``: fighters and tactical bombers) into that zone, when their
owner's standing order ``scramble <territory|all>: yes|no`` says yes (default: no).  The
best defenders go first; one territory sends at most that many in all, to the zones in the
order of the battles.  Scrambled aircraft defend there with their defence values, never
retreat, take part in no other battle that turn, and force a sea battle
(``battles.sea_battle_needed``: enemy aircraft at sea, not aboard a carrier).  After every
battle the survivors fly home, or, if it was captured, one space to a friendly territory or
an allied carrier, else they are lost (``battles.land_displaced_defenders`` reads the
``returning_air`` mechanic this rule fills)."""

from __future__ import annotations

from ..model.events import Scrambled
from .abilities.base import Ability, register
from .bases import serving_bases
from .battles import RETURNING_AIR, battle_order
from .turn_rules import Rule, declare_standing, register_rule, standing_choice
from .working import count_types

SCRAMBLE = declare_standing(
    "scramble", "no", ("yes", "no"),
    "Whether the power's fighters and tactical bombers at an operative air base scramble (up "
    "to 3 from a territory) into an adjacent sea zone under attack: 'scramble all: yes', "
    "'scramble Japan: no' (default: no).")


@register
class Scrambles(Ability):
    name = "scrambles"
    doc = "May scramble from an operative air base into an adjacent sea zone under attack."


@register_rule
class Scramble(Rule):
    name = "scramble"
    doc = "Defending aircraft scramble from air bases into adjacent sea zones under attack."

    def at_step(self, ctx, point, step):
        if point != "start" or step != "conduct_combat":
            return
        board = ctx.board
        sent: dict[str, int] = {}
        home = ctx.mechanic(RETURNING_AIR, dict)
        for zone in [space for space, kind in battle_order(ctx) if kind == "sea"]:
            for land in sorted(board.map.neighbours(zone)):
                owner = board.owners.get(land)
                if not board.map[land].is_land or not board.enemy_of(ctx.power, owner):
                    continue
                room = max((board.utype(b).param("base", "scramble", 0)
                            for b in serving_bases(board, land, "air", owner)
                            if b.owner == owner), default=0) - sent.get(land, 0)
                planes = sorted((p for p in board.at(land) if board.utype(p).has("scrambles")
                                 and board.enemy_of(ctx.power, p.owner)
                                 and standing_choice(ctx, p.owner, SCRAMBLE.name, land) == "yes"),
                                key=lambda p: (-board.utype(p).defense, p.uid))[:max(room, 0)]
                for p in planes:
                    p.space = zone
                    home[p.uid] = land
                sent[land] = sent.get(land, 0) + len(planes)
                for power in sorted({p.owner for p in planes}):
                    ctx.emit(Scrambled(power, land, zone,
                                       count_types([p for p in planes if p.owner == power])))
