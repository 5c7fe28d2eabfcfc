"""Taktyczne Starcie's objects destroyed on the main map (contract 3 of issue 27): one
object at a time, by a bomb, a long-range gun (L27.26-L27.29) or a blast.  A capital is
never an object: it is an area and its token, not an entry of ``ts_objects`` (L19.60-L19.61,
L23.7, L31.35).  An armed silo hit by a bomb or an LRG detonates (L23.12-L23.14): a full
blast centred on its area (ruling G23)."""

from __future__ import annotations

from ..context import TurnContext
from .nuclear import FULL, SILO, SILO_HIT, blast, remove_object


def destroy_object(ctx: TurnContext, area: str, key: str, by: str, cause: str) -> bool:
    """Destroy one object ``key`` in ``area`` (``by`` a power, ``cause`` ``bomb``, ``lrg``
    ...; of several silos the armed one first, ruling armed_first); False when there is
    none.  An armed silo explodes over its area with the full radius (G23); the bomber that
    hit it is not destroyed by it (L23.12): it is in the air over the target, not in it."""
    was_armed = remove_object(ctx, area, key, by, cause)
    if was_armed is None:
        return False
    if was_armed and key == SILO and cause != "blast":
        blast(ctx, area, FULL, SILO_HIT, by=by)
    return True
