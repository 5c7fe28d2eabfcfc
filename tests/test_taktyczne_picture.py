"""Taktyczne Starcie's main map as a board picture (issue 26): the drawing's shapes
(maps/taktyczne/geometry.toml) with each player's colour, units by rank (tanks and warships
I-IV with rank pips, guns, ferries with their cargo), and the objects the state keeps
rather than as units (factories, shipyards with the sea they stand over, the capitals drawn
with the dice), checked by the picture's elements on a crafted position and on a game
after its pregame, end to end through ``pbem show`` and ``pbem map``."""

from __future__ import annotations

import xml.etree.ElementTree as ET
import io
import re
from collections import Counter

import attrs
import pytest

from adjudicator.cli import main
from adjudicator.cli.common import load_game_dir
from adjudicator.engine.taktyczne.state import CAPITALS, OBJECTS
from adjudicator.io.loader import initial_state
from adjudicator.model.state import Unit
from adjudicator.present.board_objects import CAPITALS_STATE, OBJECTS_STATE
from adjudicator.present.board_svg import KNOWN_COLOURS, board_svg, power_styles
from adjudicator.service.games import load_game

NS = "{http://www.w3.org/2000/svg}"

OWNERS = {"54": "red", "53": "red", "16": "blue", "22": "blue"}
CAPITAL_AREAS = {"red": "54", "blue": "16"}
OBJECT_STATE = {"54": {"factory": 1, "shipyard S21": 1}, "53": {"factory": 2},
                "16": {"factory": 1, "shipyard S05": 2, "shipyard S26": 1}}
UNITS = {"54": (Unit("tank_3", "red"), Unit("tank_3", "red"), Unit("tank_1", "red"), Unit("at_gun", "red")),
         "S21": (Unit("warship_2", "red"), Unit("ferry", "red", cargo=(Unit("tank_2", "red"),))),
         "16": (Unit("tank_4", "blue"), Unit("lrg", "blue")),
         "S05": (Unit("warship_4", "blue"), Unit("carrier", "blue", cargo=(Unit("fighter", "blue"),)))}


@pytest.fixture(scope="module")
def game():
    return load_game("taktyczne", {"players": 2})


@pytest.fixture(scope="module")
def position(game):
    start = initial_state(game, "pic")
    return attrs.evolve(start, owners=dict(OWNERS), units=dict(UNITS),
                        extras={**start.extras, CAPITALS: dict(CAPITAL_AREAS),
                                OBJECTS: OBJECT_STATE})


@pytest.fixture(scope="module")
def root(game, position):
    return ET.fromstring(board_svg(game, position))


def by_class(root, cls: str):
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def test_the_picture_reads_the_state_the_edition_declares():
    assert (OBJECTS_STATE, CAPITALS_STATE) == (OBJECTS, CAPITALS)


def test_every_area_has_its_shape_and_its_holders_colour(game, root):
    styles = power_styles(game)
    assert styles["red"].fill == KNOWN_COLOURS["red"][1] and styles["blue"].strong == KNOWN_COLOURS["blue"][0]
    spaces = {e.get("data-space"): e for e in by_class(root, "space") if e.tag == f"{NS}path"}
    assert set(spaces) == set(game.map.territories) and len(spaces) == 62
    for area, owner in OWNERS.items():
        assert (spaces[area].get("fill"), spaces[area].get("data-owner")) == (styles[owner].fill, owner)
    assert spaces["11"].get("data-owner") == ""              # land nobody holds yet


def test_the_drawn_capitals_are_stars_in_their_players_colour(root):
    capitals = {e.get("data-space"): e.get("data-of") for e in by_class(root, "capital")}
    assert capitals == {area: player for player, area in CAPITAL_AREAS.items()}
    star = by_class(root, "capital")[0].find(f"{NS}polygon")
    assert star.get("fill") == KNOWN_COLOURS[capitals[by_class(root, "capital")[0].get("data-space")]][0]


