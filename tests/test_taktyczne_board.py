"""Rules cases for Taktyczne Starcie's tactical battle board (issue 26), written from the
text's sentences: each test cites the seed (../shared/seeds/003_876acb9d68787626.txt,
"L31.20" = line 31, sentence 20, split as the digest ../shared/rules/taktyczne-starcie.md
§0.1 says) or a house ruling of maps/taktyczne/board.toml.  Positions use whole-board
squares: "E5a" is column E of the attacker's row 5, "E5d" of the defender's row 5."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.engine.errors import OrderFailed
from adjudicator.engine.tactical import PLAN_INTERPRETER_VERSION, BoardBattle, fight, play_turn
from adjudicator.engine.tactical.geometry import board_square, own_row, own_square, square_name
from adjudicator.io.tactical_data import board_rules, load_board
from adjudicator.model.dice import FixedDice, SeededDice, SideDice
from adjudicator.model.errors import DataError
from adjudicator.model.tactical import (
    ATTACKER,
    DEFENDER,
    BattlePlan,
    BoardBattleEnded,
    BoardEvent,
    BoardForce,
    Doctrine,
    MineExploded,
    Piece,
    PieceMoved,
    ShotFired,
)
from adjudicator.present.wording import BOARD_EVENT_TEXTS, PROBLEMS, board_event_text

ROOT = Path(__file__).resolve().parents[1]
RULES = load_board()


def S(name: str):
    return board_square(RULES, name)


def board(pieces: str, dice=(), battle: str = "land", turn: str = ATTACKER) -> BoardBattle:
    """A position: "a t1 tank_2 E5a; d g1 at_gun E1d", its battle turn started."""
    b = BoardBattle(RULES, battle, FixedDice(dice))
    for part in filter(None, (p.strip() for p in pieces.split(";"))):
        side, pid, kind, square = part.split()
        b.place(Piece(pid, ATTACKER if side == "a" else DEFENDER, kind, S(square)))
    b.start_turn()
    if turn == DEFENDER:
        b.start_turn()
    return b


def shots(b: BoardBattle) -> list[tuple[str, str, int, int, bool, bool]]:
    return [(e.piece, e.at, e.need, e.roll, e.hit, e.back) for e in b.events if isinstance(e, ShotFired)]


def code_of(call) -> str:
    with pytest.raises(OrderFailed) as info:
        call()
    return info.value.code


# ----------------------------------------------------------------------------- geometry

def test_board_is_13_by_20_lettered_a_to_m_numbered_1_to_10_on_each_side():
    """L31.2 a rectangle of 13 x 20 squares; L31.4 the short side lettered A..M, the long
    side numbered 1..10 on each side (ruling squares: row 1 at the owner's edge)."""
    assert (RULES.columns, RULES.rows, RULES.rows_per_side) == (13, 20, 10)
    assert own_square(RULES, ATTACKER, "A1") == (0, 0)
    assert own_square(RULES, ATTACKER, "M10") == (12, 9)
    assert own_square(RULES, DEFENDER, "M10") == (12, 10)      # the two row 10s meet mid-board
    assert own_square(RULES, DEFENDER, "A1") == (0, 19)        # the defender's edge
    assert square_name(RULES, (2, 2)) == "C3a" and square_name(RULES, (2, 17)) == "C3d"
    for bad in ("N1", "A11", "A0", "3C", ""):
        assert code_of(lambda bad=bad: own_square(RULES, ATTACKER, bad)) == "board_square_unknown"


def test_deployment_in_the_first_three_rows_mines_beyond_them():
    """L31.5 the first three rows are where units deploy; L31.6-L31.7 no mines there, mines
    anywhere else in the own half; L31.27 AT guns only in rows 1-3."""
    b = BoardBattle(RULES, "land", FixedDice([]))
    b.deploy(ATTACKER, "t1", "tank_1", S("C3a"))
    b.deploy(DEFENDER, "g1", "at_gun", S("C1d"))
    assert code_of(lambda: b.deploy(ATTACKER, "t2", "tank_1", S("C4a"))) == "board_deploy_row"
    assert code_of(lambda: b.deploy(DEFENDER, "g2", "at_gun", S("D4d"))) == "board_deploy_row"
    assert code_of(lambda: b.deploy(ATTACKER, "t3", "tank_1", S("C3a"))) == "board_square_taken"
    assert code_of(lambda: b.deploy(ATTACKER, "w1", "warship_1", S("D3a"))) == "board_wrong_battle"
    assert code_of(lambda: b.lay_mines(DEFENDER, [S("E3d")])) == "board_mine_row"
    assert code_of(lambda: b.lay_mines(DEFENDER, [S("E4a")])) == "board_mine_row"   # not his half
    b.lay_mines(DEFENDER, [S("E4d"), S("E10d")])
    assert b.mines[DEFENDER] == {S("E4d"), S("E10d")}


# ----------------------------------------------------------------------------- movement

def test_four_orthogonal_movement_points():
    """L31.8 four movement points in every battle turn; L31.10 one square per point,
    vertically or horizontally, not diagonally."""
    b = board("a t1 tank_1 E5a; d t9 tank_1 A10d")
    b.act("t1", before=[S("E6a"), S("E7a"), S("F7a"), S("F8a")])
    assert b.pieces["t1"].square == S("F8a")
    assert [e.path for e in b.events if isinstance(e, PieceMoved)] == [("E6a", "E7a", "F7a", "F8a")]
    b = board("a t1 tank_1 E5a; d t9 tank_1 A10d")
    five = [S("E6a"), S("E7a"), S("E8a"), S("E9a"), S("E10a")]
    assert code_of(lambda: b.act("t1", before=five)) == "board_too_far"
    assert code_of(lambda: b.act("t1", before=[S("F6a")])) == "board_not_orthogonal"
    assert b.pieces["t1"].square == S("E5a")             # a refused action changes nothing


def test_no_unit_enters_or_passes_another():
    """Ruling occupancy: one unit per square, no passing through (own or enemy)."""
    b = board("a t1 tank_1 E5a; a t2 tank_1 E6a; d t9 tank_1 A10d")
    assert code_of(lambda: b.act("t1", before=[S("E6a"), S("E7a")])) == "board_square_taken"


def test_each_unit_acts_once_a_battle_turn_and_only_in_its_own():
    """L31.11-L31.13 a unit that has acted is flipped until its owner's next battle turn;
    L31.1 the attacker plays first."""
    b = board("a t1 tank_1 E5a; d t9 tank_1 A10d")
    assert b.side == ATTACKER
    b.act("t1", before=[S("E6a")])
    assert code_of(lambda: b.act("t1", before=[S("E7a")])) == "board_already_acted"
    assert code_of(lambda: b.act("t9", before=[S("A9d")])) == "board_not_your_turn"
    b.start_turn()
    b.act("t9", before=[S("A9d")])
    b.start_turn()
    b.act("t1", before=[S("E7a")])                        # flipped back: it acts again


def test_at_gun_moves_only_within_its_first_three_rows():
    """L31.27 AT guns deploy and move only within the first three rows."""
    b = board("a g1 at_gun E3a; d t9 tank_1 A10d")
    b.act("g1", before=[S("E2a"), S("D2a")])
    b = board("a g1 at_gun E3a; d t9 tank_1 A10d")
    assert code_of(lambda: b.act("g1", before=[S("E4a")])) == "board_confined"


def test_own_mines_cannot_be_entered():
    """L31.53 the units of the player who mined may not move onto the mined squares."""
    b = board("d t1 tank_1 E5d; a t9 tank_1 A10a", turn=DEFENDER)
    b.mines[DEFENDER].add(S("E6d"))
    assert code_of(lambda: b.act("t1", before=[S("E6d")])) == "board_own_mine"


# ----------------------------------------------------------------------------- line of fire

def test_line_of_fire_orthogonal_or_diagonal_and_the_gap():
    """L31.22 only in a straight line, vertically, horizontally or diagonally; L31.20 the gap
    is the free squares between (ruling gap: strictly between, on the diagonal too)."""
    b = board("a t1 tank_1 E5a; d v1 tank_1 E9a; d v2 tank_1 H8a; d v3 tank_1 F7a; d v4 tank_1 A5a")
    t1 = b.pieces["t1"]
    assert (b.aim(t1, b.pieces["v1"]).gap, b.aim(t1, b.pieces["v1"]).need) == (3, 5)   # E6 E7 E8
    assert (b.aim(t1, b.pieces["v2"]).gap, b.aim(t1, b.pieces["v2"]).need) == (2, 4)   # F6 G7
    assert b.aim(t1, b.pieces["v3"]) is None                  # a knight's jump: no straight line
    assert (b.aim(t1, b.pieces["v4"]).gap, b.aim(t1, b.pieces["v4"]).need) == (3, 5)   # B5 C5 D5


def test_units_block_the_line_of_fire_own_or_enemy():
    """L35.3 no shot through other units on the board; L39.3 ships do not fire through ships."""
    b = board("a t1 tank_2 E5a; a t2 tank_1 F6a; d v1 tank_1 G7a; d v2 tank_1 E8a; d v3 tank_1 E7a")
    t1 = b.pieces["t1"]
    assert b.aim(t1, b.pieces["v1"]) is None               # own tank on F6 between
    assert b.aim(t1, b.pieces["v2"]) is None               # the enemy tank on E7 between
    assert b.aim(t1, b.pieces["v3"]).gap == 1
    s = board("a w1 warship_2 E5a; a w2 warship_1 E6a; d x1 warship_1 E8a", battle="sea")
    assert s.aim(s.pieces["w1"], s.pieces["x1"]) is None


def test_a_hidden_mine_does_not_block_and_counts_as_free():
    """Ruling gap (digest G13): mines are hidden, not units on the board."""
    b = board("a t1 tank_1 E5a; d v1 tank_1 E8a")
    b.mines[DEFENDER].add(S("E6a"))
    assert b.aim(b.pieces["t1"], b.pieces["v1"]).gap == 2


def test_to_hit_by_gap_is_two_more_than_the_free_squares():
    """L31.20 a roll at least 2 more than the free squares between; L31.21 adjacent units
    have 0 between and need at least 2; a gap of 5 would need a 7 (ruling range)."""
    assert RULES.to_hit == tuple(gap + 2 for gap in range(5))
    for gap in range(6):
        b = board(f"a t1 tank_1 E2a; d v1 tank_1 E{3 + gap}a")
        aim = b.aim(b.pieces["t1"], b.pieces["v1"])
        assert (aim.need if aim else None) == (gap + 2 if gap + 2 <= 6 else None)


# ----------------------------------------------------------------------------- duels

def test_rank_is_shots_per_battle_turn_then_the_target_fires_back():
    """L23.81-L23.82 a rank-N unit fires N shells a battle turn; L31.16-L31.17 it fires up to
    its rank at one target, then the surviving target fires back up to its own rank."""
    # tank III at gap 1 (needs 3) misses three times with 2s; tank II fires back twice (needs 3)
    b = board("a t1 tank_3 E5a; d v1 tank_2 E7a", dice=[2, 2, 2, 1, 3])
    b.act("t1", target="v1")
    assert shots(b) == [("t1", "v1", 3, 2, False, False)] * 3 + [
        ("v1", "t1", 3, 1, False, True), ("v1", "t1", 3, 3, True, True)]
    assert "t1" not in b.pieces and "v1" in b.pieces


def test_a_hit_destroys_and_ends_the_duel():
    """L31.15 a hit destroys the unit (L35.2: it leaves the board); no more dice."""
    dice = FixedDice([4])
    b = BoardBattle(RULES, "land", dice)
    b.place(Piece("t1", ATTACKER, "tank_4", S("E5a")))
    b.place(Piece("v1", DEFENDER, "tank_4", S("E8a")))
    b.place(Piece("v2", DEFENDER, "tank_1", S("A1d")))
    b.start_turn()
    b.act("t1", target="v1")                                  # gap 2 needs 4: the first shot hits
    assert dice.remaining == 0 and "v1" not in b.pieces and len(shots(b)) == 1


def test_a_unit_may_stop_firing_early():
    """L31.16 fire until the ammunition is spent or the player stops the attack."""
    b = board("a t1 tank_3 E5a; d v1 tank_1 E7a", dice=[1, 1])
    b.act("t1", target="v1", shots=1)                         # one shot, then v1 fires back once
    assert [s[5] for s in shots(b)] == [False, True]


def test_moving_on_after_the_duel_with_the_points_left():
    """L31.9 movement points at any moment of the turn; L31.17 after the exchange the
    attacking unit, if not destroyed, uses its remaining movement points."""
    b = board("a t1 tank_1 E5a; d v1 tank_1 E9a; d v2 tank_1 A1d", dice=[6])
    b.act("t1", before=[S("E6a"), S("E7a")], target="v1", after=[S("D7a"), S("C7a")])
    assert b.pieces["t1"].square == S("C7a") and "v1" not in b.pieces
    b = board("a t1 tank_1 E5a; d v1 tank_1 E9a; d v2 tank_1 A1d", dice=[6])
    three = [S("D7a"), S("C7a"), S("B7a")]
    assert code_of(lambda: b.act("t1", before=[S("E6a"), S("E7a")], target="v1", after=three)) \
        == "board_too_far"


def test_counter_fire_is_a_pool_for_the_battle_turn_and_refreshes():
    """L31.16-L31.18 the target fires back until its ammunition for the battle turn is
    spent; ruling ammunition_per_battle_turn: it fires normally in its own next turn."""
    b = board("a t1 tank_1 E5a; a t2 tank_1 G5a; d v1 tank_1 F6a; d v2 tank_1 A1d", dice=[1, 1, 1, 4])
    b.act("t1", target="v1")          # t1 misses (1), v1 fires back (1): v1's one shot spent
    b.act("t2", target="v1")          # t2 misses (1): v1 has nothing left to fire back with
    assert [(s[0], s[5]) for s in shots(b)] == [("t1", False), ("v1", True), ("t2", False)]
    b.start_turn()                    # the defender's battle turn: v1 fires again
    b.act("v1", target="t2")
    assert shots(b)[-1] == ("v1", "t2", 2, 4, True, False)


def test_target_out_of_its_own_range_cannot_fire_back():
    """L31.15 'may counterattack' only as its own fire rules allow (ruling counter_fire): a
    tank hit at by an AT gun from afar has no line to it."""
    b = board("d g1 at_gun E1d; d t8 tank_1 A10d; a t1 tank_4 E9d", dice=[5], turn=DEFENDER)
    b.act("g1", target="t1")
    assert shots(b) == [("g1", "t1", 6, 5, False, False)]    # one die: no fire back


# ----------------------------------------------------------------------------- AT guns

def test_at_gun_hits_on_six_anywhere_in_its_own_half_through_units():
    """L31.23 AT guns destroy enemy units in their owner's whole half; L31.24-L31.25 only on
    a six; L35.3 they fire through units."""
    b = board("a g1 at_gun E1a; a t5 tank_1 E2a; d v1 tank_1 M10a; d v2 tank_1 E1d")
    g1 = b.pieces["g1"]
    assert (b.aim(g1, b.pieces["v1"]).need, b.aim(g1, b.pieces["v1"]).gap) == (6, -1)
    assert b.aim(g1, b.pieces["v2"]) is None                  # the enemy half
    b = board("a g1 at_gun E1a; a t5 tank_1 E2a; d v1 tank_1 E9a; d v2 tank_1 A1d", dice=[5])
    b.act("g1", target="v1")
    assert "v1" in b.pieces                                   # a 5 misses


def test_at_gun_duel_tank_fires_its_rank_first_then_the_gun():
    """L31.26 an enemy unit that gets the AT gun within its range: the tank fires first as
    many times as its rank, then the AT gun fires back; L31.28 one attack a battle turn."""
    b = board("d g1 at_gun E1d; d v9 tank_1 A10d; a t1 tank_2 E3d", dice=[1, 1, 6])
    b.act("t1", target="g1")                                  # gap 1: needs 3
    assert shots(b) == [("t1", "g1", 3, 1, False, False), ("t1", "g1", 3, 1, False, False),
                        ("g1", "t1", 6, 6, True, True)]
    assert "t1" not in b.pieces


# ----------------------------------------------------------------------------- long-range guns

def test_long_range_gun_fires_only_at_the_enemy_rows_4_to_10():
    """L31.42 on the board an LRG stays in its rows 1-3 and fires only at units in the
    enemy's half, except the enemy's first three rows; L31.36 a six hits (ruling lrg_hit)."""
    b = board("a l1 lrg F1a; d v1 tank_1 F4d; d v2 tank_1 F10d; d v3 tank_1 F3d; d v4 tank_1 F5a")
    l1 = b.pieces["l1"]
    assert b.aim(l1, b.pieces["v1"]).need == 6 and b.aim(l1, b.pieces["v2"]).need == 6
    assert b.aim(l1, b.pieces["v3"]) is None and b.aim(l1, b.pieces["v4"]) is None


# ----------------------------------------------------------------------------- mines

def test_a_mine_destroys_the_enemy_unit_that_enters_and_is_spent():
    """L31.52 an enemy unit that enters a mined square is destroyed; the mine is used up
    (L31.54 'mines not used'); the move stops there."""
    b = board("a t1 tank_1 E5d; a t2 tank_1 F5d; d v1 tank_1 A1d")
    b.lay_mines(DEFENDER, [S("E4d")])
    b.act("t1", before=[S("E4d"), S("E3d")])
    assert "t1" not in b.pieces and not b.mines[DEFENDER]
    assert [e.square for e in b.events if isinstance(e, MineExploded)] == ["E4d"]
    b.act("t2", before=[S("F4d"), S("E4d")])                 # the square is safe now
    assert b.pieces["t2"].square == S("E4d")


# ----------------------------------------------------------------------------- the end

def _ended(b: BoardBattle) -> tuple[str, str] | None:
    r = b.check_end()
    return (r.winner, r.reason) if r else None


def test_last_defending_unit_destroyed_attacker_wins():
    """Ruling end: a side with no tank, warship or AT gun (nor LRG with a target) is beaten."""
    b = board("a t1 tank_1 E5a; d v1 tank_1 E6a", dice=[2])
    b.act("t1", target="v1")
    assert (b.result.winner, b.result.reason) == (ATTACKER, "defender_beaten")


def test_last_attacking_unit_destroyed_defender_holds():
    b = board("a t1 tank_1 E5a; d v1 tank_1 E6a", dice=[1, 2])
    b.act("t1", target="v1")
    assert (b.result.winner, b.result.reason) == (DEFENDER, "attacker_beaten")
    assert code_of(lambda: b.start_turn()) == "board_battle_over"


def test_lrgs_alone_lose_once_no_enemy_stands_where_they_fire():
    """L31.43 all the LRG owner's other units destroyed and the enemy's units where the LRGs
    cannot fire: the enemy wins and the LRGs are destroyed."""
    b = board("d l1 lrg F1d; a t1 tank_1 E5a")                # E5a: the defender LRG's zone
    assert _ended(b) is None
    b = board("d l1 lrg F1d; a t1 tank_1 E5d")                # the defender's own half
    assert _ended(b) == (ATTACKER, "defender_beaten") and "l1" not in b.pieces
    b = board("d l1 lrg F1d; a t1 tank_1 E2a")                # the attacker's rows 1-3
    assert _ended(b) == (ATTACKER, "defender_beaten")


def test_mines_only_defence_taken_by_driving_every_tank_into_the_safe_zone():
    """L31.56-L31.57 an area defended only by mines: the attacker must move all his tanks
    to the first three rows on the defender's side (L31.55 the safe zone)."""
    b = board("a t1 tank_1 E5d; a t2 tank_1 F4d")
    b.lay_mines(DEFENDER, [S("K8d")])
    assert _ended(b) is None                                  # neither tank is in rows 1-3
    b.act("t1", before=[S("E4d"), S("E3d")])
    assert b.result is None                                   # t2 still on row 4
    b.act("t2", before=[S("F3d")])
    assert (b.result.winner, b.result.reason) == (ATTACKER, "mines_cleared")
    assert not b.mines[DEFENDER]                              # L31.54 the loser's mines are lost


def test_every_mine_gone_off_with_tanks_left_attacker_wins():
    """L31.57-L31.58 unless all the mines went off first and the attacker has units left."""
    b = board("a t1 tank_1 E6d; a t2 tank_1 F9d")
    b.lay_mines(DEFENDER, [S("E5d")])
    b.act("t1", before=[S("E5d")])
    assert (b.result.winner, b.result.reason) == (ATTACKER, "mines_spent")


def test_at_guns_alone_cannot_clear_mines():
    """Ruling end: clearing needs at least one tank or warship in the safe zone; guns alone
    never can (ruling stalemate), so the defender holds at once."""
    b = board("a g1 at_gun E1a")
    b.lay_mines(DEFENDER, [S("K8d")])
    assert _ended(b) == (DEFENDER, "stalemate")


def test_battle_turn_cap_defender_holds():
    """Ruling G11-cap: after 30 battle turns the defender holds."""
    assert RULES.battle_turn_cap == 30
    b = fight(RULES, "land", {ATTACKER: BoardForce((("t1", "tank_1"),)),
                              DEFENDER: BoardForce((("v1", "tank_1"),))},
              {ATTACKER: BattlePlan(doctrine=Doctrine(stance="hold")),
               DEFENDER: BattlePlan(doctrine=Doctrine(stance="hold"))}, FixedDice([]))
    assert (b.result.turn, b.result.winner, b.result.reason) == (30, DEFENDER, "turn_cap")


# ----------------------------------------------------------------------------- the plan interpreter

FORCES = {ATTACKER: BoardForce((("a1", "tank_3"), ("a2", "tank_2"), ("a3", "tank_1"), ("a4", "at_gun"))),
          DEFENDER: BoardForce((("d1", "tank_2"), ("d2", "tank_2"), ("d3", "at_gun"), ("d4", "lrg")),
                               mines=3)}


def test_interpreter_is_versioned_and_deterministic():
    assert PLAN_INTERPRETER_VERSION == 1
    runs = [fight(RULES, "land", FORCES, {}, SeededDice(7)).events for _ in range(2)]
    assert runs[0] == runs[1]
    first_turn = next(e for e in runs[0] if e.kind == "board_turn_started")
    assert first_turn.side == ATTACKER                        # L31.1 the attacker begins


def test_formation_puts_the_highest_rank_first_guns_behind():
    """Ruling PLAN: formation 'line' fills G3, F3, H3 ... by rank, guns from G1; the plan's
    own squares first."""
    b = fight(RULES, "land", FORCES, {DEFENDER: BattlePlan(squares=(("d2", "A2"),), mines=("M9",))},
              SeededDice(1))
    deployed = {e.piece: e.square for e in b.events if e.kind == "board_deployed"}
    assert deployed["a1"] == "G3a" and deployed["a2"] == "F3a" and deployed["a3"] == "H3a"
    assert deployed["a4"] == "G1a"
    assert deployed["d2"] == "A2d" and deployed["d1"] == "G3d" and deployed["d3"] == "G1d"


def test_plan_errors_are_codes():
    bad = [BattlePlan(formation="phalanx"), BattlePlan(squares=(("zz", "A1"),)),
           BattlePlan(squares=(("d1", "A4"),)), BattlePlan(mines=("A3",)),
           BattlePlan(mines=("A5", "B5", "C5", "D5")), BattlePlan(doctrine=Doctrine(stance="charge")),
           BattlePlan(doctrine=Doctrine(fire_at=7))]
    codes = [code_of(lambda p=p: fight(RULES, "land", FORCES, {DEFENDER: p}, SeededDice(1))) for p in bad]
    assert codes == ["board_formation_unknown", "board_plan_unit_unknown", "board_deploy_row",
                     "board_mine_row", "board_too_many_mines", "board_doctrine", "board_doctrine"]


def test_hold_never_moves_and_fire_discipline_holds_fire():
    """Doctrine: 'hold' keeps its squares; fire_at 3 fires only at gaps 0 and 1."""
    forces = {ATTACKER: BoardForce((("a1", "tank_2"),)), DEFENDER: BoardForce((("d1", "tank_2"),))}
    b = BoardBattle(RULES, "land", FixedDice([]))
    b.place(Piece("a1", ATTACKER, "tank_2", S("E5a")))
    b.place(Piece("d1", DEFENDER, "tank_2", S("E8a")))         # gap 2: needs 4
    b.start_turn()
    play_turn(b, Doctrine(stance="hold", fire_at=3))
    assert not [e for e in b.events if isinstance(e, (ShotFired, PieceMoved))]
    play_turn_b = BoardBattle(RULES, "land", FixedDice([1, 1, 1, 1]))
    play_turn_b.place(Piece("a1", ATTACKER, "tank_2", S("E5a")))
    play_turn_b.place(Piece("d1", DEFENDER, "tank_2", S("E8a")))
    play_turn_b.start_turn()
    play_turn(play_turn_b, Doctrine(stance="hold", fire_at=4))
    assert [s[:3] for s in shots(play_turn_b)] == [("a1", "d1", 4)] * 2 + [("d1", "a1", 4)] * 2
    whole = fight(RULES, "land", forces, {s: BattlePlan(doctrine=Doctrine(stance="hold")) for s in forces},
                  FixedDice([]))
    assert not [e for e in whole.events if isinstance(e, PieceMoved)]


def test_advance_closes_in_and_fires_at_its_best_exchange():
    """Interpreter v1: with a shot in reach it moves to the square with the best exchange
    and fires; a tank III against a tank I is worth taking from adjacent (5/6 a shot)."""
    b = BoardBattle(RULES, "land", FixedDice([6]))
    b.place(Piece("a1", ATTACKER, "tank_3", S("E5a")))
    b.place(Piece("d1", DEFENDER, "tank_1", S("E8a")))
    b.start_turn()
    play_turn(b, Doctrine())
    moved = [e.path for e in b.events if isinstance(e, PieceMoved)]
    assert moved == [("E6a", "E7a")] and shots(b)[0][:3] == ("a1", "d1", 2)


def test_interpreter_does_not_read_the_enemy_mines():
    """Only public information: a different secret layout changes nothing until a mine
    goes off."""
    forces = {ATTACKER: BoardForce((("a1", "tank_2"),)), DEFENDER: BoardForce((("d1", "tank_1"),), mines=1)}
    runs = []
    for mine in ("A9", "M9"):
        b = fight(RULES, "land", forces, {DEFENDER: BattlePlan(mines=(mine,),
                                                               doctrine=Doctrine(stance="hold"))},
                  SeededDice(3))
        runs.append([e for e in b.events if isinstance(e, PieceMoved)][:3])
    assert runs[0] == runs[1]


def test_sea_battle_with_warships():
    """L39.1 warships and underwater mines fight the sea battle; the same board rules."""
    forces = {ATTACKER: BoardForce((("w1", "warship_4"), ("w2", "warship_2"))),
              DEFENDER: BoardForce((("x1", "warship_3"),))}
    b = fight(RULES, "sea", forces, {}, SeededDice(11))
    assert b.result is not None and b.result.reason in ("attacker_beaten", "defender_beaten", "turn_cap")
    assert code_of(lambda: fight(RULES, "sea", {ATTACKER: BoardForce((("t1", "tank_1"),))}, {},
                                 SeededDice(1))) == "board_wrong_battle"


# ----------------------------------------------------------------------------- data and words

def test_board_data_errors_say_where_and_why():
    good = __import__("tomllib").loads((ROOT / "maps" / "taktyczne" / "board.toml").read_text())
    bad = dict(good, fire=dict(good["fire"], to_hit=[2, 3, 9]))
    with pytest.raises(DataError, match="fire.to_hit"):
        board_rules(bad)
    bad = dict(good, geometry=dict(good["geometry"], rows_per_side=9))
    with pytest.raises(DataError, match="half of geometry.rows"):
        board_rules(bad)
    bad = dict(good, formations={"line": dict(good["formations"]["line"], mines=["G3"])})
    with pytest.raises(DataError, match="formations.line.mines .* rows 4-10"):
        board_rules(bad)
    bad = dict(good, units=dict(good["units"], tank_1=dict(good["units"]["tank_1"], rank="one")))
    with pytest.raises(DataError, match="units.tank_1.rank must be a whole number"):
        board_rules(bad)
    with pytest.raises(DataError, match="cannot read"):
        load_board(ROOT / "no" / "such")


def test_every_ruling_has_a_reason_and_every_number_a_reference():
    text = (ROOT / "maps" / "taktyczne" / "board.toml").read_text()
    assert "a Taktyczne Starcie variant" in text and "house rulings" in RULES.title
    keys = [k for k, _ in RULES.rulings]
    assert {"occupancy", "counter_fire", "ammunition_per_battle_turn", "end", "G11-cap", "PLAN"} <= set(keys)
    for line in text.splitlines():
        if re.match(r"^\s*(columns|rows|rows_per_side|deploy_rows|points|to_hit|shots|hit)\s*=", line):
            assert re.search(r"L\d+\.\d+|ruling", line), line


def test_every_board_problem_and_event_has_words():
    source = "\n".join(p.read_text() for p in (ROOT / "adjudicator" / "engine" / "tactical").glob("*.py"))
    for code in set(re.findall(r'OrderFailed\("([a-z_]+)"', source)):
        assert code in PROBLEMS, code
    kinds = set()
    stack = list(BoardEvent.__subclasses__())
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        kinds.add(cls.kind)
    assert kinds <= set(BOARD_EVENT_TEXTS)
    assert board_event_text(BoardBattleEnded(9, DEFENDER, "turn_cap")).endswith("the defender holds)")


def test_guns_alone_on_both_sides_end_at_once_defender_holds():
    """Ruling stalemate: AT guns and LRGs stay in their own rows 1-3 (L31.27, L31.42), out of
    every enemy gun's zone (L31.23, L31.42): nothing can change, the defender holds."""
    b = board("a g1 at_gun E1a; a l1 lrg F1a; d g2 at_gun E1d")
    assert _ended(b) == (DEFENDER, "stalemate")
    b = board("a g1 at_gun E1a; d g2 at_gun E1d; d t1 tank_1 E10d")
    assert _ended(b) is None


# ----------------------------------------------------------------------------- properties

LAND_KINDS = ["tank_1", "tank_2", "tank_3", "tank_4", "at_gun", "lrg"]
_force = st.tuples(st.lists(st.sampled_from(LAND_KINDS), min_size=0, max_size=5), st.integers(0, 4))
_doctrine = st.builds(Doctrine, st.sampled_from(["advance", "hold"]),
                      st.sampled_from(["best", "highest_rank", "nearest", "guns_first"]), st.integers(2, 6))


class _CountingDice(SeededDice):
    def __init__(self, seed):
        super().__init__(seed)
        self.rolled = 0

    def roll(self, count, purpose=""):
        self.rolled += count
        return super().roll(count, purpose)


@settings(max_examples=25, deadline=None)
@given(_force, _force, _doctrine, _doctrine, st.integers(0, 10**6))
def test_any_battle_ends_legally(att, dfn, att_doctrine, dfn_doctrine, seed):
    """Whatever the forces and doctrines: the battle ends by the cap, one die per shot, and
    every position along the way keeps the guns in their rows 1-3 and one unit a square."""
    forces = {ATTACKER: BoardForce(tuple((f"a{i}", k) for i, k in enumerate(att[0])), mines=att[1]),
              DEFENDER: BoardForce(tuple((f"d{i}", k) for i, k in enumerate(dfn[0])), mines=dfn[1])}
    dice = _CountingDice(seed)
    b = fight(RULES, "land", forces, {ATTACKER: BattlePlan(doctrine=att_doctrine),
                                      DEFENDER: BattlePlan(doctrine=dfn_doctrine)}, dice)
    assert b.result is not None and b.result.turn <= RULES.battle_turn_cap
    assert dice.rolled == sum(isinstance(e, ShotFired) for e in b.events)
    assert len({p.square for p in b.pieces.values()}) == len(b.pieces)
    for p in b.pieces.values():
        kind = b.kind(p)
        if kind.confined:
            assert kind.confined[0] <= own_row(RULES, p.side, p.square) <= kind.confined[1]
    loser = DEFENDER if b.result.winner == ATTACKER else ATTACKER
    if b.result.reason in ("defender_beaten", "attacker_beaten", "mines_spent", "mines_cleared"):
        assert not any(b.kind(p).holds_ground for p in b.side_pieces(loser))


def test_side_dice_name_the_shooter():
    """The purpose of each die names the shooter's side once, so SideDice (every attacker die
    a 6, every defender die a 1) scripts a battle as it does an A&A one."""
    forces = {ATTACKER: BoardForce((("a1", "tank_1"),)), DEFENDER: BoardForce((("d1", "tank_4"),))}
    b = fight(RULES, "land", forces, {}, SideDice(attacker=6, defender=1))
    assert (b.result.winner, b.result.reason) == (ATTACKER, "defender_beaten")
    assert all(e.hit == (e.side == ATTACKER) for e in b.events if isinstance(e, ShotFired))


def test_board_text_shows_both_halves_from_the_defenders_edge():
    from adjudicator.present.board_battle import board_text
    text = board_text(RULES, [Piece("t1", ATTACKER, "tank_3", S("C3a")),
                              Piece("g1", DEFENDER, "at_gun", S("M1d"))], mines=[S("E4d")])
    lines = text.splitlines()
    assert len(lines) == 21 and lines[0].split() == [chr(65 + c) for c in range(13)]
    assert lines[1].split()[0] == "1d" and lines[10].split()[0] == "10d" and lines[11].split()[0] == "10a"
    assert lines[1].split()[-1] == "at"                      # M1d: the defender's edge, top right
    assert lines[4].split()[5] == "**"                        # E4d (label first, then A..E)
    assert lines[-3].split()[3] == "T3"                       # C3a
    assert lines[-1].strip().startswith("1a")


def test_a_refused_action_changes_nothing():
    """The whole action (paths and the shot) is checked before any of it happens."""
    b = board("a t1 tank_1 E5a; a t2 tank_1 C7a; d v1 tank_1 E9a", dice=[])
    assert code_of(lambda: b.act("t1", before=[S("D5a")], target="v1")) == "board_cannot_fire"
    assert code_of(lambda: b.act("t1", before=[S("E6a")], target="v1",
                                 after=[S("D6a"), S("C6a"), S("B6a"), S("A6a")])) == "board_too_far"
    assert code_of(lambda: b.act("t1", before=[S("E6a")], target="v1",
                                 after=[S("D6a"), S("D7a"), S("C7a")])) == "board_square_taken"
    assert code_of(lambda: b.act("t1", target="v1", after=[S("D5a"), S("D6a"), S("D7a"),
                                                           S("C7a")])) == "board_square_taken"
    assert b.pieces["t1"].square == S("E5a") and not shots(b) and "t1" not in b.acted


def test_a_restored_position_plays_on_exactly_as_the_original():
    """The position is the whole state (live by mail keeps it between battle-turn files):
    restored and played on with the same dice, it gives the same events."""
    from adjudicator.engine.tactical import deploy
    from adjudicator.model.tactical import BoardPosition

    original = BoardBattle(RULES, "land", SeededDice(5))
    for side in (DEFENDER, ATTACKER):
        deploy(original, side, FORCES[side], BattlePlan())
    for _ in range(4):
        original.start_turn()
        play_turn(original, Doctrine())
    position = original.position()
    assert isinstance(position, BoardPosition) and position.turn == 4
    copy = BoardBattle.restore(RULES, position, SeededDice(99))
    assert copy.position() == position
    original.dice = SeededDice(99)
    before = len(original.events)
    for b in (original, copy):
        while b.result is None:
            b.start_turn()
            play_turn(b, Doctrine())
            b.end_turn()
    assert original.events[before:] == copy.events and original.position() == copy.position()


_junk = st.one_of(st.none(), st.booleans(), st.integers(-5, 100), st.text(max_size=4),
                  st.lists(st.integers(-1, 12), max_size=3), st.dictionaries(st.text(max_size=3),
                                                                             st.integers(), max_size=2))


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_bad_board_data_is_a_message_never_a_traceback(data):
    import copy
    import tomllib
    doc = tomllib.loads((ROOT / "maps" / "taktyczne" / "board.toml").read_text())
    table = data.draw(st.sampled_from(["geometry", "movement", "fire", "units", "mines", "formations",
                                       "title", "version", "ruling"]))
    bad = copy.deepcopy(doc)
    if isinstance(bad[table], dict) and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(sorted(bad[table])))
        inner = bad[table][key]
        if isinstance(inner, dict) and inner:
            inner[data.draw(st.sampled_from(sorted(inner)))] = data.draw(_junk)
        else:
            bad[table][key] = data.draw(_junk)
    else:
        bad[table] = data.draw(_junk)
    try:
        board_rules(bad)
    except DataError:
        pass
