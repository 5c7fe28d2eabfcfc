"""Taktyczne Starcie's main turn (issue 26): the pieces the rules cases
(maps/taktyczne/cases/main-turn.txt) do not show one by one: the board battle seam (a
battle's survivors read back from its event, as a live battle's will be), the stack values
of the cost table, the defender's mines on the board, the moves without a phase header, the
board in the rules hash and the victory condition naming its subject."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from adjudicator.engine.conditions import check_condition, holds
from adjudicator.engine.tactical import fight
from adjudicator.engine.taktyczne.board_battles import mines_lost, survivors
from adjudicator.engine.taktyczne.stacking import area_points, stack_problems, unit_value
from adjudicator.engine.working import WorkingBoard
from adjudicator.io.loader import content_hash
from adjudicator.io.parser import parse_orders
from adjudicator.model.dice import SeededDice
from adjudicator.model.orders import Move, Phase
from adjudicator.model.state import GameState, Unit
from adjudicator.model.tactical import ATTACKER, DEFENDER, BattlePlan, BoardForce
from adjudicator.model.taktyczne import BoardBattleFought
from adjudicator.service.games import load_game

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def game():
    return load_game("taktyczne")


def _event(game, forces, seed) -> tuple[BoardBattleFought, set[str]]:
    plans = {ATTACKER: BattlePlan(), DEFENDER: BattlePlan()}
    board = fight(game.tables["board"], "land", forces, plans, SeededDice(seed))
    event = BoardBattleFought(
        area="23", board="land", attacker="red", defender="blue", forces=tuple(forces.items()),
        plans=tuple(plans.items()), board_events=tuple(board.events),
        winner={ATTACKER: "red", DEFENDER: "blue"}[board.result.winner], turns=board.result.turn,
        losses=())
    return event, set(board.pieces)


@pytest.mark.parametrize("seed", range(12))
def test_survivors_read_from_the_event_are_the_pieces_left_on_the_board(game, seed):
    """The main turn applies a battle from its event alone (a live battle ends with the
    same event): hits, mines and lost guns read back give exactly the board's survivors."""
    forces = {ATTACKER: BoardForce(units=(("a1", "tank_3"), ("a2", "tank_1"), ("a3", "lrg"))),
              DEFENDER: BoardForce(units=(("d1", "tank_2"), ("d2", "at_gun"), ("d3", "lrg")),
                                   mines=3)}
    event, left = _event(game, forces, seed)
    assert survivors(event, ATTACKER) | survivors(event, DEFENDER) == left
    used = sum(1 for e in event.board_events if e.kind == "board_mine_exploded")
    assert mines_lost(event) == (3 if event.winner == "red" else used)


def test_checking_settles_a_battle_for_the_attacker():
    event = BoardBattleFought(
        area="23", board="land", attacker="red", defender="blue",
        forces=((ATTACKER, BoardForce(units=(("a1", "tank_1"),))),
                (DEFENDER, BoardForce(units=(("d1", "tank_4"),), mines=2))),
        plans=(), board_events=(), winner="red", turns=0, losses=())
    assert survivors(event, ATTACKER) == {"a1"} and survivors(event, DEFENDER) == set()
    assert mines_lost(event) == 2


def _board(game, units: dict[str, tuple[Unit, ...]]) -> WorkingBoard:
    state = GameState(game_id="t", map_id="taktyczne", round=1, power="red", owners={"23": "red"},
                      ipcs={"red": 0, "blue": 0}, units=units)
    return WorkingBoard(game, state)


def test_stack_values_come_from_the_cost_table(game):
    """L23.5 a unit's cost is its value; L27.12, L27.15 ferries and carriers count 0."""
    board = _board(game, {})
    assert [unit_value(board, k) for k in ("tank_1", "tank_3", "warship_4", "ferry", "carrier")] \
        == [2, 4, 5, 0, 0]
    assert game.ruleset.units["ferry"].cost == 5          # what it costs is not what it counts


def test_cargo_counts_by_its_kind(game):
    """L27.20 land units aboard ferries do not count in the sea; aircraft aboard a carrier
    do (ruling G7)."""
    board = _board(game, {"S07": (Unit("ferry", "red", (Unit("tank_3", "red"), Unit("tank_3", "red"))),
                                  Unit("carrier", "red", (Unit("fighter", "red"),)),
                                  Unit("warship_3", "red"))})
    assert area_points(board, "S07", "red") == 3 + 4
    assert stack_problems(board, ["S07"], "red") == []
    over = _board(game, {"S07": (Unit("ferry", "red", (Unit("tank_4", "red"), Unit("tank_4", "red"))),)})
    assert stack_problems(over, ["S07"], "red") == [
        ("ts_ferry_over", {"space": "S07", "points": 10, "limit": 8})]


def test_moves_need_no_header_in_taktyczne_but_still_do_elsewhere(game):
    orders = parse_orders("move 1 tank_1 22 -> 23\n", game)
    assert orders.combat == (Move(Phase.COMBAT, orders.combat[0].units, ("22", "23"), 1),)
    with pytest.raises(Exception, match="combat:"):
        parse_orders("move 1 inf Karelia -> Archangel\n", load_game("aa1942"))


