"""The Axis & Allies Europe data (maps/europe1999): a cross-check against TripleA
europe_improved.xml through the project's importer (``io.triplea.compare_with_game``), the
seed's own facts, and the income the data gives at the start.

Every difference between our data and TripleA must be listed below with the ruling (a phrase
of a game.toml ruling) that explains it; a new difference, or a listed one that went away,
fails the test.
"""

from __future__ import annotations

import attrs
import pytest

from adjudicator.engine.convoys import convoy_centers
from adjudicator.engine.income import income_items
from adjudicator.io.triplea import DEFAULT_UNIT_TYPES, FACTORY, compare_with_game, read_triplea
from adjudicator.service.games import load_game

from reference_sources import SEEDS, TRIPLEA_MAPS

TRIPLEA_EUROPE = TRIPLEA_MAPS / "europe_improved.xml"
PLAYERS = {"Germans": "germany", "Russians": "ussr", "British": "uk", "Americans": "usa",
           "Middle_East": "middle_east"}      # the nation that does not play [L222]
MIDDLE_EAST = ("Egypt", "Iran", "Iraq", "Palestine", "Syria", "Trans-Jordan")
NEUTRALS = ("Eire", "Saudi Arabia", "Spain", "Spanish Morocco", "Sweden", "Switzerland", "Turkey")
CONVOYS = {"British Convoy 1": ("uk", 3), "British Convoy 2": ("uk", 3), "British Convoy 3": ("uk", 5),
           "British Convoy 4": ("uk", 5), "U.S. Convoy 1": ("usa", 4), "U.S. Convoy 2": ("usa", 6),
           "Soviet Convoy": ("ussr", 4)}

NEUTRAL_RULING = "here they are impassable (no entry, no overflight"
STRAITS_RULING = "no ship passes between the Black Sea and the Aegean Sea"


def _expected() -> dict[str, str]:
    found = {}
    for t in NEUTRALS:
        found[f"territory {t} impassable: TripleA False, ours True"] = NEUTRAL_RULING
    found["territory Saudi Arabia capital: TripleA 'middle_east', ours None"] = \
        "TripleA's 'capital' of its Middle_East player on Saudi Arabia is not a capital here"
    found["canal The Bosphorus (Aegean Sea / Black Sea): TripleA only"] = STRAITS_RULING
    return found


#: Every difference from TripleA europe_improved, with the ruling that records it.
EXPECTED_DIFFERENCES = _expected()


@pytest.fixture(scope="module")
def game():
    return load_game("europe1999")


@pytest.fixture(scope="module")
def tmap():
    if not TRIPLEA_EUROPE.is_file():
        pytest.skip(f"TripleA reference file not found: {TRIPLEA_EUROPE}")
    raw = read_triplea(TRIPLEA_EUROPE)
    # TripleA's "X Sea Zone" is our "X" (map.toml keeps TripleA's name as an alias)
    rename = lambda n: n[:-len(" Sea Zone")] if n.endswith(" Sea Zone") else n  # noqa: E731
    return attrs.evolve(
        raw,
        territories={rename(n): attrs.evolve(t, name=rename(n)) for n, t in raw.territories.items()},
        connections=frozenset(frozenset(map(rename, c)) for c in raw.connections),
        canals=tuple(attrs.evolve(c, zones=tuple(map(rename, c.zones))) for c in raw.canals),
        placements=tuple(attrs.evolve(p, territory=rename(p.territory)) for p in raw.placements),
        factories={rename(n): o for n, o in raw.factories.items()})


def test_every_difference_from_triplea_is_a_ruling(game, tmap):
    diffs = compare_with_game(tmap, game, players=PLAYERS)
    assert sorted(set(diffs) - EXPECTED_DIFFERENCES.keys()) == [], "differences with no ruling"
    assert sorted(EXPECTED_DIFFERENCES.keys() - set(diffs)) == [], "listed differences that went away"
    rulings = " ".join(game.ruleset.rulings)
    for diff, phrase in EXPECTED_DIFFERENCES.items():
        assert phrase in rulings, f"{diff}: no ruling says {phrase!r}"


def test_connections_setup_factories_and_money_equal_triplea(game, tmap):
    """The parts with no expected difference at all, named so a failure says which."""
    diffs = compare_with_game(tmap, game, players=PLAYERS)
    for part in ("connection", "setup", "starting IPCs"):
        assert [d for d in diffs if d.startswith(part)] == [], part
    assert [d for d in diffs if " factory: " in d] == []
    assert tmap.players[:4] == ("Germans", "Russians", "British", "Americans")
    assert tuple(PLAYERS[p] for p in tmap.players[:4]) == game.ruleset.turn_order


