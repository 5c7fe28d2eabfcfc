"""The A&A Spring 1942 data files (maps/aa1942), read with tomllib: internal consistency, the seed's
own facts, and a cross-check against TripleA WW2v4.xml through the project's importer.

These tests read the TOML directly, apart from the loader.  Every difference
between our data and TripleA, and every place where a stat differs from the seed's literal text,
must be listed below with the ruling (a phrase of a game.toml ruling) that explains it.
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter, defaultdict
from itertools import combinations_with_replacement

import pytest

from adjudicator.io import paths

from reference_sources import SEEDS, TRIPLEA_MAPS
from adjudicator.io.triplea import (
    DEFAULT_PLAYERS,
    DEFAULT_UNIT_TYPES,
    FACTORY,
    our_space_name,
    read_triplea,
)

DATA = paths.MAPS_DIR / "aa1942"
TRIPLEA_1942 = TRIPLEA_MAPS / "WW2v4.xml"
STATS = ("cost", "attack", "defense", "move")

# --- the seed's facts (seed 000; line numbers as in shared/rules/aa1942-spring.md) ---
SEED_STARTING_IPCS = {"ussr": 24, "germany": 40, "uk": 30, "japan": 30, "usa": 42}     # [L148-L153]
SEED_VICTORY_CITIES = {                                                                # [L126]
    "Axis": {"Berlin", "Paris", "Rome", "Shanghai", "Manila", "Tokyo"},
    "Allies": {"Washington", "London", "Leningrad", "Moscow", "Calcutta", "Los Angeles"},
}
ROMANIAN_CITY = {"Rome": "Roma", "London": "Londra", "Moscow": "Moscova", "Calcutta": "Calcuta"}
SEED_NEUTRAL_EXAMPLES = ("Turkey", "Mongolia", "Sahara")                               # [L228]
UNIT_KEYS = ("infantry", "artillery", "tank", "aa_gun", "industrial_complex", "fighter", "bomber",
             "submarine", "transport", "destroyer", "cruiser", "carrier", "battleship")
KNOWN_ABILITIES = {
    "support", "blitz", "aa_fire", "noncombatant", "moves_only_noncombat", "captured_with_territory",
    "cannot_capture", "factory", "static", "carrier_based", "strategic_bomber", "surprise_strike",
    "submerge", "cannot_hit_air", "air_needs_anti_sub", "moves_through_enemy", "carries_land",
    "defenceless", "taken_last", "anti_sub", "surface_warship", "carries_air", "two_hits", "bombard",
}

# --- every difference from TripleA WW2v4, with the game.toml ruling that records it ---
NAME_RULING = "TripleA's territory 'Philipine Islands' is spelt 'Philippine Islands' here"
RECORDED_DIFFERENCES = {
    "seed": {
        "name Philipine Islands: ours Philippine Islands": NAME_RULING,
        "unit tank attack: TripleA 3, ours 5":
            "keeps the seed's literal values where the seed is consistent with itself: tank attack 5 [L727]",
        "unit submarine cost: TripleA 6, ours 8":
            "submarine cost 8 [L889], where TripleA WW2v4 and the 2009 English edition have 3 and 6",
    },
    "original": {
        "name Philipine Islands: ours Philippine Islands": NAME_RULING,
    },
}
# --- every seed-profile stat that is not the seed's literal text, with its ruling ---
SEED_CORRECTIONS = {
    ("carrier", "cost"): "is a verbatim copy of the bomber's [L799-L805]",
    ("carrier", "attack"): "is a verbatim copy of the bomber's [L799-L805]",
    ("carrier", "defense"): "is a verbatim copy of the bomber's [L799-L805]",
    ("carrier", "move"): "contradicts 'all naval units have only 2 moves' [L815]",
    ("submarine", "defense"): "defending submarines hit on '1' or less [L496]",
    ("aa_gun", "defense"): "the profile's 'Defense 1' [L739] is the value of its AA shot [L743]",
}


# --------------------------------------------------------------------------- fixtures, helpers

def _read(name: str) -> dict:
    with open(DATA / name, "rb") as f:
        return tomllib.load(f)


@pytest.fixture(scope="module")
def game():
    return _read("game.toml")


@pytest.fixture(scope="module")
def gmap():
    return _read("map.toml")


@pytest.fixture(scope="module")
def units():
    return {u["key"]: u for u in _read("units.toml")["unit"]}


@pytest.fixture(scope="module")
def setup():
    return _read("setup.toml")["setup"]


@pytest.fixture(scope="module")
def territories(gmap):
    return {t["name"]: t for t in gmap["territories"]}


@pytest.fixture(scope="module")
def adjacency(gmap):
    adj = defaultdict(set)
    for a, b in gmap["connections"]:
        adj[a].add(b)
        adj[b].add(a)
    return adj


@pytest.fixture(scope="module")
def tmap():
    if not TRIPLEA_1942.is_file():
        pytest.skip(f"TripleA reference file not found: {TRIPLEA_1942}")
    return read_triplea(TRIPLEA_1942)


@pytest.fixture(scope="module")
def seed_lines():
    found = sorted(SEEDS.glob("000_*.txt"))
    if not found:
        pytest.skip(f"seed rulebook 000 not found in {SEEDS}")
    return [""] + found[0].read_text(encoding="utf-8").split("\n")     # seed_lines[n] = line Ln


def fold(text: str) -> str:
    """The form the orders parser compares names in (mirrors adjudicator.io.names.normalize)."""
    text = re.sub(r"[.'\"`’]", "", text.casefold())
    text = re.sub(r"[\s_\-]+", " ", text).strip()
    m = (re.match(r"^(?:sea ?zone|sz|s z|zone)\s*0*(\d+)$", text)
         or re.match(r"^0*(\d+)\s*(?:sea ?zone|sz|s z)$", text))
    return f"sea zone {int(m.group(1))}" if m else text


def our_unit(triplea_type: str) -> str:
    return "industrial_complex" if triplea_type == FACTORY else DEFAULT_UNIT_TYPES.get(triplea_type, triplea_type)


def name_map(tmap, territories) -> dict[str, str]:
    """TripleA name -> our name: the same name (sea zones respelt), else the one territory that
    lists TripleA's name among its aliases."""
    result = {}
    for tname in tmap.territories:
        name = our_space_name(tname)
        if name not in territories:
            owners = [n for n, t in territories.items() if tname in t.get("aliases", [])]
            assert len(owners) == 1, f"TripleA territory {tname!r} matches {owners}"
            name = owners[0]
        result[tname] = name
    return result


