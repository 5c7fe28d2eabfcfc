"""The ability registry: every named ability a unit type can have, with its parameters and
the hooks through which the engine runs its rules.

An ability is a subclass of :class:`Ability` registered under its ``name`` (the name used
in ``units.toml``).  It declares its parameters (``params``: name -> (type, default);
``REQUIRED`` for no default) and implements only the hooks it needs:

* ``check(unit, params)`` -- extra data checks (problems as strings);
* ``slot(unit, params, side)`` -- traits of the unit in a battle (``combat.board.Slot``);
* ``may_move(board, piece, phase)`` -- a problem code if the unit may not move now;
* ``on_capture(ctx, space, new_owner, previous)`` -- run when the space it is in changes
  hands (``engine.capture.set_owner``, after the units captured with it changed owner);
* ``changes_owner(board, piece, new_owner, with_captured)`` -- whether it goes to the new
  owner with its territory (``captured_with_territory``);
* ``passes_through(board, piece, space, index)`` -- None if a land unit may move on
  through an enemy territory on its path, else ``(problem code, params)`` (``blitz``);
* ``may_enter(ctx, piece, space, path, phase)``, ``on_enter(ctx, pieces, space, path,
  phase)``, ``move_bonus(board, piece, phase)`` -- movement, as the edition rules of
  ``engine.turn_rules`` (which also lists the hooks of the whole turn);
* battle steps (``combat.stepbase.BattleStep``) registered by the ability's module.

Hooks are looked up through :func:`hooks`, so the engine never tests a unit's name.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from ...model.units import UnitType

REQUIRED = object()

_REGISTRY: dict[str, "Ability"] = {}


class Ability:
    """Base class: a named ability with validated parameters and optional hooks."""

    name: ClassVar[str] = ""
    doc: ClassVar[str] = ""
    params: ClassVar[Mapping[str, tuple[type | tuple[type, ...], Any]]] = {}

    def check(self, unit: UnitType, params: Mapping[str, Any]) -> list[str]:
        return []

    def slot(self, unit: UnitType, params: Mapping[str, Any], side: int) -> dict[str, Any]:
        return {}


def register(cls: type[Ability]) -> type[Ability]:
    """Class decorator: make ``cls`` available under ``cls.name``."""
    if not cls.name:
        raise ValueError(f"{cls.__name__} has no name")
    _REGISTRY[cls.name] = cls()
    return cls


def get(name: str) -> Ability:
    return _REGISTRY[name]


def known() -> list[str]:
    return sorted(_REGISTRY)


def normalise_params(name: str, raw: Any) -> tuple[dict[str, Any], list[str]]:
    """An ability's parameters from data, with defaults filled in: (params, problems)."""
    ability = _REGISTRY.get(name)
    if ability is None:
        return {}, [f"unknown ability '{name}' (known: {', '.join(known())})"]
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        return {}, [f"ability '{name}': parameters must be a table"]
    problems: list[str] = []
    out: dict[str, Any] = {}
    for key in raw:
        if key not in ability.params:
            allowed = ", ".join(sorted(ability.params)) or "none"
            problems.append(f"ability '{name}': unknown parameter '{key}' (allowed: {allowed})")
    for key, (kind, default) in ability.params.items():
        if key not in raw:
            if default is REQUIRED:
                problems.append(f"ability '{name}': parameter '{key}' is required")
            else:
                out[key] = default
            continue
        value = raw[key]
        if isinstance(value, list):
            value = tuple(value)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            problems.append(f"ability '{name}': parameter '{key}' has the wrong type ({value!r})")
            continue
        out[key] = value
    return out, problems


def check_unit(unit: UnitType) -> list[str]:
    """Problems with a unit type's abilities (unknown names, bad parameters, hook checks)."""
    problems = []
    for name in sorted(unit.abilities):
        ability = _REGISTRY.get(name)
        if ability is None:
            problems.append(f"unknown ability '{name}' (known: {', '.join(known())})")
            continue
        problems += ability.check(unit, unit.params.get(name, {}))
    return problems


def hooks(unit: UnitType, hook: str) -> Iterator[tuple[Ability, Mapping[str, Any]]]:
    """The abilities of ``unit`` that implement ``hook``, with their parameters."""
    for name in sorted(unit.abilities):
        ability = _REGISTRY.get(name)
        if ability is not None and hook in type(ability).__dict__:
            yield ability, unit.params.get(name, {})
