"""The start of a game, drawn with the game's dice (L19.1-L19.14): the turn order, each
player's capital with the re-roll rules, the 12 points and the free factory in the capital.

Pure: ``draw_setup(main_map, players, dice, start_points)`` asks the caller's
``DiceSource`` for every die, naming its purpose, so the verifiable HMAC dice make the start
checkable like any battle.  Rulings (the text is silent): ties in the turn-order roll are
re-rolled among the tied players only (G5); capitals are drawn in the turn order just
rolled, the later drawer re-rolling a taken number (L19.10); after ``DRAW_CAP`` rolls a
player takes the lowest free area (``draw_cap``: with the invented map at least 15 of 36
numbers stay free for a fourth player, so the chance of reaching it is below 0.6 ** 100).
"""

from __future__ import annotations

from collections.abc import Sequence

from ...model.dice import DiceSource
from ...model.errors import DataError
from ...model.taktyczne import (CapitalAssigned, CapitalRolled, MainMap, OrderRolled, Setup,
                                SetupEvent, StartGranted, TurnOrderSet)
from .balance import free_areas

MIN_PLAYERS, MAX_PLAYERS = 2, 4          # L11
DRAW_CAP = 100                           # ruling draw_cap
FACTORY = "factory"


def draw_setup(main_map: MainMap, players: Sequence[str], dice: DiceSource,
               start_points: int) -> tuple[Setup, list[SetupEvent]]:
    """The drawn start and its events, in the order the dice were rolled."""
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS or len(set(players)) != len(players):
        raise DataError(f"Taktyczne Starcie is for {MIN_PLAYERS} to {MAX_PLAYERS} different "
                        f"players (L11), not {', '.join(players) or 'none'}")
    if dice.sides != 6:
        raise DataError(f"the setup needs six-sided dice (L19.5-L19.8), not {dice.sides}-sided")
    events: list[SetupEvent] = []
    order = tuple(_turn_order(list(players), dice, events, [0]))
    events.append(TurnOrderSet(order=order))
    capitals: dict[str, str] = {}
    for player in order:
        capitals[player] = _capital(main_map, player, capitals, dice, events)
    for player in order:
        events.append(StartGranted(player=player, points=start_points, factory=capitals[player]))
    return Setup(order=order, capitals=capitals, points={p: start_points for p in order},
                 factories={p: capitals[p] for p in order}), events


def _turn_order(players: list[str], dice: DiceSource, events: list[SetupEvent],
                rounds: list[int]) -> list[str]:
    """Highest roll first, lowest last (L19.1-L19.2); a tie re-rolled among the tied (G5)."""
    rounds[0] += 1
    rolls = [(p, dice.roll(1, f"setup turn order round {rounds[0]} {p}")[0]) for p in players]
    events.append(OrderRolled(round=rounds[0], rolls=tuple(rolls)))
    order: list[str] = []
    for face in sorted({f for _, f in rolls}, reverse=True):
        tied = [p for p, f in rolls if f == face]
        order.extend(tied if len(tied) == 1 else _turn_order(tied, dice, events, rounds))
    return order


def _capital(main_map: MainMap, player: str, capitals: dict[str, str], dice: DiceSource,
             events: list[SetupEvent]) -> str:
    land = set(main_map.land)
    for attempt in range(1, DRAW_CAP + 1):
        first, second = dice.roll(2, f"setup capital {player} roll {attempt}")
        area = f"{first}{second}"
        if area not in land:
            raise DataError(f"the map has no land area {area}: its land must be numbered 11-66")
        taken = next((p for p, c in capitals.items() if c == area), None)
        near = next((p for p, c in capitals.items() if area in main_map.touching(c)), None)
        outcome = "taken" if taken else "near" if near else "capital"
        events.append(CapitalRolled(player=player, dice=(first, second), area=area,
                                    outcome=outcome, other=taken or near or ""))
        if outcome == "capital":
            return area
    free = free_areas(main_map, capitals.values())
    if not free:
        raise DataError(f"no land area is left for {player}'s capital")
    events.append(CapitalAssigned(player=player, area=free[0], rolls=DRAW_CAP))
    return free[0]
