"""Live board battles in the turn files (issue 26): the main turn pauses at a live battle,
each battle turn is a turn file of its own, and the main turn goes on when the battle ends.

* ``pause`` (called by the board battle seam, ``board_battles.fight_board_battle``, for a
  live battle while the turn is played): deploys both sides by their plans, keeps the
  ``LiveBattle`` and the mover's orders in the state (``live_battle``), emits
  ``LiveBattleStarted`` and raises ``TurnPaused``: the turn file ends there, and the next
  one is the attacker's first battle turn (``TurnContext.next_power``).
* The rule ``live_battles`` (hook ``pending_turn``): while a battle waits, each turn file's
  orders are the side's ``board`` lines (or the game master's ``nmr`` after a missed
  deadline: the side's plan plays), checked and played by ``live``; ``LiveBattleTurn``
  records it.  When the battle ends the kept state is dropped, ``BoardBattleFought``
  (``live`` True) is emitted and the paused turn goes on (``Resume``: the mover, its
  orders, the step and order it stopped at, the event as the outcome).

Everything is in the turn files (orders, dice, events, state), so ``pbem verify`` replays
it like any turn.  The mines in the kept position are published with the state, except a
sealed layout's: those are placeholders until a unit reaches their squares, and an
attacker's battle turn that reaches one not opened waits for the owner's openings with its
dice kept (``play_over_sealed``; docs/taktyczne-mines.md §3, ``sealed_live``).
"""

from __future__ import annotations

import enum
import json
from typing import Any

import cattrs

from ...model.live_battle import BoardAction
from ...model.live_battle_events import LiveBattleStarted, LiveBattleTurn
from ...model.tactical import ATTACKER, DEFENDER
from ...model.ts_mines_live import MineSquaresWanted
from ...model.dice import KeptDice, RecordingDice
from ...model.events import all_event_classes
from ...model.orders import Order, OrderSet
from ...model.tactical import BattlePlan, BoardForce, BoardRules
from ..context import Resume, TurnContext
from ..errors import TurnPaused
from ..tactical.battle import BoardBattle
from ..turn_rules import Rule, declare_state, register_rule
from . import live, plans
from .sealed_board import (SealedSquares, SquareNeeded, open_squares, roll_bound,
                           wanted_squares)
from .fought import battle_fought

LIVE_BATTLE = declare_state("live_battle", dict)
# A live battle on a square-by-square sealed mine layout (docs/taktyczne-mines.md §3,
# engine/taktyczne/sealed_live.py): the layout's leaves, kept with the battle ("sealed"),
# and an attacker's battle turn waiting for the owner to open the squares it enters.
SEALED_MINES = "ts_sealed_mines"     # TurnContext.mechanic: area -> the sealed layout's data
OPENINGS = declare_state("ts_mine_openings", dict)
# A sealed layout the battle published (revealed, or its leaves): area -> its commitment,
# kept with a live battle ("published") till it ends; the standing order is then withdrawn
# (mines.retire_published).
PUBLISHED = "ts_layout_published"     # TurnContext.mechanic
LIVE_KINDS = ("board", "nmr")          # what a battle turn's orders may hold


def board_rules(ctx: TurnContext) -> BoardRules:
    """The edition's battle board (``Game.tables["board"]``)."""
    found = plans.board_rules(ctx)
    if found is None:
        raise ValueError(f"the edition {ctx.game.edition!r} has no battle board for live battles")
    return found


def wants_live(ctx: TurnContext, area: str) -> bool:
    """Whether the board battle of ``area`` is played live: the game's option
    ``live_battles``, or this turn's ``live <area>`` order."""
    if ctx.board.rules.option(live.LIVE_OPTION, False):
        return True
    return any(getattr(o, "space", None) == area for o in ctx.orders.of("live"))


def pause(ctx: TurnContext, rules: BoardRules, area: str, battle: str, attacker: str,
          defender: str, forces: dict[str, BoardForce], plans: dict[str, BattlePlan]) -> BoardBattle:
    """Start the live board battle of ``area`` and pause the turn (``TurnPaused``); only
    a battle that ended at its deployment (nothing to fight) comes back, as its board."""
    sealed = ctx.mechanic(SEALED_MINES, dict).get(area)
    board, kept = live.open_battle(
        rules, area, battle, attacker, defender, forces, plans, ctx.dice, mover=ctx.power,
        round=ctx.board.round,
        resume=(("step", ctx.step), ("order", str(ctx.order_index))),
        sealed_mines=sealed["mines"] if sealed else 0)
    if kept is None:
        return board
    published = ctx.mechanic(PUBLISHED, dict).get(area)
    ctx.board.write_state(LIVE_BATTLE, {"battle": live.to_plain(kept),
                                        "orders": orders_to_plain(ctx.orders),
                                        **({"sealed": sealed} if sealed else {}),
                                        **({"published": published} if published else {})})
    ctx.emit(LiveBattleStarted(area, battle, attacker, defender, kept.events, attacker))
    ctx.next_power = attacker
    raise TurnPaused()