def stats(unit: dict, profile: str) -> dict[str, int]:
    """A unit's numbers in a profile: the default ones, overridden by the profile's table."""
    values = {s: unit[s] for s in STATS}
    values.update(unit.get("profiles", {}).get(profile, {}))
    return values


def abilities(unit: dict) -> dict[str, dict]:
    """Ability name -> parameters ({} for a plain ability)."""
    result = {}
    for entry in unit["abilities"]:
        if isinstance(entry, str):
            result[entry] = {}
        else:
            assert isinstance(entry, dict) and len(entry) == 1, f"{unit['key']}: bad ability {entry!r}"
            (name, params), = entry.items()
            assert isinstance(params, dict), f"{unit['key']}: parameters of {name} must be a table"
            result[name] = params
    return result


def setup_units(setup) -> Counter:
    result = Counter()
    for e in setup:
        for unit, n in e["units"].items():
            result[(e["power"], e["territory"], unit)] += n
    return result


def closed_zones(game, gmap) -> set[str]:
    straits = gmap.get("straits")
    return set(straits["closed_zones"]) if straits and game["options"][straits["option"]] else set()


def find_ruling(game, phrase: str) -> str:
    hits = [r for r in game["rulings"] if phrase in r]
    assert len(hits) == 1, f"{len(hits)} rulings contain {phrase!r}"
    return hits[0]


