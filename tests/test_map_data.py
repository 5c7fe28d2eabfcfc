"""The A&A 1941 data files, the loader's validation, and the TripleA cross-check."""

from __future__ import annotations

from collections import Counter

import pytest

from adjudicator.model.errors import DataError
from adjudicator.io.loader import content_hash
from adjudicator.service.games import initial_state, load_game
from adjudicator.model.units import Domain

from reference_sources import TRIPLEA_MAPS

TRIPLEA_1941 = TRIPLEA_MAPS / "WW2v6_1941.xml"

SEED_SOVIET_SETUP = {                       # seed [L77-L83], exactly
    "Russia": {"infantry": 3, "tank": 1, "fighter": 1},
    "Archangel": {"infantry": 3},
    "Karelia": {"infantry": 3},
    "Caucasus": {"infantry": 3, "tank": 1},
    "Siberia": {"infantry": 3},
    "Sea Zone 4": {"submarine": 1},
}
STARTING_IPCS = {"ussr": 7, "germany": 12, "uk": 12, "japan": 9, "usa": 17}   # [L37-L43]
SEED_ADJACENCIES = [
    ("Western Canada", "Eastern Canada"), ("Western United States", "Eastern United States"),
    ("Mexico", "East Mexico"),                                             # [L115-L117]
    ("Sea Zone 35", "Sea Zone 21"), ("Sea Zone 36", "Sea Zone 20"), ("Sea Zone 41", "Sea Zone 19"),
    ("Sea Zone 6", "Sea Zone 8"),                                          # FAQ [L815-L817]
    ("Middle East", "Anglo-Egypt Sudan"),                                  # [L145]
    ("Germany", "Sea Zone 5"),                                             # [L591]
    ("Hawaiian Islands", "Sea Zone 40"), ("Sea Zone 40", "Sea Zone 37"),
    ("Sea Zone 37", "Sea Zone 33"), ("Sea Zone 33", "Australia"),          # [L673]
    ("Sea Zone 40", "Sea Zone 39"), ("Sea Zone 39", "Sea Zone 38"),
    ("Philippine Islands", "Sea Zone 38"),                                 # [L677]
    ("Sea Zone 19", "Sea Zone 12"), ("Sea Zone 17", "Sea Zone 28"),        # canals [L145]
]


@pytest.fixture(scope="module")
def game():
    return load_game("aa1941")


@pytest.fixture(scope="module")
def state(game):
    return initial_state(game, "test-game")


@pytest.fixture(scope="module")
def tmap():
    if not TRIPLEA_1941.is_file():
        pytest.skip(f"TripleA reference file not found: {TRIPLEA_1941}")
    from adjudicator.io.triplea import read_triplea
    return read_triplea(TRIPLEA_1941)


def units_by_space(state, power, factories: bool = False):
    """Counts per space; the factories (printed on the map, not in the seed's unit charts)
    only when asked for."""
    result: dict[str, Counter] = {}
    for space, units in state.units.items():
        for unit in units:
            for u in (unit, *unit.cargo):
                if u.owner == power and (factories or u.type != "industrial_complex"):
                    result.setdefault(space, Counter())[u.type] += 1
    return result


# --------------------------------------------------------------------------- the 1941 data

def test_map_loads_with_expected_shape(game):
    gmap = game.map
    assert game.game_id == "aa1941" and gmap.map_id == "aa1941"
    assert len(list(gmap.land())) == 71 and len(list(gmap.seas())) == 49
    neutrals = {t.key for t in gmap.land() if t.impassable}
    assert len(neutrals) == 14 and {"Turkey", "Mongolia", "Sahara"} <= neutrals     # [L139]
    assert neutrals == {t.key for t in gmap.land() if t.original_owner is None}
    assert all(t.ipc == 0 for t in gmap.land() if t.impassable)
    assert game.content_hash.startswith("sha256:") and len(game.content_hash) == 7 + 64
    assert game.ruleset.turn_order == ("ussr", "germany", "uk", "japan", "usa")
    assert game.ruleset.dice_sides == 6 and game.ruleset.rulings


