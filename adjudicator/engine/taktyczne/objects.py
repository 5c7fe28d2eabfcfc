"""Taktyczne Starcie's objects destroyed on the main map (contract 3 of issue 27): one
object at a time, by a bomb, a long-range gun or a blast.  A capital is never an object: it
is an area and its token, not an entry of ``ts_objects``."""

from __future__ import annotations

from ...model.ts_objects import ObjectDestroyed
from ..context import TurnContext
from .state import OBJECTS, _sorted, objects


def destroy_object(ctx: TurnContext, area: str, key: str, by: str, cause: str) -> bool:
    """Destroy one object ``key`` in ``area`` (``by`` a power, ``cause`` e.g. ``bomb``,
    ``lrg``, ``blast``); False when there is none.  Stub: removes it and emits the event
    (an armed silo's detonation comes with ``nuclear``)."""
    board = ctx.board
    found = objects(board)
    here = found.get(area, {})
    if not here.get(key):
        return False
    here[key] -= 1
    if not here[key]:
        del here[key]
    board.write_state(OBJECTS, _sorted(found))
    ctx.emit(ObjectDestroyed(area, key, board.owners.get(area, ""), by, cause))
    return True
