"""Read the facts of a TripleA game XML (map, owners, production, victory cities, unit
stats, setup) and compare them with a loaded :class:`~adjudicator.game.Game`.

Only facts are read; nothing is converted into our data files automatically.  TripleA names
differ from ours in a few regular ways, handled by :func:`our_space_name` and the
``players``/``unit_types`` mappings of :func:`compare_with_game`.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import attrs

from ..model.errors import DataError
from ..model.game import Game

#: TripleA player name -> our power key (A&A 1941 / 1942 family).
DEFAULT_PLAYERS = {"Russians": "ussr", "Germans": "germany", "British": "uk",
                   "Japanese": "japan", "Americans": "usa"}
#: TripleA unit type -> our unit key, where they differ (factories are read apart: ``FACTORY``).
DEFAULT_UNIT_TYPES = {"armour": "tank", "aaGun": "aa_gun", "battleShip": "battleship"}
FACTORY = "factory"
_READ_ATTACHMENTS = {"territoryAttachment", "unitAttachment", "canalAttachment"}


@attrs.frozen
class TripleATerritory:
    name: str
    water: bool
    production: int = 0
    owner: str | None = None          # TripleA player name
    capital: str | None = None        # TripleA player name
    impassable: bool = False
    victory_cities: int = 0           # TripleA's victoryCity count (0 or 1 on the A&A maps)


@attrs.frozen
class TripleACanal:
    name: str
    zones: tuple[str, ...]
    land_territories: tuple[str, ...]


@attrs.frozen
class TripleAUnitType:
    """One unit type's numbers from its unitAttachment and the productionRule that buys it
    (``cost`` is None when no rule buys exactly one); ``options`` keeps every raw option."""

    name: str
    cost: int | None = None
    attack: int = 0
    defense: int = 0
    movement: int = 0
    options: dict[str, str] = attrs.field(factory=dict)


@attrs.frozen
class TripleAPlacement:
    territory: str
    unit_type: str
    owner: str
    quantity: int


@attrs.frozen
class TripleAMap:
    """Facts of one TripleA game file, in TripleA's own names."""

    name: str
    players: tuple[str, ...]                       # in turn order
    alliances: dict[str, str]                      # player -> alliance
    territories: dict[str, TripleATerritory]
    connections: frozenset[frozenset[str]]
    canals: tuple[TripleACanal, ...]
    placements: tuple[TripleAPlacement, ...]       # factories excluded
    factories: dict[str, str]                      # territory -> owning player
    starting_pus: dict[str, int]
    unit_types: dict[str, TripleAUnitType] = attrs.field(factory=dict)
    properties: dict[str, str] = attrs.field(factory=dict)     # the game options (propertyList)
    rule_attachments: dict[str, int] = attrs.field(factory=dict)   # other attachment kinds: count


def our_space_name(name: str) -> str:
    """TripleA's "12 Sea Zone" is our "Sea Zone 12"; land names are kept."""
    m = re.fullmatch(r"(\d+) Sea Zone", name)
    return f"Sea Zone {m.group(1)}" if m else name


def _options(att: ET.Element) -> dict[str, str]:
    return {o.get("name"): o.get("value") for o in att.iter("option")}


