"""The 12-point stack (L19.17): what a player's units in one area are worth, checked after
every order; ferries and carriers are worth 0 (L27.12, L27.15), land units aboard ferries do
not count in the sea (L27.20) but a ferry holds at most 8 points (L27.19) and the ferries of
one sea at most 12 (L27.20).  The numbers are the edition's options (``stack_limit``,
``ferry_points``, ``ferry_sea_points``), the values the cost table's (``units.toml``)."""

from __future__ import annotations

from collections.abc import Iterable

from ...model.units import Domain
from ..working import Piece, WorkingBoard
from . import stack
from .stack import stack_limit

FERRY_POINTS = 8          # L27.19
FERRY_SEA_POINTS = 12     # L27.20


def limits(board: WorkingBoard) -> tuple[int, int, int]:
    """(stack, one ferry's cargo, all ferries' cargo in one sea)."""
    option = board.rules.option
    return (stack_limit(board.game), option("ferry_points", FERRY_POINTS),
            option("ferry_sea_points", FERRY_SEA_POINTS))


def unit_value(board: WorkingBoard, unit_type: str) -> int:
    """A unit's map value (``stack.unit_value``: the ferry's and the carrier's 0)."""
    return stack.unit_value(board.game, unit_type)


def is_ferry(board: WorkingBoard, piece: Piece | str) -> bool:
    """A sea unit that carries land units (its cargo rule's domain is land)."""
    ut = board.utype(piece)
    return ut.domain == Domain.SEA and ut.cargo is not None and ut.cargo.domain == Domain.LAND


def points(board: WorkingBoard, pieces: Iterable[Piece]) -> int:
    return sum(unit_value(board, p.type) for p in pieces)


def area_points(board: WorkingBoard, area: str, owner: str) -> int:
    """What ``owner``'s units in ``area`` count towards the stack: every unit there and
    aircraft aboard carriers (ruling G7), not land units aboard ferries (L27.20)."""
    total = 0
    for piece in board.at(area, include_cargo=True):
        if piece.owner != owner:
            continue
        if piece.carried_by is not None and board.utype(piece).domain == Domain.LAND:
            continue
        total += unit_value(board, piece.type)
    return total


def ferry_cargo(board: WorkingBoard, ferry: Piece) -> int:
    return points(board, board.cargo_of(ferry))


def sea_cargo(board: WorkingBoard, sea: str, owner: str) -> int:
    """The land units aboard ``owner``'s ferries in ``sea`` (L27.20)."""
    return sum(ferry_cargo(board, p) for p in board.at(sea)
               if p.owner == owner and is_ferry(board, p))


def stack_problems(board: WorkingBoard, areas: Iterable[str], owner: str) -> list[tuple[str, dict]]:
    """The stack rules broken in ``areas`` by ``owner``'s units: ``(code, params)``."""
    stack, ferry, sea = limits(board)
    found: list[tuple[str, dict]] = []
    for area in dict.fromkeys(areas):
        total = area_points(board, area, owner)
        if total > stack:
            found.append(("ts_stack_over", {"space": area, "points": total, "limit": stack}))
        for piece in board.at(area):
            if piece.owner == owner and is_ferry(board, piece):
                cargo = ferry_cargo(board, piece)
                if cargo > ferry:
                    found.append(("ts_ferry_over", {"space": area, "points": cargo, "limit": ferry}))
        if board.map[area].is_sea:
            cargo = sea_cargo(board, area, owner)
            if cargo > sea:
                found.append(("ts_ferries_over", {"space": area, "points": cargo, "limit": sea}))
    return found
