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
                               MineExploded, PieceDeployed, PieceMoved, ShotFired)
from ...model.taktyczne import BoardBattleFought
from ..context import TurnContext
from ..errors import OrderFailed
from ..tactical.plan import fight
from .plans import plans_for

__all__ = ["board_rules", "board_forces", "fight_board_battle", "plans_for"]


def board_rules(ctx: TurnContext) -> BoardRules:
    """The edition's battle board (``maps/<edition>/board.toml``, in ``Game.tables``)."""
    rules = ctx.game.tables.get("board")
    if rules is None:
        raise OrderFailed("ts_no_board")
    return rules


def board_forces(ctx: TurnContext, battle: str, sides: Mapping[str, list]) -> tuple[
        dict[str, BoardForce], dict[str, dict[str, int]]]:
    """Each side's force on the board (``side -> pieces``): the units whose type is a
    board kind of this battle, named ``a1, a2...`` / ``d1...`` in uid order; and the map
    from those names back to the main map's piece uids."""
    rules = board_rules(ctx)
    forces: dict[str, BoardForce] = {}
    names: dict[str, dict[str, int]] = {}
    for side, pieces in sides.items():
        units = []
        names[side] = {}
        for piece in sorted(pieces, key=lambda p: p.uid):
            kind = rules.kinds.get(piece.type)
            if kind is None or kind.battle != battle:
                continue
            name = f"{side[0]}{len(units) + 1}"
            units.append((name, piece.type))
            names[side][name] = piece.uid
        forces[side] = BoardForce(units=tuple(units))
    return forces, names


def fight_board_battle(ctx: TurnContext, area: str, attacker: str, defender: str,
                       forces: Mapping[str, BoardForce],
                       plans: Mapping[str, BattlePlan]) -> BoardBattleFought:
    """Fight the board battle of ``area`` (land or sea by its terrain, L19.38) and say
    what happened; ``losses`` lists the unit types each power lost on the board."""
    battle = "sea" if ctx.board.map[area].is_sea else "land"
    kinds = {side: dict(force.units) for side, force in forces.items()}
    if ctx.dice is None:                          # checking: the attacker's best case
        return BoardBattleFought(
            area=area, board=battle, attacker=attacker, defender=defender,
            forces=tuple(forces.items()), plans=tuple(plans.items()), board_events=(),
            winner=attacker, turns=0, losses=((attacker, ()), (defender, tuple(
                sorted(kinds.get(DEFENDER, {}).values())))))
    played = fight(board_rules(ctx), battle, forces, plans, ctx.dice)
    result = played.result
    assert result is not None
    winner = {ATTACKER: attacker, DEFENDER: defender}.get(result.winner, "")
    lost = {side: tuple(sorted(kinds.get(side, {})[pid] for pid in kinds.get(side, {})
                               if pid not in played.pieces))
            for side in (ATTACKER, DEFENDER)}
    return BoardBattleFought(
        area=area, board=battle, attacker=attacker, defender=defender,
        forces=tuple(forces.items()), plans=tuple(plans.items()),
        board_events=tuple(played.events), winner=winner, turns=result.turn,
        losses=((attacker, lost[ATTACKER]), (defender, lost[DEFENDER])))


def survivors(event: BoardBattleFought, side: str) -> set[str]:
    """The board names of ``side``'s units on the board at the end, replayed from the
    event's board events (a live battle's event is read the same way).  Checking (no board
    events): the attacker's whole force, nothing of the defender's."""
    force = dict(event.forces).get(side, BoardForce())
    names = {pid for pid, _ in force.units}
    if not event.board_events:
        return names if side == ATTACKER else set()
    where: dict[str, str] = {}            # square name -> piece
    gone: set[str] = set()
    for ev in event.board_events:
        if isinstance(ev, PieceDeployed):
            where[ev.square] = ev.piece
        elif isinstance(ev, PieceMoved):
            square = next((sq for sq, pid in where.items() if pid == ev.piece), None)
            if square is not None:
                del where[square]
            if ev.path:
                where[ev.path[-1]] = ev.piece
        elif isinstance(ev, ShotFired) and ev.hit:
            hit = where.pop(ev.at, None)
            if hit is not None:
                gone.add(hit)
        elif isinstance(ev, MineExploded):
            gone.add(ev.piece)
            where = {sq: pid for sq, pid in where.items() if pid != ev.piece}
        elif isinstance(ev, GunsLost):
            gone.update(ev.pieces)
            where = {sq: pid for sq, pid in where.items() if pid not in ev.pieces}
    return names - gone
