"""A board battle under the text's rules: deployment, a unit's action (move, one duel,
move on), counter-fire, mines and the end of the battle.  Choices come from outside (the
plan interpreter, or later a player's battle-turn orders); dice from the caller's
``DiceSource``.  An illegal action raises ``OrderFailed`` with a code (the words are in
``present.wording``) and changes nothing."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from ...model.dice import DiceSource
from ...model.tactical import (
    ATTACKER,
    DEFENDER,
    ENEMY_BEYOND_DEPLOY,
    LINE,
    OWN_HALF,
    BattleTurnStarted,
    BoardBattleEnded,
    SIDES,
    BoardEvent,
    BoardPosition,
    BoardRules,
    GunsLost,
    MineExploded,
    MinesLaid,
    MinesRevealed,
    Piece,
    PieceDeployed,
    PieceKind,
    PieceMoved,
    ShotFired,
    Square,
    other_side,
)
from ..errors import OrderFailed
from .geometry import between, in_own_half, neighbours, on_board, own_row, square_name

MAX_PIECES = 200     # per battle: far above what 12-point stacks bring


@attrs.frozen
class Aim:
    """Whether a shot is possible: the roll needed and the gap (-1: a gun's zone shot)."""

    need: int
    gap: int


class BoardBattle:
    """The position and its rules.  ``pieces`` by id; ``mines`` per side (secret to the
    other side's plan: the interpreter reads only its own)."""

    def __init__(self, rules: BoardRules, battle: str, dice: DiceSource):
        if battle not in ("land", "sea"):
            raise OrderFailed("board_battle_kind", battle=battle)
        self.rules = rules
        self.battle = battle
        self.dice = dice
        self.pieces: dict[str, Piece] = {}
        self._at: dict[Square, str] = {}
        self.mines: dict[str, set[Square]] = {ATTACKER: set(), DEFENDER: set()}
        self.mines_laid: dict[str, int] = {ATTACKER: 0, DEFENDER: 0}
        self.turn = 0
        self.side = ATTACKER
        self.acted: set[str] = set()
        self.back_shots: dict[str, int] = {}
        self.events: list[BoardEvent] = []
        self.result: BoardBattleEnded | None = None
        self.fielded: set[str] = set()      # the sides that ever had a unit on the board
        # A live battle's sealed mine squares (taktyczne.sealed_board.SealedSquares): told
        # of each square a unit enters, before its mine is looked for.
        self.sealed: Any = None

    # ----------------------------------------------------------------- the position
    def kind(self, piece: Piece) -> PieceKind:
        return self.rules.kinds[piece.kind]

    def at(self, square: Square) -> Piece | None:
        pid = self._at.get(square)
        return self.pieces[pid] if pid is not None else None

    def side_pieces(self, side: str) -> list[Piece]:
        return sorted((p for p in self.pieces.values() if p.side == side), key=lambda p: p.id)

    def _put(self, piece: Piece) -> None:
        old = self.pieces.get(piece.id)
        if old is not None:
            del self._at[old.square]
        self.pieces[piece.id] = piece
        self._at[piece.square] = piece.id
        self.fielded.add(piece.side)

    def _remove(self, piece: Piece) -> None:
        del self._at[piece.square]
        del self.pieces[piece.id]

    def position(self) -> BoardPosition:
        """The position as a value (sorted, so equal positions are equal values)."""
        return BoardPosition(
            battle=self.battle, turn=self.turn,
            pieces=tuple(sorted(self.pieces.values(), key=lambda p: p.id)),
            mines=tuple((side, tuple(sorted(self.mines[side]))) for side in SIDES),
            mines_laid=tuple((side, self.mines_laid[side]) for side in SIDES),
            acted=tuple(sorted(self.acted)), back_shots=tuple(sorted(self.back_shots.items())),
            fielded=tuple(sorted(self.fielded)))

    @classmethod
    def restore(cls, rules: BoardRules, position: BoardPosition, dice: DiceSource) -> BoardBattle:
        """A battle continuing from ``position`` (a battle not over: an ended one keeps its
        result in its events)."""
        board = cls(rules, position.battle, dice)
        for piece in position.pieces:
            board.place(piece)
        board.mines = {side: set(squares) for side, squares in position.mines}
        board.mines_laid = dict(position.mines_laid)
        board.turn = position.turn
        board.side = ATTACKER if position.turn % 2 else DEFENDER
        board.acted = set(position.acted)
        board.back_shots = dict(position.back_shots)
        board.fielded = set(position.fielded)
        return board

    # ----------------------------------------------------------------- deployment
    def deploy(self, side: str, pid: str, kind_key: str, square: Square) -> None:
        """Put a unit on ``square`` before the battle: own rows 1-3 (L31.5), or its kind's
        own rows (L31.27, L31.42)."""
        if self.turn:
            raise OrderFailed("board_deploy_started")
        kind = self.rules.kinds.get(kind_key)
        if kind is None or kind.battle != self.battle:
            raise OrderFailed("board_wrong_battle", piece=pid, piece_kind=kind_key, battle=self.battle)
        if pid in self.pieces or len(self.pieces) >= MAX_PIECES:
            raise OrderFailed("board_piece_repeated", piece=pid, most=MAX_PIECES)
        low, high = kind.confined or (1, self.rules.deploy_rows)
        if not on_board(self.rules, square) or not low <= own_row(self.rules, side, square) <= high:
            raise OrderFailed("board_deploy_row", piece=pid, square=self._name(square), low=low, high=high)
        if square in self._at:
            raise OrderFailed("board_square_taken", square=self._name(square))
        self._put(Piece(pid, side, kind_key, square))
        self.events.append(PieceDeployed(side, pid, kind_key, self._name(square)))

    def place(self, piece: Piece) -> None:
        """Put a unit anywhere free, unchecked beyond that: a position from a rules case
        or a saved battle turn (not a deployment)."""
        if piece.kind not in self.rules.kinds:
            raise OrderFailed("board_wrong_battle", piece=piece.id, piece_kind=piece.kind, battle=self.battle)
        if not on_board(self.rules, piece.square):
            raise OrderFailed("board_square_unknown", square=str(piece.square),
                              last_column=chr(64 + self.rules.columns), rows=self.rules.rows_per_side)
        if piece.square in self._at or piece.id in self.pieces:
            raise OrderFailed("board_square_taken", square=self._name(piece.square))
        self._put(piece)

    def lay_mines(self, side: str, squares: Iterable[Square]) -> None:
        """Secret mines in own rows 4-10 (L31.7, L31.49); only their count is an event."""
        low, high = self.rules.mine_rows
        laid = set()
        for square in squares:
            if (not on_board(self.rules, square) or not low <= own_row(self.rules, side, square) <= high
                    or square in laid):
                raise OrderFailed("board_mine_row", square=self._name(square), low=low, high=high)
            laid.add(square)
        self.mines[side] |= laid
        self.mines_laid[side] += len(laid)
        self.events.append(MinesLaid(side, len(laid)))

    # ----------------------------------------------------------------- fire
    def aim(self, shooter: Piece, target: Piece, shooter_at: Square | None = None,
            target_at: Square | None = None) -> Aim | None:
        """Whether ``shooter`` (standing on ``shooter_at``, default its square) can fire at
        ``target`` (on ``target_at``), and the roll it needs."""
        kind = self.kind(shooter)
        src = shooter.square if shooter_at is None else shooter_at
        dst = target.square if target_at is None else target_at
        if shooter.side == target.side:
            return None
        if kind.zone == OWN_HALF:                        # AT gun: L31.23-L31.24
            return Aim(kind.hit, -1) if in_own_half(self.rules, shooter.side, dst) else None
        if kind.zone == ENEMY_BEYOND_DEPLOY:             # LRG: L31.42
            row = own_row(self.rules, target.side, dst)
            return Aim(kind.hit, -1) if self.rules.deploy_rows < row <= self.rules.rows_per_side else None
        line = between(src, dst)                         # L31.22
        if line is None or len(line) >= len(self.rules.to_hit):
            return None
        if not kind.fires_through:                       # L35.3, L39.3
            moved = {shooter.id, target.id}
            if any(self._at.get(sq) not in (None, *moved) for sq in line):
                return None                              # (a moved shooter's old square is free)
        need = kind.hit or self.rules.to_hit[len(line)]  # L31.20-L31.21
        return Aim(need, len(line))

    def _shoot(self, shooter: Piece, target: Piece, aim: Aim, back: bool) -> bool:
        purpose = (f"board turn {self.turn} {shooter.side} {shooter.id} fires"
                   f"{' back' if back else ''} at {target.id}")
        roll = self.dice.roll(1, purpose)[0]
        hit = roll >= aim.need
        self.events.append(ShotFired(self.turn, shooter.side, shooter.id, target.id, aim.gap, aim.need,
                                     roll, hit, back))
        if hit:                                          # L31.15: a hit destroys
            self._remove(target)
        return hit

    def _duel(self, shooter: Piece, target: Piece, shots: int) -> None:
        """L31.15-L31.18, L31.26: the shooter fires up to ``shots``; a survivor fires back
        with what is left of its shots this battle turn (ruling counter_fire)."""
        aim = self.aim(shooter, target)
        if aim is None:
            raise OrderFailed("board_cannot_fire", piece=shooter.id, at=target.id)
        for _ in range(shots):
            if self._shoot(shooter, target, aim, back=False):
                return
        back = self.aim(target, shooter)
        while back is not None and self.back_shots.get(target.id, 0) > 0:
            self.back_shots[target.id] -= 1
            if self._shoot(target, shooter, back, back=True):
                return

    # ----------------------------------------------------------------- movement
    def _walk(self, piece: Piece, path: Sequence[Square]) -> Piece | None:
        """Move along ``path`` (checked by ``_check_path``); None if a mine destroyed it."""
        entered = []
        current = piece
        for square in path:
            entered.append(self._name(square))
            if self.sealed is not None:
                self.sealed.enter(self, piece, square)
            enemy_mines = self.mines[other_side(piece.side)]
            if square in enemy_mines:                    # L31.52
                enemy_mines.discard(square)
                self._remove(current)
                self.events.append(PieceMoved(self.turn, piece.side, piece.id, tuple(entered)))
                self.events.append(MineExploded(self.turn, other_side(piece.side), piece.id,
                                                self._name(square)))
                return None
            current = attrs.evolve(current, square=square)
            self._put(current)
        if entered:
            self.events.append(PieceMoved(self.turn, piece.side, piece.id, tuple(entered)))
        return current

    def _check_path(self, piece: Piece, start: Square, path: Sequence[Square]) -> Square:
        """Where ``path`` from ``start`` ends, each step checked against the position now
        (the moving unit's own square free); raises on the first bad step."""
        kind = self.kind(piece)
        current = start
        for square in path:
            problem = self._step_problem(piece, kind, current, square)
            if problem:
                raise OrderFailed(problem, piece=piece.id, square=self._name(square))
            current = square
        return current

    def _step_problem(self, piece: Piece, kind: PieceKind, start: Square, square: Square) -> str:
        if square not in neighbours(self.rules, start):
            return "board_not_orthogonal"                # L31.10
        if self._at.get(square, piece.id) != piece.id:
            return "board_square_taken"                  # ruling occupancy
        if square in self.mines[piece.side]:
            return "board_own_mine"                      # L31.53
        if kind.confined and not (kind.confined[0] <= own_row(self.rules, piece.side, square)
                                  <= kind.confined[1]):
            return "board_confined"                      # L31.27, L31.42
        return ""

    # ----------------------------------------------------------------- battle turns
    def start_turn(self) -> None:
        """The next battle turn: the attacker plays the odd ones (L31.1)."""
        if self.result is not None:
            raise OrderFailed("board_battle_over")
        self.turn += 1
        self.side = ATTACKER if self.turn % 2 else DEFENDER
        self.acted = set()
        self.back_shots = {p.id: self.kind(p).shots for p in self.pieces.values()
                           if p.side != self.side}        # ruling ammunition_per_battle_turn
        self.events.append(BattleTurnStarted(self.turn, self.side))

    def end_turn(self) -> None:
        """After the cap's last battle turn the defender holds (ruling G11-cap)."""
        if self.result is None and self.turn >= self.rules.battle_turn_cap:
            self._end(DEFENDER, "turn_cap")

    def act(self, pid: str, before: Sequence[Square] = (), target: str | None = None,
            shots: int | None = None, after: Sequence[Square] = ()) -> None:
        """One unit's action in its battle turn (L31.9, L31.16-L31.17): move along
        ``before``, fire at ``target`` up to ``shots`` (default all), move on along ``after``."""
        piece = self._actor(pid)
        kind = self.kind(piece)
        if len(before) + len(after) > self.rules.move_points:
            raise OrderFailed("board_too_far", piece=pid, points=self.rules.move_points,
                              steps=len(before) + len(after))
        if target is not None:
            victim = self.pieces.get(target)
            if victim is None or victim.side == piece.side:
                raise OrderFailed("board_no_target", piece=pid, at=target)
        if shots is not None and not 1 <= shots <= kind.shots:
            raise OrderFailed("board_shots", piece=pid, shots=shots, most=kind.shots)
        # The whole action is checked before anything happens: units only leave the board
        # during it, so a path free now stays free.
        fire_from = self._check_path(piece, piece.square, before)
        if target is not None and self.aim(piece, self.pieces[target], shooter_at=fire_from) is None:
            raise OrderFailed("board_cannot_fire", piece=pid, at=target)
        self._check_path(piece, fire_from, after)
        self.acted.add(pid)
        moved = self._walk(piece, before)
        if moved is not None and target is not None:
            victim = self.pieces[target]
            self._duel(moved, victim, kind.shots if shots is None else shots)
            moved = self.pieces.get(pid)
        if moved is not None and after:
            self._walk(moved, after)
        self.check_end()

    def _actor(self, pid: str) -> Piece:
        if self.result is not None:
            raise OrderFailed("board_battle_over")
        piece = self.pieces.get(pid)
        if piece is None:
            raise OrderFailed("board_no_piece", piece=pid)
        if piece.side != self.side or not self.turn:
            raise OrderFailed("board_not_your_turn", piece=pid, side=self.side)
        if pid in self.acted:
            raise OrderFailed("board_already_acted", piece=pid)   # L31.11, L31.13
        return piece

    # ----------------------------------------------------------------- the end
    def beaten(self, side: str) -> bool:
        """No tank, warship or AT gun, and no long-range gun with an enemy where it may
        fire (ruling end; L31.43)."""
        enemies = self.side_pieces(other_side(side))
        for piece in self.side_pieces(side):
            if self.kind(piece).holds_ground:
                return False
            if any(self.aim(piece, e) for e in enemies):
                return False
        return True

    def check_end(self) -> BoardBattleEnded | None:
        if self.result is not None:
            return self.result
        if self.beaten(ATTACKER):
            self._lose_guns(ATTACKER)
            return self._end(DEFENDER, "attacker_beaten")
        if not self.beaten(DEFENDER):
            if not any(self.kind(p).mobile for p in self.pieces.values()):
                return self._end(DEFENDER, "stalemate")                 # ruling stalemate
            return None
        self._lose_guns(DEFENDER)
        if not self.mines[DEFENDER]:
            if self.mines_laid[DEFENDER]:
                return self._end(ATTACKER, "mines_spent")              # L31.57-L31.58
            return self._end(ATTACKER, "defender_beaten" if DEFENDER in self.fielded
                             else "nothing_to_fight")
        mobile = [p for p in self.side_pieces(ATTACKER) if self.kind(p).zone == LINE]
        if not mobile:
            return self._end(DEFENDER, "stalemate")      # guns cannot clear mines (ruling end)
        if all(own_row(self.rules, DEFENDER, p.square) <= self.rules.deploy_rows
                          for p in mobile):
            self._reveal_mines()
            self.mines[DEFENDER].clear()                                # L31.54-L31.55
            return self._end(ATTACKER, "mines_cleared")
        return None

    def _lose_guns(self, side: str) -> None:
        guns = [p for p in self.side_pieces(side) if not self.kind(p).holds_ground]
        for gun in guns:
            self._remove(gun)
        if guns:
            self.events.append(GunsLost(side, tuple(g.id for g in guns)))

    def _reveal_mines(self) -> None:
        """The mines that did not go off, revealed when the battle ends (issue 27: no
        layout stays secret after its battle)."""
        for side in SIDES:
            known = sorted(sq for sq in self.mines[side] if on_board(self.rules, sq))
            if known:                    # a sealed live layout's placeholders stay sealed
                self.events.append(MinesRevealed(side, tuple(self._name(sq) for sq in known)))

    def _end(self, winner: str, reason: str) -> BoardBattleEnded:
        self._reveal_mines()
        self.result = BoardBattleEnded(self.turn, winner, reason)
        self.events.append(self.result)
        return self.result

    def _name(self, square: Square) -> str:
        return square_name(self.rules, square) if on_board(self.rules, square) else str(square)