def triplea_differences(game, gmap, territories, units, setup, tmap, profile: str) -> list[str]:
    """Every difference between TripleA's facts and ours, one line each."""
    names = name_map(tmap, territories)
    power = lambda p: DEFAULT_PLAYERS.get(p, p) if p else None
    diffs = [f"name {t}: ours {o}" for t, o in names.items() if our_space_name(t) != o]
    diffs += [f"territory {n}: ours only" for n in territories.keys() - set(names.values())]
    for tname, t in tmap.territories.items():
        ours = territories[names[tname]]
        pairs = [("sea", t.water, ours.get("sea", False)), ("ipc", t.production, ours.get("ipc", 0)),
                 ("owner", power(t.owner), ours.get("owner")), ("capital", power(t.capital), ours.get("capital")),
                 ("impassable", t.impassable, ours.get("impassable", False)),
                 ("victory city", t.victory_cities > 0, "victory_city" in ours)]
        diffs += [f"territory {names[tname]} {what}: TripleA {a!r}, ours {b!r}" for what, a, b in pairs if a != b]
    theirs = {frozenset(names[n] for n in c) for c in tmap.connections}
    ours = {frozenset(pair) for pair in gmap["connections"]}
    diffs += [f"connection {' - '.join(sorted(c))}: {'TripleA' if c in theirs else 'ours'} only" for c in theirs ^ ours]
    their_canals = {frozenset(names[z] for z in c.zones): {names[t] for t in c.land_territories} for c in tmap.canals
                    if not all(tmap.territories[t].impassable for t in c.land_territories)}
    our_canals = {frozenset(c["zones"]): set(c["controlled_by"]) for c in gmap.get("canal", [])}
    diffs += [f"canal {sorted(z)}: TripleA {their_canals.get(z)}, ours {our_canals.get(z)}"
              for z in their_canals.keys() | our_canals.keys() if their_canals.get(z) != our_canals.get(z)]
    their_closed = {names[z] for c in tmap.canals for z in c.zones
                    if all(tmap.territories[t].impassable for t in c.land_territories)}
    if their_closed != closed_zones(game, gmap):
        diffs.append(f"closed zones: TripleA {sorted(their_closed)}, ours {sorted(closed_zones(game, gmap))}")
    their_units = Counter()
    for p in tmap.placements:
        their_units[(power(p.owner), names[p.territory], our_unit(p.unit_type))] += p.quantity
    for territory, owner in tmap.factories.items():
        their_units[(power(owner), names[territory], "industrial_complex")] += 1
    our_units = setup_units(setup)
    diffs += [f"setup {k}: TripleA {their_units[k]}, ours {our_units[k]}"
              for k in their_units.keys() | our_units.keys() if their_units[k] != our_units[k]]
    powers = {p["key"]: p for p in game["power"]}
    diffs += [f"starting IPCs {power(p)}: TripleA {n}, ours {powers[power(p)]['starting_ipcs']}"
              for p, n in tmap.starting_pus.items() if powers[power(p)]["starting_ipcs"] != n]
    if [power(p) for p in tmap.players] != game["turn_order"]:
        diffs.append(f"turn order: TripleA {tmap.players}, ours {game['turn_order']}")
    diffs += [f"side {power(p)}: TripleA {a}, ours {powers[power(p)]['side']}"
              for p, a in tmap.alliances.items() if powers[power(p)]["side"] != a]
    their_types = {our_unit(u.name): u for u in tmap.unit_types.values()}
    diffs += [f"unit type {k}: {'TripleA' if k in their_types else 'ours'} only"
              for k in their_types.keys() ^ units.keys()]
    for key in their_types.keys() & units.keys():
        t, ours = their_types[key], stats(units[key], profile)
        theirs = {"cost": t.cost, "attack": t.attack, "defense": t.defense, "move": t.movement}
        diffs += [f"unit {key} {s}: TripleA {theirs[s]}, ours {ours[s]}" for s in STATS if theirs[s] != ours[s]]
    return sorted(diffs)


