"""The Middle East in income (Axis & Allies Europe, digest §5.8 [L148-L152, L693-L699]):
territories tagged ``middle_east`` never count in a power's income from the bank (the
Allies never count them; Germany is paid for them by the Allies, not the bank).  The
income item ``territories_outside_middle_east`` is the ``territories`` item without them."""

from __future__ import annotations

from .income import IncomeContext, item

MIDDLE_EAST_TAG = "middle_east"


@item("territories_outside_middle_east")
def territories_outside_middle_east(inc: IncomeContext) -> int:
    """The values of the land ``power`` controls outside the Middle East (sea zones with a
    value are convoy centers, paid by their own item)."""
    territories = inc.game.map.territories
    return sum(territories[t].ipc for t, owner in inc.owners.items()
               if owner == inc.power and t in territories and territories[t].is_land
               and MIDDLE_EAST_TAG not in territories[t].tags)
