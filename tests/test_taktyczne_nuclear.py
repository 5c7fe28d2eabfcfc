"""Taktyczne Starcie's nuclear weapons and objects destroyed (issue 27, L19.56-L19.68,
rulings G22-G26)."""

from __future__ import annotations

import pytest

from adjudicator.engine.context import TurnContext
from adjudicator.engine.taktyczne import nuclear
from adjudicator.engine.taktyczne.objects import destroy_object
from adjudicator.engine.taktyczne.state import add_object, objects
from adjudicator.engine.working import WorkingBoard
from adjudicator.model.orders import OrderSet
from adjudicator.model.state import GameState, Unit
from adjudicator.service.games import load_game


@pytest.fixture(scope="module")
def game():
    return load_game("taktyczne", {"players": 2})


def _ctx(game, units, owners=None, power="red") -> TurnContext:
    state = GameState(game_id="n", map_id="taktyczne", round=1, power=power,
                      owners=owners or {}, ipcs={"red": 0, "blue": 0}, units=units)
    board = WorkingBoard(game, state)
    return TurnContext(game=game, board=board, orders=OrderSet(power=power, items=()), mode="play")


def test_an_object_destroyed_is_gone_and_said(game):
    ctx = _ctx(game, {}, {"23": "blue"})
    add_object(ctx.board, "23", "factory", 2)
    assert destroy_object(ctx, "23", "factory", "red", "bomb")
    assert objects(ctx.board)["23"] == {"factory": 1}
    assert not destroy_object(ctx, "23", "airfield", "red", "bomb")
    [event] = ctx.events
    assert (event.kind, event.area, event.key, event.owner, event.by) == \
        ("ts_object_destroyed", "23", "factory", "blue", "red")


def test_the_full_radius_is_the_area_with_its_bordering_and_tangent_areas(game):
    """L19.59: the target and every area bordering or tangent to it."""
    ctx = _ctx(game, {})
    areas = set(nuclear.reach(ctx.board, "23", nuclear.FULL))
    assert areas == {"23"} | game.map.neighbours("23") | game.map.tangents.get("23", frozenset())
    assert game.map.tangents.get("23"), "23 has a tangent area on the invented map"
    assert nuclear.reach(ctx.board, "23", nuclear.AREA) == ("23",)
