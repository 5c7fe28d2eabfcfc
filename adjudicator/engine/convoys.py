"""Convoy centers (Axis & Allies Europe, digest §5.4.5 [L621-L647]): sea zones whose
printed value counts in their owner's income.

Until sea zones can carry an owner and a value, the map gives them as tags on the zone:
``convoy_center``, ``convoy_owner:<power>``, ``convoy_ipc:<value>`` and, optionally,
``convoy_cut_by:<territory>`` (the convoy is worth nothing while its owner does not hold
that territory: the Soviet convoy and Archangel [L641]).  The income item
``convoy_centers`` pays each owner the value of its convoy centers."""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from ..model.game import Game
from .income import item

CONVOY_TAG = "convoy_center"


@attrs.frozen
class ConvoyCenter:
    zone: str
    owner: str
    ipc: int
    cut_by: str | None = None


def _tag_value(tags, prefix: str) -> str | None:
    return next((t[len(prefix):] for t in sorted(tags) if t.startswith(prefix)), None)


def convoy_centers(game: Game) -> tuple[ConvoyCenter, ...]:
    """The map's convoy centers, from their tags (a malformed one counts for nothing)."""
    out = []
    for zone in sorted(game.map.territories.values(), key=lambda t: t.key):
        if CONVOY_TAG not in zone.tags:
            continue
        owner, ipc = _tag_value(zone.tags, "convoy_owner:"), _tag_value(zone.tags, "convoy_ipc:")
        if owner is None or ipc is None or not ipc.isdigit():
            continue
        out.append(ConvoyCenter(zone.key, owner, int(ipc), _tag_value(zone.tags, "convoy_cut_by:")))
    return tuple(out)


@item("convoy_centers")
def convoy_income(game: Game, owners: Mapping[str, str], power: str) -> int:
    """The values of ``power``'s convoy centers that no enemy holds (a zone with no entry in
    ``owners`` is its owner's), less those cut off by the loss of their linked territory
    [L641, L643-L645]."""
    return sum(c.ipc for c in convoy_centers(game)
               if c.owner == power and owners.get(c.zone, power) == power
               and (c.cut_by is None or owners.get(c.cut_by) == power))
