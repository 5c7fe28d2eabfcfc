"""Taktyczne Starcie's economy: income from facilities times capitals held
(L19.50-L19.53, L27.4)."""

from __future__ import annotations

from ..income import IncomeContext, item
from .state import OBJECTS, CAPITALS, facilities


@item("ts_facilities", projected=False)
def facility_income(inc: IncomeContext) -> int:
    """One point per factory and shipyard held, for each capital held (L19.50-L19.52); no
    capital held, no income (L19.53).  Read from the turn's board (nothing to project in a
    report without it)."""
    if inc.ctx is None:
        return 0
    board = inc.ctx.board
    held = sum(1 for area in board.read_state(CAPITALS, default={}).values()
               if inc.owners.get(area) == inc.power)
    return facilities(inc.owners, board.read_state(OBJECTS, default={}), inc.power) * held
