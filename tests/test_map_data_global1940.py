"""The Global 1940 data (maps/global1940): a cross-check against TripleA
ww2global40_2nd_edition.xml through the project's importer (``io.triplea.compare_with_game``),
the seed's own facts (digest ../shared/rules/aa-global1940-2e.md), and the income the data
gives at the start.

Every difference between our data and TripleA must be listed below with the ruling (a phrase
of a game.toml ruling) that explains it; a new difference, or a listed one that went away,
fails the test.
"""

from __future__ import annotations

from collections import Counter

import attrs
import pytest

from adjudicator.engine.income import IncomeContext, income_items, income_lines
from adjudicator.io.triplea import compare_with_game, read_triplea
from adjudicator.service.games import load_game

from reference_sources import SEEDS, TRIPLEA_MAPS

TRIPLEA_G40 = TRIPLEA_MAPS / "ww2global40_2nd_edition.xml"
PLAYERS = {"Germans": "germany", "Russians": "ussr", "Japanese": "japan", "Americans": "usa",
           "Chinese": "china", "British": "uk", "UK_Pacific": "uk", "Italians": "italy",
           "ANZAC": "anzac", "French": "france", "Dutch": "dutch", "Mongolians": "mongolia",
           "Neutral_Axis": "pro_axis", "Neutral_Allies": "pro_allies", "Neutral_True": "strict_neutral"}
UNIT_TYPES = {"armour": "tank", "aaGun": "aa_gun", "airfield": "air_base", "harbour": "naval_base",
              "factory_major": "major_factory", "factory_minor": "minor_factory"}
#: the seed's starting IPCs per economy [L226-L236] (digest §1.3)
SEED_IPCS = {"germany": 30, "ussr": 37, "japan": 26, "usa": 52, "china": 12, "uk": 28,
             "uk_pacific": 17, "italy": 10, "anzac": 10, "france": 19}
#: the neutral armies TripleA places at the start (ruling "neutral armies": placed when entered)
NEUTRAL_ARMIES = {
    "mongolia": {"Buyant-Uhaa": 2, "Dzavhan": 1, "Olgiy": 2, "Ulaanbaatar": 1},
    "pro_allies": {"Brazil": 3, "Greece": 4, "Persia": 2, "Yugoslavia": 5},
    "pro_axis": {"Bulgaria": 4, "Finland": 4, "Iraq": 3},
    "strict_neutral": {"Afghanistan": 4, "Angola": 2, "Argentina": 4, "Chile": 2, "Mozambique": 2,
                       "Portugal": 2, "Saudi Arabia": 2, "Spain": 6, "Sweden": 6, "Switzerland": 2,
                       "Turkey": 8, "Venezuela": 2},
}
KAMIKAZE = ("Sea Zone 6", "Sea Zone 17", "Sea Zone 19", "Sea Zone 20", "Sea Zone 22", "Sea Zone 35")
EUROPE_VCS = {"Ottawa", "Washington", "London", "Paris", "Berlin", "Rome", "Warsaw", "Leningrad",
              "Moscow", "Stalingrad", "Cairo"}


def _expected() -> dict[str, str]:
    found = {}
    for nation, armies in NEUTRAL_ARMIES.items():
        for space, n in armies.items():
            found[f"setup {nation} {space} infantry: TripleA {n}, ours 0"] = "(neutral armies)"
    for zone in KAMIKAZE:
        found[f"territory {zone} owner: TripleA 'japan', ours None"] = "(kamikaze zones)"
    found["territory Himalayas impassable: TripleA True, ours False"] = \
        "the Himalayas is passable in our data (tag impassable_stand_in)"
    found["territory Pripet Marshes: TripleA only"] = \
        "TripleA's Pripet Marshes is impassable and has no connection: it is no space here"
    return found


#: Every difference from TripleA, with the ruling that records it.
EXPECTED_DIFFERENCES = _expected()


@pytest.fixture(scope="module")
def game():
    return load_game("global1940")


@pytest.fixture(scope="module")
def raw():
    if not TRIPLEA_G40.is_file():
        pytest.skip(f"TripleA reference file not found: {TRIPLEA_G40}")
    return read_triplea(TRIPLEA_G40)


