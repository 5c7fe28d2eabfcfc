"""The plan interpreter ("by plan"): a side's deployment and doctrine turned into
deterministic choices every battle turn.  It is the project's, not the text's (ruling
PLAN); its version is part of the rules, and any change of what it chooses must raise
``PLAN_INTERPRETER_VERSION``.

Version 1, in words (docs/taktyczne-board.md says the same):

* Deployment: units named in the plan go on their squares (a plan naming a kind key
  names the next unit of that kind in the order below); the others fill the
  formation's squares in order, tanks and warships by rank (highest first, then id) from
  ``front``, guns (by kind, then id) from ``guns``; mines from the plan's squares, then the
  formation's ``mines``.  A formation too short goes on with the free squares nearest the
  centre, front row first.
* Each battle turn the guns act first (by id), then tanks and warships by rank and id.
  A gun fires at its best target, if any (fire discipline is for tanks and warships: a
  gun always needs a 6).
* A tank or warship looks at every square it can reach this battle turn (``hold``: only
  its own square) and every enemy it could fire at from there with a roll needed of at
  most ``fire_at``.  It takes the best by the doctrine's ``target`` priority (``best``:
  none; ``highest_rank``; ``nearest``; ``guns_first``; ``tanks_first``: tanks and warships
  before guns), then by the
  exchange's value: the target's worth times the chance to kill it with all its shots,
  less its own worth times the chance that the target survives and kills it firing back
  (worth: the rank; a gun 1); then fewer steps, then the square nearest its own edge and
  leftmost, then the target's id.  It moves there and fires; it does not move on.
* With no such shot, an advancing unit moves to the reachable square nearest (in
  orthogonal steps) to an enemy unit; when no enemy unit is left on the board (mines
  only), every tank or warship heads for the enemy's rows 1-3 (the safe zone, L31.55),
  whatever the stance.
* A unit fired at always fires back, with every shot it has left (ruling counter_fire).
* Only what the side may know is read: the pieces on the board and its own mines, never
  the enemy's mines.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from fractions import Fraction

from ...model.dice import DiceSource
from ...model.tactical import (
    ATTACKER,
    DEFENDER,
    BattlePlan,
    BoardForce,
    BoardRules,
    Doctrine,
    Piece,
    STANCES,
    TARGET_PRIORITIES,
    PieceKind,
    Square,
    other_side,
)
from ..errors import OrderFailed
from .battle import BoardBattle
from .geometry import neighbours, own_row, own_square, square_order

PLAN_INTERPRETER_VERSION = 1


# --------------------------------------------------------------------------- deployment

def deploy(board: BoardBattle, side: str, force: BoardForce, plan: BattlePlan) -> None:
    """Put ``force`` on the board by ``plan`` (its squares, then its formation)."""
    rules = board.rules
    check_doctrine(plan.doctrine)
    formation = rules.formations.get(plan.formation)
    if formation is None:
        raise OrderFailed("board_formation_unknown", formation=plan.formation,
                          known=sorted(rules.formations))
    named = named_squares(rules, force, plan)
    taken = {own_square(rules, side, sq) for sq in named.values()}
    front = [own_square(rules, side, s) for s in formation.front]
    guns = [own_square(rules, side, s) for s in formation.guns]
    for pid, key in sorted(force.units, key=lambda u: _deploy_order(rules, u)):
        if key not in rules.kinds:
            raise OrderFailed("board_wrong_battle", piece=pid, piece_kind=key, battle=board.battle)
        if pid in named:
            square = own_square(rules, side, named[pid])
        else:
            kind = rules.kinds[key]
            low, high = kind.confined or (1, rules.deploy_rows)
            wanted = front if kind.mobile else guns
            square = _first_free(rules, side, wanted, taken, low, high)
        taken.add(square)
        board.deploy(side, pid, key, square)
    if len(plan.mines) > force.mines:
        raise OrderFailed("board_too_many_mines", count=len(plan.mines), most=force.mines)
    chosen = [own_square(rules, side, s) for s in plan.mines]
    low, high = rules.mine_rows
    listed = [own_square(rules, side, s) for s in formation.mines]
    while len(chosen) < force.mines:
        chosen.append(_first_free(rules, side, listed, set(chosen), low, high))
    if force.mines or plan.mines:
        board.lay_mines(side, chosen)


def named_squares(rules: BoardRules, force: BoardForce, plan: BattlePlan) -> dict[str, str]:
    """Unit id -> the plan's own square for it.  A plan may name a unit by its id, or by
    its kind key: the next unit of that kind, in the deployment order, not named by id."""
    kinds = dict(force.units)
    by_id = {who: sq for who, sq in plan.squares if who in kinds}
    waiting = {}
    for pid, key in sorted(force.units, key=lambda u: _deploy_order(rules, u)):
        if pid not in by_id:
            waiting.setdefault(key, []).append(pid)
    named = dict(by_id)
    for who, square in plan.squares:
        if who in kinds:
            continue
        if not waiting.get(who):
            raise OrderFailed("board_plan_unit_unknown", piece=who)
        named[waiting[who].pop(0)] = square
    return named


def check_doctrine(doctrine: Doctrine) -> None:
    """A doctrine's values are the interpreter's words (``model.tactical``)."""
    if doctrine.stance not in STANCES:
        raise OrderFailed("board_doctrine", part="stance", value=doctrine.stance, known=list(STANCES))
    if doctrine.target not in TARGET_PRIORITIES:
        raise OrderFailed("board_doctrine", part="target", value=doctrine.target,
                          known=list(TARGET_PRIORITIES))
    if not isinstance(doctrine.fire_at, int) or not 2 <= doctrine.fire_at <= 6:
        raise OrderFailed("board_doctrine", part="fire_at", value=doctrine.fire_at,
                          known=[2, 3, 4, 5, 6])


def _deploy_order(rules: BoardRules, unit: tuple[str, str]) -> tuple:
    pid, key = unit
    kind = rules.kinds.get(key)
    if kind is None:
        return (2, "", pid)
    return (0, -kind.rank, pid) if kind.mobile else (1, key, pid)


def _first_free(rules: BoardRules, side: str, wanted: list[Square], taken: set[Square],
                low: int, high: int) -> Square:
    """The first of ``wanted`` free and in own rows ``low..high``; else the free square of
    those rows nearest the centre, the highest row first."""
    for square in wanted:
        if square not in taken and low <= own_row(rules, side, square) <= high:
            return square
    centre = (rules.columns - 1) / 2
    for row in range(high, low - 1, -1):
        for col in sorted(range(rules.columns), key=lambda c: (abs(c - centre), c)):
            square = own_square(rules, side, f"{chr(65 + col)}{row}")
            if square not in taken:
                return square
    raise OrderFailed("board_too_many_units", low=low, high=high)


# --------------------------------------------------------------------------- battle turns

def play_turn(board: BoardBattle, doctrine: Doctrine) -> None:
    """Play the side to move's battle turn by ``doctrine``."""
    side = board.side
    order = sorted(board.side_pieces(side),
                   key=lambda p: (board.kind(p).mobile, -board.kind(p).rank, p.id))
    for listed in order:
        if board.result is not None:
            return
        piece = board.pieces.get(listed.id)
        if piece is None:
            continue
        if board.kind(piece).mobile:
            _play_mobile(board, piece, doctrine)
        else:
            _play_gun(board, piece, doctrine)