def seed_unit_profiles(seed_lines) -> dict[str, dict[str, tuple[int, int]]]:
    """The Unit Profiles section [L683-L946] as unit -> stat -> (value, line); "-" is 0."""
    headings = {"Infanterie": "infantry", "Artilerie": "artillery", "Tancuri": "tank",
                "Tunuri antiaeriene": "aa_gun", "Complexe industriale": "industrial_complex",
                "Avioane de luptă": "fighter", "Bombardiere": "bomber", "Cuirasate": "battleship",
                "Portavioane": "carrier", "Crucișătoare": "cruiser", "Distrugătoare": "destroyer",
                "Submarinele": "submarine", "Transportoare": "transport"}
    words = {"Cost": "cost", "Atac": "attack", "Apărare": "defense", "Mutare": "move"}
    start = next(n for n, line in enumerate(seed_lines) if line.strip() == "PROFILUL UNITĂȚILOR")
    result: dict[str, dict[str, tuple[int, int]]] = {}
    current = None
    for n in range(start, len(seed_lines)):
        line = seed_lines[n].strip()
        for heading, key in headings.items():
            if line == heading or line.startswith((heading + ":", heading + "**")):
                current = key
        for word, value in re.findall(r"(Cost|Atac|Apărare|Mutare):\**\s*(\d+|-)", line):
            if current is not None:
                result.setdefault(current, {}).setdefault(words[word], (0 if value == "-" else int(value), n))
    return result


# --------------------------------------------------------------------------- internal facts

def test_shape(gmap, territories):
    land = [t for t in territories.values() if not t.get("sea")]
    seas = [t for t in territories.values() if t.get("sea")]
    assert (len(land), len(seas), len(gmap["connections"])) == (81, 64, 350)
    assert len(territories) == len(gmap["territories"]), "a territory is defined twice"
    assert gmap["map_id"] == "aa1942"
    assert all(t["name"] == f"Sea Zone {n}" for n, t in enumerate(seas, 1))


def test_territory_fields(territories, game):
    powers = {p["key"] for p in game["power"]}
    allowed = {"name", "sea", "ipc", "owner", "capital", "victory_city", "island", "impassable", "aliases"}
    for name, t in territories.items():
        assert set(t) <= allowed, f"{name}: unknown fields {set(t) - allowed}"
        assert "factory" not in t                      # factories are industrial_complex units now
        if t.get("sea"):
            assert set(t) <= {"name", "sea", "aliases"}, name
        else:
            assert isinstance(t["ipc"], int) and t["ipc"] >= 0, name
            assert t.get("owner") in powers | {None}, name
            assert t.get("capital") in {None, t.get("owner")}, name


def test_every_referenced_name_exists(gmap, game, territories, units, setup):
    referenced = [n for pair in gmap["connections"] for n in pair]
    referenced += [n for c in gmap["canal"] for n in (*c["zones"], *c["controlled_by"])]
    referenced += gmap["straits"]["closed_zones"] + [p["capital"] for p in game["power"]]
    referenced += [e["territory"] for e in setup]
    assert [n for n in referenced if n not in territories] == []
    assert gmap["straits"]["option"] in game["options"]
    powers = [p["key"] for p in game["power"]]
    assert sorted(powers) == sorted(game["turn_order"]) and len(set(powers)) == 5
    assert {e["power"] for e in setup} <= set(powers)
    assert {u for e in setup for u in e["units"]} <= set(units)
    for pair in gmap["connections"]:
        assert len(pair) == 2 and pair[0] != pair[1], pair
    assert len({frozenset(p) for p in gmap["connections"]}) == len(gmap["connections"]), "a pair is listed twice"


def test_names_and_aliases_are_unambiguous(territories, units):
    forms = defaultdict(set)
    for name, t in territories.items():
        for word in (name, *t.get("aliases", [])):
            forms[fold(word)].add(name)
    clashes = {form: names for form, names in forms.items() if len(names) > 1}
    assert clashes == {}
    for name, t in territories.items():              # no land alias is its own name again (sea zones
        if t.get("sea"):                             # keep 1941's spellings "SZ 5", "5 Sea Zone")
            continue
        folded = [fold(w) for w in (name, *t.get("aliases", []))]
        assert len(folded) == len(set(folded)), f"{name}: repeated alias {folded}"
    unit_words = {fold(w) for u in units.values() for w in (u["key"], u["name"], *u["aliases"])}
    assert unit_words.isdisjoint(forms), unit_words & forms.keys()


def test_adjacency_is_symmetric_and_connected(territories, adjacency):
    assert set(adjacency) == set(territories)
    for name, neighbours in adjacency.items():
        assert neighbours, f"{name} has no neighbour"
        assert all(name in adjacency[n] for n in neighbours), name
    seen, todo = set(), ["Germany"]                  # one connected board (it wraps east-west [L214])
    while todo:
        here = todo.pop()
        if here not in seen:
            seen.add(here)
            todo.extend(adjacency[here] - seen)
    assert seen == set(territories)


