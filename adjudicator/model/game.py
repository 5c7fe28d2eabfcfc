"""A loaded game definition: ruleset + map + starting setup, with its content hash."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from .reprs import attrs_repr
from .board import GameMap
from .geometry import Geometry
from .rules import Ruleset


@attrs.frozen(repr=False)
class SetupEntry:
    """Units a power starts with in one space.  In a sea zone, fighters are put on that
    power's carriers by the loader."""

    __repr__ = attrs_repr
    power: str
    space: str
    units: dict[str, int]


@attrs.frozen(repr=False)
class Game:
    """``edition`` is the registered edition's name (``editions``); ``content_hash`` the
    digest of its data and grammar files (the rules hash recorded in game files)."""

    __repr__ = attrs_repr
    ruleset: Ruleset
    map: GameMap
    setup: tuple[SetupEntry, ...]
    content_hash: str          # "sha256:<hex>" over the data files, in a fixed order
    source_dir: str = ""
    edition: str = ""
    geometry: Geometry | None = None   # the board picture's shapes; None: no picture
    # Taktyczne Starcie's cost table (``model.taktyczne.CostTable``: unit costs, object
    # prices), attached from the folder's units.toml when it has object prices; else None.
    costs: Any = attrs.field(default=None, eq=False, repr=False)
    # The engine's projection of a power's income (set by ``editions.prepare``: the
    # edition's income items that depend only on the board); layers above the engine
    # (reports) read income through ``projected_income``, never re-deriving it.
    income_projector: Callable[["Game", Any, str, Any], int] | None = attrs.field(
        default=None, eq=False, repr=False)
    # An edition's own tables read beside the A&A-shaped files (``service.games``):
    # Taktyczne Starcie's battle board rules (``board``).
    tables: Mapping[str, Any] = attrs.field(factory=dict, eq=False, repr=False)

    def projected_income(self, owners, power: str, extras=None) -> int:
        """What ``power`` would collect with ``owners`` in control (its capital held) and
        the state's edition values ``extras`` (``GameState.extras``: an edition's income may
        count what it keeps there, as Taktyczne Starcie's objects)."""
        if self.income_projector is None:
            return self.territory_value(owners, power)
        return self.income_projector(self, owners, power, extras)

    @property
    def game_id(self) -> str:
        return self.ruleset.game_id

    def territory_value(self, owners, power: str) -> int:
        """Sum of the IPC values of the territories ``power`` controls in ``owners`` (the
        "territories" income item, and what reports show as a power's income)."""
        territories = self.map.territories
        return sum(territories[t].ipc for t, owner in owners.items()
                   if owner == power and t in territories)