def _play_gun(board: BoardBattle, piece: Piece, doctrine: Doctrine) -> None:
    options = []
    for enemy in board.side_pieces(other_side(piece.side)):
        aim = board.aim(piece, enemy)
        if aim is not None:
            options.append((_rank_key(board, piece, piece.square, enemy, doctrine), enemy.id))
    if options:
        board.act(piece.id, target=min(options)[1])


def _play_mobile(board: BoardBattle, piece: Piece, doctrine: Doctrine) -> None:
    enemies = board.side_pieces(other_side(piece.side))
    reach = _reachable(board, piece)
    if not enemies:
        goal = _safe_zone_distance(board.rules, piece.side)
        _move_to(board, piece, reach, goal)
        return
    squares = reach if doctrine.stance == "advance" else {piece.square: [piece.square]}
    options = []
    reach_of_fire = len(board.rules.to_hit)
    for square, path in squares.items():
        for enemy in enemies:
            dx, dy = abs(enemy.square[0] - square[0]), abs(enemy.square[1] - square[1])
            if max(dx, dy) > reach_of_fire or not (dx == 0 or dy == 0 or dx == dy):
                continue                                 # no straight line within range
            aim = board.aim(piece, enemy, shooter_at=square)
            if aim is not None and aim.need <= doctrine.fire_at:
                key = _rank_key(board, piece, square, enemy, doctrine)
                options.append((key, len(path) - 1, square_order(_toward_own_edge(board, piece, square)),
                                enemy.id, square))
    if options:
        best = min(options)
        board.act(piece.id, before=reach_path(squares, best[4]), target=best[3])
    elif doctrine.stance == "advance":
        _move_to(board, piece, reach, lambda sq: min(abs(sq[0] - e.square[0]) + abs(sq[1] - e.square[1])
                                                     for e in enemies))