def test_islands_have_no_land_neighbour(territories, adjacency):
    for name, t in territories.items():
        if not t.get("sea"):
            land_neighbours = {n for n in adjacency[name] if not territories[n].get("sea")}
            assert t.get("island", False) == (not land_neighbours), name
    assert not territories["United Kingdom"].get("island")          # borders Eire (ruling)
    assert territories["Japan"].get("island") and territories["Philippine Islands"].get("island")


def test_neutrals_are_impassable_ownerless_and_worthless(territories, game):
    land = {n: t for n, t in territories.items() if not t.get("sea")}
    neutrals = {n for n, t in land.items() if t.get("impassable")}
    assert neutrals == {n for n, t in land.items() if "owner" not in t}
    assert all(land[n]["ipc"] == 0 and "victory_city" not in land[n] for n in neutrals)
    assert set(SEED_NEUTRAL_EXAMPLES) <= neutrals                     # [L228]
    assert len(neutrals) == 16
    find_ruling(game, f"Neutral territories are the {len(neutrals)} land territories with no original owner")


def test_starting_ipcs_are_the_seed_values_and_the_territory_sums(territories, game):
    sums = Counter()
    for t in territories.values():
        if t.get("owner"):
            sums[t["owner"]] += t["ipc"]
    declared = {p["key"]: p["starting_ipcs"] for p in game["power"]}
    assert declared == SEED_STARTING_IPCS == dict(sums)
    ruling = find_ruling(game, "Starting IPCs are the seed's")
    assert f"({', '.join(str(sums[p]) for p in game['turn_order'])})" in ruling


def test_victory_cities_and_their_start_split(territories, game):
    cities = {t["victory_city"]: name for name, t in territories.items() if "victory_city" in t}
    assert set(cities) == SEED_VICTORY_CITIES["Axis"] | SEED_VICTORY_CITIES["Allies"] and len(cities) == 12
    side = {p["key"]: p["side"] for p in game["power"]}
    held = defaultdict(set)
    for city, name in cities.items():
        held[side[territories[name]["owner"]]].add(city)
    assert held == SEED_VICTORY_CITIES                                  # 6 / 6 [L126]
    for p in game["power"]:                                             # capitals are victory cities
        assert territories[p["capital"]].get("capital") == p["key"]
        assert territories[p["capital"]]["victory_city"] == p["capital_city"]
        assert fold(p["capital_city"]) in map(fold, territories[p["capital"]]["aliases"])
    ruling = find_ruling(game, "Victory cities [L126]")
    assert all(f"{city} = {name}" in ruling for city, name in cities.items())
    assert sum(1 for t in territories.values() if t.get("capital")) == 5


def test_seed_map_facts(territories, setup):
    assert territories["Southern Europe"]["ipc"] == 6                   # [L654]
    assert setup_units(setup)[("germany", "Southern Europe", "industrial_complex")] == 1
    assert territories["Gibraltar"]["ipc"] == 0                         # [L212]
    assert all(1 <= t["ipc"] <= 12 for t in territories.values() if t.get("owner") and t["ipc"])   # [L212]


def test_canals(gmap, adjacency):
    canals = {c["name"]: c for c in gmap["canal"]}
    assert set(canals) == {"Panama Canal", "Suez Canal"}
    assert set(canals["Panama Canal"]["zones"]) == {"Sea Zone 19", "Sea Zone 20"}       # [L236]
    assert set(canals["Suez Canal"]["zones"]) == {"Sea Zone 15", "Sea Zone 34"}         # [L236]
    assert canals["Panama Canal"]["controlled_by"] == ["Panama"]                        # [L238]
    assert set(canals["Suez Canal"]["controlled_by"]) == {"Anglo Egypt", "Trans-Jordan"}
    for c in canals.values():
        a, b = c["zones"]
        assert b in adjacency[a], f"{c['name']}: its zones must be joined for ships to pass"
        for land in c["controlled_by"]:
            assert {a, b} <= adjacency[land], f"{c['name']}: {land} must touch both zones"
    assert "Trans-Jordan" in adjacency["Anglo Egypt"]                   # land units cross Suez [L236]


