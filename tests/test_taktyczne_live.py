"""Live-by-mail board battles (issue 26): the battle-turn orders (``board`` lines), their
check against the position a side knows, playing them with the dice, the side's plan for
a missed deadline, and the battle kept between battle turns as plain JSON.  Positions are
built directly; squares are whole-board names ("E5a": column E of the attacker's row 5)."""

from __future__ import annotations

import json

import attrs
import pytest

from adjudicator.engine.taktyczne import live as L
from adjudicator.engine.taktyczne.fought import battle_fought
from adjudicator.engine.tactical import BoardBattle, fight
from adjudicator.engine.tactical.geometry import board_square
from adjudicator.io.loader import load_game
from adjudicator.io.parser import OrdersError, format_orders, parse_orders, strip_positions
from adjudicator.io.tactical_data import load_board
from adjudicator.model.dice import FixedDice, SeededDice
from adjudicator.model.live_battle import BoardAction, LiveBattle
from adjudicator.model.tactical import (
    ATTACKER,
    DEFENDER,
    BattlePlan,
    BoardBattleEnded,
    BoardForce,
    Doctrine,
    Piece,
    PieceMoved,
    ShotFired,
)
from adjudicator.present.wording import PROBLEMS

RULES = load_board()


def S(name: str):
    return board_square(RULES, name)


def live_at(pieces: str, mines: dict[str, tuple[str, ...]] | None = None, turn: int = 0,
            plans: dict[str, BattlePlan] | None = None) -> LiveBattle:
    """A live battle before battle turn ``turn + 1``: "a t1 tank_2 E5a; d g1 at_gun E1d"."""
    b = BoardBattle(RULES, "land", FixedDice(()))
    units: dict[str, list] = {ATTACKER: [], DEFENDER: []}
    for part in filter(None, (p.strip() for p in pieces.split(";"))):
        side, pid, kind, square = part.split()
        side = ATTACKER if side == "a" else DEFENDER
        b.place(Piece(pid, side, kind, S(square)))
        units[side].append((pid, kind))
    for side, squares in (mines or {}).items():
        b.mines[side] = {S(s) for s in squares}
        b.mines_laid[side] = len(squares)
    b.turn = turn
    forces = tuple((s, BoardForce(tuple(units[s]), len((mines or {}).get(s, ())))) for s in (ATTACKER, DEFENDER))
    return LiveBattle(area="23", board="land", attacker="red", defender="blue", forces=forces,
                      plans=tuple((plans or {}).items()), position=b.position(), mover="red", round=1)


def act(piece, before=(), target=None, shots=None, after=(), line=1) -> BoardAction:
    return BoardAction(piece, tuple(before), target, shots, tuple(after), line)


# ------------------------------------------------------------------------------ the orders

@pytest.fixture(scope="module")
def game():
    """An edition that lists the ``board`` kind (Europe 1999's, with it added)."""
    g = load_game("europe1999")
    plan = attrs.evolve(g.ruleset.plan, order_kinds=g.ruleset.plan.order_kinds + ("board",))
    return attrs.evolve(g, ruleset=attrs.evolve(g.ruleset, plan=plan))


def test_board_lines_read_and_write_back(game):
    text = ("board T1 -> C4a C5a, fire at t9 2 shots, then C6a\n"
            "board g1: fire at T1\n"
            "Board t2 to D4a D5a\n"
            "board t3 fire t9, then -> E5a E6a\n")
    orders = parse_orders(text, game)
    assert list(orders.items) == [
        act("T1", ("C4a", "C5a"), "t9", 2, ("C6a",), 1),
        act("g1", (), "T1", None, (), 2),
        act("t2", ("D4a", "D5a"), line=3),
        act("t3", (), "t9", None, ("E5a", "E6a"), 4),
    ]
    written = format_orders(orders, game)
    assert written.splitlines()[0] == "board T1 -> C4a C5a, fire at t9 2 shots, then C6a"
    assert strip_positions(parse_orders(written, game)) == strip_positions(orders)


def test_a_board_line_without_its_unit_is_an_error(game):
    with pytest.raises(OrdersError):
        parse_orders("board -> C4a\n", game)


# ------------------------------------------------------------------------------ checking

def test_a_legal_battle_turn_has_no_problems():
    near = live_at("a t1 tank_2 E8a; d d1 tank_1 E9d")
    # two squares up to E10a, then fire at E9d over one free square (E10d): L31.20
    assert L.check_battle_turn(RULES, near, [act("t1", ["E9a", "E10a"], "d1")]) == []
    far = live_at("a t1 tank_2 E3a; d d1 tank_1 E3d")
    assert L.check_battle_turn(RULES, far, [act("t1", ["E4a", "E5a", "E6a", "E7a"])]) == []


