"""The battle plans of a Taktyczne Starcie board battle, read from the orders: the
attacker's plan for an area attacked this turn (``plan 34: wedge, advance``, order kind
``plan``) and the defender's standing plan for the area or for all its areas
(``defend 22: line, hold``, the standing kind ``defence_plan``).  A side that wrote none
fights by the documented default, ``DEFAULT_PLAN``: the formation ``line``, advance, the
best exchange, every possible shot (the interpreter's own defaults; docs/taktyczne-board.md
"Battle plans as orders").

* ``plans_for(ctx, area, attacker, defender, rules=None, forces=None)`` -> ``{ATTACKER:
  BattlePlan, DEFENDER: BattlePlan}`` (``model.tactical`` side names): what the board
  battle of ``area`` is fought with.  Given the board ``rules`` and the ``forces`` on the
  board, each plan is fitted to them (``fit_plan``) so that ``plan.fight`` never fails on a
  plan: a square the rules or the forces cannot use is left out (the formation fills in),
  with a warning on the attacker's order.
* ``check_plans(ctx, rules)``: the turn's ``plan`` orders and the standing plans written
  in it against the board rules (``plan_problems``: errors on their lines), run by the rule
  ``ts_battle_plans`` at the start of the turn, which also warns after the main turn about
  a plan for an area not attacked (``check_attacked``); ``check_standing_plan`` is the
  standing kind's check that a kept value reads as a plan.

A plan's squares name unit types (``tank_4``); the interpreter deploys the units of that
type on them in its own order (``plan.named_squares``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import attrs

from ...model.orders import PlanOrder
from ...model.plan_text import plan_from_text, plan_text
from ...model.tactical import ATTACKER, DEFENDER, BattlePlan, BoardForce, BoardRules
from ..errors import OrderFailed
from ..tactical.geometry import own_square
from ..turn_rules import Rule, declare_standing, register_rule, standing_choice

# The plan of a side that wrote none (docs/taktyczne-board.md "Battle plans as orders").
DEFAULT_PLAN = BattlePlan()

Problem = tuple[str, dict[str, Any]]


def check_standing_plan(ctx, power: str, value: str) -> Problem | None:
    """The standing kind's check of a defence plan's value: readable as a plan (the board
    rules are checked with the area, ``check_plans``)."""
    try:
        plan_from_text(value)
    except ValueError as exc:
        return "plan_unreadable", {"reason": str(exc)}
    return None


DEFENCE_PLAN = declare_standing(
    "defence_plan", plan_text(DEFAULT_PLAN), (),
    "the board battle plan a power defends its areas with (Taktyczne Starcie; one area, or "
    "all): default line, advance, the best exchange, fire at 6", check=check_standing_plan)


def board_rules(ctx) -> BoardRules | None:
    """The edition's battle board (``Game.tables["board"]``, from its ``board.toml``), if
    it has one."""
    return ctx.game.tables.get("board")


def mine_types(ctx) -> frozenset[str]:
    """The unit types that are mines: the battle board's mine of each battle."""
    rules = board_rules(ctx)
    return frozenset(rules.mines.values()) if rules is not None else frozenset()


MAIN_TURN, ATTACKED = "ts_main_turn", "ts_attacked"    # engine/taktyczne/main_turn.py


@register_rule
class BattlePlans(Rule):
    """Rule ``ts_battle_plans``: the turn's plans (``plan``, ``defence_plan``) are checked
    against the board's rules once, at the start of the turn's first step; after the main
    turn, a plan for an area nobody attacked is a warning."""

    name = "ts_battle_plans"
    doc = "battle plans (plan and defend orders) checked against the battle board's rules"

    def at_step(self, ctx, point: str, step: str) -> None:
        done = ctx.mechanic(self.name, dict)
        if point == "start" and not done:
            done["checked"] = True
            check_plans(ctx)
        elif point == "end" and step == MAIN_TURN:
            check_attacked(ctx, ctx.mechanic(ATTACKED, dict))


def battle_of(ctx, area: str) -> str:
    """``"sea"`` for a sea area, else ``"land"``: the board the battle is fought on."""
    territory = ctx.game.map.territories.get(area)
    return "sea" if territory is not None and territory.is_sea else "land"


# --------------------------------------------------------------------------- reading

def attacker_order(ctx, area: str) -> PlanOrder | None:
    """The last ``plan`` order of this turn's orders for ``area``."""
    found = [o for o in ctx.orders.of("plan") if o.space == area]
    return found[-1] if found else None


def standing_plan(ctx, power: str, area: str) -> BattlePlan:
    """``power``'s standing plan for ``area`` (the area's, else its plan for all areas, else
    the default)."""
    value = standing_choice(ctx, power, DEFENCE_PLAN.name, area)
    try:
        return plan_from_text(value)
    except ValueError:          # not written by this package's reading: the default
        return DEFAULT_PLAN


def plans_for(ctx, area: str, attacker: str, defender: str, rules: BoardRules | None = None,
              forces: Mapping[str, BoardForce] | None = None) -> dict[str, BattlePlan]:
    """Each side's plan for the board battle in ``area``: the attacker's from this turn's
    orders (when it is the power whose turn it is), the defender's standing plan; the
    default for a side that wrote none.  With ``rules`` (default: the game's board) and
    ``forces``, each plan fitted to what can be deployed (``fit_plan``)."""
    order = attacker_order(ctx, area) if attacker == ctx.power else None
    plans = {ATTACKER: order.plan if order is not None else DEFAULT_PLAN,
             DEFENDER: standing_plan(ctx, defender, area)}
    rules = rules if rules is not None else board_rules(ctx)
    if rules is None or forces is None:
        return plans
    battle = battle_of(ctx, area)
    for side, plan in plans.items():
        fitted, dropped = fit_plan(rules, battle, forces.get(side, BoardForce()), plan)
        plans[side] = fitted
        if side == ATTACKER and order is not None:
            for code, params in dropped:
                ctx.warn(order.line, code, area=area, **params)
    return plans


