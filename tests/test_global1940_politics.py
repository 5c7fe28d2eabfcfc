"""Global 1940's politics and neutrals (engine/politics.py, engine/neutrals.py): the parts the
rules cases (maps/global1940/cases/politics.txt, neutrals.txt) do not show directly -- the
'declare' order's reading and canonical text, the war state the engine reads, the boards of
the map, the neutral armies' data against the rulebook's examples and TripleA's numbers."""

from __future__ import annotations

import attrs
import pytest

from adjudicator.engine.neutrals import army_size
from adjudicator.engine.politics import boards_of
from adjudicator.engine.working import WorkingBoard
from adjudicator.io.parser import OrdersError, format_orders, parse_orders
from adjudicator.service.games import initial_state, load_game

GAME = load_game("global1940")
STATE = initial_state(GAME, "politics-test")


@pytest.mark.parametrize("text, targets", [
    ("declare war on japan", ("japan",)),
    ("Declare war on Germany and Italy.", ("germany", "italy")),
    ("declares: USA, Italy", ("usa", "italy")),
    ("declare war upon the Soviet Union", ("ussr",)),
    ("declared war against ANZAC & France", ("anzac", "france")),
])
def test_declare_is_read_however_worded(text, targets):
    orders = parse_orders(text + "\n", GAME, "germany")
    assert [o.targets for o in orders.of("declare")] == [targets]


def test_declare_round_trips_through_the_canonical_text():
    orders = parse_orders("combat:\nmove 1 inf Poland -> Eastern Poland\ndeclare war on ussr\n",
                          GAME, "germany")
    text = format_orders(orders, GAME)
    assert "declare war on Soviet Union" in text
    again = parse_orders(text, GAME, "germany")
    assert [attrs.evolve(o, line=0) for o in again.items] == [attrs.evolve(o, line=0) for o in orders.items]


def test_declare_names_a_power():
    with pytest.raises(OrdersError, match="Atlantis"):
        parse_orders("declare war on Atlantis\n", GAME, "germany")


def test_powers_not_at_war_are_not_enemies_but_neutral_land_is():
    board = WorkingBoard(GAME, STATE)
    assert not board.enemy_of("usa", "japan")          # not at war at the start [L439]
    assert board.enemy_of("germany", "uk")              # at war at the start
    assert board.enemy_of("germany", "strict_neutral")  # a neutral is attacked
    assert not board.enemy_of("germany", "pro_axis")    # a friendly neutral is not
    assert board.enemy_of("uk", "pro_axis")             # an unfriendly one is
    board.set_relation("usa", "japan", "war")
    assert board.enemy_of("usa", "japan")
    with pytest.raises(ValueError):
        board.set_relation("usa", "japan", "truce")


def test_every_edition_without_relations_keeps_its_enemies():
    game = load_game("aa1942")
    board = WorkingBoard(game, initial_state(game, "x"))
    assert board.enemy_of("germany", "ussr") and board.enemy_of("japan", "usa")
    assert not board.enemy_of("germany", "japan")


@pytest.mark.parametrize("space, boards", [
    ("Sea Zone 10", {"pacific"}), ("Sea Zone 63", {"pacific"}), ("Sea Zone 64", {"europe"}),
    ("Sea Zone 102", {"europe"}), ("Western United States", {"pacific"}),
    ("Eastern United States", {"europe"}), ("Germany", {"europe"}), ("Japan", {"pacific"}),
    ("Amur", {"pacific"}), ("Caucasus", {"europe"}),
])
def test_the_two_boards(space, boards):
    board = WorkingBoard(GAME, STATE)
    assert boards_of(board, space) == boards


def test_neutral_armies_are_the_printed_numbers():
    board = WorkingBoard(GAME, STATE)
    # the rulebook's examples [L337-L361] hold armies; TripleA's numbers per territory
    assert army_size(board, "Sweden") == 6 and army_size(board, "Turkey") == 8
    assert army_size(board, "Bulgaria") == 4 and army_size(board, "Yugoslavia") == 5
    assert army_size(board, "Colombia") == 0 and army_size(board, "Java") == 0
    totals: dict[str, int] = {}
    for t in GAME.map.land():
        owner = STATE.owners.get(t.key)
        if owner in GAME.ruleset.nations:
            totals[owner] = totals.get(owner, 0) + army_size(board, t.key)
    # setup.toml's note of what TripleA places at the start
    assert totals == {"strict_neutral": 42, "pro_allies": 14, "pro_axis": 11, "mongolia": 6, "dutch": 0}


def test_the_odds_see_the_battles_a_declaration_opens():
    """``planned_battles`` (the odds) takes the declarations first, as the turn does."""
    from adjudicator.engine import planned_battles
    state = attrs.evolve(STATE, power="ussr", round=4)
    orders = parse_orders("declare war on germany\ncombat:\nmove 2 inf Bessarabia -> Romania\n",
                          GAME, "ussr")
    assert [b.space for b in planned_battles(GAME, state, orders)] == ["Romania"]
    early = attrs.evolve(STATE, power="ussr", round=1)        # before its 4th turn [L474]
    assert planned_battles(GAME, early, orders) == []


def test_the_history_kept_for_japans_objective():
    """Japan's unprovoked declaration on the UK and its attack on French Indo-China are kept
    in the state (its 10-IPC objective is lost by either [L451])."""
    from adjudicator.engine import adjudicate
    from adjudicator.model.dice import FixedDice

    state = attrs.evolve(STATE, power="japan")
    orders = parse_orders("declare war on uk, france\ncombat:\nmove 3 inf Kwangsi -> French Indo China\n",
                          GAME, "japan")
    extras = adjudicate(GAME, state, orders, FixedDice([1] * 200)).state.extras
    assert extras["japan_unprovoked_declaration"] is True
    assert "French Indo China" in extras["attacked"]["japan"]      # rule attack_history
    assert "japan>uk:unprovoked" in extras["war_declarations"]


def test_a_hand_edited_relation_is_refused():
    from adjudicator.engine.state_check import state_problems

    assert state_problems(GAME, STATE) == []
    bad = attrs.evolve(STATE, relations={"usa|japan": "war", "germany|atlantis": "peace"})
    problems = state_problems(GAME, bad)
    assert any("'usa|japan'" in p for p in problems)          # not sorted
    assert any("'germany|atlantis'" in p and "known" in p for p in problems)
    assert any("'peace'" in p for p in problems)
