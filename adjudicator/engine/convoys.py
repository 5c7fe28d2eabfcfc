"""Convoy centers (Axis & Allies Europe, digest §5.4.5 [L621-L647]): sea zones with an owner
and a value (``owner`` and ``ipc`` in map.toml, tag ``convoy_center``).

* Income item ``convoy_centers``: each power collects the value of its own convoy centers
  that it still holds; a center the enemy holds pays nobody (the taker gains nothing
  [L643]); tag ``convoy_cut_by:<territory>`` makes a center worthless while its owner does
  not hold that territory (the Soviet convoy and Archangel [L641]).
* Rule ``convoy_capture``: a submarine or a ship with an attack value (never a transport
  alone, never aircraft [L503, L639]) that enters or passes an enemy-held center with no
  unit of its holder's side there in the combat move takes it (``on_enter``); an occupied
  one is taken by winning the sea battle there with such a ship left (``after_battle``;
  submerged defenders count as gone [L637]).  Taking a center an Ally owns liberates it:
  it goes back to its owner [L645] (``capture.take_territory``).
"""

from __future__ import annotations

import attrs

from ..model.units import Domain
from ..model.game import Game
from .capture import take_territory
from .income import IncomeContext, item
from .turn_rules import Rule, register_rule

CONVOY_TAG = "convoy_center"
CUT_BY = "convoy_cut_by:"


@attrs.frozen
class ConvoyCenter:
    zone: str
    owner: str
    ipc: int
    cut_by: str | None = None


def convoy_centers(game: Game) -> tuple[ConvoyCenter, ...]:
    """The map's convoy centers: sea zones tagged ``convoy_center`` with an owner."""
    out = []
    for zone in sorted(game.map.territories.values(), key=lambda t: t.key):
        if CONVOY_TAG in zone.tags and zone.is_sea and zone.original_owner:
            cut = next((t[len(CUT_BY):] for t in sorted(zone.tags) if t.startswith(CUT_BY)), None)
            out.append(ConvoyCenter(zone.key, zone.original_owner, zone.ipc, cut))
    return tuple(out)


@item("convoy_centers")
def convoy_income(inc: IncomeContext) -> int:
    """The values of ``power``'s own convoy centers it holds (a zone with no entry in
    ``owners`` is its owner's), less those cut off by the loss of their linked territory
    [L641, L643-L645]."""
    owners, power = inc.owners, inc.power
    return sum(c.ipc for c in convoy_centers(inc.game)
               if c.owner == power and owners.get(c.zone, power) == power
               and (c.cut_by is None or owners.get(c.cut_by) == power))


def is_convoy(board, space: str) -> bool:
    t = board.map[space]
    return t.is_sea and CONVOY_TAG in t.tags


def _raiders(board, pieces) -> list:
    """The pieces that can take a convoy center: ships with an attack value (subs too)."""
    return [p for p in pieces if p.uid in board.pieces and board.utype(p).domain == Domain.SEA
            and board.utype(p).attack > 0 and p.carried_by is None]


@register_rule
class ConvoyCapture(Rule):
    name = "convoy_capture"
    doc = ("A sub or a ship with an attack value takes an enemy-held convoy center by entering "
           "or passing it empty in the combat move, or by winning the sea battle there.")

    def on_enter(self, ctx, pieces, space, path, phase):
        board = ctx.board
        if phase != "combat" or not is_convoy(board, space) or not _raiders(board, pieces):
            return
        holder = board.owners.get(space)
        if holder is None or not board.enemy_of(ctx.power, holder):
            return
        if any(not board.enemy_of(ctx.power, p.owner) for p in board.at(space)
               if p.owner != ctx.power):
            return
        if any(board.enemy_of(ctx.power, p.owner) for p in board.at(space)):
            return                 # occupied: the battle decides (after_battle)
        take_territory(ctx, space)

    def after_battle(self, ctx, space, outcome):
        board = ctx.board
        if outcome != "attacker_wins" or not is_convoy(board, space):
            return
        holder = board.owners.get(space)
        if holder is None or not board.enemy_of(ctx.power, holder):
            return
        # the attacker won: any enemy left there is a submerged sub, which does not count
        if _raiders(board, [p for p in board.at(space) if p.owner == ctx.power]):
            take_territory(ctx, space)