def test_soviet_setup_is_exactly_the_seed_chart(state):
    soviet = units_by_space(state, "ussr")
    assert soviet == {space: Counter(units) for space, units in SEED_SOVIET_SETUP.items()}
    totals = sum(soviet.values(), Counter())
    assert totals == Counter(infantry=15, tank=2, fighter=1, submarine=1)


@pytest.mark.parametrize("power", list(STARTING_IPCS))
def test_starting_income_is_seed_value_and_territory_sum(game, state, power):
    income = sum(t.ipc for t in game.map.land() if state.owner(t.key) == power)
    assert income == STARTING_IPCS[power] == game.ruleset.powers[power].starting_ipcs
    assert state.ipcs[power] == STARTING_IPCS[power]


def test_adjacency_is_symmetric_and_connected(game):
    gmap = game.map
    for key in gmap.territories:
        assert gmap.neighbours(key), f"{key} has no neighbour"
        for n in gmap.neighbours(key):
            assert gmap.adjacent(n, key), f"{key} -> {n} is one-way"
    assert set(gmap.adjacency) == set(gmap.territories)


@pytest.mark.parametrize("a,b", SEED_ADJACENCIES)
def test_seed_adjacencies_present(game, a, b):
    assert game.map.adjacent(a, b) and game.map.adjacent(b, a)


def test_capitals_and_victory(game):
    rules = game.ruleset
    capitals = {p.key: p.capital for p in rules.powers.values()}
    assert capitals == {"ussr": "Russia", "germany": "Germany", "uk": "United Kingdom",
                        "japan": "Japan", "usa": "Eastern United States"}
    factories = {e.space for e in game.setup if "industrial_complex" in e.units}
    for power, territory in capitals.items():
        assert game.map[territory].capital_of == power and territory in factories
    allies, axis = sorted(rules.victory, key=lambda v: v.side)
    assert (allies.side, allies.check, set(allies.condition["controls"]),
            allies.condition["count"]) == ("Allies", "after:japan", {"Germany", "Japan"}, 2)
    assert (axis.side, axis.check, set(axis.condition["controls"]), axis.condition["count"]) == \
        ("Axis", "after:usa", {"Eastern United States", "United Kingdom", "Russia"}, 2)


def test_short_game_option_switches_victory_rules():
    short = load_game("aa1941", options={"short_game": True})
    axis = next(v for v in short.ruleset.victory if v.side == "Axis")
    assert axis.condition["count"] == 1 and "Russia" not in axis.condition["controls"]  # [L23, L617]


def test_black_sea_closed_by_default_and_open_when_option_off(game):
    gmap = game.map
    # Ruling: the seed's "zone 16" straits [L141] are the Black Sea, which is Sea Zone 18 here.
    assert {"Ukraine", "Caucasus", "Turkey"} <= gmap.neighbours("Sea Zone 18")
    assert [n for n in gmap.neighbours("Sea Zone 18") if gmap[n].is_sea] == ["Sea Zone 17"]
    assert game.ruleset.option("turkish_straits") is True
    assert gmap.closed_zones == {"Sea Zone 18"}
    assert "Sea Zone 16" not in gmap.closed_zones            # central Mediterranean
    opened = load_game("aa1941", options={"turkish_straits": False})
    assert opened.map.closed_zones == frozenset()


def test_canals(game):
    panama = game.map.canal_between("Sea Zone 12", "Sea Zone 19")
    suez = game.map.canal_between("Sea Zone 28", "Sea Zone 17")
    assert panama is not None and set(panama.controlled_by) == {"Central America"}
    assert suez is not None and set(suez.controlled_by) == {"Middle East", "Anglo-Egypt Sudan"}
    assert len(game.map.canals) == 2