@pytest.fixture(scope="module")
def tmap(raw):
    """TripleA's facts as the importer compares them: its factory units (factory_major,
    factory_minor) are read as factories; UK_Pacific's money is checked apart (uk_pacific)."""
    factories = {p.territory: p.owner for p in raw.placements if p.unit_type.startswith("factory_")}
    return attrs.evolve(
        raw, placements=tuple(p for p in raw.placements if not p.unit_type.startswith("factory_")),
        factories=factories,
        starting_pus={p: n for p, n in raw.starting_pus.items() if p != "UK_Pacific"})


def test_every_difference_from_triplea_is_a_ruling(game, tmap):
    diffs = compare_with_game(tmap, game, players=PLAYERS, unit_types=UNIT_TYPES)
    assert sorted(set(diffs) - EXPECTED_DIFFERENCES.keys()) == [], "differences with no ruling"
    assert sorted(EXPECTED_DIFFERENCES.keys() - set(diffs)) == [], "listed differences that went away"
    rulings = " ".join(game.ruleset.rulings)
    for diff, phrase in EXPECTED_DIFFERENCES.items():
        assert phrase in rulings, f"{diff}: no ruling says {phrase!r}"


def test_connections_factories_money_and_the_powers_setup_equal_triplea(game, tmap, raw):
    """The parts with no expected difference at all, named so a failure says which."""
    diffs = compare_with_game(tmap, game, players=PLAYERS, unit_types=UNIT_TYPES)
    for part in ("connection", "canal", "starting IPCs"):
        assert [d for d in diffs if d.startswith(part)] == [], part
    assert [d for d in diffs if " factory: " in d or " capital: " in d or " ipc: " in d] == []
    powers = set(game.ruleset.powers)
    assert [d for d in diffs if d.startswith("setup") and d.split()[1] in powers] == []
    assert game.ruleset.powers["uk"].all_economies[1].starting_ipcs == raw.starting_pus["UK_Pacific"]


def test_major_and_minor_factories_equal_triplea(game, raw):
    theirs = Counter((PLAYERS[p.owner], p.territory, UNIT_TYPES[p.unit_type]) for p in raw.placements
                     if p.unit_type.startswith("factory_") for _ in range(p.quantity))
    ours = Counter((e.power, e.space, u) for e in game.setup for u, n in e.units.items()
                   if u.endswith("_factory") for _ in range(n))
    assert theirs == ours
    assert sum(1 for k in ours if k[2] == "major_factory") == 8
    assert sum(1 for k in ours if k[2] == "minor_factory") == 12


def test_unit_stats_equal_triplea(game, raw):
    ours = game.ruleset.units
    for name, theirs in raw.unit_types.items():
        unit = ours[UNIT_TYPES.get(name, name)]
        assert (unit.cost, unit.attack, unit.defense, unit.move) == \
            (theirs.cost, theirs.attack, theirs.defense, theirs.movement), name
    assert set(ours) == {UNIT_TYPES.get(n, n) for n in raw.unit_types}
    assert ours["factory_upgrade"].has("upgrade")      # a purchase, never a unit on the board


def test_convoy_zones_and_victory_cities_equal_triplea(game, raw):
    gmap = game.map
    convoy = {t.key for t in gmap.territories.values() if "convoy" in t.tags}
    assert len(convoy) == 34
    assert {"Sea Zone 6", "Sea Zone 19", "Sea Zone 109", "Sea Zone 119", "Sea Zone 125"} <= convoy  # [L1105-L1127]
    theirs = {n for n, t in raw.territories.items() if t.victory_cities}
    assert {t.key for t in gmap.land() if t.victory_city} == theirs


# --------------------------------------------------------------------------- the seed's facts

