"""Live-by-mail board battles (issue 26): the battle-turn protocol, pure.

A live battle is deployed by the sides' plans like a battle by plan, then stops before
its first battle turn (``open_battle``).  Each battle turn is then one side's orders,
``board`` lines (``model.live_battle.BoardAction``: move, fire, move on, as
``BoardBattle.act``), checked against the position the side may know
(``check_battle_turn``: its own mines only, every shot assumed to miss, so a path or a
line of fire its own earlier actions block is found) and played with the game's dice
(``play_battle_turn``).  When the side missed its deadline (the game master's ``nmr``)
its plan's doctrine plays the battle turn (``plan.play_turn``), as it would in a battle by
plan.  Between battle turns the battle is a ``LiveBattle`` value, kept in the game state as
plain JSON (``to_plain`` / ``from_plain``); when it ends, ``fought.battle_fought`` gives
the ``BoardBattleFought`` event from the finished board and every board event.

An action written for a unit destroyed earlier in the same battle turn (by a mine or
fire back) is skipped; one whose target is gone moves without firing; any other action
the dice made impossible is skipped; each skip is reported (``skipped``), never an error
after the orders were accepted.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from ...model.dice import DiceSource
from ...model.live_battle import MAX_PATH, BoardAction
from ...model.live_battle_state import LiveBattle
from ...model.problems import ERROR, Problem
from ...model import tactical as t
from ...model.tactical import (
    ATTACKER,
    DEFENDER,
    SIDES,
    BattlePlan,
    BoardForce,
    BoardPosition,
    BoardRules,
    Doctrine,
    Piece,
)
from ..errors import OrderFailed
from ..tactical.battle import BoardBattle
from ..tactical.geometry import board_square
from ..tactical.plan import deploy, play_turn
from .sealed_board import SealedSquares, lay_sealed, placeholders

LIVE_OPTION = "live_battles"        # rule option: every board battle of the game is live
MAX_ACTIONS = 200                   # board lines in one battle turn (a side has fewer units)


# --------------------------------------------------------------------------- the start

def open_battle(rules: BoardRules, area: str, battle: str, attacker: str, defender: str,
                forces: Mapping[str, BoardForce], plans: Mapping[str, BattlePlan],
                dice: DiceSource, *, mover: str = "", round: int = 0,
                resume: Iterable[tuple[str, str]] = (),
                sealed_mines: int = 0) -> tuple[BoardBattle, LiveBattle | None]:
    """Deploy both sides by their plans (the defender first, as ``plan.fight``) and stop
    before the first battle turn: the board, and the ``LiveBattle`` to keep, or None when
    the battle ended before it began (nothing to fight).  ``sealed_mines``: that many of
    the defender's mines lie on squares sealed one by one (``sealed_board``), laid as
    placeholders."""
    board = BoardBattle(rules, battle, dice)
    for side in (DEFENDER, ATTACKER):
        force = forces.get(side, BoardForce())
        if side == DEFENDER and sealed_mines:
            force = attrs.evolve(force, mines=force.mines - sealed_mines)
        deploy(board, side, force, plans.get(side, BattlePlan()))
        if side == DEFENDER and sealed_mines:
            lay_sealed(board, sealed_mines)
    board.check_end()
    if board.result is not None:
        return board, None
    live = LiveBattle(area=area, board=battle, attacker=attacker, defender=defender,
                      forces=tuple((s, forces.get(s, BoardForce())) for s in SIDES),
                      plans=tuple((s, plans.get(s, BattlePlan())) for s in SIDES),
                      position=board.position(), events=tuple(board.events),
                      mover=mover, round=round, resume=tuple(resume))
    return board, live


# --------------------------------------------------------------------------- checking

class _Misses:
    """Dice for checking: every shot misses (a 1 never hits), so the position changes only
    by the side's own moves."""

    sides = 6

    def roll(self, count: int, purpose: str = "") -> list[int]:
        return [1] * count