def test_turkish_straits_close_the_black_sea_only_when_chosen(gmap, game, territories, adjacency):
    straits = gmap["straits"]
    assert straits["option"] == "turkish_straits" and straits["closed_zones"] == ["Sea Zone 16"]    # [L232]
    black_sea = adjacency["Sea Zone 16"]
    assert {"Ukraine S.S.R.", "Caucasus", "Turkey"} <= black_sea
    assert {n for n in black_sea if territories[n].get("sea")} == {"Sea Zone 14", "Sea Zone 15"}
    assert game["options"]["turkish_straits"] is False                  # an optional rule [L230]
    assert closed_zones(game, gmap) == set()
    assert closed_zones({**game, "options": {**game["options"], "turkish_straits": True}}, gmap) == {"Sea Zone 16"}


def test_setup_can_be_placed(setup, territories, units):
    seen = set()
    carriers, fighters = Counter(), Counter()
    for e in setup:
        where, power, placed = e["territory"], e["power"], e["units"]
        assert (power, where) not in seen, f"{power} {where} listed twice"
        seen.add((power, where))
        t = territories[where]
        assert not t.get("impassable"), where
        assert all(isinstance(n, int) and n > 0 for n in placed.values()), where
        for unit in placed:
            domain = units[unit]["domain"]
            if t.get("sea"):
                assert domain in ("sea", "air"), f"{unit} cannot start at sea ({where})"
            else:
                assert domain in ("land", "air"), f"{unit} cannot start on land ({where})"
        if not t.get("sea"):
            assert t["owner"] == power, f"{where} is not {power}'s at the start"
            assert placed.get("industrial_complex", 0) <= 1, where                   # [L664]
            if placed.get("industrial_complex"):
                assert t["ipc"] >= 1, where                                           # [L664]
        else:
            carriers[(power, where)] += placed.get("carrier", 0)
            fighters[(power, where)] += placed.get("fighter", 0)
            assert set(placed) & {"bomber"} == set(), where
    room = units["carrier"]["cargo"]["slots"]
    for key, n in fighters.items():
        assert n <= room * carriers[key], f"{key}: {n} fighters, {carriers[key]} carriers"


def test_units_table(units, game):
    assert tuple(units) == UNIT_KEYS
    profiles = _read("units.toml")
    assert profiles["default_profile"] == "original" and set(profiles["profiles"]) == {"seed", "original"}
    assert game["options"]["unit_stats"] == "original"          # the printed English values by default
    for key, u in units.items():
        assert set(abilities(u)) <= KNOWN_ABILITIES, key
        assert all(isinstance(u[s], int) and u[s] >= 0 for s in STATS), key
        assert set(u.get("profiles", {})) <= {"seed"}, key
        for override in u.get("profiles", {}).values():
            assert set(override) <= set(STATS) and override, key
            assert all(override[s] != u[s] for s in override), f"{key}: override equal to the default value"
        if u["domain"] == "sea":
            assert u["move"] == 2, key                                          # [L815]
    assert abilities(units["artillery"])["support"] == {"targets": ["infantry"], "attack": 1, "count": 1}
    assert units["carrier"]["cargo"] == {"domain": "air", "slots": 2, "only_types": ["fighter"]}
    cargo = units["transport"]["cargo"]
    assert (cargo["domain"], cargo["slots"], cargo["large_slots"], cargo["except_types"]) == \
        ("land", 2, 1, ["industrial_complex"])
    assert [k for k, u in units.items() if u.get("cargo_size") == "small"] == ["infantry"]


# --------------------------------------------------------------------------- against the seed text

def test_seed_constants_are_the_seed_text(seed_lines):
    romanian = {"ussr": "Uniunea Sovietică", "germany": "Germania", "uk": "Marea Britanie",
                "japan": "Japonia", "usa": "Statele Unite"}
    for key, name in romanian.items():
        row = next(line for line in seed_lines[148:154] if line.startswith(name + "\t"))
        assert int(row.split("\t")[1]) == SEED_STARTING_IPCS[key], row
    axis_part, allies_part = seed_lines[126].split("iar Aliații")
    for side, text in (("Axis", axis_part), ("Allies", allies_part)):
        for city in SEED_VICTORY_CITIES[side]:
            assert ROMANIAN_CITY.get(city, city) in text, city
    for neutral, romanian_name in zip(SEED_NEUTRAL_EXAMPLES, ("Turcia", "Mongolia", "Sahara")):
        assert romanian_name in seed_lines[228], neutral
    assert "zona maritimă 16" in seed_lines[232]
    assert all(f"zona maritimă {n}" in seed_lines[236] for n in (20, 19, 15, 34))


