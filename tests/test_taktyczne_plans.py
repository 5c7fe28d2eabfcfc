"""Taktyczne Starcie's battle plans as orders (issue 26): the plan's canonical text, the
interpreter reading squares named by unit type, the checks against the board's rules
written from the text's sentences (../shared/seeds/003_876acb9d68787626.txt, "L31.5" =
line 31, sentence 5, as the digest ../shared/rules/taktyczne-starcie.md §0.1 splits it),
the fitting of a plan to the forces, and ``plans_for`` reading a turn's orders and the
defender's standing plan (a ``TurnContext`` built here, on any map: the plans read only
the orders, the standing orders and whether an area is land or sea)."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.engine.context import TurnContext
from adjudicator.engine.errors import OrderFailed
from adjudicator.engine.tactical import fight
from adjudicator.engine.tactical.geometry import own_square
from adjudicator.engine.tactical.plan import named_squares
from adjudicator.engine.taktyczne.plans import (
    DEFAULT_PLAN, check_plans, fit_plan, plan_problems, plans_for,
)
from adjudicator.engine.working import WorkingBoard
from adjudicator.io.loader import initial_state
from adjudicator.io.tactical_data import load_board
from adjudicator.model.dice import FixedDice, SeededDice
from adjudicator.model.orders import (
    DefencePlanOrder, OrderSet, PlanOrder, StandingChoice, StandingOrders,
)
from adjudicator.model.plan_text import grouped_squares, plan_from_text, plan_text
from adjudicator.model.tactical import (
    ATTACKER, DEFENDER, STANCES, TARGET_PRIORITIES, BattlePlan, BoardForce, Doctrine,
    PieceDeployed, ShotFired,
)
from adjudicator.present.wording import PROBLEMS, problem_text
from adjudicator.service.games import load_game

RULES = load_board()
LAND = BoardForce(units=(("a1", "tank_4"), ("a2", "tank_2"), ("a3", "tank_2"), ("a4", "at_gun")), mines=2)


def deployed(board) -> dict[str, str]:
    return {e.piece: e.square for e in board.events if isinstance(e, PieceDeployed)}


# ------------------------------------------------------------------ the canonical text

SQUARES = st.tuples(st.sampled_from(["tank_1", "tank_4", "at_gun"]),
                    st.from_regex(r"[A-M](10|[1-9])", fullmatch=True))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["line", "wedge"]), st.sampled_from(STANCES),
       st.sampled_from(TARGET_PRIORITIES), st.integers(2, 6), st.lists(SQUARES, max_size=5),
       st.lists(st.from_regex(r"[A-M](10|[4-9])", fullmatch=True), max_size=4))
def test_a_plan_is_its_canonical_text_and_back(formation, stance, target, fire, squares, mines):
    """Read back equal, but for the order between types (each type's squares in order)."""
    plan = BattlePlan(formation, tuple(squares), tuple(mines), Doctrine(stance, target, fire))
    back = plan_from_text(plan_text(plan))
    assert plan_text(back) == plan_text(plan)
    assert grouped_squares(back) == grouped_squares(plan)
    assert attrs.evolve(back, squares=()) == attrs.evolve(plan, squares=())


def test_the_default_plan_is_written_out_whole():
    assert plan_text(DEFAULT_PLAN) == "line, advance, target best, fire at 6"
    plan = BattlePlan("wedge", (("tank_2", "F3"), ("tank_4", "G3"), ("tank_2", "H3")), ("G5",),
                      Doctrine("hold", "tanks_first", 4))
    assert plan_text(plan) == "wedge, hold, target tanks_first, fire at 4, tank_2 at F3 H3, tank_4 at G3, mines G5"


@pytest.mark.parametrize("text", [
    "line, advance", "line, forward, target best, fire at 6", "line, hold, target tanks, fire at 6",
    "line, hold, target best, fire at 7", "line, hold, target best, fire at 4, tank_4 G3",
    "line, hold, target best, fire at 4, mines 9X", "x" * 3000,
])
def test_a_stored_plan_that_is_not_canonical_is_refused(text):
    with pytest.raises(ValueError):
        plan_from_text(text)


# ------------------------------------------------------------------ the interpreter

def test_a_plan_names_units_by_type_the_first_in_deployment_order_first():
    """Squares by type: tank_2 at F3 H3 puts a2 (the lower id of the two) on F3."""
    plan = BattlePlan(squares=(("tank_2", "F3"), ("tank_4", "A1"), ("tank_2", "H3")))
    assert named_squares(RULES, LAND, plan) == {"a2": "F3", "a1": "A1", "a3": "H3"}
    board = fight(RULES, "land", {ATTACKER: LAND, DEFENDER: BoardForce((("d1", "tank_1"),))},
                  {ATTACKER: plan}, SeededDice(1))
    assert deployed(board)["a1"] == "A1a" and deployed(board)["a2"] == "F3a"
    with pytest.raises(OrderFailed) as err:
        named_squares(RULES, LAND, BattlePlan(squares=(("tank_3", "F3"),)))
    assert err.value.code == "board_plan_unit_unknown"


def test_tanks_first_fires_at_a_tank_where_guns_first_fires_at_the_gun():
    """A tank IV with an AT gun and a tank I each two free squares away on a straight line:
    the doctrine's target priority picks which it fires at."""
    from adjudicator.engine.tactical import BoardBattle, play_turn
    from adjudicator.engine.tactical.geometry import board_square
    from adjudicator.model.tactical import Piece
    chosen = {}
    for target in ("guns_first", "tanks_first"):
        b = BoardBattle(RULES, "land", FixedDice([6] * 8))
        b.place(Piece("a", ATTACKER, "tank_4", board_square(RULES, "G5d")))
        b.place(Piece("g", DEFENDER, "at_gun", board_square(RULES, "G2d")))
        b.place(Piece("t", DEFENDER, "tank_1", board_square(RULES, "D5d")))
        b.start_turn()
        play_turn(b, Doctrine("hold", target, 6))
        chosen[target] = next(e.at for e in b.events if isinstance(e, ShotFired))
    assert chosen == {"guns_first": "g", "tanks_first": "t"}


# ------------------------------------------------------------------ checks (board rules)

def codes(problems):
    return [c for c, _ in problems]


def test_units_deploy_in_the_first_three_rows_L31_5():
    """L31.5: the units are set out in the first three rows; G4 is the fourth."""
    plan = BattlePlan(squares=(("tank_4", "G3"), ("tank_2", "G4")))
    assert plan_problems(RULES, "land", plan) == [
        ("plan_square_row", {"square": "G4", "low": 1, "high": 3, "unit": "tank_2"})]


def test_guns_stay_in_rows_1_to_3_L31_27():
    assert codes(plan_problems(RULES, "land", BattlePlan(squares=(("at_gun", "A5"),)))) == ["plan_square_row"]
    assert plan_problems(RULES, "land", BattlePlan(squares=(("at_gun", "A1"), ("lrg", "M3")))) == []


def test_mines_go_in_the_own_rows_4_to_10_L31_49():
    """L31.7, L31.49: mines in the rest of the own half, not in the deployment rows."""
    plan = BattlePlan(mines=("G4", "G10", "G3"))
    assert plan_problems(RULES, "land", plan) == [
        ("plan_mine_row", {"square": "G3", "low": 4, "high": 10})]


def test_a_square_of_the_board_a_known_formation_one_thing_a_square():
    """L31.2, L31.4: 13 columns A-M, rows 1-10 on each side."""
    plan = BattlePlan(formation="arrow", squares=(("tank_4", "N3"), ("tank_1", "A11"),
                                                  ("tank_1", "B2"), ("tank_2", "B2")))
    assert codes(plan_problems(RULES, "land", plan)) == [
        "plan_formation_unknown", "plan_square_unknown", "plan_square_unknown", "plan_square_twice"]


def test_only_board_units_and_of_the_right_board_L35_1_L39_1():
    """L35.1 tanks fight on land; L39.1 warships at sea; a fighter not on the board."""
    plan = BattlePlan(squares=(("fighter", "A1"), ("warship_1", "B1"), ("tank_1", "C1")))
    assert codes(plan_problems(RULES, "land", plan)) == ["plan_unit_not_on_board", "plan_unit_wrong_board"]
    assert codes(plan_problems(RULES, "sea", plan)) == ["plan_unit_not_on_board", "plan_unit_wrong_board"]


def test_every_plan_problem_is_worded():
    params = {"area": "34", "formation": "arrow", "known": ["line", "wedge"], "square": "G4",
              "low": 1, "high": 3, "unit": "tank_2", "battle": "sea", "count": 2,
              "last_column": "M", "rows": 10, "reason": "x"}
    for code in ("plan_formation_unknown", "plan_square_unknown", "plan_square_row", "plan_mine_row",
                 "plan_square_twice", "plan_unit_not_on_board", "plan_unit_wrong_board",
                 "plan_not_attacked", "plan_unit_not_in_battle", "plan_too_many_mines",
                 "plan_unreadable"):
        assert code in PROBLEMS
        assert "?" not in problem_text((code, params)), code


# ------------------------------------------------------------------ fitting to the forces

def test_a_plan_is_fitted_to_the_forces_so_the_battle_always_deploys():
    plan = BattlePlan(formation="arrow",
                      squares=(("tank_2", "F3"), ("tank_2", "H3"), ("tank_2", "E3"), ("tank_4", "G7"),
                               ("tank_4", "F3")),
                      mines=("G5", "F5", "H5"))
    fitted, dropped = fit_plan(RULES, "land", LAND, plan)
    assert fitted == BattlePlan("line", (("tank_2", "F3"), ("tank_2", "H3")), ("G5", "F5"))
    assert codes(dropped) == ["plan_formation_unknown", "plan_unit_not_in_battle", "plan_square_row",
                              "plan_square_twice", "plan_too_many_mines"]
    board = fight(RULES, "land", {ATTACKER: LAND, DEFENDER: BoardForce((("d1", "tank_1"),))},
                  {ATTACKER: fitted}, SeededDice(2))
    assert board.result is not None
    assert {deployed(board)["a2"], deployed(board)["a3"]} == {"F3a", "H3a"}


# ------------------------------------------------------------------ plans_for and the turn

@pytest.fixture(scope="module")
def game():
    return load_game("aa1941")


def context(game, orders=(), standing=None, power="germany"):
    state = attrs.evolve(initial_state(game, "t"), power=power, standing_orders=standing or {})
    return TurnContext(game, WorkingBoard(game, state), OrderSet(power, tuple(orders)), "check",
                       standing_orders=dict(state.standing_orders))


def test_plans_for_gives_the_defaults_when_nobody_wrote_a_plan(game):
    ctx = context(game)
    assert plans_for(ctx, "Karelia", "germany", "russia") == {ATTACKER: DEFAULT_PLAN,
                                                                     DEFENDER: DEFAULT_PLAN}


def test_plans_for_reads_the_attackers_plan_for_the_area_and_the_defenders_standing_plan(game):
    wedge = BattlePlan("wedge", (("tank_4", "G3"),), (), Doctrine("advance", "tanks_first", 4))
    hold = BattlePlan("line", (), ("G5",), Doctrine("hold"))
    everywhere = BattlePlan("wedge", doctrine=Doctrine("hold", "guns_first"))
    standing = {"russia": StandingOrders(choices=(
        StandingChoice("defence_plan", None, plan_text(everywhere)),
        StandingChoice("defence_plan", "Karelia", plan_text(hold))))}
    ctx = context(game, [PlanOrder("Karelia", BattlePlan("line"), 3),
                         PlanOrder("Karelia", wedge, 4), PlanOrder("Ukraine", hold, 5)],
                  standing)
    assert plans_for(ctx, "Karelia", "germany", "russia") == {ATTACKER: wedge, DEFENDER: hold}
    assert plans_for(ctx, "Germany", "germany", "russia") == {ATTACKER: DEFAULT_PLAN,
                                                               DEFENDER: everywhere}
    # another power's plan is not the attacker's (the orders are the mover's)
    assert plans_for(ctx, "Karelia", "japan", "russia")[ATTACKER] == DEFAULT_PLAN


def test_the_defenders_plan_written_this_turn_counts_for_its_own_turn_only(game):
    """A standing plan the mover writes now is its own; it defends with it once stored."""
    mine = BattlePlan("wedge")
    ctx = context(game, [DefencePlanOrder("defence_plan", "Germany", plan_text(mine), 2)])
    assert plans_for(ctx, "Germany", "russia", "germany")[DEFENDER] == mine


def test_plans_for_fits_the_plans_and_warns_on_the_attackers_line(game):
    plan = BattlePlan(squares=(("tank_4", "G3"), ("tank_4", "H3")))
    ctx = context(game, [PlanOrder("Karelia", plan, 7)])
    forces = {ATTACKER: BoardForce((("a1", "tank_4"),)), DEFENDER: BoardForce((("d1", "tank_1"),))}
    plans = plans_for(ctx, "Karelia", "germany", "russia", rules=RULES, forces=forces)
    assert plans[ATTACKER].squares == (("tank_4", "G3"),)
    assert [(p.line, p.code, p.params["unit"]) for p in ctx.problems] == [
        (7, "plan_unit_not_in_battle", "tank_4")]


def test_check_plans_errs_on_the_order_line(game):
    ctx = context(game, [PlanOrder("Karelia", BattlePlan(squares=(("tank_4", "G5"),)), 9),
                         PlanOrder("Sea Zone 4", BattlePlan(squares=(("tank_4", "G1"),)), 10)])
    check_plans(ctx, RULES)
    assert [(p.line, p.code) for p in ctx.problems] == [(9, "plan_square_row"), (10, "plan_unit_wrong_board")]


LAND_KINDS = ["tank_1", "tank_2", "tank_3", "tank_4", "at_gun", "lrg", "warship_1", "fighter"]
ANY_SQUARE = st.from_regex(r"[A-P](1[0-2]|[1-9])", fullmatch=True)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(LAND_KINDS[:6]), max_size=8), st.integers(0, 4),
       st.sampled_from(["line", "wedge", "arrow"]),
       st.lists(st.tuples(st.sampled_from(LAND_KINDS), ANY_SQUARE), max_size=10),
       st.lists(ANY_SQUARE, max_size=6), st.sampled_from([ATTACKER, DEFENDER]))
def test_a_fitted_plan_always_deploys(kinds, mines, formation, squares, mine_squares, side):
    """Whatever the plan says, fitted to the force it deploys without an error, and every
    square it kept is where its unit or mine stands (the others are the formation's)."""
    from adjudicator.engine.tactical import BoardBattle
    from adjudicator.engine.tactical.plan import deploy
    force = BoardForce(tuple((f"u{i}", k) for i, k in enumerate(kinds)), mines)
    plan = BattlePlan(formation, tuple(squares), tuple(mine_squares))
    fitted, dropped = fit_plan(RULES, "land", force, plan)
    assert len(fitted.squares) + len(fitted.mines) + len(dropped) >= len(squares) + len(mine_squares)
    board = BoardBattle(RULES, "land", FixedDice([]))
    deploy(board, side, force, fitted)
    placed = {e.square for e in board.events if isinstance(e, PieceDeployed)}
    suffix = "a" if side == ATTACKER else "d"
    assert {sq + suffix for _, sq in fitted.squares} <= placed
    assert set(map(lambda s: own_square(RULES, side, s), fitted.mines)) <= board.mines[side]