def _problem(line: int, error: OrderFailed, severity: str = ERROR) -> Problem:
    return Problem(line, error.code, dict(error.params), severity)


def _squares(rules: BoardRules, names: Sequence[str]) -> tuple[t.Square, ...]:
    return tuple(board_square(rules, name) for name in names)


def check_battle_turn(rules: BoardRules, live: LiveBattle,
                      actions: Sequence[BoardAction]) -> list[Problem]:
    """Every problem with one side's battle-turn orders: each line's squares, its unit (the
    side's own, on the board, once), the length of its moves and its shots, checked in the
    order written against the position the side knows (its own mines, never the enemy's;
    every shot a miss)."""
    problems: list[Problem] = []
    if len(actions) > MAX_ACTIONS:
        return [Problem(0, "board_live_too_many", {"count": len(actions), "most": MAX_ACTIONS})]
    side = live.side_to_move
    known = attrs.evolve(live.position, mines=tuple(    # the enemy's: their count only, so
        (s, squares if s == side else tuple(sorted(placeholders(len(squares)))))  # the check
        for s, squares in live.position.mines))         # does not end the battle early
    board = BoardBattle.restore(rules, known, _Misses())
    board.start_turn()
    seen: set[str] = set()
    for action in actions:
        if action.piece in seen:
            problems.append(Problem(action.line, "board_live_order_repeated", {"piece": action.piece}))
            continue
        seen.add(action.piece)
        try:
            if len(action.before) + len(action.after) > MAX_PATH:
                raise OrderFailed("board_too_far", piece=action.piece, points=rules.move_points,
                                  steps=len(action.before) + len(action.after))
            board.act(action.piece, _squares(rules, action.before), action.target, action.shots,
                      _squares(rules, action.after))
        except OrderFailed as failed:
            problems.append(_problem(action.line, failed))
    return problems


# --------------------------------------------------------------------------- playing

@attrs.frozen
class Skipped:
    """An accepted action the battle turn's dice made impossible: ``code`` why."""

    line: int
    piece: str
    code: str


@attrs.frozen
class BattleTurn:
    """What one battle turn did: the battle after it (None: it ended), the board (its
    ``result`` and the pieces left), this battle turn's board events, whether the side's
    plan played it (a missed deadline), and the skipped actions."""

    live: LiveBattle | None
    board: BoardBattle
    events: tuple[t.BoardEvent, ...]
    by_plan: bool
    skipped: tuple[Skipped, ...] = ()
    side: str = ATTACKER


def play_battle_turn(rules: BoardRules, live: LiveBattle, actions: Sequence[BoardAction] | None,
                     dice: DiceSource, sealed: SealedSquares | None = None) -> BattleTurn:
    """Play the next battle turn: ``actions`` in the order written, or (None: the deadline
    was missed) the side's plan's doctrine.  The caller checked ``actions`` first.
    ``sealed``: the defender's sealed mine squares, told of every square entered (it may
    stop the battle turn: ``sealed_board.SquareNeeded``)."""
    board = BoardBattle.restore(rules, live.position, dice)
    board.sealed = sealed
    board.start_turn()
    side = board.side
    skipped: list[Skipped] = []
    if actions is None:
        play_turn(board, live.plan_of(side).doctrine)
    else:
        for action in actions:
            if board.result is not None:
                break
            code = _play_action(board, rules, action)
            if code:
                skipped.append(Skipped(action.line, action.piece, code))
    board.end_turn()
    events = tuple(board.events)
    after = None
    if board.result is None:
        after = attrs.evolve(live, position=board.position(), events=live.events + events)
    return BattleTurn(after, board, events, actions is None, tuple(skipped), side)


