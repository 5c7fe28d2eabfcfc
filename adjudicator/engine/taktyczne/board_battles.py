"""A main-map battle fought on the tactical board (L19.38, L31): the seam between the main
turn and ``engine.tactical``.  ``fight_board_battle`` plays the board by the two sides'
plans with the turn's dice and returns the ``BoardBattleFought`` event; the main turn
applies it (``main_turn``).  A live battle by mail (issue 26's ``t26live``) changes what
happens here, not in the main turn.

Checking orders (no dice), a battle is settled as in the 1941 engine's check: optimistically
for the attacker (he wins, loses nothing), so every later order is checked against the best
case, and orders that the real battle makes impossible are skipped when the turn is played.
"""

from __future__ import annotations

from collections.abc import Mapping

from ...model.tactical import (ATTACKER, DEFENDER, BattlePlan, BoardForce, BoardRules, GunsLost,
                               MineExploded, ShotFired)
from ...model.taktyczne import BoardBattleFought
from ..context import TurnContext
from ..errors import OrderFailed
from ..tactical.plan import fight
from . import plans
from .fought import battle_fought
from .live_turn import pause, wants_live
from .plans import plans_for

__all__ = ["board_rules", "board_forces", "fight_board_battle", "plans_for"]


def board_rules(ctx: TurnContext) -> BoardRules:
    """The edition's battle board (``plans.board_rules``); an order needing it fails
    without one."""
    rules = plans.board_rules(ctx)
    if rules is None:
        raise OrderFailed("ts_no_board")
    return rules


def board_forces(ctx: TurnContext, battle: str, sides: Mapping[str, list]) -> tuple[
        dict[str, BoardForce], dict[str, dict[str, int]]]:
    """Each side's force on the board (``side -> pieces``): the units whose type is a
    board kind of this battle, named ``a1, a2...`` / ``d1...`` in uid order, and the
    defender's mines of the battle's kind there (ruling G27: only the defender's); and the
    map from those names back to the main map's piece uids."""
    rules = board_rules(ctx)
    mine = rules.mines.get(battle)
    forces: dict[str, BoardForce] = {}
    names: dict[str, dict[str, int]] = {}
    for side, pieces in sides.items():
        units = []
        names[side] = {}
        mines = 0
        for piece in sorted(pieces, key=lambda p: p.uid):
            kind = rules.kinds.get(piece.type)
            if piece.type == mine and side == DEFENDER:
                mines += 1
            if kind is None or kind.battle != battle:
                continue
            name = f"{side[0]}{len(units) + 1}"
            units.append((name, piece.type))
            names[side][name] = piece.uid
        forces[side] = BoardForce(units=tuple(units), mines=mines)
    return forces, names


def mines_lost(event: BoardBattleFought) -> int:
    """How many of the defender's mines the battle used up: every one that went off
    (L31.52), and all of them when the attacker won (the area is his)."""
    laid = dict(event.forces).get(DEFENDER, BoardForce()).mines
    if event.winner == event.attacker:
        return laid
    return min(laid, sum(1 for ev in event.board_events
                         if isinstance(ev, MineExploded) and ev.side == DEFENDER))


def fight_board_battle(ctx: TurnContext, area: str, attacker: str, defender: str,
                       forces: Mapping[str, BoardForce],
                       plans: Mapping[str, BattlePlan]) -> BoardBattleFought:
    """Fight the board battle of ``area`` (land or sea by its terrain, L19.38) and say
    what happened; ``losses`` lists the unit types each power lost on the main map by it
    (a lost attack: every attacking unit, ruling G10)."""
    battle = "sea" if ctx.board.map[area].is_sea else "land"
    kinds = {side: dict(force.units) for side, force in forces.items()}
    if ctx.dice is None:                          # checking: the attacker's best case
        return BoardBattleFought(
            area=area, board=battle, attacker=attacker, defender=defender,
            forces=tuple(forces.items()), plans=tuple(plans.items()), board_events=(),
            winner=attacker, turns=0, losses=((attacker, ()), (defender, tuple(
                sorted(kinds.get(DEFENDER, {}).values())))))
    if wants_live(ctx, area):      # played live: the turn pauses (TurnPaused), unless the
        played = pause(ctx, board_rules(ctx), area, battle, attacker, defender,   # battle
                       dict(forces), dict(plans))                    # ended at deployment
    else:
        played = fight(board_rules(ctx), battle, forces, plans, ctx.dice)
    return battle_fought(area, battle, attacker, defender, forces, plans, played, played.events)


def survivors(event: BoardBattleFought, side: str) -> set[str]:
    """The board names of ``side``'s units on the board at the end, read from the event's
    board events (a live battle's event is read the same way): less every unit hit
    (L31.15), blown up by a mine (L31.52) or lost with its guns (L31.43).  Checking (no
    board events): the attacker's whole force, nothing of the defender's."""
    force = dict(event.forces).get(side, BoardForce())
    names = {pid for pid, _ in force.units}
    if not event.board_events:
        return names if side == ATTACKER else set()
    gone: set[str] = set()
    for ev in event.board_events:
        if isinstance(ev, ShotFired) and ev.hit:
            gone.add(ev.at)
        elif isinstance(ev, MineExploded):
            gone.add(ev.piece)
        elif isinstance(ev, GunsLost):
            gone.update(ev.pieces)
    return names - gone


