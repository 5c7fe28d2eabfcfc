"""Technologies a power holds (Global 1940's optional research [L1141-L1202], digest §7)
and what they change: each unit type says in its data (``UnitType.technologies``) what a
technology changes for an owner holding it: new attack, defence, cost or move, and
abilities raised or added (an artillery supporting two, AA guns hitting on 2).  The
engine reads a unit through ``WorkingBoard.utype``, which gives the owner's effective
type, so every ability and rule that reads a unit's numbers plays the technology with no
code of its own.

The technologies held are the per-power state ``technologies`` (a list, sorted); the
whole UK holds one list (one power, two economies [L401]).
"""

from __future__ import annotations

import attrs

from ..model.units import UnitType
from .turn_rules import declare_state

TECHNOLOGIES = declare_state("technologies", list, per_power=True)

_EFFECTIVE: dict[tuple[int, tuple[str, ...]], tuple[UnitType, UnitType]] = {}


def held(board, power: str | None) -> tuple[str, ...]:
    """The technologies ``power`` holds."""
    if power is None:
        return ()
    return tuple(board.read_state(TECHNOLOGIES, power, ()) or ())


def holds(board, power: str | None, technology: str) -> bool:
    return technology in held(board, power)


def effective_type(unit_type: UnitType, technologies: tuple[str, ...]) -> UnitType:
    """``unit_type`` as an owner holding ``technologies`` has it."""
    if not unit_type.technologies or not technologies:
        return unit_type
    key = (id(unit_type), technologies)
    found = _EFFECTIVE.get(key)
    if found is not None and found[0] is unit_type:
        return found[1]
    ut = unit_type
    for tech in sorted(technologies):
        changes = unit_type.technologies.get(tech)
        if not changes:
            continue
        numbers = {k: v for k, v in changes.items() if k in ("attack", "defense", "cost", "move")}
        raised = changes.get("abilities", {})
        ut = attrs.evolve(ut, abilities=ut.abilities | frozenset(raised),
                          params={**ut.params, **raised}, **numbers)
    _EFFECTIVE[key] = (unit_type, ut)
    return ut


def unit_cost(board, power: str, key: str) -> int:
    """What a unit of type ``key`` costs ``power`` (Improved Shipyards lowers it)."""
    return effective_type(board.rules.units[key], held(board, power)).cost
