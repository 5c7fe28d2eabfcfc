"""Objects and drawn capitals that an edition keeps in the game's state rather than as units
(Taktyczne Starcie: factories, shipyards over a sea, airfields; capitals drawn with the dice),
for the board picture.

The picture reads two declared states by name (``engine/taktyczne/state.py`` declares them;
``tests/test_taktyczne_picture.py`` checks the names agree): ``ts_objects``, ``{area:
{object: count}}`` with a shipyard counted per sea under ``"shipyard S05"`` (L27.8), and
``ts_capitals``, ``{player: area}``.  An object belongs to whoever holds its area (L19.39).
Editions without them have neither, and nothing changes for them.
"""

from __future__ import annotations

from html import escape
from typing import Any

import attrs

OBJECTS_STATE, CAPITALS_STATE = "ts_objects", "ts_capitals"
SHIPYARD = "shipyard"
MAX_OBJECT_KINDS = 20          # an area's distinct objects drawn at most (a broken state stays drawable)

# The drawn symbol (``board_svg.SYMBOLS``) of each object; others get "object".
OBJECT_SYMBOL_KEYS = {"factory": "industrial_complex", SHIPYARD: SHIPYARD, "airfield": "air_base",
                      "silo": "silo", "launcher": "launcher"}


@attrs.frozen
class MapObject:
    """``count`` objects of ``kind`` in ``area``; ``sea``: the sea a shipyard stands over;
    ``armed``: for a silo or launcher, whether these hold their missile (None: not one
    that is armed, ``present/board_nuclear.py``)."""

    area: str
    kind: str
    count: int
    sea: str = ""
    armed: bool | None = None


def map_objects(extras: dict[str, Any] | None, area: str) -> list[MapObject]:
    """The objects standing in ``area``, factories first, then shipyards by sea, then the rest."""
    found = (extras or {}).get(OBJECTS_STATE, {})
    here = found.get(area) if isinstance(found, dict) else None
    if not isinstance(here, dict):
        return []
    out = []
    for key, count in list(here.items())[:MAX_OBJECT_KINDS]:
        if not isinstance(key, str) or not isinstance(count, int) or count <= 0:
            continue
        kind, _, sea = key.partition(" ")
        out.append(MapObject(area, kind if kind == SHIPYARD and sea else key, count,
                             sea if kind == SHIPYARD else ""))
    order = {"factory": 0, SHIPYARD: 1}
    return sorted(out, key=lambda o: (order.get(o.kind, 2), o.kind, o.sea))


def drawn_capitals(extras: dict[str, Any] | None) -> dict[str, str]:
    """area -> the player whose capital it is (drawn in the game, not in the map data)."""
    found = (extras or {}).get(CAPITALS_STATE, {})
    if not isinstance(found, dict):
        return {}
    return {area: player for player, area in sorted(found.items())
            if isinstance(area, str) and isinstance(player, str)}


def object_symbol_key(kind: str) -> str:
    return OBJECT_SYMBOL_KEYS.get(kind, "object")


def object_chip(obj: MapObject, holder: str, body: str, holder_name: str) -> tuple[float, str]:
    """An object's item for its area's info row: (width, markup at x=0, y=0): ``body`` its
    symbol in its holder's colour, the count when more than one, a shipyard's sea beside it."""
    width = 15.0
    extra = ""
    label = ""
    if obj.count > 1:
        label += f"{obj.count}"
    if obj.sea:
        label += ("" if not label else " ") + obj.sea
    if label:
        extra = (f'<text class="pb-small" x="15" y="8" text-anchor="start" fill="#1E1E1E">'
                 f'{escape(label)}</text>')
        width += 1 + 5.6 * len(label)
    state = "" if obj.armed is None else "armed " if obj.armed else "unarmed "
    what = state + (obj.kind if obj.count == 1 else f"{obj.count} {obj.kind}s")
    where = f" over {obj.sea}" if obj.sea else ""
    title = f"{holder_name}: {what} in {obj.area}{where}" if holder else f"{what} in {obj.area}{where}"
    sea = f' data-sea="{escape(obj.sea)}"' if obj.sea else ""
    armed = "" if obj.armed is None else f' data-armed="{"yes" if obj.armed else "no"}"'
    return width, (f'<g class="chip object {escape(obj.kind)}" data-space="{escape(obj.area)}" '
                   f'data-owner="{escape(holder)}" data-type="{escape(obj.kind)}" '
                   f'data-count="{obj.count}"{sea}{armed}><title>{escape(title)}</title>{body}{extra}</g>')
