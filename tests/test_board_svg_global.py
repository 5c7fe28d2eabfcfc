"""The board picture of Global 1940 (present/board_svg.py with board_facilities.py and
board_war.py): air and naval bases with their state, damage counters on factories and
bases, damaged capital ships and the war-state panel, checked on crafted positions by the
picture's elements and attributes (not by pixels); and the editions without bases or war
states keep pictures without them."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import attrs
import pytest

from adjudicator.io.loader import initial_state
from adjudicator.model.state import Unit
from adjudicator.present.board_facilities import facility_kind
from adjudicator.present.board_svg import board_svg
from adjudicator.service.games import load_game

NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def game():
    return load_game("global1940")


@pytest.fixture(scope="module")
def start(game):
    return initial_state(game, "g")


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def by_class(root, cls: str):
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def with_units(state, space: str, units):
    return attrs.evolve(state, units={**state.units, space: tuple(units)})


def test_every_base_and_factory_of_the_setup_is_drawn_operative_without_damage(game, start):
    root = parse(board_svg(game, start))
    drawn = {(e.get("data-space"), e.get("data-owner"), e.get("data-type"))
             for e in by_class(root, "chip") if facility_kind(game, e.get("data-type"))}
    expected = {(space, u.owner, u.type) for space, units in start.units.items() for u in units
                if facility_kind(game, u.type)}
    assert drawn == expected
    kinds = {facility_kind(game, t) for _, _, t in expected}
    assert kinds == {"factory", "air_base", "naval_base"}          # the setup has all three
    bases = by_class(root, "base")
    assert bases and all(e.get("data-operative") == "yes" and e.get("data-damage") == "0" for e in bases)
    assert not by_class(root, "inoperative") and not by_class(root, "damage")
    # facilities are in the territory's info row, never on its unit card
    for card in by_class(root, "units"):
        assert not [c for c in card.iter() if facility_kind(game, c.get("data-type") or "")]


def test_facility_damage_and_inoperative_bases(game, start):
    here = "Western Germany"
    units = [u for u in start.units_at(here) if not facility_kind(game, u.type)]
    units += [Unit("major_factory", "germany", damage=7), Unit("air_base", "germany", damage=3),
              Unit("naval_base", "germany", damage=2)]
    root = parse(board_svg(game, with_units(start, here, units)))
    chips = {e.get("data-type"): e for e in root.iter()
             if e.get("data-space") == here and facility_kind(game, e.get("data-type") or "")}
    assert {t: e.get("data-damage") for t, e in chips.items()} == \
        {"major_factory": "7", "air_base": "3", "naval_base": "2"}
    # the option base_inoperative_damage (3): 3 points put a base out, 2 do not
    assert chips["air_base"].get("data-operative") == "no"
    assert "inoperative" in chips["air_base"].get("class").split()
    assert chips["naval_base"].get("data-operative") == "yes"
    assert "data-operative" not in chips["major_factory"].attrib        # factories always work
    counters = {e.get("data-damage"): "".join(e.itertext()) for e in by_class(root, "damage")}
    assert counters == {"7": "7", "3": "3", "2": "2"}
    legend = " ".join(root.find(f".//{NS}g[@class='legend-box']").itertext())
    assert "inoperative base" in legend and "facility damage" in legend


def test_damaged_capital_ships_are_marked_on_their_card(game, start):
    zone = "Sea Zone 112"
    ships = [Unit("battleship", "germany", damage=1), Unit("battleship", "germany"),
             Unit("carrier", "germany", damage=1), Unit("cruiser", "germany")]
    root = parse(board_svg(game, with_units(start, zone, ships)))
    chips = {e.get("data-type"): e for e in by_class(root, "chip") if e.get("data-space") == zone}
    assert chips["battleship"].get("data-count") == "2" and chips["battleship"].get("data-damaged") == "1"
    assert chips["carrier"].get("data-damaged") == "1"
    assert "data-damaged" not in chips["cruiser"].attrib
    assert "(1 damaged)" in chips["battleship"].find(NS + "title").text
    assert "damaged ship" in " ".join(root.find(f".//{NS}g[@class='legend-box']").itertext())
    # nothing damaged at the start: no mark, no legend row for it
    plain = parse(board_svg(game, start))
    assert not [e for e in plain.iter() if e.get("data-damaged")]


def relations_drawn(root) -> dict[str, str]:
    return {e.get("data-pair"): e.get("data-relation") for e in by_class(root, "relation")}


def test_the_war_state_panel_follows_the_state(game, start):
    root = parse(board_svg(game, start))
    drawn = relations_drawn(root)
    # the rulebook's start [L439-L599]: Germany and Italy at war with the UK, ANZAC, France;
    # Japan with China; the USA and the USSR with no one
    assert drawn["germany|uk"] == drawn["anzac|italy"] == drawn["china|japan"] == "war"
    assert drawn["germany|usa"] == drawn["japan|ussr"] == drawn["japan|uk"] == "neutral"
    assert len(drawn) == 3 * 6                          # every Axis-Allied pair, once
    assert sum(r == "war" for r in drawn.values()) == 7
    assert "uk|usa" not in drawn                         # allies are not listed
    stances = {e.get("data-nation"): e.get("data-stance") for e in by_class(root, "nation-stance")}
    assert stances["strict_neutral"] == "neutral to all"
    assert stances["pro_axis"].startswith("friendly to Axis")
    assert stances["pro_allies"].startswith("friendly to Allies")
    # Japan declares on the USA; the strict neutrals turn to the Allies (attacked by the Axis)
    relations = {k: v for k, v in start.relations.items() if k != "japan|usa"}
    for power in game.ruleset.powers:
        side = game.ruleset.powers[power].side
        relations["|".join(sorted((power, "strict_neutral")))] = "allied" if side == "Allies" else "war"
    later = parse(board_svg(game, attrs.evolve(start, relations=relations)))
    assert relations_drawn(later)["japan|usa"] == "war"
    stances = {e.get("data-nation"): e.get("data-stance") for e in by_class(later, "nation-stance")}
    assert stances["strict_neutral"] == "friendly to Allies; at war with Axis"


def test_the_empty_board_shows_the_setups_bases_and_the_starting_war_state(game):
    root = parse(board_svg(game))
    bases = {(e.space, k) for e in game.setup for k in e.units
             if facility_kind(game, k) in ("air_base", "naval_base")}
    assert len(by_class(root, "base")) == len(bases) > 0
    assert relations_drawn(root)["germany|uk"] == "war"


@pytest.mark.parametrize("edition", ["aa1941", "aa1942", "europe1999"])
def test_editions_without_bases_or_war_states_have_neither(edition):
    game = load_game(edition)
    root = parse(board_svg(game, initial_state(game, "g")))
    assert not by_class(root, "base") and not by_class(root, "relation")
    assert not by_class(root, "nation-stance") and not by_class(root, "damage")
