"""France's liberation (Axis & Allies Global 1940, digest §4.3 [L595-L599]): rule
``liberation_bonus``.

Once per game, when the Allies liberate the capital of the power named by option
``liberation_power`` (France), that power at once places units worth up to
``liberation_ipcs`` (12) there, free of charge, even in another nation's turn.  Which units
is the liberated power's choice, written ahead as a standing order ``liberation: 2 inf,
1 art`` (land or air units, no facility, within the budget); the default is option
``liberation_units`` ("infantry:4": four infantry, 12 IPCs).  Persistent state
``liberation_placed`` makes it once per game."""

from __future__ import annotations

from ..model.events import LiberationUnitsPlaced
from ..model.units import Domain
from .turn_rules import Rule, declare_standing, declare_state, register_rule, standing_choice

PLACED = declare_state("liberation_placed", bool)
FACILITY_ABILITIES = ("factory", "static")


def _parsed(value: str) -> list[tuple[str, int]] | None:
    """ "infantry:2,tank:1" -> [("infantry", 2), ("tank", 1)]; None if malformed."""
    out = []
    for part in value.split(","):
        key, sep, n = part.strip().partition(":")
        if not sep or not n.isdigit():
            return None
        out.append((key, int(n)))
    return out


def check_choice(ctx, power: str, value: str):
    """A ``liberation`` standing order: land or air units, no facility, within budget."""
    rules = ctx.board.rules
    found = _parsed(value)
    if found is None:
        return "liberation_bad_units", {}
    for key, _ in found:
        ut = rules.units.get(key)
        if ut is None or ut.domain == Domain.SEA or any(ut.has(a) for a in FACILITY_ABILITIES):
            return "liberation_not_placeable", {"unit": key}
    cost = sum(rules.units[k].cost * n for k, n in found)
    budget = int(rules.option("liberation_ipcs", 0))
    if cost > budget:
        return "liberation_too_expensive", {"cost": cost, "budget": budget}
    return None


CHOICE = declare_standing(
    "liberation", "", (),
    "The units a power places free when its capital is liberated (Global 1940's France, "
    "once per game, up to 12 IPCs): 'liberation: 2 inf, 1 art' (default: option "
    "liberation_units, four infantry).", check=check_choice)


def liberation_units(rules, chosen: str = "") -> dict[str, int]:
    """The units ``chosen`` ("type:n,type:n"), else option ``liberation_units``, within
    ``liberation_ipcs``."""
    budget = int(rules.option("liberation_ipcs", 0))
    out: dict[str, int] = {}
    for part in (chosen or str(rules.option("liberation_units", ""))).split(","):
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
           "free: those of its standing order 'liberation' (default four infantry).")

    def on_capture(self, ctx, space, new_owner, previous):
        board = ctx.board
        power = str(board.rules.option("liberation_power", ""))
        if new_owner != power or power not in board.rules.powers:
            return
        if space != board.rules.powers[power].capital or board.read_state(PLACED):
            return
        if previous is None or not board.enemy_of(power, previous):
            return
        units = liberation_units(board.rules, standing_choice(ctx, power, CHOICE.name))
        for key, n in sorted(units.items()):
            for _ in range(n):
                board.add_new(key, power, space)
        board.write_state(PLACED, True)
        ctx.emit(LiberationUnitsPlaced(power, dict(sorted(units.items())), space))