def test_seed_unit_values(game):
    """digest §5.1: cost / attack / defence / move of every unit."""
    table = {"infantry": (3, 1, 2, 1), "artillery": (4, 2, 2, 1), "mech_infantry": (4, 1, 2, 2),
             "tank": (6, 3, 3, 2), "aa_gun": (5, 0, 0, 1), "fighter": (10, 3, 4, 4),
             "tactical_bomber": (11, 3, 3, 4), "bomber": (12, 4, 1, 6), "battleship": (20, 4, 4, 2),
             "carrier": (16, 0, 2, 2), "cruiser": (12, 3, 3, 2), "destroyer": (8, 2, 2, 2),
             "submarine": (6, 2, 1, 2), "transport": (7, 0, 0, 2), "major_factory": (30, 0, 0, 0),
             "minor_factory": (12, 0, 0, 0), "air_base": (15, 0, 0, 0), "naval_base": (15, 0, 0, 0),
             "factory_upgrade": (20, 0, 0, 0)}   # digest §5.1 "upgrade to major for 20"
    u = game.ruleset.units
    assert {k: (v.cost, v.attack, v.defense, v.move) for k, v in u.items()} == table
    assert u["cruiser"].param("bombard", "value") == 3 and u["battleship"].param("bombard", "value") == 4
    assert "two_hits" in u["carrier"].abilities and "two_hits" in u["battleship"].abilities
    assert u["artillery"].param("support", "targets") == ("infantry", "mech_infantry")   # [L866-L876]
    assert u["tank"].param("support", "targets") == ("tactical_bomber",)
    assert u["fighter"].param("support", "targets") == ("tactical_bomber",)
    assert set(u["carrier"].cargo.only_types) == {"fighter", "tactical_bomber"}


def test_seed_turn_order_and_powers(game):
    """[L605-L616]: ten slots, the UK's two (Europe, Pacific) one military turn with two economies."""
    rules = game.ruleset
    assert rules.turn_order == ("germany", "ussr", "japan", "usa", "china", "uk", "italy", "anzac", "france")
    uk = rules.powers["uk"]
    assert [(e.key, e.capital) for e in uk.all_economies] == [("uk", "United Kingdom"), ("uk_pacific", "India")]
    assert {p.side for p in rules.powers.values()} == {"Axis", "Allies"}
    assert {k for k, p in rules.powers.items() if p.side == "Axis"} == {"germany", "italy", "japan"}
    assert set(rules.nations) == {"strict_neutral", "pro_axis", "pro_allies", "mongolia", "dutch"}
    assert rules.option("research") is False                                   # optional [L1141]


def test_starting_income_per_economy_is_the_seed_starting_ipcs(game):
    """[L226-L236]: each nation's starting IPCs equal the land it holds; UK Europe and UK Pacific
    apart by the economy:uk_pacific tag."""
    held = Counter()
    for t in game.map.land():
        if t.original_owner in game.ruleset.powers:
            held["uk_pacific" if "economy:uk_pacific" in t.tags else t.original_owner] += t.ipc
    assert dict(held) == SEED_IPCS
    start = {e.key: (p.starting_ipcs if i == 0 else e.starting_ipcs)
             for p in game.ruleset.powers.values() for i, e in enumerate(p.all_economies)}
    assert start == SEED_IPCS
    owners = {t.key: t.original_owner for t in game.map.land() if t.original_owner}
    paid = {}
    for key in game.ruleset.powers:
        inc = IncomeContext(game, owners, key)
        for economy, _, amount in income_lines(inc):
            paid[economy] = paid.get(economy, 0) + amount
    assert paid == SEED_IPCS                            # the income item territories_by_economy
    assert sum(a for _, a in income_items(game, owners, "uk")) == 28 + 17


