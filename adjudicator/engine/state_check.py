"""Sanity of a game state read from a file: names the game knows, and units only where
the rules allow them.  A corrupt or hand-edited state is refused before the engine sees it."""

from __future__ import annotations

from ..model.game import Game
from ..model.units import Domain
from ..model.state import GameState


def state_problems(game: Game, state: GameState) -> list[str]:
    """Every problem found (empty: the state is usable), in a stable order."""
    spaces, powers, types = game.map.territories, game.ruleset.powers, game.ruleset.units
    owners = powers.keys() | game.ruleset.nations.keys()      # nations own but do not play
    economies = {e.key for p in powers.values() for e in p.all_economies}
    problems: set[str] = set()
    if state.power not in powers:
        problems.add(f"unknown power {state.power!r} to play")
    for territory, owner in state.owners.items():
        if territory not in spaces:
            problems.add(f"owner given for unknown territory {territory!r}")
        elif spaces[territory].impassable or (spaces[territory].is_sea
                                              and spaces[territory].original_owner is None):
            problems.add(f"{territory} cannot have an owner")
        if owner not in owners:
            problems.add(f"{territory} owned by unknown power {owner!r}")
    for power, ipcs in state.ipcs.items():
        if power not in economies:
            problems.add(f"unknown power {power!r} in ipcs")
        elif ipcs < 0:
            problems.add(f"{power} has negative IPCs ({ipcs})")
    for power in state.standing_orders:
        if power not in powers:
            problems.add(f"unknown power {power!r} in standing orders")
    for pair, relation in state.relations.items():
        a, sep, b = pair.partition("|")
        if not sep or a not in owners or b not in owners or a >= b:
            problems.add(f"relation {pair!r}: expected two different known owners 'a|b', sorted")
        if relation not in ("allied", "war", "neutral"):
            problems.add(f"relation {pair!r} is {relation!r} (allied, war or neutral)")
    for space, units in state.units.items():
        if space not in spaces:
            problems.add(f"units in unknown space {space!r}")
            continue
        where = spaces[space]
        for unit in units:
            names_ok = True
            for u in (unit, *unit.cargo):
                if u.type not in types:
                    problems.add(f"unknown unit type {u.type!r} in {space}")
                    names_ok = False
                if u.owner not in owners:
                    problems.add(f"unit owned by unknown power {u.owner!r} in {space}")
            if not names_ok:
                continue
            ut = types[unit.type]
            if where.impassable:
                problems.add(f"{ut.name} in impassable {space}")
            elif where.is_sea and ut.domain == Domain.LAND:
                problems.add(f"{ut.name} at sea in {space} (land units at sea must be cargo)")
            elif where.is_land and ut.domain == Domain.SEA:
                problems.add(f"{ut.name} on land in {space}")
            if unit.cargo:
                problems.update(_cargo_problems(game, space, unit))
    return sorted(problems)


def _cargo_problems(game: Game, space: str, unit) -> list[str]:
    ut = game.ruleset.units[unit.type]
    rule = ut.cargo
    if rule is None:
        return [f"{ut.name} in {space} carries cargo but cannot carry anything"]
    cargo_types = [game.ruleset.units[c.type] for c in unit.cargo]
    found = []
    if any(c.domain != rule.domain or (rule.only_types and c.key not in rule.only_types)
           for c in cargo_types):
        found.append(f"{ut.name} in {space} carries units it cannot carry")
    if rule.problem(cargo_types):
        found.append(f"{ut.name} in {space} is over capacity")
    return found