def test_the_battle_board_is_in_the_rules_hash(tmp_path):
    folder = tmp_path / "taktyczne"
    shutil.copytree(ROOT / "maps" / "taktyczne", folder)
    before = content_hash(folder)
    path = folder / "board.toml"
    path.write_text(path.read_text() + "\n# changed\n")
    assert content_hash(folder) != before


def test_a_state_condition_may_name_its_subject(game):
    cond = {"state": "ts_winner", "equals": "subject"}
    assert check_condition(cond, "v") == []
    assert holds(game, cond, "red", {}, 1, state={"ts_winner": "red"})[0]
    assert not holds(game, cond, "blue", {}, 1, state={"ts_winner": "red"})[0]
    assert not holds(game, cond, "red", {}, 1, state={})[0]
    assert check_condition({"state": "x", "equals": 3}, "v")
    assert check_condition({"state": "x", "other": "y"}, "v")


def test_a_turn_with_a_board_battle_plays_reports_and_round_trips():
    """An attack fought on the board, then a move into the area taken (L19.42), in one
    played turn: the last defender is eliminated (L19.49), his points go to the attacker
    (L19.48), the attacker is the last standing (L11); the events survive the codec and the
    report shows the moves in the order written and the battle."""
    from adjudicator.engine.turn import adjudicate, check
    from adjudicator.io.codec import decode_events, encode_events
    from adjudicator.present.report import report_text
    game = load_game("taktyczne", {"players": 2})
    state = GameState(
        game_id="x", map_id="taktyczne", round=1, power="red",
        owners={"22": "red", "23": "blue", "24": "red"}, ipcs={"red": 0, "blue": 3},
        units={"22": (Unit("tank_3", "red"), Unit("tank_2", "red")),
               "23": (Unit("tank_2", "blue"), Unit("at_gun", "blue"), Unit("mine_land", "blue")),
               "24": (Unit("tank_1", "red"),)})
    orders = parse_orders("move 1 tank_3, 1 tank_2 22 -> 23\nmove 1 tank_1 24 -> 23\n", game)
    assert [p for p in check(game, state, orders) if p.is_error] == []
    result = adjudicate(game, state, orders, SeededDice(5))
    battle = next(e for e in result.events if isinstance(e, BoardBattleFought))
    assert (battle.area, battle.board, battle.winner) == ("23", "land", "red")
    assert dict(battle.forces)[DEFENDER].mines == 1
    assert result.state.owners["23"] == "red"
    assert {u.owner for u in result.state.units["23"]} == {"red"}
    assert any(u.type == "tank_1" for u in result.state.units["23"])      # followed in, line 2
    assert result.state.extras["ts_eliminated"] == ["blue"]
    assert result.state.extras["ts_winner"] == "red"
    assert result.state.ipcs["red"] == 3 and result.state.ipcs["blue"] == 0
    assert decode_events(encode_events(result.events)) == result.events
    text = report_text(result.events, game, state, result.state)
    assert "Moves and attacks (in the order written)" in text
    assert "Red attacks Blue in 23 on the land board: Red wins" in text
    assert "Blue is eliminated" in text


def test_every_problem_and_event_of_the_main_turn_has_its_sentence():
    """Codes and parameters in the engine, the words in ``present.wording``."""
    import re

    from adjudicator.model.events import Event
    from adjudicator.model.taktyczne import MainMapUnitsTaken, PlayerEliminated, TurnLimitReached
    from adjudicator.present.wording import EVENT_TEXTS, PROBLEMS, event_text
    folder = ROOT / "adjudicator" / "engine" / "taktyczne"
    source = "\n".join((folder / f).read_text() for f in
                       ("main_turn.py", "stacking.py", "board_battles.py", "elimination.py"))
    codes = set(re.findall(r'OrderFailed\(\s*"([a-z_]+)"', source))
    codes |= set(re.findall(r'found\.append\(\("([a-z_]+)"', source))      # stacking's problems
    assert {"ts_stack_over", "ts_single_origin", "ts_attacked_twice"} <= codes
    assert codes <= set(PROBLEMS), codes - set(PROBLEMS)
    for cls in (BoardBattleFought, MainMapUnitsTaken, PlayerEliminated, TurnLimitReached):
        assert issubclass(cls, Event) and cls.kind in EVENT_TEXTS
    assert event_text(MainMapUnitsTaken("S07", "red", "blue", {"ferry": 1}, {"aa_gun_sea": 1})) == \
        "red takes S07 from blue: 1 ferry captured, 1 aa_gun_sea destroyed"
    assert event_text(TurnLimitReached(10, (("red", 7, 20), ("blue", 7, 12)), "red")) == (
        "the turn limit: the game ends after round 10; red 7 areas and 20 points, "
        "blue 7 areas and 12 points; red wins")


# ------------------------------------------------------------------ the stack, as a property

