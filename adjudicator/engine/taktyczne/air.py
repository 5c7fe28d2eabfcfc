"""Aircraft on Taktyczne Starcie's main map (issue 27, contract 1): where aircraft may be
based, flights along a written route with overflight fire, and the evacuation of aircraft
that lost their base.

Stub: ``fly`` moves with no fire, ``evacuate`` destroys the aircraft (ruling
``aircraft_lost``); the real rules follow.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..context import TurnContext
from ..working import Piece

OUT, BACK, MOVE = "out", "back", "move"
BATTLE_LOST, BASE_DESTROYED, BLAST = "battle_lost", "base_destroyed", "blast"


def bases(board, power: str) -> dict[str, int]:
    """Area or sea -> the aircraft points it can still take: ``power``'s airfields' land
    areas and its carriers' seas, under the 12-point caps.  Stub: no bases."""
    return {}


def fly(ctx: TurnContext, pieces: list[Piece], path: Sequence[str], *, leg: str) -> list[Piece]:
    """Flies ``pieces`` along ``path`` (``path[0]`` where they are); the survivors of the
    overflight fire, not placed at the end (the caller places them).  Stub: no fire."""
    return list(pieces)


def evacuate(ctx: TurnContext, area: str, power: str, pieces: list[Piece], cause: str) -> None:
    """Aircraft that lost their base in ``area`` fly to another base, else are destroyed.
    Stub: destroyed (ruling aircraft_lost)."""
    for piece in pieces:
        if ctx.board.pieces.get(piece.uid) is piece:
            ctx.board.remove(piece)