def test_seed_profile_is_the_seed_text_except_recorded_corrections(seed_lines, units, game):
    literal = seed_unit_profiles(seed_lines)
    assert set(literal) == set(UNIT_KEYS)
    corrections = {}
    for key, u in units.items():
        ours = stats(u, "seed")
        for s in STATS:
            value, line = literal[key][s]
            if ours[s] != value:
                corrections[(key, s)] = f"L{line}: seed {value}, ours {ours[s]}"
    assert set(corrections) == set(SEED_CORRECTIONS), corrections
    for phrase in SEED_CORRECTIONS.values():
        find_ruling(game, phrase)
    assert literal["tank"]["attack"][0] == stats(units["tank"], "seed")["attack"] == 5         # [L727]
    assert literal["submarine"]["cost"][0] == stats(units["submarine"], "seed")["cost"] == 8   # [L889]
    assert (units["tank"]["attack"], units["submarine"]["cost"]) == (3, 6)     # the English default


# --------------------------------------------------------------------------- against TripleA WW2v4

def test_connections_equal_triplea(gmap, territories, tmap):
    names = name_map(tmap, territories)
    theirs = {frozenset(names[n] for n in c) for c in tmap.connections}
    assert {frozenset(p) for p in gmap["connections"]} == theirs


def test_territories_equal_triplea(territories, tmap):
    names = name_map(tmap, territories)
    assert sorted(names.values()) == sorted(territories)
    for tname, t in tmap.territories.items():
        ours = territories[names[tname]]
        assert ours.get("sea", False) == t.water, tname
        assert ours.get("ipc", 0) == t.production, tname
        assert ours.get("owner") == DEFAULT_PLAYERS.get(t.owner), tname
        assert ours.get("capital") == DEFAULT_PLAYERS.get(t.capital), tname
        assert ours.get("impassable", False) == t.impassable, tname
        assert ("victory_city" in ours) == (t.victory_cities > 0), tname


def test_canals_equal_triplea(gmap, territories, tmap):
    names = name_map(tmap, territories)
    theirs = {frozenset(names[z] for z in c.zones): {names[t] for t in c.land_territories} for c in tmap.canals}
    assert {frozenset(c["zones"]): set(c["controlled_by"]) for c in gmap["canal"]} == theirs


def test_setup_equals_triplea(setup, territories, tmap):
    names = name_map(tmap, territories)
    theirs = Counter()
    for p in tmap.placements:
        theirs[(DEFAULT_PLAYERS[p.owner], names[p.territory], our_unit(p.unit_type))] += p.quantity
    for territory, owner in tmap.factories.items():
        theirs[(DEFAULT_PLAYERS[owner], names[territory], "industrial_complex")] += 1
    assert setup_units(setup) == theirs


def test_starting_ipcs_turn_order_and_sides_equal_triplea(game, tmap):
    powers = {p["key"]: p for p in game["power"]}
    assert {DEFAULT_PLAYERS[p]: n for p, n in tmap.starting_pus.items()} == \
        {k: p["starting_ipcs"] for k, p in powers.items()}
    assert [DEFAULT_PLAYERS[p] for p in tmap.players] == game["turn_order"]
    assert {DEFAULT_PLAYERS[p]: a for p, a in tmap.alliances.items()} == {k: p["side"] for k, p in powers.items()}


def test_original_profile_equals_triplea(units, tmap):
    theirs = {our_unit(u.name): (u.cost, u.attack, u.defense, u.movement) for u in tmap.unit_types.values()}
    ours = {k: tuple(stats(u, "original").values()) for k, u in units.items()}
    assert ours == theirs


