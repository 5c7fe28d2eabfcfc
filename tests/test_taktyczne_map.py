"""Taktyczne Starcie's invented main map (issue 26): the text's counts and relations (L15,
L19.5-L19.11, L27.5 of ../shared/seeds/003_876acb9d68787626.txt, split as the digest
../shared/rules/taktyczne-starcie.md §0.1 says) and the balance checks of
docs/taktyczne-map.md, computed from the map, not copied from it."""

from __future__ import annotations

import copy
import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.engine.taktyczne.balance import (connected, distances, draw_figures, exclusion,
                                                  free_areas, land_neighbours)
from adjudicator.engine.taktyczne.setup import draw_setup
from adjudicator.io import tomlcache
from adjudicator.io.paths import MAPS_DIR
from adjudicator.io.taktyczne_data import cell_relations, load_main_map, main_map
from adjudicator.model.dice import SeededDice
from adjudicator.model.errors import DataError
from adjudicator.model.taktyczne import LABEL

MAP = load_main_map()
DOC = tomlcache.loads((MAPS_DIR / "taktyczne" / "map.toml").read_text(encoding="utf-8"))


def test_62_areas_36_land_numbered_by_two_dice_26_seas():
    # L15: 62 areas, 36 land and 26 water; L19.5-L19.8: two dice name a land area
    assert len(MAP.game_map.territories) == 62
    assert MAP.land == tuple(f"{a}{b}" for a in range(1, 7) for b in range(1, 7))
    assert len(MAP.seas) == 26


def test_labelled_honestly():
    assert LABEL.lower() in MAP.title.lower()
    assert {"G1", "relations", "balance"} <= {key for key, _ in MAP.rulings}
    assert all(text for _, text in MAP.rulings)


def test_relations_are_the_drawings_and_never_both():
    # L15: bordering = a common border, tangent = touching at one point
    border, tangent = cell_relations(MAP.cells)
    for area in MAP.game_map.territories:
        assert not MAP.bordering(area) & MAP.tangent_to(area)
        for other in MAP.touching(area):
            assert area in MAP.touching(other)
    assert sum(len(MAP.tangent_to(a)) for a in MAP.game_map.territories) == 2 * len(tangent) > 0
    assert sum(len(MAP.bordering(a)) for a in MAP.game_map.territories) == 2 * len(border)


def test_a_list_that_differs_from_the_drawing_is_refused():
    doc = copy.deepcopy(DOC)
    doc["connections"] = doc["connections"][1:]
    with pytest.raises(DataError, match="drawn but not listed"):
        main_map(doc)
    doc = copy.deepcopy(DOC)
    doc["tangents"] = [*doc["tangents"], ["11", "12"]]
    with pytest.raises(DataError, match="tangents differ"):
        main_map(doc)
    doc = copy.deepcopy(DOC)
    doc["territories"] = [t if t["name"] != "66" else {"name": "67"} for t in doc["territories"]]
    doc["drawing"] = {"cells": doc["drawing"]["cells"].replace("66 ", "67 ")}
    doc["connections"] = [[x.replace("66", "67") for x in p] for p in doc["connections"]]
    doc["tangents"] = [[x.replace("66", "67") for x in p] for p in doc["tangents"]]
    with pytest.raises(DataError, match="two dice"):
        main_map(doc)
    with pytest.raises(DataError, match="drawing"):
        main_map({**DOC, "drawing": {}})


def test_each_province_is_one_piece_of_land():
    # ruling provinces: the first digit names six provinces of six areas each
    for first in "123456":
        province = [a for a in MAP.land if a[0] == first]
        assert len(province) == 6 and connected(MAP, province)


def test_every_land_area_reached_over_land_and_every_sea_by_sea():
    assert connected(MAP, MAP.land)
    assert connected(MAP, MAP.seas)


def test_no_land_area_is_a_dead_end_and_most_have_a_coast():
    # no capital is drawn where it can grow only one way
    assert min(land_neighbours(MAP).values()) >= 2
    # L27.5: a shipyard only on land bordering water
    coastal = [a for a in MAP.land if MAP.coasts(a)]
    assert len(coastal) >= 24
    assert all(MAP.game_map[s].is_sea for a in coastal for s in MAP.coasts(a))
    # the open ocean at the corners has no coast; every other sea has one
    open_ocean = [s for s in MAP.seas if not any(a in MAP.bordering(s) for a in MAP.land)]
    assert len(open_ocean) <= 5