def test_islands(game):
    gmap = game.map
    for name in ("Hawaiian Islands", "Philippine Islands", "Iceland", "Japan", "Wake Island"):
        assert gmap[name].island, name
    for name in ("United Kingdom", "Germany", "Eastern Canada"):
        assert not gmap[name].island, name


def test_unit_table_matches_seed(game):
    stats = {k: (u.cost, u.attack, u.defense, u.move) for k, u in game.ruleset.units.items()}
    assert stats == {                                             # [L202-L215]
        "infantry": (3, 1, 2, 1), "tank": (6, 3, 3, 2), "fighter": (10, 3, 4, 4),
        "bomber": (12, 4, 1, 6), "submarine": (6, 2, 1, 2), "transport": (7, 0, 0, 2),
        "destroyer": (8, 2, 2, 2), "carrier": (12, 1, 2, 2), "battleship": (16, 4, 4, 2),
        "industrial_complex": (0, 0, 0, 0)}                      # printed, never bought [L643]
    units = game.ruleset.units
    assert not units["industrial_complex"].buyable
    assert units["transport"].cargo.slots == 2 and units["transport"].cargo.large_slots == 1
    assert units["carrier"].cargo.domain == Domain.AIR and units["carrier"].cargo.only_types == ("fighter",)
    assert units["tank"].cargo_size == "large" and units["tank"].has("blitz")
    assert units["submarine"].has("surprise_strike") and not units["submarine"].has("surface_warship")


def test_initial_state(game, state):
    assert (state.round, state.power, state.turn_number) == (1, "ussr", 1)
    assert state.game_id == "test-game" and state.map_id == "aa1941"
    assert state.owner("Germany") == "germany" and state.owner("Turkey") is None
    for space, units in state.units.items():
        if game.map[space].is_sea:
            assert not any(game.ruleset.units[u.type].domain == Domain.AIR for u in units), space
    carriers = [u for u in state.units_at("Sea Zone 45") if u.type == "carrier"]
    assert [c.type for c in carriers[0].cargo] == ["fighter", "fighter"]
    assert state.unit_counts()[("usa", "fighter")] == 3


# --------------------------------------------------------------------------- TripleA cross-check

def test_connections_equal_triplea(game, tmap):
    from adjudicator.io.triplea import our_space_name
    theirs = {frozenset(map(our_space_name, pair)) for pair in tmap.connections}
    ours = {frozenset((a, b)) for a, ns in game.map.adjacency.items() for b in ns}
    assert ours == theirs          # no seed adjacency had to be added (all were in TripleA)


def test_production_owners_factories_equal_triplea(game, tmap):
    from adjudicator.io.triplea import DEFAULT_PLAYERS, our_space_name
    for name, t in tmap.territories.items():
        ours = game.map[our_space_name(name)]
        assert ours.ipc == t.production, name
        assert ours.original_owner == DEFAULT_PLAYERS.get(t.owner), name
        assert ours.impassable == t.impassable, name
    factories = {e.space for e in game.setup if "industrial_complex" in e.units}
    assert factories == {our_space_name(name) for name in tmap.factories}


def test_non_soviet_setup_equals_triplea(game, tmap):
    from adjudicator.io.triplea import DEFAULT_PLAYERS, DEFAULT_UNIT_TYPES, our_space_name
    theirs, ours = Counter(), Counter()
    for p in tmap.placements:
        if p.owner != "Russians":
            theirs[(DEFAULT_PLAYERS[p.owner], our_space_name(p.territory),
                    DEFAULT_UNIT_TYPES.get(p.unit_type, p.unit_type))] += p.quantity
    for e in game.setup:
        if e.power != "ussr":
            for unit, n in e.units.items():
                if unit != "industrial_complex":     # TripleA's factories: see the test above
                    ours[(e.power, e.space, unit)] += n
    assert ours == theirs


def test_compare_with_game_lists_only_documented_differences(game, tmap):
    from adjudicator.io.triplea import compare_with_game
    assert compare_with_game(tmap, game) == ["setup ussr Russia infantry: TripleA 6, ours 3"]
    opened = load_game("aa1941", options={"turkish_straits": False})
    assert any("Turkish Straits" in d for d in compare_with_game(tmap, opened))


