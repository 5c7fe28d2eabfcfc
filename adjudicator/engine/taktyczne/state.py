"""What Taktyczne Starcie keeps in the game's state (``GameState.extras``, declared here):
the rolled order of play, each player's drawn capital, and the objects on the map.

Objects (factories, shipyards, airfields...) are not units (digest §1.9): they belong to
whoever holds their land area, so taking an area takes its objects (L19.39, L27.28).  They
are kept per area as ``{area: {object: count}}``; a shipyard is counted per sea it stands
over, under ``"shipyard S05"`` (L27.8)."""

from __future__ import annotations

from collections.abc import Mapping

from ..turn_rules import declare_state

TURN_ORDER = declare_state("ts_turn_order", list)      # the rolled order of play (L19.1-L19.2)
CAPITALS = declare_state("ts_capitals", dict)          # player -> his drawn capital (L19.9)
OBJECTS = declare_state("ts_objects", dict)            # area -> {object: count}

FACTORY, SHIPYARD, AIRFIELD = "factory", "shipyard", "airfield"


def shipyard_key(sea: str) -> str:
    """The key of a shipyard over ``sea`` in an area's objects."""
    return f"{SHIPYARD} {sea}"


def shipyard_sea(key: str) -> str | None:
    """The sea of a shipyard key, or None for another object."""
    kind, _, sea = key.partition(" ")
    return sea if kind == SHIPYARD and sea else None


def objects(board) -> dict[str, dict[str, int]]:
    """Every area's objects (a copy the caller may change and write back)."""
    return {area: dict(found) for area, found in board.read_state(OBJECTS, default={}).items()}


def capitals(board) -> dict[str, str]:
    return dict(board.read_state(CAPITALS, default={}))


def capitals_held(board, power: str) -> int:
    """How many capitals ``power`` holds: its own and captured ones (L19.50-L19.52)."""
    return sum(1 for area in capitals(board).values() if board.owners.get(area) == power)


def add_object(board, area: str, key: str, count: int = 1) -> None:
    found = objects(board)
    here = found.setdefault(area, {})
    here[key] = here.get(key, 0) + count
    board.write_state(OBJECTS, _sorted(found))


def facilities(owners: Mapping[str, str], found: Mapping[str, Mapping[str, int]],
               power: str) -> int:
    """Factories and shipyards in areas ``power`` holds (L27.4)."""
    return sum(n for area, here in found.items() if owners.get(area) == power
               for key, n in here.items() if key == FACTORY or shipyard_sea(key))


def _sorted(found: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    return {area: dict(sorted(here.items())) for area, here in sorted(found.items()) if here}
