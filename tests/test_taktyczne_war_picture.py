"""Taktyczne Starcie's war on the main-map picture (issue 27, present/board_nuclear.py):
silos and launchers armed or not (an armed one holds its missile, G26: the state
``ts_armed``), bombers carrying an atomic bomb, aircraft aboard carriers, mine tokens
counted on the main map (G27: counts are public), and the areas a nuclear blast reached
this turn (L19.59: the centre with its bordering and tangent areas)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter

import attrs
import pytest

from adjudicator.engine.taktyczne.nuclear import ARMED, ATOMIC
from adjudicator.engine.taktyczne.state import CAPITALS, OBJECTS
from adjudicator.io.loader import initial_state
from adjudicator.model.state import Unit
from adjudicator.model.ts_nuclear import NuclearBlast
from adjudicator.present.board_nuclear import ARMED_STATE, ATOMIC_FLAG, Blast, blasts
from adjudicator.present.board_svg import board_svg
from adjudicator.service.games import load_game

NS = "{http://www.w3.org/2000/svg}"
OWNERS = {"54": "red", "53": "red", "16": "blue", "22": "blue"}
OBJECT_STATE = {"54": {"factory": 1, "silo": 2, "airfield": 1}, "16": {"factory": 1, "launcher": 1, "silo": 1}}
ARMED_STATE_VALUE = {"54": {"silo": 1}, "16": {"launcher": 1}}
UNITS = {"54": (Unit("tank_3", "red"), Unit("fighter", "red"), Unit("bomber", "red", flags=(ATOMIC,)),
                Unit("bomber", "red"), Unit("mine_land", "red"), Unit("mine_land", "red")),
         "S05": (Unit("carrier", "blue", cargo=(Unit("fighter", "blue"), Unit("bomber", "blue"))),
                 Unit("mine_sea", "blue")),
         "16": (Unit("tank_4", "blue"),)}
# The blast of a missile over 22: 22 with the areas bordering or touching it on the map
# (test_the_blast_of_the_example_reaches_what_the_map_says checks them against the map).
BLAST = NuclearBlast("22", "full", "missile", "red", ("15", "16", "21", "22", "23", "24"), {})


@pytest.fixture(scope="module")
def game():
    return load_game("taktyczne", {"players": 2})


@pytest.fixture(scope="module")
def root(game):
    start = initial_state(game, "war")
    position = attrs.evolve(start, owners=dict(OWNERS), units=dict(UNITS),
                            extras={**start.extras, CAPITALS: {"red": "54", "blue": "16"},
                                    OBJECTS: OBJECT_STATE, ARMED: ARMED_STATE_VALUE})
    return ET.fromstring(board_svg(game, position, [BLAST]))


def by_class(root, cls: str):
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def title(e) -> str:
    return e.find(f"{NS}title").text


def test_the_picture_reads_the_state_and_flag_the_engine_declares():
    assert (ARMED_STATE, ATOMIC_FLAG) == (ARMED, ATOMIC)


def test_silos_and_launchers_are_drawn_armed_or_not(root):
    drawn = {(e.get("data-space"), e.get("data-type"), e.get("data-armed"), int(e.get("data-count")))
             for e in by_class(root, "object") if e.get("data-armed")}
    # 54: two silos, one armed; 16: an armed launcher, and a silo with no missile.
    assert drawn == {("54", "silo", "yes", 1), ("54", "silo", "no", 1),
                     ("16", "launcher", "yes", 1), ("16", "silo", "no", 1)}
    armed = [e for e in by_class(root, "object") if e.get("data-armed") == "yes"]
    assert all(by_class(e, "armed-mark") for e in armed)
    assert "Red: armed silo in 54" in [title(e) for e in armed]
    legend = " ".join(t.text or "" for t in root.iter(f"{NS}text"))
    assert "nuclear silo (red: armed, white: not)" in legend and "anti-missile launcher" in legend


def test_an_armed_count_beyond_the_silos_standing_arms_only_those(game):
    start = initial_state(game, "war")
    position = attrs.evolve(start, owners={"54": "red"},
                            extras={**start.extras, OBJECTS: {"54": {"launcher": 1}},
                                    ARMED: {"54": {"launcher": 3, "silo": 1}}})
    root = ET.fromstring(board_svg(game, position))
    assert [(e.get("data-type"), e.get("data-armed"), e.get("data-count")) for e in by_class(root, "object")] == [
        ("launcher", "yes", "1")]


def test_a_bomber_carrying_an_atomic_bomb_is_marked(root):
    [chip] = [e for e in by_class(root, "chip") if e.get("data-type") == "bomber" and e.get("data-space") == "54"]
    assert (chip.get("data-count"), chip.get("data-atomic")) == ("2", "1")
    assert by_class(chip, "atomic-mark") and title(chip) == "Red: 2 Bombers (1 with an atomic bomb)"
    legend = " ".join(t.text or "" for t in root.iter(f"{NS}text"))
    assert "bomber with an atomic bomb" in legend


def test_aircraft_aboard_a_carrier_are_marked_and_the_carrier_names_its_load(root):
    chips = {(e.get("data-space"), e.get("data-type")): e for e in by_class(root, "chip")
             if "object" not in e.get("class")}
    assert chips[("S05", "fighter")].get("data-aboard") == "1"
    assert chips[("S05", "bomber")].get("data-aboard") == "1"
    assert chips[("54", "fighter")].get("data-aboard") is None       # at its airfield
    assert title(chips[("S05", "carrier")]) == "Blue: 1 Aircraft carrier, aboard: 1 Bomber, 1 Fighter"


def test_mine_tokens_are_counted_on_the_main_map_with_the_mine_symbol(root):
    mines = Counter({(e.get("data-space"), e.get("data-owner"), e.get("data-type")): int(e.get("data-count"))
                     for e in by_class(root, "chip") if e.get("data-type", "").startswith("mine")})
    assert mines == Counter({("54", "red", "mine_land"): 2, ("S05", "blue", "mine_sea"): 1})


def test_a_blast_hatches_every_area_it_reached_and_marks_its_centre(root):
    areas = {(e.get("data-space"), e.get("data-centre"), "centre" in e.get("class")) for e in by_class(root, "blast-area")}
    assert areas == {(a, "22", a == "22") for a in BLAST.areas}
    [marker] = by_class(root, "blast")
    assert (marker.get("data-space"), marker.get("data-areas"), marker.get("data-cause")) == (
        "22", "15 16 21 22 23 24", "missile")
    assert title(marker) == "nuclear blast over 22 (a nuclear missile of Red): reaches 15, 16, 21, 22, 23, 24"
    legend = " ".join(t.text or "" for t in root.iter(f"{NS}text"))
    assert "nuclear blast: its centre, the areas reached" in legend


def test_the_blast_of_the_example_reaches_what_the_map_says(game):
    touching = game.map.neighbours("22") | game.map.tangents.get("22", frozenset())
    assert set(BLAST.areas) == touching | {"22"}


def test_the_view_takes_blasts_of_any_cause_and_ignores_other_events():
    other = attrs.evolve(BLAST, centre="S05", radius="area", cause="bomb", areas=("S05",))
    assert blasts([object(), BLAST, other]) == [Blast("22", BLAST.areas, "missile", "red"),
                                                Blast("S05", ("S05",), "bomb", "red")]


def test_without_a_blast_nothing_of_it_is_drawn(game):
    root = ET.fromstring(board_svg(game, initial_state(game, "war")))
    assert not by_class(root, "blast-area") and not by_class(root, "blast")
    assert "pbem-blast" not in ET.tostring(root, encoding="unicode")


def _strike(home: bool):
    from adjudicator.model.ts_strike import Flight, StrikeHome, StrikeLaunched
    launched = StrikeLaunched("blue", "S05", "red", (Flight({"bomber": 2}, ("24", "25", "S05"),
                                                             ("S05", "25", "24")),), 8, (), 0, False, 1)
    return [launched] + ([StrikeHome("S05", "blue", "24", {"bomber": 1})] if home else [])


def _numbers(d: str) -> list[float]:
    import re
    return [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", d)]


def test_a_strikes_way_back_is_drawn_beside_its_way_out_with_the_aircraft_that_came_home(game):
    """The way out is a combat arrow 24 > 25 > S05 with both bombers; the one bomber that
    came home (``ts_strike_home``) flies back S05 > 25 > 24 as a dotted arrow set beside the
    way out (not over it), and the legend names it."""
    root = ET.fromstring(board_svg(game, initial_state(game, "war"), _strike(home=True)))
    arrows = {a.get("data-phase"): a for a in by_class(root, "arrow")}
    assert arrows["combat"].get("data-path") == "24 > 25 > S05"
    assert title(arrows["combat"]).endswith("2 Bombers: 24 -> 25 -> S05")
    back = arrows["return"]
    assert back.get("data-path") == "S05 > 25 > 24"
    assert title(back) == "Blue (air strike, the way back): 1 Bomber: S05 -> 25 -> 24"
    out_d = [p.get("d") for p in arrows["combat"].iter(f"{NS}path")][0]
    back_d = [p.get("d") for p in back.iter(f"{NS}path")]
    assert "stroke-dasharray" in ET.tostring(back, encoding="unicode")
    out_xy, back_xy = _numbers(out_d), _numbers(back_d[0])
    # the middle control point of the way back is not that of the way out: set aside
    mid_out, mid_back = out_xy[len(out_xy) // 2 - 1:len(out_xy) // 2 + 1], back_xy[len(back_xy) // 2 - 1:len(back_xy) // 2 + 1]
    assert max(abs(a - b) for a, b in zip(mid_out, mid_back)) > 3, (out_d, back_d[0])
    assert "air strike's way back" in ET.tostring(root, encoding="unicode")


def test_a_strike_none_came_home_from_has_no_way_back(game):
    root = ET.fromstring(board_svg(game, initial_state(game, "war"), _strike(home=False)))
    assert [a.get("data-phase") for a in by_class(root, "arrow")] == ["combat"]
    assert "air strike's way back" not in ET.tostring(root, encoding="unicode")