# --------------------------------------------------------------------------- loader validation

MINI = {
    "game.toml": """
id = "mini"
title = "Mini"
turn_order = ["red", "blue"]
rulings = ["a ruling"]
starting_ipcs_equal_income = true
[options]
straits = true
[turn]
steps = ["purchase", "combat_move", "conduct_combat", "noncombat_move", "mobilize",
         "land_aircraft", "collect_income"]
[[power]]
key = "red"
name = "Red"
side = "A"
capital = "Redland"
capital_city = "Redville"
starting_ipcs = 5
aliases = ["reds"]
[[power]]
key = "blue"
name = "Blue"
side = "B"
capital = "Blueland"
capital_city = "Blueville"
starting_ipcs = 3
[[victory]]
side = "A"
check = "after:red"
condition = { controls = ["Blueland"], count = 1 }
[[victory]]
side = "B"
check = "after:blue"
condition = { controls = ["Redland"], count = 1 }
""",
    "units.toml": """
[[unit]]
key = "infantry"
domain = "land"
cost = 3
attack = 1
defense = 2
move = 1
aliases = ["inf"]
[[unit]]
key = "tank"
domain = "land"
cost = 6
attack = 3
defense = 3
move = 2
cargo_size = "large"
abilities = ["blitz"]
[[unit]]
key = "fighter"
domain = "air"
cost = 10
attack = 3
defense = 4
move = 4
abilities = ["carrier_based", "cannot_capture"]
[[unit]]
key = "carrier"
domain = "sea"
cost = 12
attack = 1
defense = 2
move = 2
abilities = ["surface_warship", "carries_air"]
cargo = { domain = "air", slots = 2, only_types = ["fighter"] }
""",
    "map.toml": """
map_id = "mini"
territories = [
  { name = "Redland", ipc = 5, owner = "red", capital = "red" },
  { name = "Blueland", ipc = 3, owner = "blue", capital = "blue", aliases = ["BL"] },
  { name = "Rock", impassable = true },
  { name = "Sea Zone 1", sea = true, aliases = ["SZ1"] },
  { name = "Sea Zone 2", sea = true },
  { name = "Sea Zone 3", sea = true },
]
connections = [
  ["Redland", "Blueland"],
  ["Redland", "Rock"],
  ["Redland", "Sea Zone 1"],
  ["Blueland", "Sea Zone 2"],
  ["Sea Zone 1", "Sea Zone 2"],
  ["Sea Zone 2", "Sea Zone 3"],
]
[[canal]]
name = "Cut"
zones = ["Sea Zone 1", "Sea Zone 2"]
controlled_by = ["Redland"]
[straits]
option = "straits"
closed_zones = ["Sea Zone 3"]
""",
    "setup.toml": """
[[setup]]
power = "red"
territory = "Redland"
units = { infantry = 2, tank = 1 }
[[setup]]
power = "red"
territory = "Sea Zone 1"
units = { carrier = 1, fighter = 2 }
[[setup]]
power = "blue"
territory = "Blueland"
units = { infantry = 1 }
""",
}


def write_mini(tmp_path, **edits):
    """Write the mini game to tmp_path; ``edits`` maps a file stem to (old, new) or a list of
    such replacements, each of which must apply."""
    for name, text in MINI.items():
        changes = edits.get(name.removesuffix(".toml"), [])
        for old, new in [changes] if isinstance(changes, tuple) else changes:
            assert old in text, old
            text = text.replace(old, new, 1)
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def load_error(tmp_path, **edits) -> str:
    with pytest.raises(DataError) as info:
        load_game(write_mini(tmp_path, **edits))
    return str(info.value)


