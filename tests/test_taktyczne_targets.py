"""Taktyczne Starcie's target words and pick (issue 27, contract 4): the written priority
read forgivingly (io.target_words) and the target picked by it (engine.taktyczne.targets):
mines and aircraft are never ground targets (L23.7, L23.33, L31.35), capitals are no object
(L19.60-L19.61), objects go with the area's holder (L19.39)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from adjudicator.engine.taktyczne.state import OBJECTS
from adjudicator.engine.taktyczne.targets import pick_target
from adjudicator.engine.working import WorkingBoard
from adjudicator.io.target_words import read_targets, read_word, vocabulary
from adjudicator.model.state import GameState, Unit
from adjudicator.service.games import load_game


@pytest.fixture(scope="module")
def game():
    return load_game("taktyczne")


def _board(game, units, objects=None, owners=None):
    state = GameState(game_id="t", map_id="taktyczne", round=1, power="red",
                      owners=owners or {"23": "blue"}, ipcs={"red": 0, "blue": 0},
                      units={a: tuple(Unit(t, o) for t, o in us) for a, us in units.items()},
                      extras={OBJECTS: objects or {}})
    return WorkingBoard(game, state)


def test_words_are_read_forgivingly():
    assert read_targets("AA guns, then tank IV and airfields > factory") == (
        "aa", "tank_4", "airfield", "factory")
    assert read_targets("Tanks; ships, lrg, silos") == ("tanks", "warships", "lrgs", "silo")
    assert read_targets("aa, aa, AA") == ("aa",)


def test_an_unknown_word_says_the_nearest():
    with pytest.raises(ValueError, match="did you mean 'factory'"):
        read_word("factroy")
    with pytest.raises(ValueError, match="at most"):
        read_targets(", ".join(["aa"] * 40))


@given(st.lists(st.sampled_from(sorted(vocabulary())), min_size=1, max_size=8))
@settings(max_examples=60, deadline=None)
def test_canonical_words_read_back_to_themselves(words):
    canon = read_targets(words)
    assert read_targets(", ".join(canon)) == canon


def test_priority_then_value_then_default(game):
    board = _board(game, {"23": [("tank_1", "blue"), ("tank_3", "blue"), ("aa_gun_land", "blue"),
                                 ("mine_land", "blue"), ("tank_4", "red")]},
                   {"23": {"factory": 1, "airfield": 1}})
    assert pick_target(board, "23", "blue", ("tanks",)).type == "tank_3"     # best of the class
    assert pick_target(board, "23", "blue", ("airfield",)) == "airfield"
    assert pick_target(board, "23", "blue", ("silo",)).type == "aa_gun_land"  # default: AA first
    assert pick_target(board, "23", "blue", ("tank_1",)).type == "tank_1"


def test_mines_aircraft_and_other_players_objects_are_never_picked(game):
    board = _board(game, {"23": [("mine_land", "blue"), ("fighter", "blue")]},
                   {"23": {"factory": 1}}, owners={"23": "green"})
    assert pick_target(board, "23", "blue", ("units", "objects")) is None
    board = _board(game, {"23": [("mine_land", "blue")]}, {"23": {"factory": 1}})
    assert pick_target(board, "23", "blue", ()) == "factory"


def test_air_targets_among_given_aircraft(game):
    board = _board(game, {"23": [("fighter", "red"), ("bomber", "red")]})
    planes = list(board.at("23"))
    assert pick_target(board, "23", "red", (), among=planes).type == "bomber"
    assert pick_target(board, "23", "red", ("fighters",), among=planes).type == "fighter"


UNIT_TYPES = ("tank_1", "tank_4", "aa_gun_land", "lrg", "at_gun", "mine_land", "fighter", "bomber")
OBJECTS_ = ("factory", "airfield", "silo", "launcher")


@given(units=st.lists(st.tuples(st.sampled_from(UNIT_TYPES), st.sampled_from(["blue", "red"])),
                      max_size=8),
       found=st.dictionaries(st.sampled_from(OBJECTS_), st.integers(1, 2), max_size=3),
       holder=st.sampled_from(["blue", "red"]),
       priority=st.lists(st.sampled_from(sorted(set(vocabulary().values()))), max_size=4))
@settings(max_examples=80, deadline=None)
def test_the_pick_is_always_a_lawful_target_of_the_owner(game, units, found, holder, priority):
    board = _board(game, {"23": units}, {"23": found} if found else {}, owners={"23": holder})
    picked = pick_target(board, "23", "blue", tuple(priority))
    lawful = [t for t, o in units if o == "blue" and t not in ("mine_land", "fighter", "bomber")]
    if isinstance(picked, str):
        assert holder == "blue" and picked in found
    elif picked is not None:
        assert picked.owner == "blue" and picked.type in lawful
    else:
        assert not lawful and (holder != "blue" or not found)
