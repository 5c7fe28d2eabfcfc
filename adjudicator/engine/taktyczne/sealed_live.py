"""A live battle on a square-by-square sealed mine layout (docs/taktyczne-mines.md §3): no
unfired square is published before the battle ends, to anyone, the game master too.

* When the live battle needs the layout (``mines.unseal``), a ``grid_`` commitment is not
  revealed: the owner's turn file publishes its leaves instead (``open 23: leaves G …``,
  one line a column, checked against the commitment: ``take_leaves``), and the battle
  starts with the defender's mines as placeholders (``sealed_board``).
* Each attacker battle turn (written, or his plan's after a missed deadline) whose units
  reach squares of the defender's mine rows not opened yet waits (``live_turn.
  play_over_sealed``, state ``ts_mine_openings``, with the dice rolled in his file kept)
  for the owner's next turn file, ``open 23: G5 mine salt_…`` / ``… empty salt_…`` for the
  squares the units reach with those dice (rule ``ts_mine_openings``, each checked against
  its leaf, none missing: ``sealed_board.SealedSquares``); the battle turn is then played
  in that file with the kept dice, and the battle goes on as any live battle.
* A missed opening (the game master's ``nmr``): default ``mines_lost``, the defender's
  sealed mines of the battle are removed, on the board and on the main map.
"""

from __future__ import annotations

import attrs

from ...model import mine_grid
from ...model.dice import KeptDice
from ...model.mine_orders import OpenOrder
from ...model.tactical import DEFENDER
from ...model.ts_mines_live import MineLeavesPublished, MineOpeningsMissed, MineSquaresOpened
from ..context import Resume
from ..turn_rules import Rule, register_rule
from . import live, plans
from .live_turn import (LIVE_BATTLE, OPENINGS, SEALED_MINES, board_rules, orders_from_plain,
                        play_file, waits_for)
from .sealed_board import SealedSquares, SquareNeeded, check_opens, is_placeholder

MISSED_DEFAULT = "default: mines_lost"


def _scope(scope: str) -> str | None:
    return None if scope == "all" else scope


def take_leaves(ctx, kept: dict) -> tuple[str, ...] | None:
    """The leaves the owner's ``open … leaves`` lines publish, if they open the kept
    ``grid_`` commitment (else an error)."""
    found: dict[str, tuple[str, ...]] = {}
    for order in ctx.orders.of(OpenOrder.kind):
        if not order.column or order.column not in mine_grid.COLUMNS \
                or len(order.leaves) != len(mine_grid.ROWS):
            ctx.error(order.line, "ts_open_unreadable",
                      reason=f"a column letter A-{mine_grid.COLUMNS[-1]} and "
                             f"{len(mine_grid.ROWS)} leaves (rows {mine_grid.ROWS[0]}-{mine_grid.ROWS[-1]})")
            return None
        if order.column in found:
            ctx.error(order.line, "ts_open_unreadable", reason=f"column {order.column} once")
            return None
        found[order.column] = order.leaves
    missing = [c for c in mine_grid.COLUMNS if c not in found]
    if missing:
        ctx.error(0, "ts_open_missing", area=kept.get("area", ""), squares=" ".join(
            f"leaves {c}" for c in missing))
        return None
    leaves = tuple(v for c in mine_grid.COLUMNS for v in found[c])
    if not mine_grid.leaves_open(kept.get("commitment", ""), kept.get("power", ""),
                                 _scope(kept.get("scope", "")), leaves):
        ctx.error(0, "ts_open_wrong", commitment=kept.get("commitment", ""), square="leaves")
        return None
    return leaves


def hide(ctx, area: str, kept: dict, leaves: tuple[str, ...], count: int) -> None:
    """The battle of ``area`` starts with ``count`` sealed mines (``live_turn.pause`` lays
    them as placeholders and keeps the leaves with the battle)."""
    sealed = {"power": kept.get("power", ""), "scope": kept.get("scope", ""),
              "commitment": kept.get("commitment", ""), "standing": kept.get("standing", ""),
              "leaves": list(leaves), "mines": count, "opened": {}}
    ctx.mechanic(SEALED_MINES, dict)[area] = sealed
    ctx.emit(MineLeavesPublished(area, sealed["power"], sealed["scope"], sealed["commitment"],
                                 count, sealed["standing"]))


