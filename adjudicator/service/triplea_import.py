"""A game from a TripleA game file (``pbem new DIR --from-triplea MAP.xml``).

pbem plays only the editions it carries (``maps/<edition>/``: rules, map, abilities), so a
TripleA file is played as the bundled edition whose map it matches (at least
:data:`MIN_SHARE` of its territories), starting from the file's own position: territory
owners, units, factories and starting IPCs.  TripleA's Low Luck property becomes the
``low_luck`` option.  Everything else the file says that the game cannot carry is listed,
one line each, in :attr:`TripleAStart.not_carried`: its rule properties, triggers,
objectives and techs, map facts that differ from the edition's map, unit numbers that differ
from the edition's units, and players, territories and units the edition does not have.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import attrs

from .. import editions
from ..io.loader import initial_state
from ..io.triplea import (
    DEFAULT_PLAYERS, DEFAULT_UNIT_TYPES, TripleAMap, compare_with_game, our_space_name,
    read_triplea,
)
from ..model.errors import PbemError
from ..model.game import Game, SetupEntry
from ..model.state import GameState
from .games import load_game

MAX_BYTES = 16 * 1024 * 1024
MIN_SHARE = 0.9
#: properties that describe the file, not a rule
_METADATA = {"mapName", "notes", "Notes", "Map Name"}
_CARRIED_BY_OPTION = {"Low Luck": "low_luck"}
_UNIT_NUMBERS = (("attack", "attack"), ("defense", "defense"), ("movement", "move"),
                 ("cost", "cost"))


@attrs.frozen
class TripleAStart:
    ruleset: str                      # the edition the file is played as
    title: str                        # the file's own name for the game
    game: Game
    initial: GameState
    matched: int                      # of the file's territories, how many the edition has
    territories: int
    not_carried: tuple[str, ...]


def from_triplea(path, game_id: str, ruleset: str | None = None) -> TripleAStart:
    """Read ``path`` and build the game and its starting position (see the module)."""
    path = Path(path)
    if not path.is_file():
        raise PbemError(f"{path}: no such TripleA game file")
    if path.stat().st_size > MAX_BYTES:
        raise PbemError(f"{path} is larger than {MAX_BYTES // (1024 * 1024)} MiB: not a "
                        "TripleA game file pbem reads")
    tmap = read_triplea(path)
    name, matched = _edition_for(tmap, ruleset, path)
    options = {}
    lines: list[str] = []
    for prop, option in _CARRIED_BY_OPTION.items():
        if tmap.properties.get(prop, "false").lower() == "true":
            options[option] = True
    game = load_game(name, options or None)
    lines += _rule_lines(tmap, game)
    setup, position_lines = _setup(tmap, game)
    lines += position_lines
    lines += _map_lines(tmap, game)
    lines += _unit_lines(tmap, game)
    initial = _initial(tmap, game, setup, game_id)
    return TripleAStart(name, tmap.name, game, initial, matched, len(tmap.territories),
                        tuple(lines))


def _edition_for(tmap: TripleAMap, ruleset: str | None, path: Path) -> tuple[str, int]:
    theirs = {our_space_name(n) for n in tmap.territories}
    if not theirs:
        raise PbemError(f"{path}: no territories: not a TripleA game file")
    scores = []
    for name in [ruleset] if ruleset else editions.names():
        ours = set(load_game(name).map.territories)
        scores.append((len(theirs & ours), name))
    matched, best = max(scores)
    if matched < MIN_SHARE * len(theirs):
        raise PbemError(
            f"{path} ({tmap.name or 'no name'}) matches no edition pbem carries: the closest, "
            f"{best}, has {matched} of its {len(theirs)} territories. pbem plays only the maps "
            f"of its editions ({', '.join(editions.names())})")
    return best, matched


def _power(game: Game, player: str | None) -> str | None:
    key = DEFAULT_PLAYERS.get(player or "", (player or "").lower())
    return key if key in game.ruleset.powers else None


def _unit(game: Game, unit_type: str) -> str | None:
    key = DEFAULT_UNIT_TYPES.get(unit_type, unit_type)
    return key if key in game.ruleset.units else None


def _rule_lines(tmap: TripleAMap, game: Game) -> list[str]:
    lines = []
    for prop, value in sorted(tmap.properties.items()):
        if prop in _METADATA:
            continue
        if prop.endswith(" bid"):
            if value not in ("", "0"):
                lines.append(f"rule '{prop}' = {value}: bids are not carried (tournaments "
                             "have sealed bids: pbem tournament)")
            continue
        option = _CARRIED_BY_OPTION.get(prop)
        if option and option in {**game.ruleset.options, "low_luck": False}:
            continue
        lines.append(f"rule '{prop}' = {value}: not carried; {game.ruleset.title} plays by "
                     "its own rules (pbem rules)")
    for kind, count in tmap.rule_attachments.items():
        lines.append(f"{count} {kind}{'s' if count > 1 else ''}: not carried")
    return lines


def _setup(tmap: TripleAMap, game: Game) -> tuple[tuple[SetupEntry, ...], list[str]]:
    """The file's units as setup entries of the edition, and what could not be placed."""
    lines = []
    units: dict[tuple[str, str], Counter] = {}
    factory = next((k for k, u in game.ruleset.units.items() if "factory" in u.abilities), None)
    placed = [(p.territory, p.unit_type, p.owner, p.quantity) for p in tmap.placements]
    placed += [(t, "factory", owner, 1) for t, owner in sorted(tmap.factories.items())]
    for territory, unit_type, owner, quantity in placed:
        space, power = our_space_name(territory), _power(game, owner)
        key = factory if unit_type == "factory" else _unit(game, unit_type)
        where = f"{quantity} {unit_type} of {owner} in {territory}"
        if power is None:
            lines.append(f"units {where}: no power {owner!r} in {game.ruleset.title}; left out")
        elif space not in game.map.territories:
            lines.append(f"units {where}: no such space in {game.ruleset.title}; left out")
        elif key is None:
            lines.append(f"units {where}: no such unit in {game.ruleset.title}; left out")
        else:
            units.setdefault((power, space), Counter())[key] += quantity
    for player in tmap.players:
        if _power(game, player) is None:
            lines.append(f"player {player}: no such power in {game.ruleset.title}; not carried")
    return tuple(SetupEntry(p, s, dict(sorted(c.items()))) for (p, s), c in sorted(units.items())
                 ), lines


