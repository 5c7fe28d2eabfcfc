"""The ``BoardBattleFought`` event of a finished board battle, however it was played (by
plan in one turn, ``board_battles.fight_board_battle``, or live over several turn files,
``live_turn``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...model.tactical import ATTACKER, DEFENDER, BattlePlan, BoardEvent, BoardForce
from ...model.taktyczne import BoardBattleFought
from ..tactical.battle import BoardBattle


def battle_fought(area: str, battle: str, attacker: str, defender: str,
                  forces: Mapping[str, BoardForce], plans: Mapping[str, BattlePlan],
                  played: BoardBattle, events: Sequence[BoardEvent],
                  live: bool = False) -> BoardBattleFought:
    """What happened on the finished board ``played`` (its ``events``: every board event
    of the battle, in order): the winning power and the unit types each power lost on the
    main map (a lost attack: every attacking unit, ruling G10)."""
    result = played.result
    assert result is not None
    kinds = {side: dict(force.units) for side, force in forces.items()}
    winner = {ATTACKER: attacker, DEFENDER: defender}.get(result.winner, "")
    lost = {side: tuple(sorted(kinds.get(side, {})[pid] for pid in kinds.get(side, {})
                               if pid not in played.pieces))
            for side in (ATTACKER, DEFENDER)}
    if winner != attacker:                   # a lost attack loses every attacker (ruling G10)
        lost[ATTACKER] = tuple(sorted(kinds.get(ATTACKER, {}).values()))
    return BoardBattleFought(
        area=area, board=battle, attacker=attacker, defender=defender,
        forces=tuple(forces.items()), plans=tuple(plans.items()),
        board_events=tuple(events), winner=winner, turns=result.turn,
        losses=((attacker, lost[ATTACKER]), (defender, lost[DEFENDER])), live=live)