@pytest.mark.parametrize("action, code", [
    (act("t1", ["E4a", "E5a", "E6a", "E7a", "E8a"]), "board_too_far"),      # L31.8: 4 points
    (act("t1", ["F4a"]), "board_not_orthogonal"),                           # L31.10
    (act("d1", ["E2d"]), "board_not_your_turn"),                            # L31.1
    (act("zz", ["E4a"]), "board_no_piece"),
    (act("t1", [], "t2"), "board_no_target"),
    (act("t1", [], "d1"), "board_cannot_fire"),                             # L31.22: too far
    (act("t1", [], "d1", 3), "board_shots"),                                # rank II: 2 shots
    (act("t1", ["E4"]), "board_square_unknown"),
])
def test_each_bad_action_names_its_line_and_why(action, code):
    live = live_at("a t1 tank_2 E3a; a t2 tank_1 F3a; d d1 tank_1 E3d")
    problems = L.check_battle_turn(RULES, live, [attrs.evolve(action, line=7)])
    assert [(p.line, p.code) for p in problems] == [(7, code)]
    assert code in PROBLEMS


def test_a_unit_acts_once_and_own_moves_block_later_paths():
    live = live_at("a t1 tank_2 E3a; a t2 tank_1 F3a; d d1 tank_1 E3d")
    problems = L.check_battle_turn(RULES, live, [
        act("t1", ["E4a"], line=1), act("t1", ["E5a"], line=2),          # L31.11: once
        act("t2", ["F4a"], line=3), act("t2", ["F5a"], line=4),
    ])
    assert [(p.line, p.code) for p in problems] == [(2, "board_live_order_repeated"),
                                                    (4, "board_live_order_repeated")]
    blocked = L.check_battle_turn(RULES, live, [act("t1", ["E4a"], line=1),
                                                act("t2", ["E3a"], line=2)])
    assert blocked == []                       # t1 left E3a before t2 enters it
    blocked = L.check_battle_turn(RULES, live, [act("t2", ["E3a"], line=1)])
    assert [(p.line, p.code) for p in blocked] == [(1, "board_square_taken")]


def test_the_check_does_not_know_the_enemy_mines():
    """Mines are secret (L31.45): a path over an enemy mine is accepted; the side's own
    mines it must keep off (L31.53)."""
    live = live_at("a t1 tank_2 E3a; d d1 tank_1 E3d", mines={DEFENDER: ("E8d",), ATTACKER: ("F4a",)})
    assert L.check_battle_turn(RULES, live, [act("t1", ["E4a", "E5a", "E6a", "E7a"])]) == []
    problems = L.check_battle_turn(RULES, live, [act("t1", ["F3a", "F4a"])])
    assert [p.code for p in problems] == ["board_own_mine"]


# ------------------------------------------------------------------------------ playing

def test_a_battle_turn_plays_moves_and_shots_with_the_dice():
    live = live_at("a t1 tank_2 E8a; d d1 tank_1 E9d; d d2 tank_1 A1d")
    # gap from E10a to E9d: E10d = 1 square -> needs 3 (L31.20); rolls 2 then 5: hit
    dice = FixedDice([2, 5])
    turn = L.play_battle_turn(RULES, live, [act("t1", ["E9a", "E10a"], "d1")], dice)
    shots = [(e.piece, e.at, e.need, e.roll, e.hit) for e in turn.events if isinstance(e, ShotFired)]
    assert shots == [("t1", "d1", 3, 2, False), ("t1", "d1", 3, 5, True)]
    assert turn.live is not None and turn.live.position.turn == 1
    assert "d1" not in {p.id for p in turn.live.position.pieces}
    assert turn.live.events == live.events + turn.events
    assert turn.side == ATTACKER and not turn.by_plan and turn.skipped == ()
    # the next battle turn is the defender's, from the kept position
    assert turn.live.side_to_move == DEFENDER
    assert L.check_battle_turn(RULES, turn.live, [act("d2", ["A2d"])]) == []


def test_an_enemy_mine_the_check_could_not_see_destroys_the_unit():
    """L31.52: the unit entering an enemy mine is destroyed there; the check accepted the
    path (the mine is secret), the play stops the walk on it and its shot never comes."""
    live = live_at("a t1 tank_2 E9a; d d1 tank_1 E5d", mines={DEFENDER: ("E10d",)})
    orders = [act("t1", ["E10a", "E10d", "E9d"], "d1", line=3)]
    assert L.check_battle_turn(RULES, live, orders) == []
    turn = L.play_battle_turn(RULES, live, orders, FixedDice([]))
    assert "t1" not in turn.board.pieces and turn.skipped == ()
    assert [(e.kind, getattr(e, "square", "")) for e in turn.events if e.kind != "board_turn_started"] == [
        ("board_moved", ""), ("board_mine_exploded", "E10d"), ("board_battle_ended", "")]
    assert turn.live is None and turn.board.result.winner == DEFENDER


