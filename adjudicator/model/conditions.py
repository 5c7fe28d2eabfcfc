"""Conditions: one small declarative language for victory, objectives and restrictions.

A condition is a plain value (from the edition's TOML) evaluated by
``adjudicator.engine.conditions``.  Shapes (all keys lower case):

* ``{controls = <territories>, count = N, by = "side"|"power"}`` -- the subject controls at
  least ``count`` (default: all) of ``territories``: a list of territory names, or a tag
  (``"victory_cities"``, ``"capitals"``, or any name in a territory's ``tags``).
* ``{all = [c1, c2, ...]}``, ``{any = [...]}``, ``{not = c}`` -- combinations.
* ``{round_at_least = N}`` -- the game has reached round ``N``.
* ``{state = "<key>"}`` -- an edition's persistent value ``key`` (``GameState.extras``,
  written by its rules) is set and true.

The subject (a side or a power) is given by the rule that holds the condition.
"""

from __future__ import annotations

from typing import Any

import attrs

Condition = dict[str, Any]

CHECK_END_OF_ROUND = "end_of_round"


@attrs.frozen
class VictoryRule:
    """``side`` wins when ``condition`` holds at ``check``: ``"end_of_round"`` or
    ``"after:<power>"`` (the end of that power's turn)."""

    side: str
    check: str
    condition: Condition = attrs.field(eq=False, hash=False)
    name: str = "victory"

    def checked_after(self, power: str, last_in_round: bool) -> bool:
        if self.check == CHECK_END_OF_ROUND:
            return last_in_round
        return self.check == f"after:{power}"
