"""Global 1940's own events: scrambles, repairs at bases, national objectives, convoys,
China's factory, liberation, research and its technologies."""

from __future__ import annotations

from typing import ClassVar

import attrs

from .event_base import Event


@attrs.frozen(repr=False)
class Scrambled(Event):
    """Defending aircraft of ``power`` scrambled from ``space`` into the sea zone ``zone``."""

    kind: ClassVar[str] = "scrambled"
    power: str
    space: str
    zone: str
    units: dict[str, int]


@attrs.frozen(repr=False)
class RepairedAtBase(Event):
    """Damaged capital ships repaired free next to a naval base (Global 1940)."""

    kind: ClassVar[str] = "repaired_at_base"
    space: str
    power: str
    units: dict[str, int]


@attrs.frozen(repr=False)
class ObjectiveMet(Event):
    """A national objective paid ``income`` IPCs into ``power``'s ``economy`` in its
    Collect Income (Global 1940 [L451-L589]); ``territories``: what its condition counted."""

    kind: ClassVar[str] = "objective_met"
    power: str
    economy: str
    objective: str
    income: int
    territories: tuple[str, ...] = ()


@attrs.frozen(repr=False)
class ObjectiveMissed(Event):
    """A national objective of ``power`` whose condition did not hold this Collect Income."""

    kind: ClassVar[str] = "objective_missed"
    power: str
    economy: str
    objective: str


@attrs.frozen(repr=False)
class ConvoyDisrupted(Event):
    """Enemy warships in the convoy zone ``zone`` cost ``power``'s ``economy`` ``loss`` IPCs
    of its income (Global 1940 [L1105-L1127]): the dice ``rolls``, the sum of those of 3 or
    less capped by the value of the land next to the zone (``cap``)."""

    kind: ClassVar[str] = "convoy_disrupted"
    power: str
    economy: str
    zone: str
    rolls: tuple[int, ...]
    cap: int
    loss: int


@attrs.frozen(repr=False)
class FactoryRemoved(Event):
    """Factories in Chinese land that ``by`` (China or an ally) took back, removed from the
    game (Global 1940 [L379])."""

    kind: ClassVar[str] = "factory_removed"
    space: str
    by: str
    units: tuple[str, ...]


@attrs.frozen(repr=False)
class LiberationUnitsPlaced(Event):
    """``power``, its capital ``space`` liberated, places ``units`` there free of charge,
    once per game (Global 1940's France [L595-L599])."""

    kind: ClassVar[str] = "liberation_units_placed"
    power: str
    units: dict[str, int]
    space: str


@attrs.frozen(repr=False)
class ResearchRolled(Event):
    """Global 1940's research [L1141-L1202]: ``power`` bought ``bought`` research dice for
    ``cost`` IPCs and rolled them with the ``kept`` it had (``rolls``); a 6 is a
    ``breakthrough``; ``kept_now``: the dice it keeps for its next turns."""

    kind: ClassVar[str] = "research_rolled"
    power: str
    bought: int
    cost: int
    kept: int
    rolls: tuple[int, ...]
    breakthrough: bool
    kept_now: int


@attrs.frozen(repr=False)
class TechnologyGained(Event):
    """A breakthrough's roll ``roll`` on chart ``chart`` gave ``power`` the technology
    ``technology`` (``already_held``: it had it, and gains nothing); ``held``: all it
    holds now."""

    kind: ClassVar[str] = "technology_gained"
    power: str
    chart: int
    roll: int
    technology: str
    already_held: bool = False
    held: tuple[str, ...] = ()        # every technology the power holds now


@attrs.frozen(repr=False)
class RocketFired(Event):
    """Rockets [L1180]: ``power``'s air base in ``base`` hit the ``unit`` facility in
    ``target`` with a die (``roll``), adding ``damage`` (up to its cap) to ``total``."""

    kind: ClassVar[str] = "rocket_fired"
    power: str
    base: str
    target: str
    unit: str
    roll: int
    damage: int
    total: int


@attrs.frozen(repr=False)
class ParatroopersDropped(Event):
    """Paratroopers [L1182]: ``count`` of ``power``'s infantry flew from the air base in
    ``base`` into the attack on ``target``."""

    kind: ClassVar[str] = "paratroopers_dropped"
    power: str
    base: str
    target: str
    count: int
