"""Axis & Allies Europe's Action Sequence step 6 (digest §5.7 [L685-L687]): every
submerged submarine resurfaces and every damaged battleship is repaired.

Today both end with their battle (two-hit damage and submerging are battle state, and no
unit fights twice in a turn), so nothing is left for this step to undo and it changes
nothing.  It is listed in the edition's steps so that the turn has the edition's shape; when
units can keep state between steps, the state it clears goes here."""

from __future__ import annotations

from .context import TurnContext
from .steps import step


@step("resurface_and_repair")
def resurface_and_repair(ctx: TurnContext, dice) -> None:
    """Nothing persists past a battle yet (see the module docstring)."""
