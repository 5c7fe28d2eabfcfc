"""Unit types: what a unit costs, how it fights and moves, and the named abilities it has.

Abilities are names from the edition's ``units.toml`` with optional parameters
(``{"support": {"targets": ("infantry",), "attack": 1, "count": 1}}``).  The model only
stores them; their rules live in ``adjudicator.engine.abilities``, one module each.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any

import attrs

from .reprs import attrs_repr


class Domain(str, Enum):
    LAND = "land"
    AIR = "air"
    SEA = "sea"


@attrs.frozen(repr=False)
class CargoRule:
    """What a carrying unit can hold: ``slots`` slots of units of ``domain``; at most
    ``large_slots`` of them may be units whose ``cargo_size`` is ``large`` (A&A: 1 of any
    type + 1 infantry); a large unit takes ``large_size`` slots (Europe 1999: slots 2,
    large_size 2 -- one tank, or two other units).  ``only_types``: if given, only these
    unit types fit; ``except_types`` never fit."""

    __repr__ = attrs_repr
    domain: Domain
    slots: int
    large_slots: int | None = None
    only_types: tuple[str, ...] = ()
    except_types: tuple[str, ...] = ()
    large_size: int = 1

    def size(self, unit: "UnitType") -> int:
        """The slots ``unit`` takes aboard."""
        return self.large_size if unit.cargo_size == "large" else 1

    def problem(self, cargo: "list[UnitType]") -> str | None:
        """Why ``cargo`` (unit types, all of the right domain) does not fit: ``"slots"`` or
        ``"large"``; None if it fits."""
        if sum(self.size(u) for u in cargo) > self.slots:
            return "slots"
        large = sum(1 for u in cargo if u.cargo_size == "large")
        if self.large_slots is not None and large > self.large_slots:
            return "large"
        return None


@attrs.frozen(repr=False)
class UnitType:
    __repr__ = attrs_repr
    key: str                      # canonical key, e.g. "infantry"
    name: str                     # display name, e.g. "Infantry"
    domain: Domain
    cost: int
    attack: int
    defense: int
    move: int
    abilities: frozenset[str] = frozenset()
    aliases: tuple[str, ...] = ()  # e.g. ("inf",)
    cargo: CargoRule | None = None  # set for transports and carriers
    cargo_size: str = "small"       # "small" or "large" when carried
    plural: str = ""                # display plural, defaults to name + "s"
    buyable: bool = True            # may be bought in the purchase phase
    # ability name -> its parameters (plain values; lists become tuples)
    params: Mapping[str, Mapping[str, Any]] = attrs.field(factory=dict, eq=False, hash=False)
    # technology key -> what it changes for an owner holding it (Global 1940's research):
    # "attack"/"defense"/"cost"/"move" (new values) and "abilities" (name -> parameters,
    # replacing or adding abilities); ``engine.technology`` applies them
    technologies: Mapping[str, Mapping[str, Any]] = attrs.field(factory=dict, eq=False, hash=False)

    def has(self, ability: str) -> bool:
        return ability in self.abilities

    def param(self, ability: str, name: str, default: Any = None) -> Any:
        return self.params.get(ability, {}).get(name, default)

    @property
    def display_plural(self) -> str:
        return self.plural or self.name + "s"