def test_mini_game_is_valid(tmp_path):
    g = load_game(write_mini(tmp_path))
    assert g.map.closed_zones == {"Sea Zone 3"}
    s = initial_state(g, "m")
    carrier, = s.units_at("Sea Zone 1")
    assert [u.type for u in carrier.cargo] == ["fighter", "fighter"]
    assert load_game(tmp_path, options={"straits": False}).map.closed_zones == frozenset()


def test_unknown_territory_in_connection(tmp_path):
    msg = load_error(tmp_path, map=('["Redland", "Blueland"]', '["Redland", "Bluland"]'))
    assert "map.toml" in msg and "unknown territory 'Bluland'" in msg


def test_alias_used_as_name_gets_a_hint(tmp_path):
    msg = load_error(tmp_path, map=('["Redland", "Blueland"]', '["Redland", "bl"]'))
    assert "unknown territory 'bl' (did you mean 'Blueland'?)" in msg


def test_duplicate_pair_in_either_order(tmp_path):
    msg = load_error(tmp_path, map=('  ["Redland", "Rock"],', '  ["Redland", "Rock"],\n  ["Rock", "Redland"],'))
    assert "listed twice" in msg and "['Rock', 'Redland']" in msg


def test_self_loop(tmp_path):
    msg = load_error(tmp_path, map=('["Redland", "Rock"]', '["Rock", "Rock"]'))
    assert "connects a territory to itself" in msg


def test_tank_in_sea_zone(tmp_path):
    msg = load_error(tmp_path, setup=("units = { carrier = 1, fighter = 2 }",
                                      "units = { carrier = 1, fighter = 2, tank = 1 }"))
    assert "setup.toml" in msg and "tank is a land unit and cannot start in sea zone 'Sea Zone 1'" in msg


@pytest.mark.parametrize("edit,expected", [
    (("units = { infantry = 2, tank = 1 }", "units = { infantry = 2, carrier = 1 }"),
     "carrier is a sea unit and cannot be on land ('Redland')"),
    (('territory = "Redland"', 'territory = "Rock"'), "'Rock' is impassable"),
    (("fighter = 2 }", "fighter = 3 }"), "fighter in sea zone 'Sea Zone 1' has no room"),
    (('power = "blue"', 'power = "red"'), "'Blueland' is not controlled by red at the start"),
    (("infantry = 1 }", "infantry = 1, zeppelin = 1 }"), "unknown unit type 'zeppelin'"),
    (("infantry = 1 }", "infantry = 0 }"), "infantry count must be a positive integer"),
])
def test_unit_in_impossible_place(tmp_path, edit, expected):
    assert expected in load_error(tmp_path, setup=edit)


def test_wrong_starting_ipcs(tmp_path):
    msg = load_error(tmp_path, game=("starting_ipcs = 5", "starting_ipcs = 6"))
    assert "game.toml" in msg and "starting_ipcs is 6, but its territories are worth 5" in msg


def test_unknown_ability_and_domain(tmp_path):
    msg = load_error(tmp_path, units=[('domain = "air"', 'domain = "space"')])
    assert "unknown domain 'space'" in msg
    msg = load_error(tmp_path, units=[('abilities = ["blitz"]', 'abilities = ["blitz", "flying"]')])
    assert "unit 'tank': unknown ability 'flying' (known: " in msg


def test_alias_collision(tmp_path):
    msg = load_error(tmp_path, map=('aliases = ["SZ1"]', 'aliases = ["blueland"]'))
    assert "alias 'blueland' collides with the name or an alias of 'Blueland'" in msg


def test_unknown_power_in_turn_order_and_victory(tmp_path):
    msg = load_error(tmp_path, game=[('turn_order = ["red", "blue"]', 'turn_order = ["red", "green"]'),
                                     ('check = "after:blue"', 'check = "after:green"')])
    assert "unknown power 'green'" in msg and "power 'blue' is missing" in msg
    assert "check must be 'end_of_round' or 'after:<power>', not 'after:green'" in msg


