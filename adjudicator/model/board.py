"""The map: territories, sea zones, adjacency, canals and closed straits.  Factories and
other facilities are units on the board (``industrial_complex``), not map flags."""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from .reprs import attrs_repr


@attrs.frozen(repr=False)
class Territory:
    """A land territory or a sea zone.  ``key`` is its canonical name."""

    __repr__ = attrs_repr
    key: str
    is_sea: bool
    ipc: int = 0
    original_owner: str | None = None   # power key; None for sea zones and neutrals
    capital_of: str | None = None       # power key whose capital this is
    impassable: bool = False            # neutral: cannot be entered, attacked or flown over
    island: bool = False
    aliases: tuple[str, ...] = ()
    victory_city: str | None = None     # name of the victory city here, if any
    tags: frozenset[str] = frozenset()  # named sets for conditions ("victory_cities", ...)

    @property
    def is_land(self) -> bool:
        return not self.is_sea


@attrs.frozen(repr=False)
class Canal:
    """Ships may cross between ``zones`` only if one side has controlled every territory in
    ``controlled_by`` since the start of the mover's turn.  Air and land ignore canals.
    ``open_to``: unit types that pass whoever holds it (Global 1940's submarines at
    Gibraltar [L327])."""

    __repr__ = attrs_repr
    name: str
    zones: tuple[str, str]
    controlled_by: tuple[str, ...]
    open_to: tuple[str, ...] = ()


@attrs.frozen(repr=False)
class GameMap:
    __repr__ = attrs_repr
    map_id: str
    territories: dict[str, Territory]
    adjacency: dict[str, frozenset[str]]
    canals: tuple[Canal, ...] = ()
    closed_zones: frozenset[str] = frozenset()   # no ship may enter or leave (Turkish straits)
    # spaces touching at a single point only (Taktyczne Starcie's tangent relation, L15):
    # no move crosses it; an edition's rules read it (a capital's exclusion zone)
    tangents: dict[str, frozenset[str]] = attrs.field(factory=dict)

    def __getitem__(self, key: str) -> Territory:
        return self.territories[key]

    def neighbours(self, key: str) -> frozenset[str]:
        return self.adjacency.get(key, frozenset())

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.adjacency.get(a, frozenset())

    def land(self) -> Iterable[Territory]:
        return (t for t in self.territories.values() if t.is_land)

    def seas(self) -> Iterable[Territory]:
        return (t for t in self.territories.values() if t.is_sea)

    def canal_between(self, a: str, b: str) -> Canal | None:
        for canal in self.canals:
            if set(canal.zones) == {a, b}:
                return canal
        return None

    def coastal_zones(self, land_key: str) -> list[str]:
        """Sea zones adjacent to a land territory, in a stable order."""
        return sorted(n for n in self.neighbours(land_key) if self.territories[n].is_sea)
