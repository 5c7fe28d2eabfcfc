"""Taktyczne Starcie's costs (issue 26): the text's costs with their references, the house
costs with their reasons (ruling G2 of maps/taktyczne/units.toml), and the factory and
shipyard price escalation (L27.6-L27.8 of ../shared/seeds/003_876acb9d68787626.txt)."""

from __future__ import annotations

import copy

import pytest

from adjudicator.engine.taktyczne.prices import object_price
from adjudicator.io import tomlcache
from adjudicator.io.paths import MAPS_DIR
from adjudicator.io.tactical_data import load_board
from adjudicator.io.taktyczne_data import cost_table, load_costs
from adjudicator.model.errors import DataError
from adjudicator.model.taktyczne import LABEL

COSTS = load_costs()
DOC = tomlcache.loads((MAPS_DIR / "taktyczne" / "units.toml").read_text(encoding="utf-8"))


@pytest.mark.parametrize(("key", "cost", "source"), [
    ("lrg", 2, "L31.44"), ("mine_land", 1, "L31.48"), ("mine_sea", 1, "L31.48"),
    ("ferry", 5, "L27.18"), ("carrier", 10, "L27.12"), ("bomber", 4, "L23.53"),
    ("nuclear_missile", 100, "L19.57"), ("anti_missile", 100, "L19.65"),
    ("atomic_bomb", 100, "L23.42"),
])
def test_the_texts_costs_with_their_references(key, cost, source):
    unit = COSTS.units[key]
    assert (unit.cost, unit.house) == (cost, False)
    assert source in unit.source


def test_ferry_and_carrier_are_worth_nothing_on_the_map():
    # L27.12, L27.15: they cost 10 and 5 but count 0 in the 12-point stack
    assert COSTS.units["ferry"].map_value == COSTS.units["carrier"].map_value == 0
    assert COSTS.units["tank_2"].map_value == COSTS.units["tank_2"].cost   # L23.5


def test_house_costs_are_the_missing_page_each_with_its_reason():
    house = {k for k, u in COSTS.units.items() if u.house}
    assert house == {"tank_1", "tank_2", "tank_3", "tank_4", "warship_1", "warship_2",
                     "warship_3", "warship_4", "at_gun", "aa_gun_land", "aa_gun_sea", "fighter"}
    assert all(COSTS.units[k].reason and "G2" in COSTS.units[k].source for k in house)
    assert COSTS.objects["shipyard"].house and COSTS.objects["shipyard"].reason
    assert LABEL.lower() in COSTS.title.lower()
    assert COSTS.start_points == 12                                          # L19.12


def test_a_higher_rank_costs_more():
    # L23.2-L23.3: the cost depends on the rank; a higher rank has more fire
    for kind in ("tank", "warship"):
        costs = [COSTS.units[f"{kind}_{r}"].cost for r in range(1, 5)]
        assert costs == sorted(set(costs))
    assert COSTS.units["fighter"].cost != COSTS.units["bomber"].cost          # L23.7


def test_every_board_unit_has_a_cost():
    assert set(load_board().kinds) <= set(COSTS.units)


def test_factory_prices_rise_by_one_in_an_area():
    factory = COSTS.objects["factory"]
    # L27.6-L27.7: the second factory anywhere costs four, so the first three (inferred)
    assert [object_price(factory, n) for n in range(4)] == [3, 4, 5, 6]
    # L27.7: in the capital the first is free; the first built there costs four
    assert object_price(factory, 1, in_capital=True) == 4
    assert object_price(factory, 0, in_capital=True) == 4
    assert object_price(factory, 2, in_capital=True) == 5


def test_shipyards_are_counted_by_sea_and_apart_from_factories():
    # L27.6, L27.8: counted separately from factories, and for each sea apart
    shipyard = COSTS.objects["shipyard"]
    assert shipyard.per == "area_sea" and not shipyard.free_in_capital
    assert [object_price(shipyard, n, in_capital=True) for n in range(3)] == [3, 4, 5]
    assert object_price(COSTS.objects["airfield"], 0) == 10                    # L27.22
    assert object_price(COSTS.objects["silo"], 3) == 100                       # L19.56
    with pytest.raises(ValueError):
        object_price(shipyard, -1)


@pytest.mark.parametrize(("edit", "message"), [
    (lambda d: d["unit"]["fighter"].pop("reason"), "needs its reason"),
    (lambda d: d["unit"]["fighter"].update(cost=0), "cost must be"),
    (lambda d: d["unit"]["fighter"].update(cost=True), "cost must be"),
    (lambda d: d["object"]["shipyard"].update(per="player"), "per must be"),
    (lambda d: d["object"]["factory"].update(free_in_capital="yes"), "true or false"),
    (lambda d: d.pop("unit"), "missing"),
    (lambda d: d["unit"].update(tank_1=3), "not a table"),
])
def test_bad_cost_data_is_a_message(edit, message):
    doc = copy.deepcopy(DOC)
    edit(doc)
    with pytest.raises(DataError, match=message):
        cost_table(doc)