@register_rule
class LiveBattles(Rule):
    """A live board battle's battle turns, each its own turn file (hook ``pending_turn``)."""

    name = "live_battles"
    doc = ("a board battle played live by mail: the main turn pauses, each battle turn is "
           "one side's 'board' orders in a turn file of its own, the side's plan plays a "
           "missed one, and the main turn goes on when the battle ends")

    def at_step(self, ctx: TurnContext, point: str, step: str) -> None:
        """After the main turn, a ``live`` order for an area nobody attacked is a warning."""
        if point == "end" and step == plans.MAIN_TURN:
            attacked = ctx.mechanic(plans.ATTACKED, dict)
            for order in ctx.orders.of("live"):
                if order.space not in attacked:
                    ctx.warn(order.line, "live_not_attacked", area=order.space)

    def pending_turn(self, ctx: TurnContext, dice) -> Resume | bool | None:
        kept = ctx.board.read_state(LIVE_BATTLE)
        if not kept:
            for order in ctx.orders.of("board"):
                ctx.error(order.line, "board_not_live")
            return None
        if ctx.board.read_state(OPENINGS):      # the owner's openings first (sealed_live)
            return None
        try:
            battle = live.from_plain(kept.get("battle"))
        except live.LiveStateError as exc:
            ctx.error(0, "board_live_state", detail=str(exc))
            return True
        side = battle.side_to_move
        own_sealed = bool(kept.get("sealed")) and side == DEFENDER    # his own openings
        if not waits_for(ctx, battle.power_of(side), LIVE_KINDS + (("open",) if own_sealed else ()),
                         "board_live_other_orders", "board_live_wrong_power", side=side):
            return True
        rules = board_rules(ctx)
        actions: tuple[BoardAction, ...] = ctx.orders.of("board")
        for problem in live.check_battle_turn(rules, battle, actions):
            (ctx.error if problem.is_error else ctx.warn)(problem.line, problem.code, **problem.params)
        missed = bool(ctx.orders.of("nmr"))
        if own_sealed and not missed:
            kept = own_squares(ctx, kept, rules, actions)
        if ctx.checking or any(p.is_error for p in ctx.problems):
            return True
        played = None if missed else actions          # None: the side's plan plays it
        if kept.get("sealed") and side == ATTACKER:
            return play_over_sealed(ctx, kept, battle, rules, played, dice)
        return play_file(ctx, kept, battle, played, dice)


def play_over_sealed(ctx: TurnContext, kept: dict, battle, rules: BoardRules,
                     actions: tuple[BoardAction, ...] | None, dice) -> Resume | bool:
    """The attacker's battle turn over sealed mines (``actions``, or None: his plan's, a
    missed deadline): played at once unless a unit reaches a sealed square nobody opened;
    then it waits for the owner's openings (``ask_openings``) with its dice kept: those it
    rolled up to that square and the rest of the most it can roll, all from this file, so
    the owner's program knows which squares the units reach and opens those only."""
    recorded = RecordingDice(dice)
    try:
        return play_file(ctx, kept, battle, actions, recorded,
                         sealed=SealedSquares.of(rules, kept["sealed"]))
    except SquareNeeded:
        pass
    more = roll_bound(rules, battle.position.pieces) - len(recorded.faces)
    faces = recorded.faces + (dice.roll(more, f"board turn {battle.position.turn + 1} attacker: "
                                              "kept for the sealed squares") if more > 0 else [])
    ask_openings(ctx, kept, battle, rules, actions, faces)
    return True


def ask_openings(ctx: TurnContext, kept: dict, battle, rules: BoardRules,
                 actions: tuple[BoardAction, ...] | None, faces: list[int]) -> None:
    """The attacker's battle turn waits for the defender to open the sealed squares its
    units reach (the actions, or his plan's, and the dice kept, ``OPENINGS``), and the
    defender is the next to send orders.  The squares named: those the written paths enter
    (the plan's: those it enters if no sealed square held a mine)."""
    sealed = kept["sealed"]
    if actions is None:
        guess = SealedSquares.of(rules, sealed, layout=lambda square: False)
        live.play_battle_turn(rules, battle, None, KeptDice(faces), sealed=guess)
        squares = tuple(guess.reached)
        plain: dict[str, Any] = {"by_plan": True}
    else:
        squares = wanted_squares(rules, actions, sealed.get("opened", {}))
        plain = {"actions": orders_to_plain(OrderSet(ctx.power, actions))}
    ctx.board.write_state(OPENINGS, {"squares": list(squares), "power": battle.defender,
                                     "attacker": ctx.power, **plain, "dice": list(faces)})
    ctx.emit(MineSquaresWanted(battle.area, battle.defender, squares, ctx.power,
                               sealed.get("standing", "")))
    ctx.next_power = battle.defender