def test_all_problems_reported_at_once(tmp_path):
    msg = load_error(tmp_path,
                     map=[('  ["Sea Zone 2", "Sea Zone 3"],', '  ["Sea Zone 2", "Sea Zone 3"],\n  ["Sea Zone 3", "Nowhere"],'),
                          ('  ["Redland", "Rock"],', '  ["Redland", "Rock"],\n  ["Rock", "Redland"],')],
                     setup=("fighter = 2 }", "fighter = 2, tank = 1 }"))
    assert msg.startswith("3 problems")
    assert "unknown territory 'Nowhere'" in msg and "listed twice" in msg and "tank is a land unit" in msg


def test_bad_toml_names_the_file(tmp_path):
    msg = load_error(tmp_path, units=("cost = 3", "cost = = 3"))
    assert "units.toml: not valid TOML" in msg


def test_unknown_option_override(tmp_path):
    with pytest.raises(DataError, match="unknown option"):
        load_game(write_mini(tmp_path), options={"fog_of_war": True})


def test_unknown_game_name():
    with pytest.raises(DataError, match="unknown ruleset 'nosuchgame'"):
        load_game("nosuchgame")


def test_content_hash_is_deterministic_and_sensitive(tmp_path):
    write_mini(tmp_path)
    first = content_hash(tmp_path)
    assert first == content_hash(tmp_path) == load_game(tmp_path).content_hash
    (tmp_path / "setup.toml").write_text(MINI["setup.toml"] + "\n# comment\n", encoding="utf-8")
    assert content_hash(tmp_path) != first


def test_content_hash_covers_only_the_kinds_the_edition_reads(tmp_path, monkeypatch):
    """A grammar file of an order kind the edition does not list never changes its rules
    hash (Global's research leaves 1941 games alone); one it lists, or the core, does."""
    import shutil

    from adjudicator.io import loader
    grammar = tmp_path / "grammar"
    shutil.copytree(loader.GRAMMAR_DIR, grammar)
    monkeypatch.setattr(loader, "GRAMMAR_DIR", grammar)
    edition = loader.game_dir("aa1941")
    listed = set(__import__("tomllib").loads((edition / "game.toml").read_text())["turn"]["orders"])
    unlisted = next(p for p in sorted((grammar / "kinds").glob("*.lark")) if p.stem not in listed)
    first = content_hash(edition)
    unlisted.write_text(unlisted.read_text() + "\n// changed\n")
    assert content_hash(edition) == first
    (grammar / "kinds" / "battle.lark").write_text((grammar / "kinds" / "battle.lark").read_text() + "\n//\n")
    second = content_hash(edition)
    assert second != first
    (grammar / "core.lark").write_text((grammar / "core.lark").read_text() + "\n//\n")
    assert content_hash(edition) != second


def test_starting_relations_go_into_the_first_state(tmp_path):
    """game.toml ``[[relation]]``: two powers of opposite sides start not at war."""
    extra = '[[relation]]\nbetween = ["red", "blue"]\nstate = "neutral"\n[[victory]]\nside = "A"'
    g = load_game(write_mini(tmp_path, game=("[[victory]]\nside = \"A\"", extra)))
    assert g.ruleset.starting_relations == {"blue|red": "neutral"}
    assert initial_state(g, "m").relations == {"blue|red": "neutral"}
    assert g.ruleset.relation("red", "blue", initial_state(g, "m").relations) == "neutral"


@pytest.mark.parametrize("relation,expected", [
    ('between = ["red", "green"]\nstate = "neutral"', "relation[0]: unknown power or nation 'green'"),
    ('between = ["red", "red"]\nstate = "neutral"', "relation[0]: between must name two different owners"),
    ('between = ["red", "blue"]\nstate = "truce"', "state must be one of allied, war, neutral, not 'truce'"),
])
def test_bad_starting_relation(tmp_path, relation, expected):
    extra = f'[[relation]]\n{relation}\n[[victory]]\nside = "A"'
    msg = load_error(tmp_path, game=("[[victory]]\nside = \"A\"", extra))
    assert "game.toml" in msg and expected in msg