# --------------------------------------------------------------------------- checks

def check_plans(ctx, rules: BoardRules | None = None) -> None:
    """Every plan of the turn's orders against the board rules (the attacker's ``plan``
    orders and the standing ``defend`` plans written now): a known formation, squares on
    the board in the side's deployment rows (the kind's own rows), mines in the mine rows,
    no square twice, units that stand on this area's board (either board for ``all``)."""
    rules = rules if rules is not None else board_rules(ctx)
    if rules is None:
        return
    written = [(o.line, o.space, o.plan) for o in ctx.orders.of("plan")]
    for order in ctx.orders.standing_choices:
        if order.name == DEFENCE_PLAN.name:
            try:
                written.append((order.line, order.space, plan_from_text(order.value)))
            except ValueError:
                pass                    # said by check_standing_plan
    for line, space, plan in written:
        battle = battle_of(ctx, space) if space is not None else None
        where = space if space is not None else "all areas"
        for code, params in plan_problems(rules, battle, plan):
            ctx.error(line, code, area=where, **params)
        if plan.mines:          # published orders: squares only sealed (docs/taktyczne-mines.md)
            ctx.error(line, "ts_mines_in_clear", area=where)


def check_attacked(ctx, attacked) -> None:
    """A ``plan`` for an area the turn did not attack (``attacked``: the areas it did) is a
    warning: the plan is not used."""
    for order in ctx.orders.of("plan"):
        if order.space not in attacked:
            ctx.warn(order.line, "plan_not_attacked", area=order.space)


def plan_problems(rules: BoardRules, battle: str | None, plan: BattlePlan) -> list[Problem]:
    """What in ``plan`` no deployment under ``rules`` can follow (``battle``: "land" or
    "sea"; None: either), as (code, params), in the plan's order."""
    problems: list[Problem] = []
    if plan.formation not in rules.formations:
        problems.append(("plan_formation_unknown", {"formation": plan.formation,
                                                    "known": sorted(rules.formations)}))
    used: Counter[str] = Counter()
    for key, square in plan.squares:
        kind = rules.kinds.get(key)
        if kind is None:
            problems.append(("plan_unit_not_on_board", {"unit": key}))
            continue
        if battle is not None and kind.battle != battle:
            problems.append(("plan_unit_wrong_board", {"unit": key, "battle": battle}))
            continue
        low, high = kind.confined or (1, rules.deploy_rows)
        problems.extend(_square_problem(rules, square, low, high, "plan_square_row", unit=key))
        used[square] += 1
    low, high = rules.mine_rows
    for square in plan.mines:
        problems.extend(_square_problem(rules, square, low, high, "plan_mine_row"))
        used[square] += 1
    problems.extend(("plan_square_twice", {"square": sq}) for sq, n in used.items() if n > 1)
    return problems


def _square_problem(rules: BoardRules, square: str, low: int, high: int, code: str,
                    **params: Any) -> list[Problem]:
    try:
        own_square(rules, ATTACKER, square)
    except OrderFailed:
        return [("plan_square_unknown", {"square": square, "last_column": chr(64 + rules.columns),
                                         "rows": rules.rows_per_side})]
    row = int(square[1:])
    if not low <= row <= high:
        return [(code, {"square": square, "low": low, "high": high, **params})]
    return []


# --------------------------------------------------------------------------- fitting

def fit_plan(rules: BoardRules, battle: str, force: BoardForce,
             plan: BattlePlan) -> tuple[BattlePlan, list[Problem]]:
    """``plan`` as ``force`` can follow it on ``battle``'s board, and what was left out:
    an unknown formation becomes the default's; a square the rules refuse, a second use of
    a square, a square for more units of a type than the force has, and mine squares beyond
    its mines are dropped (the formation places those units and mines)."""
    dropped: list[Problem] = []
    formation = plan.formation if plan.formation in rules.formations else DEFAULT_PLAN.formation
    if formation != plan.formation:
        dropped.append(("plan_formation_unknown", {"formation": plan.formation,
                                                   "known": sorted(rules.formations)}))
    have = Counter(key for _, key in force.units)
    used: set[str] = set()
    squares = []
    for key, square in plan.squares:
        problems = plan_problems(rules, battle, BattlePlan(formation=formation, squares=((key, square),)))
        if problems:
            dropped.extend(problems)
        elif square in used:
            dropped.append(("plan_square_twice", {"square": square}))
        elif have[key] <= 0:
            dropped.append(("plan_unit_not_in_battle", {"unit": key, "square": square}))
        else:
            have[key] -= 1
            used.add(square)
            squares.append((key, square))
    mines = []
    for square in plan.mines:
        problems = plan_problems(rules, battle, BattlePlan(formation=formation, mines=(square,)))
        if problems:
            dropped.extend(problems)
        elif square in used:
            dropped.append(("plan_square_twice", {"square": square}))
        elif len(mines) >= force.mines:
            dropped.append(("plan_too_many_mines", {"square": square, "count": force.mines}))
        else:
            used.add(square)
            mines.append(square)
    return attrs.evolve(plan, formation=formation, squares=tuple(squares), mines=tuple(mines)), dropped
