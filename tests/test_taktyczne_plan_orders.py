"""Taktyczne Starcie's battle plans as players write them (issue 26): ``plan 34: ...`` (the
attacker's, this turn) and ``defend 22: ...`` / ``defend all: ...`` (the defender's
standing plan), read forgivingly (``io/plan_words.py``), written back canonically, errors
that say where and what was meant; and the check of a turn's plans against the board's
rules through ``pbem``'s own turn check."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.io.parser import format_orders, parse_orders, strip_positions
from adjudicator.model.errors import OrdersSyntaxError
from adjudicator.model.orders import DefencePlanOrder, PlanOrder
from adjudicator.model.plan_text import plan_from_text
from adjudicator.model.tactical import BattlePlan, Doctrine
from adjudicator.service.games import load_game


@pytest.fixture(scope="module")
def game():
    return load_game("taktyczne")


def one(game, text):
    orders = parse_orders(text, game)
    assert len(orders.items) == 1, orders.items
    again = parse_orders(format_orders(orders, game), game)
    assert strip_positions(again) == strip_positions(orders)       # written back, read equal
    return orders.items[0]


def plan_of(order) -> BattlePlan:
    return order.plan if isinstance(order, PlanOrder) else plan_from_text(order.value)


@pytest.mark.parametrize("text, plan", [
    ("plan 34: wedge, advance, target tanks, fire at 4",
     BattlePlan("wedge", doctrine=Doctrine("advance", "tanks_first", 4))),
    ("Plan for 34: wedge; hold; guns first; fire at 5+",
     BattlePlan("wedge", doctrine=Doctrine("hold", "guns_first", 5))),
    ("attack plan 34: line and dig in", BattlePlan("line", doctrine=Doctrine("hold"))),
    ("battle plan in 34: in wedge, shoot nearest, fire at will",
     BattlePlan("wedge", doctrine=Doctrine("advance", "nearest", 6))),
    ("plan 34: tank IV at G3, 2 tank II at F3 H3, mines G5 F5, hold",
     BattlePlan(squares=(("tank_4", "G3"), ("tank_2", "F3"), ("tank_2", "H3")), mines=("G5", "F5"),
                doctrine=Doctrine("hold"))),
    ("plan 34: T4 G3, AT A1, t2 f3/h3", BattlePlan(squares=(("tank_4", "G3"), ("at_gun", "A1"),
                                                            ("tank_2", "F3"), ("tank_2", "H3")))),
    ("plan 34: tank 4 at G3, H3; mines at g5, h5 + target highest rank",
     BattlePlan(squares=(("tank_4", "G3"), ("tank_4", "H3")), mines=("G5", "H5"),
                doctrine=Doctrine(target="highest_rank"))),
])
def test_the_attackers_plan_as_players_write_it(game, text, plan):
    order = one(game, text)
    assert isinstance(order, PlanOrder) and order.space == "34"
    assert order.plan == plan


@pytest.mark.parametrize("text, space, plan", [
    ("defend 22: line, hold", "22", BattlePlan("line", doctrine=Doctrine("hold"))),
    ("defend all: wedge, dig in, target nearest, fire at 3", None,
     BattlePlan("wedge", doctrine=Doctrine("hold", "nearest", 3))),
    ("Defence plan for 22: AT gun at G1, mines G4", "22",
     BattlePlan(squares=(("at_gun", "G1"),), mines=("G4",))),
    ("standing plan everywhere: stay put", None, BattlePlan(doctrine=Doctrine("hold"))),
])
def test_the_defenders_standing_plan_as_players_write_it(game, text, space, plan):
    order = one(game, text)
    assert isinstance(order, DefencePlanOrder) and order.name == "defence_plan"
    assert order.space == space and plan_of(order) == plan


def test_the_canonical_text_names_units_and_says_every_choice(game):
    orders = parse_orders("plan 34: T4 G3\ndefend all: hold", game)
    assert format_orders(orders, game).splitlines() == [
        "combat:", "plan 34: line, advance, target best, fire at 6, Tank IV at G3",
        "defend all: line, hold, target best, fire at 6"]


def test_a_later_plan_for_the_same_area_replaces_the_earlier(game):
    orders = parse_orders("plan 34: wedge\nplan 34: line, hold\nplan 35: wedge", game)
    assert [(o.space, o.plan.formation, o.line) for o in orders.items] == [
        ("34", "line", 2), ("35", "wedge", 3)]


def error(game, text) -> OrdersSyntaxError:
    with pytest.raises(OrdersSyntaxError) as err:
        parse_orders(text, game)
    return err.value


@pytest.mark.parametrize("text, says, meant", [
    ("plan 34: advnace", "'advnace' is not a formation", "advance"),
    ("plan 34: wedgee, hold", "'wedgee' is not a formation", "wedge"),
    ("defend 22: line, hodl", "'hodl' is not a formation", "hold"),
    ("plan 34: target tonks", "unknown target priority 'tonks'", "target tanks"),
    ("plan 34: fire at 7", "the roll needed is 2 to 6", None),
    ("plan 34: fire at 4 5", "fire discipline is one roll needed", "fire at 4"),
    ("plan 34: advance, hold", "two stances, 'advance' and 'hold'", None),
    ("plan 34: G3", "squares 'G3' without a unit", None),
    ("plan 34: 2 tank II at F3", "2 tank II but 1 square", None),
    ("plan 34: mines", "names no square for the mines", None),
    ("plan 34: tonk IV at G3", "unknown unit", None),
    ("plan 99: line", "unknown territory or sea zone '99'", None),
])
def test_a_plan_that_cannot_be_read_says_where_and_what_was_meant(game, text, says, meant):
    err = error(game, text)
    assert says in str(err), str(err)
    assert err.line == 1 and err.column > 1
    if meant is not None:
        assert err.suggestion == meant


def test_every_bad_clause_of_a_line_is_reported_at_once(game):
    err = error(game, "plan 34: advnace, fire at 9, target tonks")
    assert [e.column for e in err.errors] == [10, 27, 30]


def test_a_plan_without_its_colon_or_area_is_a_syntax_error_not_a_crash(game):
    for text in ("plan 34 wedge", "plan: wedge", "defend: hold"):
        err = error(game, text)
        assert err.line == 1


def test_plans_are_not_orders_of_the_other_editions():
    err = error(load_game("aa1941"), "plan Karelia: wedge")
    assert "plan" in str(err)


WORDS = ["plan", "34", "22", "all", ":", ",", ";", "+", "and", "wedge", "line", "hold", "advance",
         "target", "tanks", "guns", "first", "fire", "at", "4", "7", "0", "99999999", "mines",
         "mine", "G3", "g5/f5", "N3", "A11", "T4", "AT", "tank", "IV", "2", "LR", "in", "x",
         "formation", "will", "-", "->", "(", ")", "defend", "ö", "dig", "in"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["plan 34:", "defend 22:", "defend all:", "plan for 34:"]),
       st.lists(st.sampled_from(WORDS), max_size=14))
def test_any_plan_line_is_read_or_refused_with_a_message_never_a_crash(game, head, words):
    text = head + " " + " ".join(words)
    try:
        orders = parse_orders(text, game)
    except OrdersSyntaxError as err:
        assert str(err) and all(e.line == 1 for e in getattr(err, "errors", [err]))
        return
    for order in orders.items:
        assert isinstance(order, (PlanOrder, DefencePlanOrder))
        plan_text_back = format_orders(orders, game)
        assert strip_positions(parse_orders(plan_text_back, game)) == strip_positions(orders)