def _move_to(board: BoardBattle, piece: Piece, reach: dict[Square, list[Square]], distance) -> None:
    best = min(reach, key=lambda sq: (distance(sq), len(reach[sq]),
                                      square_order(_toward_own_edge(board, piece, sq))))
    if best != piece.square:
        board.act(piece.id, before=reach_path(reach, best))


def reach_path(reach: Mapping[Square, list[Square]], square: Square) -> list[Square]:
    """The squares entered on the way to ``square`` (its start left out)."""
    return reach[square][1:]


def _toward_own_edge(board: BoardBattle, piece: Piece, square: Square) -> Square:
    """A square mirrored for the defender, so ties break the same way for both sides."""
    if piece.side == ATTACKER:
        return square
    return square[0], board.rules.rows - 1 - square[1]


def _safe_zone_distance(rules: BoardRules, side: str):
    enemy = other_side(side)
    return lambda sq: max(0, own_row(rules, enemy, sq) - rules.deploy_rows)


def _reachable(board: BoardBattle, piece: Piece) -> dict[Square, list[Square]]:
    """Squares reachable this battle turn (free, not an own mine, within the kind's rows;
    enemy mines are unknown) with a shortest path to each, in a fixed order."""
    kind = board.kind(piece)
    own_mines = board.mines[piece.side]
    paths = {piece.square: [piece.square]}
    queue = deque([piece.square])
    while queue:
        square = queue.popleft()
        if len(paths[square]) > board.rules.move_points:
            continue
        for nxt in neighbours(board.rules, square):
            if nxt in paths or board.at(nxt) is not None or nxt in own_mines:
                continue
            if kind.confined and not (kind.confined[0] <= own_row(board.rules, piece.side, nxt)
                                      <= kind.confined[1]):
                continue
            paths[nxt] = paths[square] + [nxt]
            queue.append(nxt)
    return paths


def _worth(kind: PieceKind) -> int:
    return kind.rank if kind.mobile else 1


def _chance(need: int, sides: int = 6) -> Fraction:
    return Fraction(max(0, sides + 1 - need), sides)


def _rank_key(board: BoardBattle, piece: Piece, square: Square, enemy: Piece,
              doctrine: Doctrine) -> tuple:
    """Smaller is better: the doctrine's priority first, then the exchange's value."""
    kind, enemy_kind = board.kind(piece), board.kind(enemy)
    aim = board.aim(piece, enemy, shooter_at=square)
    assert aim is not None
    miss_all = (1 - _chance(aim.need)) ** kind.shots
    back = board.aim(enemy, piece, target_at=square)
    back_shots = board.back_shots.get(enemy.id, enemy_kind.shots)
    dies = (miss_all * (1 - (1 - _chance(back.need)) ** back_shots)) if back else Fraction(0)
    value = _worth(enemy_kind) * (1 - miss_all) - _worth(kind) * dies
    if doctrine.target == "highest_rank":
        first: tuple = (-_worth(enemy_kind),)
    elif doctrine.target == "nearest":
        first = (max(abs(square[0] - enemy.square[0]), abs(square[1] - enemy.square[1])),)
    elif doctrine.target == "guns_first":
        first = (enemy_kind.mobile,)
    elif doctrine.target == "tanks_first":
        first = (not enemy_kind.mobile,)
    else:
        first = ()
    return (*first, -value)


# --------------------------------------------------------------------------- a whole battle

def fight(rules: BoardRules, battle: str, forces: Mapping[str, BoardForce],
          plans: Mapping[str, BattlePlan], dice: DiceSource) -> BoardBattle:
    """Deploy both sides (the defender first: the attacker has seen the defence, digest
    §3.1) and play battle turns by plan until the battle ends; the finished board holds
    the result and the events."""
    board = BoardBattle(rules, battle, dice)
    for side in (DEFENDER, ATTACKER):
        deploy(board, side, forces.get(side, BoardForce()), plans.get(side, BattlePlan()))
    board.check_end()
    while board.result is None:
        board.start_turn()
        play_turn(board, plans.get(board.side, BattlePlan()).doctrine)
        board.end_turn()
    return board
