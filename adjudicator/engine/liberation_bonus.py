"""France's liberation (Axis & Allies Global 1940, digest §4.3 [L595-L599]): rule
``liberation_bonus``.

Once per game, when the Allies liberate the capital of the power named by option
``liberation_power`` (France), that power at once places units worth up to
``liberation_ipcs`` (12) there, free of charge, even in another nation's turn.  Which units
is the liberated power's choice; until a standing order asks it, it gets those of option
``liberation_units`` ("infantry:4": four infantry, 12 IPCs), as many of them as the budget
pays for.  Persistent state ``liberation_placed`` makes it once per game."""

from __future__ import annotations

from ..model.events import LiberationUnitsPlaced
from .turn_rules import Rule, declare_state, register_rule

PLACED = declare_state("liberation_placed", bool)


def liberation_units(rules) -> dict[str, int]:
    """Option ``liberation_units`` ("type:n, type:n") within ``liberation_ipcs``."""
    budget = int(rules.option("liberation_ipcs", 0))
    out: dict[str, int] = {}
    for part in str(rules.option("liberation_units", "")).split(","):
        key, _, n = part.strip().partition(":")
        if key not in rules.units:
            continue
        cost = rules.units[key].cost
        count = min(int(n or 1), budget // cost if cost else 0)
        if count > 0:
            out[key] = out.get(key, 0) + count
            budget -= count * cost
    return out


@register_rule
class LiberationBonus(Rule):
    name = "liberation_bonus"
    doc = ("Once per game, France liberated: France places units worth up to 12 IPCs there, "
           "free (option liberation_units: which).")

    def on_capture(self, ctx, space, new_owner, previous):
        board = ctx.board
        power = str(board.rules.option("liberation_power", ""))
        if new_owner != power or power not in board.rules.powers:
            return
        if space != board.rules.powers[power].capital or board.read_state(PLACED):
            return
        if previous is None or not board.enemy_of(power, previous):
            return
        units = liberation_units(board.rules)
        for key, n in sorted(units.items()):
            for _ in range(n):
                board.add_new(key, power, space)
        board.write_state(PLACED, True)
        ctx.emit(LiberationUnitsPlaced(power, dict(sorted(units.items())), space))
