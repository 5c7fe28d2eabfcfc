"""Global 1940's order forms added for issue 22 read and write back the same: the facility a
bomb order names, the ship a kamikaze order aims at, the canal permission, the factory
upgrade bought and placed (canonical text, then read again equal)."""

from __future__ import annotations

import attrs
import pytest

from adjudicator.io.parser import OrdersError, format_orders, parse_orders
from adjudicator.service.games import load_game

GAME = load_game("global1940")


def _round_trip(text: str, power: str):
    orders = parse_orders(text, GAME, power)
    canonical = format_orders(orders, GAME)
    again = parse_orders(canonical, GAME, power)
    assert [attrs.evolve(o, line=0) for o in again.items] == \
        [attrs.evolve(o, line=0) for o in orders.items]
    return orders, canonical


def test_a_bomb_order_names_its_facility():
    orders, text = _round_trip("combat:\nbomb Western Germany with 2 bmr: airfield\n", "uk")
    (bomb,) = orders.bombs
    assert bomb.target == "air_base" and bomb.space == "Western Germany"
    assert ": Air Base" in text or ": air base" in text.lower()


def test_a_bomb_order_without_a_facility_keeps_the_old_form():
    orders, text = _round_trip("combat:\nbomb Western Germany with 2 bmr\n", "uk")
    assert orders.bombs[0].target == "" and ":" not in text.split("bomb", 1)[1].splitlines()[0]


def test_a_bomb_order_naming_no_unit_is_refused():
    with pytest.raises(OrdersError, match="Atlantis"):
        parse_orders("combat:\nbomb Western Germany with 2 bmr: Atlantis\n", GAME, "uk")


def test_a_kamikaze_order_names_its_ship_type_by_key():
    orders, text = _round_trip("kamikaze SZ 6: 2 on carriers\n", "japan")
    (choice,) = orders.standing_choices
    assert (choice.space, choice.value) == ("Sea Zone 6", "2 on carrier")
    assert "kamikaze Sea Zone 6: 2 on carrier" in text


def test_canal_and_upgrade_orders_round_trip():
    orders, _ = _round_trip("canal Egypt: yes\ncanal all: no\n", "uk")
    assert [(c.name, c.space, c.value) for c in orders.standing_choices] == \
        [("canal", "Egypt", "yes"), ("canal", None, "no")]
    orders, _ = _round_trip("buy 1 upgrade\nplace 1 factory upgrade Southern Italy\n", "italy")
    assert [g.type for o in orders.places for g in o.units] == ["factory_upgrade"]