AREAS = ("21", "22", "23", "24", "26", "31", "S07", "S08")
LAND_TYPES = ("tank_1", "tank_2", "tank_3", "tank_4", "at_gun", "aa_gun_land", "mine_land")
SEA_TYPES = ("warship_1", "warship_2", "warship_4", "ferry", "aa_gun_sea")


def _position(game, draw, st):
    """Red and Blue units on a few areas (each stack legal at the start), random owners."""
    units, owners = {}, {}
    for area in AREAS:
        owner = draw(st.sampled_from(("red", "blue", None)))
        sea = game.map[area].is_sea
        if owner is None:
            continue
        if not sea:
            owners[area] = owner
        types = draw(st.lists(st.sampled_from(SEA_TYPES if sea else LAND_TYPES), max_size=5))
        here, total = [], 0
        for t in types:
            value = game.costs.units[t].map_value
            if total + value <= 12:
                cargo = ()
                if t == "ferry" and owner == "red" and draw(st.booleans()):
                    cargo = (Unit("tank_2", "red"), Unit("tank_2", "red"))
                here.append(Unit(t, owner, cargo))
                total += value
        if here:
            units[area] = tuple(here)
    return units, owners


@pytest.fixture(scope="module")
def two_player():
    return load_game("taktyczne", {"players": 2})


def test_no_order_sequence_breaks_the_stack(two_player):
    """L19.17, L27.19, L27.20 after every order: whatever Red writes, in any order, the
    position after the main turn has no area over 12 points and no ferry over 8 (orders that
    would break it are refused; battles fought with seeded dice)."""
    from hypothesis import HealthCheck, event, given, settings
    from hypothesis import strategies as st

    from adjudicator.engine.context import TurnContext
    from adjudicator.engine.taktyczne.main_turn import main_turn
    from adjudicator.engine.taktyczne.stacking import ferry_cargo, is_ferry, limits
    from adjudicator.model.orders import OrderSet, UnitGroup
    game = two_player

    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.data(), st.integers(0, 10_000))
    def run(data, seed):
        units, owners = _position(game, data.draw, st)
        state = GameState(game_id="p", map_id="taktyczne", round=1, power="red", owners=owners,
                          ipcs={"red": 0, "blue": 0}, units=units)
        moves = []
        reds = {area: sorted({u.type for unit in here for u in (unit, *unit.cargo) if u.owner == "red"})
                for area, here in units.items()}
        reds = {area: kinds for area, kinds in reds.items() if kinds} or {"22": ["tank_1"]}
        for line in range(1, data.draw(st.integers(1, 8)) + 1):
            origin = data.draw(st.sampled_from(sorted(reds)))          # mostly units that are there
            near = sorted(game.map.neighbours(origin))
            target = data.draw(st.sampled_from([a for a in near if a in AREAS] or near))
            kind = data.draw(st.sampled_from(reds[origin]))
            moves.append(Move(Phase.COMBAT, (UnitGroup(data.draw(st.integers(1, 2)), kind),),
                              (origin, target), line))
        board = WorkingBoard(game, state)
        ctx = TurnContext(game=game, board=board, orders=OrderSet(power="red", items=tuple(moves)),
                          mode="play", dice=SeededDice(seed))
        main_turn(ctx, ctx.dice)
        for ev in ctx.events:
            event(ev.kind if ev.kind != "order_skipped" else f"skipped {ev.reason}")
        stack, ferry, _ = limits(board)
        for area in {p.space for p in board.pieces.values()}:
            for owner in ("red", "blue"):
                assert area_points(board, area, owner) <= stack, (area, owner)
            for piece in board.at(area):
                if is_ferry(board, piece):
                    assert ferry_cargo(board, piece) <= ferry

    run()


def test_an_order_refused_halfway_leaves_the_position_as_it_was(two_player):
    """A warship sails, then the tank of the same order may not step from ferry to ferry:
    the whole order is refused (skipped when played) and nothing of it stays."""
    from adjudicator.engine.context import TurnContext
    from adjudicator.engine.taktyczne.main_turn import main_turn
    from adjudicator.model.orders import OrderSet, UnitGroup
    game = two_player
    state = GameState(game_id="p", map_id="taktyczne", round=1, power="red", owners={},
                      ipcs={"red": 0, "blue": 0},
                      units={"S07": (Unit("warship_1", "red"), Unit("ferry", "red", (Unit("tank_2", "red"),))),
                             "S08": (Unit("ferry", "red"),)})
    move = Move(Phase.COMBAT, (UnitGroup(1, "warship_1"), UnitGroup(1, "tank_2")), ("S07", "S08"), 1)
    board = WorkingBoard(game, state)
    before = board.to_units()
    ctx = TurnContext(game=game, board=board, orders=OrderSet(power="red", items=(move,)),
                      mode="play", dice=SeededDice(1))
    main_turn(ctx, ctx.dice)
    assert [e.reason for e in ctx.events if e.kind == "order_skipped"] == ["ts_aboard_lands_only"]
    assert board.to_units() == before
    assert [p.uid for p in board.at("S07")] == [1, 2] and [p.uid for p in board.at("S08")] == [4]