def test_objects_are_drawn_in_their_area_with_a_shipyards_sea_and_a_line_to_it(root):
    drawn = {(e.get("data-space"), e.get("data-type"), e.get("data-sea") or "", int(e.get("data-count")),
              e.get("data-owner")) for e in by_class(root, "object")}
    assert drawn == {("54", "factory", "", 1, "red"), ("54", "shipyard", "S21", 1, "red"),
                     ("53", "factory", "", 2, "red"), ("16", "factory", "", 1, "blue"),
                     ("16", "shipyard", "S05", 2, "blue"), ("16", "shipyard", "S26", 1, "blue")}
    texts = {e.get("data-sea"): "".join(e.itertext()) for e in by_class(root, "shipyard")}
    assert "2 S05" in texts["S05"] and "S21" in texts["S21"]
    links = {(e.get("data-space"), e.get("data-sea"), e.get("stroke")) for e in by_class(root, "shipyard-link")}
    assert links == {("54", "S21", KNOWN_COLOURS["red"][0]), ("16", "S05", KNOWN_COLOURS["blue"][0]),
                     ("16", "S26", KNOWN_COLOURS["blue"][0])}
    legend = " ".join(t.text or "" for t in root.iter(f"{NS}text"))
    assert "shipyard (its sea beside it" in legend and "factory" in legend


def test_units_are_counted_by_type_and_owner_with_cargo_and_ranks_as_pips(root):
    chips = Counter()
    pips = {}
    for e in by_class(root, "chip"):
        if "object" in (e.get("class") or "").split():
            continue
        chips[(e.get("data-space"), e.get("data-owner"), e.get("data-type"))] += int(e.get("data-count"))
        pips[e.get("data-type")] = len([c for c in e.iter(f"{NS}circle") if c.get("class") == "pip"])
    expected = Counter()
    for space, units in UNITS.items():
        for unit in units:
            for u in (unit, *unit.cargo):
                expected[(space, u.owner, u.type)] += 1
    assert chips == expected
    assert pips == {"tank_3": 3, "tank_1": 1, "tank_2": 2, "tank_4": 4, "warship_2": 2, "warship_4": 4,
                    "at_gun": 0, "ferry": 0, "lrg": 0, "carrier": 0, "fighter": 0}


def test_pbem_map_and_show_draw_the_edition_before_and_after_the_pregame(tmp_path, capsys):
    out = tmp_path / "map.svg"
    assert main(["map", "--ruleset", "taktyczne", "--svg", str(out)]) == 0
    empty = ET.fromstring(out.read_text())
    assert len([e for e in by_class(empty, "space") if e.tag == f"{NS}path"]) == 62
    assert not by_class(empty, "capital") and not by_class(empty, "object")
    g = tmp_path / "g"
    assert main(["new", str(g), "--ruleset", "taktyczne", "--option", "players=3", "--demo-seeds"]) == 0
    orders = tmp_path / "pass.txt"
    orders.write_text("pass\n")
    assert main(["process", str(orders), "-g", str(g), "--demo-seeds"]) == 0
    picture = tmp_path / "board.svg"
    assert main(["show", "-g", str(g), "--svg", str(picture)]) == 0
    root = ET.fromstring(picture.read_text())
    _, state = load_game_dir(str(g))
    capitals = state.extras[CAPITALS]
    assert len(capitals) == 3
    assert {e.get("data-space"): e.get("data-of") for e in by_class(root, "capital")} == {
        area: player for player, area in capitals.items()}
    assert {(e.get("data-space"), e.get("data-type"), e.get("data-owner")) for e in by_class(root, "object")} == {
        (area, "factory", player) for player, area in capitals.items()}
    capsys.readouterr()
    assert main(["show", "-g", str(g)]) == 0              # the tables name them too
    tables = capsys.readouterr().out
    for area in capitals.values():
        assert re.search(rf"\b{area}\s+capital, factory\b", tables), tables


def test_the_tables_name_drawn_capitals_objects_and_shipyards_seas(game, position):
    from rich.console import Console
    from adjudicator.present.board_view import render_board
    console = Console(record=True, width=120, file=io.StringIO())
    render_board(game, position, console)
    out = console.export_text()
    assert re.search(r"\b54\s+capital, factory, shipyard over S21\b", out), out
    assert re.search(r"\b53\s+2 factories\b", out), out
    assert re.search(r"\b16\s+capital, factory, 2 shipyards over S05, shipyard over S26\b", out), out
    taken = attrs.evolve(position, owners={**position.owners, "16": "red"})
    console = Console(record=True, width=120, file=io.StringIO())
    render_board(game, taken, console)
    assert "capital of Blue" in console.export_text()