def _play_action(board: BoardBattle, rules: BoardRules, action: BoardAction) -> str:
    """Play one accepted action; '' or the code of why it was skipped."""
    if action.piece not in board.pieces:
        return "board_live_unit_gone"
    before, after = _squares(rules, action.before), _squares(rules, action.after)
    target = action.target
    code = ""
    if target is not None and target not in board.pieces:
        target, code = None, "board_live_target_gone"
    try:
        board.act(action.piece, before, target, action.shots if target else None, after)
    except OrderFailed as failed:
        return failed.code
    return code


# --------------------------------------------------------------------------- plain JSON

_EVENT_CLASSES = {cls.kind: cls for cls in (
    t.PieceDeployed, t.MinesLaid, t.BattleTurnStarted, t.PieceMoved, t.ShotFired,
    t.MineExploded, t.GunsLost, t.BoardBattleEnded)}


def _plain(value: Any) -> Any:
    if attrs.has(type(value)):
        out = {"kind": value.kind} if isinstance(value, t.BoardEvent) else {}
        out.update({f.name: _plain(getattr(value, f.name)) for f in attrs.fields(type(value))})
        return out
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value


def to_plain(live: LiveBattle) -> dict[str, Any]:
    """``live`` as plain JSON values (lists, dicts, strings, numbers), for
    ``GameState.extras``; ``from_plain`` reads it back equal."""
    return json.loads(json.dumps(_plain(live)))


class LiveStateError(ValueError):
    """A kept live battle that cannot be read back (a damaged or forged state)."""


def _pairs(raw, value) -> tuple:
    return tuple((side, value(v)) for side, v in raw)


def _squares_of(raw) -> tuple[t.Square, ...]:
    return tuple((int(c), int(y)) for c, y in raw)


def from_plain(raw: Any) -> LiveBattle:
    """The ``LiveBattle`` that ``to_plain`` wrote; ``LiveStateError`` saying what is wrong
    with anything else."""
    try:
        pos = raw["position"]
        position = BoardPosition(
            battle=str(pos["battle"]), turn=int(pos["turn"]),
            pieces=tuple(Piece(str(p["id"]), str(p["side"]), str(p["kind"]),
                               (int(p["square"][0]), int(p["square"][1]))) for p in pos["pieces"]),
            mines=_pairs(pos["mines"], _squares_of),
            mines_laid=_pairs(pos["mines_laid"], int),
            acted=tuple(str(a) for a in pos["acted"]),
            back_shots=_pairs(pos["back_shots"], int),
            fielded=tuple(str(s) for s in pos["fielded"]))
        forces = _pairs(raw["forces"], lambda f: BoardForce(
            tuple((str(u), str(k)) for u, k in f["units"]), int(f["mines"])))
        plans = _pairs(raw["plans"], _plan)
        events = tuple(_event(e) for e in raw["events"])
        live = LiveBattle(area=str(raw["area"]), board=str(raw["board"]),
                          attacker=str(raw["attacker"]), defender=str(raw["defender"]),
                          forces=forces, plans=plans, position=position, events=events,
                          mover=str(raw["mover"]), round=int(raw["round"]),
                          resume=tuple((str(k), str(v)) for k, v in raw["resume"]))
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise LiveStateError(f"the live battle kept in the game state cannot be read ({exc!r})") from None
    if to_plain(live) != raw:
        raise LiveStateError("the live battle kept in the game state has values of the wrong "
                             "type or extra fields")
    return live


def _plan(raw) -> BattlePlan:
    d = raw["doctrine"]
    return BattlePlan(formation=str(raw["formation"]),
                      squares=tuple((str(u), str(s)) for u, s in raw["squares"]),
                      mines=tuple(str(m) for m in raw["mines"]),
                      doctrine=Doctrine(str(d["stance"]), str(d["target"]), int(d["fire_at"])))


def _event(raw) -> t.BoardEvent:
    cls = _EVENT_CLASSES[raw["kind"]]
    values = {}
    for field in attrs.fields(cls):
        value = raw[field.name]
        values[field.name] = tuple(value) if isinstance(value, list) else value
    return cls(**values)
