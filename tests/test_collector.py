"""The turn engine pauses the cyclic garbage collector only while it works
(``engine.collector``): whatever the caller had is back afterwards, errors included."""

import gc

import pytest

from adjudicator.engine.collector import collector_paused
from adjudicator.engine.turn import check
from adjudicator.io.parser import parse_orders
from adjudicator.service.games import initial_state, load_game


@pytest.fixture
def collecting():
    was = gc.isenabled()
    yield
    (gc.enable if was else gc.disable)()


def test_paused_inside_and_resumed_after(collecting):
    gc.enable()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_resumed_after_an_error(collecting):
    gc.enable()
    with pytest.raises(ValueError), collector_paused():
        raise ValueError("boom")
    assert gc.isenabled()


def test_left_off_when_the_caller_had_it_off(collecting):
    gc.disable()
    with collector_paused():
        pass
    assert not gc.isenabled()


def test_a_check_leaves_the_collector_as_it_was(collecting):
    game = load_game("global1940")
    state = initial_state(game, "g")
    orders = parse_orders("pass\n", game, power=state.power)
    gc.enable()
    assert not [p for p in check(game, state, orders) if p.is_error]
    assert gc.isenabled()
