"""Taktyczne Starcie's nuclear weapons (L19.56-L19.68, rulings G22-G26; contract 3 of
issue 27): the blast over an area and, with radius ``full``, its bordering and tangent
areas (L19.59)."""

from __future__ import annotations

from ...model.ts_nuclear import NuclearBlast
from ..context import TurnContext
from ..working import count_types

FULL, AREA = "full", "area"


def reach(board, centre: str, radius: str) -> tuple[str, ...]:
    """The areas a blast over ``centre`` reaches: the centre, and with radius ``full`` its
    bordering and tangent areas (L19.59)."""
    areas = {centre}
    if radius == FULL:
        areas |= board.map.neighbours(centre) | board.map.tangents.get(centre, frozenset())
    return tuple(sorted(areas))


def blast(ctx: TurnContext, centre: str, radius: str, cause: str) -> None:
    """A nuclear explosion over ``centre`` (``radius`` ``full`` or ``area``).  Stub:
    destroys the units in the area(s) reached."""
    board = ctx.board
    destroyed: dict[str, dict[str, int]] = {}
    for area in reach(board, centre, radius):
        gone = []
        for piece in list(board.at(area)):
            if board.pieces.get(piece.uid) is piece:
                gone.extend(board.remove(piece))
        if gone:
            destroyed[area] = count_types(gone)
    ctx.emit(NuclearBlast(centre, radius, cause, ctx.power, reach(board, centre, radius),
                          destroyed))