def read_triplea(path: str | Path) -> TripleAMap:
    """Parse a TripleA game XML file.  Raises :class:`DataError` if it cannot be read."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as exc:
        raise DataError(f"cannot read TripleA file {path}: {exc}") from exc
    info = root.find("info")
    territories: dict[str, TripleATerritory] = {}
    for t in root.iterfind("map/territory"):
        territories[t.get("name")] = TripleATerritory(t.get("name"), t.get("water") == "true")
    connections = frozenset(frozenset((c.get("t1"), c.get("t2"))) for c in root.iterfind("map/connection"))
    canal_zones: dict[str, list[str]] = {}
    canal_land: dict[str, tuple[str, ...]] = {}
    for att in root.iterfind("attachmentList/attachment"):
        target, opts = att.get("attachTo"), _options(att)
        if att.get("name") == "territoryAttachment" and target in territories:
            territories[target] = attrs.evolve(
                territories[target],
                production=int(opts.get("production", 0)),
                capital=opts.get("capital"),
                impassable=opts.get("isImpassable") == "true",
                victory_cities=int(opts.get("victoryCity", 0)))
        elif (att.get("name") or "").startswith("canalAttachment"):
            name = opts.get("canalName", att.get("name"))
            canal_zones.setdefault(name, []).append(target)
            canal_land[name] = tuple(opts.get("landTerritories", "").split(":"))
    unit_types = _unit_types(root)
    for o in root.iterfind("initialize/ownerInitialize/territoryOwner"):
        if o.get("territory") in territories:
            territories[o.get("territory")] = attrs.evolve(territories[o.get("territory")], owner=o.get("owner"))
    placements, factories = [], {}
    for p in root.iterfind("initialize/unitInitialize/unitPlacement"):
        if p.get("unitType") == FACTORY:
            factories[p.get("territory")] = p.get("owner")
        else:
            placements.append(TripleAPlacement(p.get("territory"), p.get("unitType"), p.get("owner"),
                                               int(p.get("quantity", 1))))
    return TripleAMap(
        name=info.get("name", "") if info is not None else "",
        players=tuple(p.get("name") for p in root.iterfind("playerList/player")),
        alliances={a.get("player"): a.get("alliance") for a in root.iterfind("playerList/alliance")},
        territories=territories,
        connections=connections,
        canals=tuple(TripleACanal(n, tuple(sorted(z)), canal_land[n]) for n, z in canal_zones.items()),
        placements=tuple(placements),
        factories=factories,
        starting_pus={r.get("player"): int(r.get("quantity"))
                      for r in root.iterfind("initialize/resourceInitialize/resourceGiven")
                      if r.get("resource") == "PUs"},
        unit_types=unit_types,
        properties={p.get("name"): p.get("value", (p.findtext("value") or "").strip())
                    for p in root.iterfind("propertyList/property") if p.get("name")},
        rule_attachments=_other_attachments(root),
    )


def _other_attachments(root: ET.Element) -> dict[str, int]:
    """How many attachments of each kind not read here (triggers, objectives, techs...)."""
    kinds: Counter = Counter()
    for att in root.iterfind("attachmentList/attachment"):
        m = re.match(r"[a-z][A-Za-z]*?Attachment", att.get("name") or "")
        kind = m.group(0) if m else (att.get("name") or "?")
        if kind not in _READ_ATTACHMENTS:
            kinds[kind] += 1
    return dict(sorted(kinds.items()))


def _unit_types(root: ET.Element) -> dict[str, TripleAUnitType]:
    """Unit types with their unitAttachment numbers and PU cost."""
    costs: dict[str, int] = {}
    for rule in root.iterfind("production/productionRule"):
        results, cost = rule.findall("result"), rule.find("cost")
        if (len(results) == 1 and results[0].get("quantity", "1") == "1" and cost is not None
                and cost.get("resource") == "PUs"):
            costs.setdefault(results[0].get("resourceOrUnit"), int(cost.get("quantity")))
    options: dict[str, dict[str, str]] = {u.get("name"): {} for u in root.iterfind("unitList/unit")}
    for att in root.iterfind("attachmentList/attachment"):
        if att.get("name") == "unitAttachment" and att.get("attachTo") in options:
            options[att.get("attachTo")].update(_options(att))
    return {name: TripleAUnitType(name, costs.get(name), int(opts.get("attack", 0)),
                                  int(opts.get("defense", 0)), int(opts.get("movement", 0)), opts)
            for name, opts in options.items()}


def compare_with_game(tmap: TripleAMap, game: Game, players: dict[str, str] | None = None,
                      unit_types: dict[str, str] | None = None) -> list[str]:
    """Every difference between TripleA's facts and ours, as sorted human-readable lines
    (empty when they agree).  A TripleA canal whose land territories are all impassable is
    a permanent closure and is compared with the map's closed zones."""
    players = players or DEFAULT_PLAYERS
    unit_types = unit_types or DEFAULT_UNIT_TYPES
    gmap, rules = game.map, game.ruleset
    power = lambda p: players.get(p, p) if p else None  # noqa: E731
    diffs: list[str] = []

    theirs = {our_space_name(n): t for n, t in tmap.territories.items()}
    factories = {our_space_name(n) for n in tmap.factories}
    factory_types = {k for k, u in rules.units.items() if "factory" in u.abilities}
    our_factories = {e.space for e in game.setup if factory_types & set(e.units)}
    for name in sorted(theirs.keys() - gmap.territories.keys()):
        diffs.append(f"territory {name}: TripleA only")
    for name in sorted(gmap.territories.keys() - theirs.keys()):
        diffs.append(f"territory {name}: ours only")
    for name in sorted(theirs.keys() & gmap.territories.keys()):
        t, ours = theirs[name], gmap[name]
        pairs = [("sea", t.water, ours.is_sea), ("ipc", t.production, ours.ipc),
                 ("owner", power(t.owner), ours.original_owner),
                 ("capital", power(t.capital), ours.capital_of),
                 ("impassable", t.impassable, ours.impassable),
                 ("factory", name in factories, name in our_factories)]
        diffs += [f"territory {name} {what}: TripleA {a!r}, ours {b!r}" for what, a, b in pairs if a != b]

    their_links = {frozenset(map(our_space_name, c)) for c in tmap.connections}
    our_links = {frozenset((a, b)) for a, ns in gmap.adjacency.items() for b in ns}
    for link in their_links ^ our_links:
        a, b = sorted(link)
        diffs.append(f"connection {a} - {b}: {'TripleA' if link in their_links else 'ours'} only")

    our_canals = {frozenset(c.zones): c for c in gmap.canals}
    for canal in tmap.canals:
        zones = frozenset(map(our_space_name, canal.zones))
        if all(tmap.territories.get(t, TripleATerritory(t, False)).impassable for t in canal.land_territories):
            if not zones & gmap.closed_zones:
                diffs.append(f"canal {canal.name}: TripleA closes {' / '.join(sorted(zones))} for good, ours leaves it open")
            continue
        ours = our_canals.pop(zones, None)
        if ours is None:
            diffs.append(f"canal {canal.name} ({' / '.join(sorted(zones))}): TripleA only")
        elif set(ours.controlled_by) != set(canal.land_territories):
            diffs.append(f"canal {canal.name} controlled_by: TripleA {sorted(canal.land_territories)}, "
                         f"ours {sorted(ours.controlled_by)}")
    diffs += [f"canal {c.name}: ours only" for c in our_canals.values()]

    their_units = Counter()
    for p in tmap.placements:
        their_units[(power(p.owner), our_space_name(p.territory), unit_types.get(p.unit_type, p.unit_type))] += p.quantity
    our_units = Counter()
    for e in game.setup:
        for unit, n in e.units.items():
            if unit not in factory_types:        # compared above, as TripleA reads them apart
                our_units[(e.power, e.space, unit)] += n
    for key in sorted(their_units.keys() | our_units.keys()):
        if their_units[key] != our_units[key]:
            diffs.append(f"setup {key[0]} {key[1]} {key[2]}: TripleA {their_units[key]}, ours {our_units[key]}")

    for player, pus in tmap.starting_pus.items():
        key = power(player)
        ours = rules.powers[key].starting_ipcs if key in rules.powers else None
        if ours != pus:
            diffs.append(f"starting IPCs {key}: TripleA {pus}, ours {ours}")
    return sorted(diffs)
