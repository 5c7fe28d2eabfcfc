"""Combined arms: a unit that raises other units' fire (Spring 1942 rules digest §4.3
"Infantry"/"Artillery", [L691-L721]).

``support = {targets = ["infantry"], attack = 1, count = 1}``: each supporting unit on
the board raises the attack of ``count`` units of the target types by ``attack`` (and
their defence by ``defence``, 0 in 1942), one-for-one, each unit by one giver only (Global
1940: a mechanized infantry raised by an artillery is not raised again by a tank of the
Improved Mechanized Infantry technology); pairings are re-made every round
from the units still on the board, so a lost artillery's infantry fights unsupported.
"""

from __future__ import annotations

from .base import REQUIRED, Ability, register


@register
class Support(Ability):
    name = "support"
    doc = "Raises the fire of count units of the target types by attack/defence, one-for-one."
    params = {"targets": (tuple, REQUIRED), "attack": (int, 0), "defence": (int, 0),
              "count": (int, 1)}

    def check(self, unit, params):
        problems = []
        if not params.get("targets") or not all(isinstance(t, str) for t in params["targets"]):
            problems.append("support: targets must be a list of unit type keys")
        if params.get("count", 1) < 1:
            problems.append("support: count must be at least 1")
        return problems

    def fire_values(self, board, side_idx, summ, splits):
        """``splits``: slot index -> [(count, value)] of the units firing in ordinary fire;
        returns it with supported units moved to the raised value."""
        bonus_key = "attack" if side_idx == 0 else "defence"
        slots = board.slots[side_idx]
        givers: dict[tuple[tuple[str, ...], int], int] = {}
        for s, n in zip(slots, summ.present):
            if n and self.name in s.tags:
                p = s.params.get(self.name, {})
                bonus = p.get(bonus_key, 0)
                if bonus:
                    key = (tuple(p.get("targets", ())), bonus)
                    givers[key] = givers.get(key, 0) + n * p.get("count", 1)
        if not givers:
            return splits
        out = {i: list(parts) for i, parts in splits.items()}
        for (targets, bonus), capacity in sorted(givers.items()):
            for i, s in enumerate(slots):
                if capacity <= 0:
                    break
                if s.key not in targets or i not in out:
                    continue
                parts = []
                for n, value in out[i]:
                    # one pair at a time: a unit another giver raised is not raised again
                    raised = min(n, capacity) if value == s.value else 0
                    capacity -= raised
                    if raised:
                        parts.append((raised, value + bonus))
                    if n - raised:
                        parts.append((n - raised, value))
                out[i] = parts
        return out
