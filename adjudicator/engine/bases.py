"""Air and naval bases (Global 1940 digest §5.6, seed 004 [L999, L1269-L1299]).

A base is a unit with the ability ``base = {serves = "air" | "sea", bonus = 1, repairs =
false}``.  The rule ``bases`` reads them:

* ``move_bonus``: an aircraft that starts its turn in a territory with an operative air base
  of its own side, or a ship that starts in a sea zone next to a territory with an
  operative naval base of its side, moves ``bonus`` further (planes on a carrier beside an
  air base do not: they start at sea);
* ``may_enter``: aircraft aboard a damaged carrier do not take off (the carrier lands none:
  ``WorkingBoard.can_carry``; in a battle they are its cargo: ``battles.grounded``);
* ``at_step`` (end of the purchase step, after the repairs of facilities): a naval base
  with ``repairs`` repairs, free, the damaged ``two_hits`` units of the phasing power in
  the zones next to it (``RepairedAtBase``).

A base is operative while its damage is below the option ``base_inoperative_damage``
(default 3) and it was not captured this turn (the captor and its allies use it from
their next turn)."""

from __future__ import annotations

from ..model.events import RepairedAtBase
from ..model.units import Domain
from .abilities.base import Ability, register
from .politics import neutral_here
from .turn_rules import Rule, register_rule
from .working import count_types


@register
class Base(Ability):
    name = "base"
    doc = ("An air or naval base: +bonus move for aircraft starting in its territory (air) or "
           "ships starting next to it (sea); a naval base may repair capital ships free; an air "
           "base lets up to ``scramble`` aircraft scramble (engine.scramble); raids damage it "
           "up to ``max_damage`` (engine.facility_raids).")
    params = {"serves": (str, "air"), "bonus": (int, 1), "repairs": (bool, False),
              "scramble": (int, 0), "max_damage": (int, 0)}

    def check(self, unit, params):
        if params.get("serves") not in ("air", "sea"):
            return [f"base: serves must be 'air' or 'sea', not {params.get('serves')!r}"]
        return []


def operative(board, base) -> bool:
    """A base usable now: damage below the edition's threshold, not captured this turn."""
    return (base.damage < int(board.rules.option("base_inoperative_damage", 3))
            and not base.captured)


def serving_bases(board, space: str, serves: str, power: str) -> list:
    """Operative bases of ``power``'s side serving ``space``: for "air" the bases in the
    territory itself, for "sea" those in the territories next to the sea zone; another
    nation's naval base serves no neutral power, and a neutral power's serves no other
    nation (Global 1940 [L743]; ``politics.neutral_here``: every power is at war in the
    editions without politics)."""
    if serves == "air":
        lands = [space] if board.map[space].is_land else []
    else:
        lands = [n for n in sorted(board.map.neighbours(space)) if board.map[n].is_land] \
            if board.map[space].is_sea else []
    found = []
    for land in lands:
        for p in board.at(land):
            ut = board.utype(p)
            if ut.has("base") and ut.param("base", "serves", "air") == serves \
                    and board.allied(p.owner, power) and operative(board, p) \
                    and not (serves == "sea" and p.owner != power and p.owner in board.rules.powers
                             and (neutral_here(board, power, land)
                                  or neutral_here(board, p.owner, land))):
                found.append(p)
    return found


@register_rule
class Bases(Rule):
    name = "bases"
    doc = "Air and naval bases: +1 move from an operative base; free repair at a naval base."

    def move_bonus(self, board, piece, phase):
        domain = board.utype(piece).domain
        serves = {Domain.AIR: "air", Domain.SEA: "sea"}.get(domain)
        if serves is None:
            return 0
        start = piece.start_space or piece.space
        bases = serving_bases(board, start, serves, piece.owner)
        return max((board.utype(b).param("base", "bonus", 1) for b in bases), default=0)

    def may_enter(self, ctx, piece, space, path, phase):
        """Aircraft aboard a damaged carrier do not take off [L1540-L1560]."""
        if piece.carried_by is None or ctx.board.utype(piece).domain != Domain.AIR:
            return None
        carrier = ctx.board.pieces.get(piece.carried_by)
        return "carrier_damaged" if carrier is not None and carrier.damage else None

    def at_step(self, ctx, point, step):
        if point != "end" or step != "purchase":
            return
        board, power = ctx.board, ctx.power
        fixed: dict[str, list] = {}
        damaged = [p for p in board.pieces.values()          # few: filtered before sorting
                   if p.damage and p.owner == power and p.carried_by is None]
        for p in sorted(damaged, key=lambda p: p.uid):
            if not board.utype(p).has("two_hits") or not board.map[p.space].is_sea:
                continue
            if any(board.utype(b).param("base", "repairs", False)
                   for b in serving_bases(board, p.space, "sea", p.owner)):
                p.damage = 0
                fixed.setdefault(p.space, []).append(p)
        for space, pieces in sorted(fixed.items()):
            ctx.emit(RepairedAtBase(space, ctx.power, count_types(pieces)))