def _map_lines(tmap: TripleAMap, game: Game) -> list[str]:
    """Map facts of the file that differ from the edition's map (which is used)."""
    position = ("setup ", "starting IPCs ")
    return [f"map: {line}; {game.ruleset.title}'s map is used"
            for line in compare_with_game(tmap, game)
            if not line.startswith(position) and " owner: " not in line
            and " factory: " not in line]


def _unit_lines(tmap: TripleAMap, game: Game) -> list[str]:
    lines = []
    for name, theirs in sorted(tmap.unit_types.items()):
        key = None if name == "factory" else _unit(game, name)
        if key is None:
            continue
        ours = game.ruleset.units[key]
        for their_field, our_field in _UNIT_NUMBERS:
            a, b = getattr(theirs, their_field), getattr(ours, our_field)
            if a is not None and a != b:
                lines.append(f"unit {name} {their_field}: TripleA {a}, {game.ruleset.title} "
                             f"{b}; ours is used")
    return lines


def _initial(tmap: TripleAMap, game: Game, setup, game_id: str) -> GameState:
    state = initial_state(attrs.evolve(game, setup=setup), game_id)
    owners = dict(state.owners)
    for name, t in tmap.territories.items():
        space = our_space_name(name)
        if space in game.map.territories and not game.map[space].is_sea:
            power = _power(game, t.owner)
            if power is not None:
                owners[space] = power
            elif t.owner is None:
                owners.pop(space, None)
    ipcs = dict(state.ipcs)
    for player, pus in tmap.starting_pus.items():
        power = _power(game, player)
        if power is not None:
            ipcs[power] = pus
    return attrs.evolve(state, owners=owners, ipcs=ipcs)