def test_seed_map_facts(game):
    gmap = game.map
    for a, b in [("Alberta Saskatchewan Manitoba", "British Columbia"),
                 ("Central United States", "Western United States"), ("Southeast Mexico", "Mexico")]:
        assert gmap.adjacent(a, b), (a, b)                                      # [L193-L211]
    assert "Yukon" not in gmap.territories and "(no Yukon)" in " ".join(game.ruleset.rulings)
    for a, bs in {11: (64,), 28: (64,), 51: (64, 65, 66), 52: (66,)}.items():
        for b in bs:
            assert gmap.adjacent(f"Sea Zone {a}", f"Sea Zone {b}"), (a, b)      # [L193-L211]
    assert not gmap.adjacent("United Kingdom", "Sea Zone 111")                  # [L284]
    assert not gmap.adjacent("Western United States", "Sea Zone 1")
    assert gmap.adjacent("Sardinia", "Sea Zone 95") and gmap.adjacent("Sicily", "Sea Zone 95")
    assert gmap["Sardinia"].island and gmap["West Indies"].island and gmap["Japan"].island
    assert (gmap["United Kingdom"].ipc, gmap["Scotland"].ipc, gmap["Japan"].ipc) == (6, 2, 8)   # [L1117, L1123]
    canals = {c.name: (set(c.zones), set(c.controlled_by)) for c in gmap.canals}
    assert canals["Panama Canal"] == ({"Sea Zone 64", "Sea Zone 89"}, {"Central America"})     # [L304-L329]
    assert canals["Suez Canal"] == ({"Sea Zone 81", "Sea Zone 98"}, {"Egypt", "Trans-Jordan"})
    assert canals["Turkish Straits"] == ({"Sea Zone 99", "Sea Zone 100"}, {"Turkey"})
    assert canals["Strait of Gibraltar"] == ({"Sea Zone 91", "Sea Zone 92"}, {"Gibraltar"})
    assert canals["Danish Straits"] == ({"Sea Zone 112", "Sea Zone 113"}, {"Denmark"})
    assert {t.key for t in gmap.territories.values() if "kamikaze" in t.tags} == set(KAMIKAZE)
    assert {gmap[t].original_owner for t in ("Sweden", "Switzerland", "Turkey")} == {"strict_neutral"}
    assert {gmap[t].original_owner for t in ("Bulgaria", "Iraq")} == {"pro_axis"}             # [L331-L371]
    assert gmap["Yugoslavia"].original_owner == "pro_allies"
    mongolia = {"Olgiy", "Dzavhan", "Tsagaan Olom", "Central Mongolia", "Ulaanbaatar", "Buyant-Uhaa"}
    assert {t.key for t in gmap.land() if t.original_owner == "mongolia"} == mongolia          # [L433]
    assert {t.key for t in gmap.land() if t.impassable} == set()     # rulings: Himalayas, Pripet Marshes


def test_seed_capitals_and_victory_cities(game):
    gmap, rules = game.map, game.ruleset
    capitals = {p.capital_city for p in rules.powers.values()} - {"none"}
    assert capitals == {"Berlin", "Moscow", "Tokyo", "Washington", "London", "Rome", "Sydney", "Paris"}
    assert gmap["India"].capital_of == "uk" and gmap["India"].victory_city == "Calcutta"   # [L391-L425]
    assert gmap["Western United States"].capital_of is None                                # [L431]
    cities = {t.victory_city: t for t in gmap.land() if t.victory_city}
    assert len(cities) == 19                                                               # [L149]
    assert {c for c, t in cities.items() if "vc_europe" in t.tags} == EUROPE_VCS           # digest §1.4
    axis = {c for c, t in cities.items() if rules.powers.get(t.original_owner) and
            rules.powers[t.original_owner].side == "Axis"}
    assert axis == {"Berlin", "Rome", "Warsaw", "Shanghai", "Tokyo"}                       # [L149]


def test_seed_global_additions_to_the_setup(game):
    """[L185-L191]: Amur 6 Soviet infantry, Sakha 6 infantry and 2 AA guns, Buryatia 6
    infantry, Egypt 2 ANZAC infantry."""
    units = {(e.power, e.space): e.units for e in game.setup}
    assert units[("ussr", "Amur")].get("infantry") == 6
    assert units[("ussr", "Sakha")] == {"infantry": 6, "aa_gun": 2}
    assert units[("ussr", "Buryatia")].get("infantry") == 6
    assert units[("anzac", "Egypt")].get("infantry") == 2
    assert units[("china", "Szechwan")].get("fighter") == 1                    # Flying Tigers [L385]


def test_seed_is_where_the_digest_says():
    found = sorted(SEEDS.glob("004_*.txt"))
    if not found:
        pytest.skip(f"seed rulebook 004 not found in {SEEDS}")
    lines = [""] + found[0].read_text(encoding="utf-8").split("\n")
    assert "Amur" in "".join(lines[183:193]) and "Sakha" in "".join(lines[183:193])


def test_war_states_at_the_start(game):
    """digest §4.1 [L439-L599]: the new game's relations say who is not at war."""
    from adjudicator.io.loader import initial_state
    rules = game.ruleset
    relations = initial_state(game, "g40").relations
    at_war = {frozenset((a, b)) for a in rules.powers for b in rules.powers
              if a < b and rules.relation(a, b, relations) == "war"}
    assert at_war == {frozenset(p) for p in [
        ("germany", "uk"), ("germany", "anzac"), ("germany", "france"),
        ("italy", "uk"), ("italy", "anzac"), ("italy", "france"), ("japan", "china")]}
    for power in ("usa", "ussr"):
        assert all(rules.relation(power, other, relations) != "war" for other in rules.powers)