def own_squares(ctx: TurnContext, kept: dict, rules: BoardRules,
                actions: tuple[BoardAction, ...]) -> dict:
    """The defender's battle turn on his own sealed layout: the squares of his rows 4-10
    his paths enter must be opened as empty in the same file (L31.53: own units never enter
    own mined squares; the engine cannot know them otherwise); ``kept`` with them opened."""
    sealed = dict(kept["sealed"])
    wanted = wanted_squares(rules, actions, sealed.get("opened", {}))
    found, problem = open_squares(sealed, wanted, ctx.orders.of("open"))
    if problem is not None:
        line, code, params = problem
        if code == "ts_open_missing":
            params = dict(params, area=kept.get("battle", {}).get("area", ""))
        ctx.error(line, code, **params)
        return kept
    for square, mined in found or ():
        if mined:
            ctx.error(0, "ts_open_own_mine", square=square)
            return kept
    sealed["opened"] = dict(sealed.get("opened", {}), **{s: False for s, _ in found or ()})
    return dict(kept, sealed=sealed)


def play_file(ctx: TurnContext, kept: dict, battle, actions, dice, power: str = "",
              sealed: SealedSquares | None = None) -> Resume | bool:
    """Play the battle's next battle turn (``actions``, or None: the side's plan) in this
    turn file, and go on with the paused main turn when the battle ends.  ``sealed``: the
    defender's sealed squares known (``SquareNeeded`` before anything is emitted if a unit
    reaches one not known); what the battle turn placed is kept."""
    rules = board_rules(ctx)
    turn = live.play_battle_turn(rules, battle, actions, dice, sealed=sealed)
    if sealed is not None:
        kept = dict(kept, sealed=sealed.kept(kept["sealed"]))
    after = turn.live
    ctx.emit(LiveBattleTurn(battle.area, power or ctx.power, turn.side, turn.board.turn, turn.events,
                            turn.by_plan, tuple((s.line, s.piece, s.code) for s in turn.skipped),
                            "" if after is None else after.power_of(after.side_to_move)))
    for skip in turn.skipped:
        ctx.warn(skip.line, skip.code, piece=skip.piece)
    if after is not None:
        ctx.board.write_state(LIVE_BATTLE, dict(kept, battle=live.to_plain(after)))
        ctx.next_power = after.power_of(after.side_to_move)
        return True
    fought = battle_fought(battle.area, battle.board, battle.attacker, battle.defender,
                           dict(battle.forces), dict(battle.plans), turn.board,
                           battle.events + turn.events, live=True)
    ctx.board.extras.pop(LIVE_BATTLE, None)
    if kept.get("published"):
        ctx.mechanic(PUBLISHED, dict)[battle.area] = kept["published"]
    ctx.next_power = None
    ctx.emit(fought)
    where = dict(battle.resume)
    try:
        orders = orders_from_plain(kept.get("orders"), battle.mover)
        order = int(where.get("order", "0"))
    except (live.LiveStateError, ValueError) as exc:
        ctx.error(0, "board_live_state", detail=str(exc))
        return True
    return Resume(battle.mover, orders, where.get("step", ""), order, fought)


# --------------------------------------------------------------------------- orders kept

_orders = cattrs.Converter()
_orders.register_unstructure_hook_func(lambda t: isinstance(t, type) and issubclass(t, enum.Enum),
                                       lambda value: value.value)


def orders_to_plain(orders: OrderSet) -> dict[str, Any]:
    """The paused turn's orders as plain JSON values, to go on with them later."""
    items = [dict(_orders.unstructure(o), kind=o.kind) for o in orders.items]
    return json.loads(json.dumps({"power": orders.power, "items": items}))


def waits_for(ctx, power: str, kinds: tuple[str, ...], other_code: str, wrong_code: str,
              **where) -> bool:
    """A paused turn that goes on only with ``power``'s lines of ``kinds`` (a live battle
    turn, a mine reveal, mine openings): the next power is his; other lines are refused
    (``other_code``), and so is another power's file (``wrong_code``, with ``where``): False
    then."""
    ctx.next_power = power
    others = [o for o in ctx.orders.items if o.kind not in kinds]
    if others:
        ctx.error(others[0].line, other_code, count=len(others))
    if ctx.power != power:
        ctx.error(0, wrong_code, power=ctx.power, waits_for=power, **where)
        return False
    return True


def orders_from_plain(raw: Any, power: str) -> OrderSet:
    """The orders ``orders_to_plain`` kept (their source text is in the paused turn's file)."""
    classes = all_event_classes(Order)          # kind -> class, for orders as for events
    try:
        items = tuple(_orders.structure({k: v for k, v in item.items() if k != "kind"},
                                        classes[item["kind"]]) for item in raw["items"])
        return OrderSet(raw.get("power") or power, items)
    except (KeyError, TypeError, ValueError, AttributeError, cattrs.BaseValidationError) as exc:
        raise live.LiveStateError(f"the paused turn's orders kept in the state cannot be read ({exc!r})") from None