@register_rule
class LayoutOpenings(Rule):
    """An attacker's live battle turn waiting for the defender to open sealed squares
    (hook ``pending_turn``)."""

    name = "ts_mine_openings"
    doc = ("a live battle on a square-by-square sealed mine layout: each attacker battle "
           "turn (or his plan's, after a missed deadline) whose units reach sealed squares "
           "waits, with its dice kept, for the defender's 'open' lines for exactly the "
           "squares they reach (checked against the published leaves), then is played; a "
           "missed opening (nmr) loses the sealed mines")

    def pending_turn(self, ctx, dice) -> Resume | bool | None:
        waiting = ctx.board.read_state(OPENINGS)
        opens: tuple[OpenOrder, ...] = ctx.orders.of(OpenOrder.kind)
        if not waiting:
            if not ctx.board.read_state("ts_mine_reveal"):
                for order in opens:
                    ctx.error(order.line, "ts_open_not_wanted")
            return None
        kept = ctx.board.read_state(LIVE_BATTLE)
        power = waiting.get("power", "")
        if not waits_for(ctx, power, (OpenOrder.kind, "nmr"), "ts_open_other_orders",
                         "ts_open_wrong_power"):
            return True
        try:
            battle = live.from_plain(kept.get("battle"))
            actions = None if waiting.get("by_plan") else orders_from_plain(
                waiting.get("actions"), waiting.get("attacker", "")).items
            faces = _faces(waiting.get("dice"))
        except live.LiveStateError as exc:
            ctx.error(0, "board_live_state", detail=str(exc))
            return True
        sealed = dict(kept.get("sealed") or {})
        missed = bool(ctx.orders.of("nmr"))
        rules = board_rules(ctx)
        mines = dict(battle.position.mines)
        known: SealedSquares | None
        if missed:
            lost = sum(1 for s in mines.get(DEFENDER, ()) if is_placeholder(s))   # unknown ones
            mines[DEFENDER] = tuple(s for s in mines.get(DEFENDER, ()) if not is_placeholder(s))
            battle = attrs.evolve(battle, position=attrs.evolve(battle.position, mines=tuple(
                (side, tuple(sorted(mines.get(side, ())))) for side, _ in battle.position.mines)))
            known = SealedSquares.of(rules, sealed)      # no sealed mine left: asks for nothing
        else:
            wanted = mine_grid.SQUARES if actions is None else waiting.get("squares", ())
            known = _opened(ctx, rules, sealed, battle, [str(s) for s in wanted], opens, actions, faces)
        if known is None or ctx.checking or any(p.is_error for p in ctx.problems):
            return True
        if missed:
            _lose_on_map(ctx, battle, lost)
            ctx.emit(MineOpeningsMissed(battle.area, power, lost, MISSED_DEFAULT))
            sealed["mines"] = sealed.get("mines", 0) - lost
        else:
            squares = tuple(o.square for o in opens)
            ctx.emit(MineSquaresOpened(battle.area, power, squares,
                                       tuple(s for s in squares if known.known.get(s)),
                                       sealed.get("standing", "")))
        ctx.board.extras.pop(OPENINGS, None)
        kept = dict(kept, sealed=sealed, battle=live.to_plain(battle))
        ctx.board.write_state(LIVE_BATTLE, kept)
        return play_file(ctx, kept, battle, actions, KeptDice(faces),
                         power=waiting.get("attacker", ""), sealed=known)


def _faces(raw) -> list[int]:
    """The dice kept with the waiting battle turn (``live_turn.play_over_sealed``)."""
    if not isinstance(raw, list) or not all(type(f) is int and 1 <= f <= 6 for f in raw):
        raise live.LiveStateError("the dice kept with the waiting battle turn cannot be read")
    return raw


def _opened(ctx, rules, sealed: dict, battle, wanted: list[str], opens, actions,
            faces: list[int]) -> SealedSquares | None:
    """The sealed squares known once the ``open`` lines are read, if each opens one of the
    ``wanted`` squares (checked against its leaf) and together they hold every square the
    attacker's units reach when the battle turn is played with its kept dice (none past a
    mine, none after a unit's fire that destroyed it: ``SealedSquares``); else None after
    an error."""
    answers, problem = check_opens(sealed, wanted, opens)
    if problem is None:
        try:
            live.play_battle_turn(rules, battle, actions, KeptDice(faces),
                                  sealed=SealedSquares.of(rules, sealed, answers))
        except SquareNeeded as needed:
            problem = (0, "ts_open_missing", {"squares": needed.square})
        except ValueError as exc:
            problem = (0, "board_live_state", {"detail": str(exc)})
    if problem is not None:
        line, code, params = problem
        if code == "ts_open_missing":
            params = dict(params, area=battle.area)
        ctx.error(line, code, **params)
        return None
    return SealedSquares.of(rules, sealed, answers)


def _lose_on_map(ctx, battle, count: int) -> None:
    """The default of a missed opening: ``count`` of the defender's mines of the battle's
    board are removed from the area."""
    kind = plans.board_rules(ctx).mines.get(battle.board)
    lost = [p for p in ctx.board.at(battle.area)
            if p.owner == battle.defender and p.type == kind][:count]
    for piece in lost:
        ctx.board.remove(piece)