def test_abilities_match_triplea_unit_flags(units, tmap):
    """Each TripleA unit flag and the ability we give for it appear on the same units."""
    flags = {our_unit(u.name): u.options for u in tmap.unit_types.values()}
    pairs = {"canBlitz": "blitz", "artillery": "support", "isAA": "aa_fire", "isFactory": "factory",
             "carrierCost": "carrier_based", "isStrategicBomber": "strategic_bomber",
             "isSub": "surprise_strike", "isDestroyer": "anti_sub", "canBombard": "bombard",
             "carrierCapacity": "carries_air"}
    for flag, ability in pairs.items():
        theirs = {k for k, o in flags.items() if o.get(flag, "false") != "false"}
        assert theirs == {k for k, u in units.items() if ability in abilities(u)}, (flag, ability)
    assert {k for k, o in flags.items() if o.get("hitPoints") == "2"} == \
        {k for k, u in units.items() if "two_hits" in abilities(u)}
    assert {k for k, o in flags.items() if o.get("isSea") == "true" and "transportCapacity" in o} == \
        {k for k, u in units.items() if "carries_land" in abilities(u)}
    for key, u in units.items():                     # TripleA bombards with the attack value
        if "bombard" in abilities(u):
            assert abilities(u)["bombard"]["value"] == int(flags[key]["attack"]) == u["attack"], key
    fighter_cost = int(flags["fighter"]["carrierCost"])
    assert units["carrier"]["cargo"]["slots"] == int(flags["carrier"]["carrierCapacity"]) // fighter_cost


def test_transport_capacity_matches_triplea(units, tmap):
    """Our rule (1 unit of any type + 1 infantry, no factory) allows exactly the loads that fit
    TripleA's transportCapacity with its transportCosts."""
    flags = {our_unit(u.name): u.options for u in tmap.unit_types.values()}
    capacity = int(flags["transport"]["transportCapacity"])
    cargo = units["transport"]["cargo"]
    land = [k for k, u in units.items() if u["domain"] == "land"]

    def ours(load):
        return (all(k not in cargo["except_types"] for k in load) and len(load) <= cargo["slots"]
                and sum(units[k].get("cargo_size") == "large" for k in load) <= cargo["large_slots"])

    def theirs(load):
        return (all("transportCost" in flags[k] for k in load)
                and sum(int(flags[k]["transportCost"]) for k in load) <= capacity)

    loads = [(k,) for k in land] + list(combinations_with_replacement(land, 2))
    assert [ld for ld in loads if ours(ld) != theirs(ld)] == []


@pytest.mark.parametrize("profile", ["seed", "original"])
def test_every_difference_from_triplea_is_a_recorded_ruling(game, gmap, territories, units, setup, tmap, profile):
    diffs = triplea_differences(game, gmap, territories, units, setup, tmap, profile)
    assert diffs == sorted(RECORDED_DIFFERENCES[profile])
    for phrase in RECORDED_DIFFERENCES[profile].values():
        find_ruling(game, phrase)


def test_differences_are_found(game, gmap, territories, units, setup, tmap):
    """The difference finder is not blind: a changed fact of each kind shows up."""
    edited_map = {**gmap, "connections": gmap["connections"][1:]}
    edited_territories = {**territories, "Gibraltar": {**territories["Gibraltar"], "ipc": 1}}
    edited_setup = setup[1:]
    edited_game = {**game, "options": {**game["options"], "turkish_straits": True}}
    diffs = triplea_differences(edited_game, edited_map, edited_territories, units, edited_setup, tmap, "original")
    kinds = {d.split()[0] for d in diffs}
    assert {"connection", "territory", "setup", "closed"} <= kinds


def test_victory_rules(game, territories):
    cities = sum(1 for t in territories.values() if "victory_city" in t)
    for table, count, option in (("victory", 9, None), ("total_victory", cities, "total_victory")):
        rules = game[table]
        assert sorted(r["side"] for r in rules) == ["Allies", "Axis"]
        for r in rules:
            assert r["check"] == "end_of_round"                               # after the US turn [L126]
            assert r["condition"] == {"controls": "victory_cities", "count": count}
        if option:
            assert game["options"][option] is False                           # standard by default [L128]
    assert game["id"] == "aa1942" and game["dice_sides"] == 6


def test_rulings_are_distinct(game):
    rulings = game["rulings"]
    assert len(rulings) == len(set(rulings)) and all(len(r) > 40 for r in rulings)