def test_a_target_gone_earlier_in_the_turn_means_move_without_firing():
    live = live_at("a t1 tank_2 E8a; a t2 tank_2 F8a; d d1 tank_1 E9d; d d2 tank_1 A1d")
    dice = FixedDice([6])                     # t1 kills d1 with its first shot
    turn = L.play_battle_turn(RULES, live, [act("t1", ["E9a", "E10a"], "d1", line=1),
                                            act("t2", ["F9a"], "d1", line=2)], dice)
    assert [(s.line, s.code) for s in turn.skipped] == [(2, "board_live_target_gone")]
    assert turn.board.pieces["t2"].square == S("F9a")


def test_a_missed_deadline_plays_the_sides_plan():
    """The game master's nmr: the side's doctrine plays its battle turn, exactly as the
    plan interpreter would."""
    plans = {ATTACKER: BattlePlan(doctrine=Doctrine(stance="advance")),
             DEFENDER: BattlePlan(doctrine=Doctrine(stance="hold"))}
    live = live_at("a t1 tank_2 E3a; d d1 tank_1 E3d", plans=plans)
    turn = L.play_battle_turn(RULES, live, None, SeededDice(3))
    assert turn.by_plan
    moved = [e for e in turn.events if isinstance(e, PieceMoved)]
    assert moved and moved[0].piece == "t1" and len(moved[0].path) == 4
    turn2 = L.play_battle_turn(RULES, turn.live, None, SeededDice(3))
    assert turn2.side == DEFENDER
    assert not any(isinstance(e, PieceMoved) for e in turn2.events)     # it holds


def test_live_by_plan_plays_as_the_battle_by_plan():
    """Every battle turn missed: the live battle is the battle by plan, event for event."""
    forces = {ATTACKER: BoardForce((("t1", "tank_3"), ("t2", "tank_2"), ("g1", "at_gun"))),
              DEFENDER: BoardForce((("d1", "tank_2"), ("d2", "at_gun")), mines=2)}
    plans = {ATTACKER: BattlePlan(), DEFENDER: BattlePlan(doctrine=Doctrine(stance="hold"))}
    whole = fight(RULES, "land", forces, plans, SeededDice(11))
    board, live = L.open_battle(RULES, "23", "land", "red", "blue", forces, plans, SeededDice(11))
    dice = SeededDice(11)
    turn = None
    while live is not None:
        live = L.from_plain(json.loads(json.dumps(L.to_plain(live))))     # kept between files
        turn = L.play_battle_turn(RULES, live, None, dice)
        if turn.live is None:
            event = battle_fought("23", "land", "red", "blue", forces, plans, turn.board,
                                  live.events + turn.events, live=True)
        live = turn.live
    by_plan = battle_fought("23", "land", "red", "blue", forces, plans, whole, whole.events)
    assert event == attrs.evolve(by_plan, live=True)
    assert event.board_events == tuple(whole.events) and event.turns == whole.turn


def test_a_battle_with_nothing_to_fight_is_not_kept():
    forces = {ATTACKER: BoardForce((("t1", "tank_1"),)), DEFENDER: BoardForce()}
    board, live = L.open_battle(RULES, "23", "land", "red", "blue", forces, {}, SeededDice(1))
    assert live is None and isinstance(board.result, BoardBattleEnded)


# ------------------------------------------------------------------------------ kept as JSON

def test_the_kept_battle_reads_back_equal_and_refuses_damage():
    forces = {ATTACKER: BoardForce((("t1", "tank_3"),)), DEFENDER: BoardForce((("d1", "tank_2"),), mines=1)}
    _board, live = L.open_battle(RULES, "23", "land", "red", "blue", forces, {}, SeededDice(2),
                                 mover="red", round=2, resume=(("step", "orders"), ("order", "3")))
    plain = L.to_plain(live)
    assert json.loads(json.dumps(plain)) == plain
    assert L.from_plain(plain) == live
    broken = json.loads(json.dumps(plain))
    broken["position"]["pieces"][0]["square"] = "E5"
    with pytest.raises(L.LiveStateError):
        L.from_plain(broken)
    extra = dict(plain, surprise=1)
    with pytest.raises(L.LiveStateError):
        L.from_plain(extra)