def test_exclusion_is_the_capital_with_its_bordering_and_tangent_land():
    # L19.11: re-roll when the area borders or touches another player's capital
    touching_pair = next(p for p in DOC["tangents"] if all(x.isdigit() for x in p))
    a, b = touching_pair
    assert b in exclusion(MAP, a) and a in exclusion(MAP, b)
    assert max(len(exclusion(MAP, a)) for a in MAP.land) == 7
    assert "12" in exclusion(MAP, "11") and "11" in exclusion(MAP, "11")


def test_four_players_never_run_out_of_areas():
    # every set of three capitals a draw can give leaves at least 15 of the 36 numbers free:
    # the fourth drawer repeats a roll with a chance of at most 21/36 and needs at most
    # 36/15 = 2.4 rolls on average; more than 100 rolls has a chance below 1e-23
    fewest = 36
    for trio in itertools.combinations(MAP.land, 3):
        if all(b not in exclusion(MAP, a) for a, b in itertools.permutations(trio, 2)):
            fewest = min(fewest, len(free_areas(MAP, trio)))
    assert fewest >= 15
    assert (1 - fewest / 36) ** 100 < 1e-23


def test_two_player_figures_exactly():
    figures = draw_figures(MAP, 2)
    # the second drawer's re-roll chance is the mean excluded share, computed directly
    expected = sum(Fraction(len(exclusion(MAP, a)), 36) for a in MAP.land) / 36
    assert figures.reroll[1] == pytest.approx(float(expected), abs=1e-6)
    assert figures.reroll[0] == 0 and figures.expected_rolls[0] == 1
    assert figures.expected_rolls[1] == pytest.approx(
        sum(36 / len(free_areas(MAP, [a])) for a in MAP.land) / 36, abs=1e-6)
    # capitals never border: two moves apart at least, across the map at most
    diameter = max(max(distances(MAP, a).values()) for a in MAP.land)
    assert figures.nearest.low == 2 and figures.nearest.high <= diameter <= 12
    assert 4.5 <= figures.nearest.mean <= 7
    assert figures.share.mean == pytest.approx(18)
    assert figures.small_share < 0.01


def test_drawn_capitals_keep_the_band_for_four_players():
    nearest = []
    for seed in range(60):
        setup, _ = draw_setup(MAP, ["a", "b", "c", "d"], SeededDice(seed), 12)
        capitals = list(setup.capitals.values())
        for x, y in itertools.permutations(capitals, 2):
            assert y not in exclusion(MAP, x)
        for x in capitals:
            by_land = distances(MAP, x)
            nearest.append(min(by_land[y] for y in capitals if y != x))
    assert min(nearest) >= 2 and max(nearest) <= 12
    assert 2.5 <= sum(nearest) / len(nearest) <= 4


def test_the_board_picture_is_the_drawing():
    # geometry.toml is generated from the drawing (scripts/taktyczne_geometry.py): every area
    # placed once, its outline the boundary of its cells, checked by the picture's own reader
    from adjudicator.io.geometry import read_geometry
    from adjudicator.model.geometry import inside_rings
    from adjudicator.present.taktyczne_map import CELL, drawing_geometry

    committed = tomlcache.loads((MAPS_DIR / "taktyczne" / "geometry.toml").read_text(encoding="utf-8"))
    assert committed == drawing_geometry(MAP.cells)
    geometry = read_geometry(MAPS_DIR / "taktyczne", MAP.game_map)
    assert geometry is not None and set(geometry.spaces) == set(MAP.game_map.territories)
    for r, row in enumerate(MAP.cells):
        for c, area in enumerate(row):
            middle = ((c + 0.5) * CELL, (r + 0.5) * CELL)
            holders = [name for name, shape in geometry.spaces.items()
                       if inside_rings(middle, [list(ring) for ring in shape.outline])]
            assert holders == [area]


JUNK = st.one_of(st.none(), st.booleans(), st.integers(-5, 100), st.text(max_size=4),
                 st.lists(st.text(max_size=3), max_size=3), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["territories", "connections", "tangents", "drawing", "version", "ruling"]),
       st.integers(0, 200), JUNK)
def test_any_bad_value_is_a_message(key, at, junk):
    doc = copy.deepcopy(DOC)
    if isinstance(doc.get(key), list) and doc[key]:
        doc[key][at % len(doc[key])] = junk
    elif key == "drawing":
        doc[key] = {"cells": junk if not isinstance(junk, str) else junk + "\n11 12\n11"}
    else:
        doc[key] = junk
    try:
        main_map(doc)
    except DataError as exc:
        assert str(exc)


def test_a_file_too_big_or_missing_is_a_message(tmp_path):
    (tmp_path / "map.toml").write_text("# " + "x" * 300_000)
    with pytest.raises(DataError, match="map.toml"):
        load_main_map(tmp_path)
    with pytest.raises(DataError, match="not found"):
        load_main_map(tmp_path / "nowhere")