def test_unit_stats_equal_triplea(game, tmap):
    ours = game.ruleset.units
    for name, theirs in tmap.unit_types.items():
        key = "industrial_complex" if name == FACTORY else DEFAULT_UNIT_TYPES.get(name, name)
        unit = ours[key]
        assert (unit.cost, unit.attack, unit.defense, unit.move) == \
            (theirs.cost, theirs.attack, theirs.defense, theirs.movement), key
    assert set(ours) == {"industrial_complex" if n == FACTORY else DEFAULT_UNIT_TYPES.get(n, n)
                         for n in tmap.unit_types}


def test_triplea_settings_the_data_follows(game, tmap):
    """TripleA's unit options behind our abilities (digest §10 and editions-needs B08, B11, C15)."""
    opts = {n: u.options for n, u in tmap.unit_types.items()}
    assert opts["destroyer"].get("bombard") == "2"
    assert game.ruleset.units["destroyer"].param("bombard", "value") == 2
    assert opts["submarine"].get("isFirstStrike") == "true"
    assert "attacker_first_strike" in game.ruleset.units["submarine"].abilities
    assert opts["transport"].get("transportCapacity") == "4"
    assert opts["armour"].get("transportCost") == "3"
    assert {opts[u].get("transportCost") for u in ("infantry", "artillery", "aaGun")} == {"2"}


# --------------------------------------------------------------------------- the seed's facts

def test_seed_unit_values(game):
    """The values the seed states (digest §4.1): cost/attack/defence/move where given."""
    u = game.ruleset.units
    assert (u["infantry"].cost, u["infantry"].attack, u["infantry"].defense) == (3, 1, 2)   # [L725]
    assert (u["artillery"].attack, u["artillery"].defense) == (2, 2)                         # [L733]
    assert (u["tank"].attack, u["tank"].defense, u["tank"].move) == (3, 2, 2)                # [L729]
    assert (u["fighter"].cost, u["fighter"].attack, u["fighter"].defense, u["fighter"].move) == (12, 3, 4, 4)
    assert u["bomber"].move == 6 and u["bomber"].cost > u["fighter"].cost                    # [L737]
    assert (u["submarine"].attack, u["submarine"].defense) == (2, 2)                         # [L781]
    assert (u["battleship"].attack, u["battleship"].defense) == (4, 4)                       # [L775]
    assert u["battleship"].param("bombard", "value") == 4                                    # [L551]
    assert u["transport"].move == 2 and u["transport"].attack == 0 and u["transport"].defense > 0
    assert not u["industrial_complex"].buyable                                               # [L80]


def test_seed_map_facts(game):
    gmap = game.map
    assert gmap.adjacent("Germany", "Poland")                                    # [L242]
    assert gmap.adjacent("South Atlantic", "Central Atlantic")                   # [L242]
    assert sorted(t.key for t in gmap.land() if t.impassable) == list(NEUTRALS)  # seven [L226]
    owners = sorted(c.owner for c in convoy_centers(game))
    assert owners == ["uk"] * 4 + ["usa"] * 2 + ["ussr"]                         # [L216, L627]
    assert {c.zone: (c.owner, c.ipc) for c in convoy_centers(game)} == CONVOYS
    assert sum(gmap[t].ipc for t in MIDDLE_EAST) == 8                             # [L699]
    assert {t.key for t in gmap.land() if "middle_east" in t.tags} == set(MIDDLE_EAST)
    assert {t.capital_of for t in gmap.land() if t.capital_of} == set(game.ruleset.powers)  # [L192]
    factories = {e.space for e in game.setup if "industrial_complex" in e.units}
    assert "Canada" in factories                                                  # [L683]
    assert factories == {t.key for t in gmap.land() if "original_factory" in t.tags}
    assert gmap.closed_zones == {"Black Sea"}                                     # [L226]
    assert {n for n in gmap.neighbours("Black Sea") if gmap[n].is_sea} == {"Aegean Sea"}


def test_starting_income_is_the_seed_starting_ipcs():
    """[L255-L275]: each power's starting IPCs equal its production level, convoys included."""
    game = load_game("europe1999")
    owners = {t.key: t.original_owner for t in game.map.land() if t.original_owner}
    for key, power in game.ruleset.powers.items():
        items = dict(income_items(game, owners, key))
        assert sum(items.values()) == power.starting_ipcs == {"germany": 40, "ussr": 24, "uk": 25,
                                                              "usa": 40}[key], (key, items)
    assert dict(income_items(game, owners, "uk"))["convoy_centers"] == 16


def test_seed_is_where_the_digest_says():
    found = sorted(SEEDS.glob("001_*.txt"))
    if not found:
        pytest.skip(f"seed rulebook 001 not found in {SEEDS}")
    lines = [""] + found[0].read_text(encoding="utf-8").split("\n")
    assert "(Germania) riceve 12 IPC" in lines[250]                   # special cash [L250]
    assert "destroyer" in lines[805] and "colpo da “2” o meno" in lines[805]  # the DD's shot [L805]
