"""Which target a shooter picks (issue 27, contract 4): the first word of a written priority
(``model.ts_targets``) that names something of the target's owner in the area, then the
documented default (ruling target_default).

Ground targets (bombs, L23.7, L23.10-L23.11; the long-range gun, L31.34-L31.35): the owner's
units in the area except mines and aircraft (aircraft are "in the air the whole time",
L23.33) and the area's objects when he holds it, never a capital (it is not an object).
Air targets (AA guns, fighters, L23.27-L23.28, L23.66-L23.68): the aircraft given in
``among``.  Within a word, the highest-valued unit first (a tank IV before a tank I), then the
lowest uid, so the pick is deterministic; an object is returned as its key."""

from __future__ import annotations

from collections.abc import Sequence

from ...model.ts_targets import (DEFAULT_AIR, DEFAULT_GROUND, NEVER_TARGETS, OBJECTS, UNITS,
                                 object_kind, unit_words)
from ...model.units import Domain
from ..working import Piece
from .state import objects
from .stacking import unit_value


def ground_targets(board, area: str, owner: str) -> list[Piece]:
    """The owner's units in ``area`` a bomb or a shell may hit (not mines, not aircraft)."""
    return [p for p in board.at(area, include_cargo=True) if p.owner == owner
            and p.type not in NEVER_TARGETS and board.utype(p).domain != Domain.AIR]


def object_targets(board, area: str, owner: str) -> list[str]:
    """The object keys in ``area`` when ``owner`` holds it (objects go with the area)."""
    if board.owners.get(area) != owner:
        return []
    return sorted(key for key, n in objects(board).get(area, {}).items() if n > 0)


def aimed(board, piece: Piece) -> Piece:
    """What a shell or a bomb aimed at ``piece`` hits: a unit aboard a ferry at sea is hit by
    sinking the ferry (rulings lrg_cargo and bomb_cargo: the text sinks cargo only with its
    ferry, L27.17, L31.40), any other unit itself."""
    carrier = board.pieces.get(piece.carried_by) if piece.carried_by is not None else None
    return carrier if carrier is not None and board.utype(carrier).domain == Domain.SEA else piece


def pick_target(board, area: str, owner: str, priority: Sequence[str], *,
                among: Sequence[Piece] | None = None) -> Piece | str | None:
    """The target by ``priority``, then the default: a ``Piece``, an object key, or None when
    nothing is left.  ``among``: aircraft to choose from (an air fight), instead of the
    ground targets of ``owner`` in ``area``."""
    if among is not None:
        units, keys, default = list(among), [], DEFAULT_AIR
    else:
        units, keys, default = ground_targets(board, area, owner), object_targets(
            board, area, owner), DEFAULT_GROUND
    units.sort(key=lambda p: (-unit_value(board, p.type), p.uid))
    for word in (*priority, *default, UNITS, OBJECTS):
        for piece in units:
            if word == UNITS or word in unit_words(piece.type):
                return piece
        for key in keys:
            if word in (OBJECTS, key, object_kind(key)):
                return key
    return None
