"""Taktyczne Starcie's tactical battle board as values: its rules (read from
``maps/taktyczne/board.toml``), the pieces on it, a side's battle plan, and the events of a
board battle (codes and parameters; the words are in ``present.wording``).

A square is ``(column, y)``: column 0..12 (A..M), y 0..19 counted from the attacker's edge.
Each side counts its own rows 1..10 from its own edge (``engine.tactical.geometry``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

import attrs

from .battle_plan import (  # noqa: F401  (a side's plan, with the board)
    STANCES, TARGET_PRIORITIES, BattlePlan, Doctrine,
)

ATTACKER, DEFENDER = "attacker", "defender"
SIDES = (ATTACKER, DEFENDER)

Square = tuple[int, int]

# Where a kind may fire (board.toml ``zone``).
LINE = "line"                                  # a straight unblocked line, to-hit by gap
OWN_HALF = "own_half"                          # AT guns: anywhere in the owner's half
ENEMY_BEYOND_DEPLOY = "enemy_half_beyond_deploy"   # LRGs: the enemy's rows 4-10
ZONES = (LINE, OWN_HALF, ENEMY_BEYOND_DEPLOY)



def other_side(side: str) -> str:
    return DEFENDER if side == ATTACKER else ATTACKER


def square_name(rules: BoardRules, square: Square) -> str:
    """The whole-board name: ``C3a`` (the attacker's row 3), ``C3d`` (the defender's)."""
    col, y = square
    if y < rules.rows_per_side:
        return f"{chr(65 + col)}{y + 1}a"
    return f"{chr(65 + col)}{rules.rows - y}d"


@attrs.frozen
class PieceKind:
    """A unit type that stands on the board: a tank or warship of a rank, an AT gun, a
    long-range gun.  ``hit`` 0: the gap table decides; ``confined`` (low, high): the own rows
    it deploys and moves in; ``holds_ground`` False: alone it cannot keep a battle going
    (the long-range gun, L31.43)."""

    key: str
    name: str
    battle: str                      # "land" | "sea"
    shots: int
    zone: str = LINE
    rank: int = 0
    hit: int = 0
    confined: tuple[int, int] | None = None
    fires_through: bool = False
    holds_ground: bool = True
    short: str = ""                  # two letters for the text board

    @property
    def mobile(self) -> bool:
        """A tank or warship: fires along lines by gap, moves over the whole board."""
        return self.zone == LINE


@attrs.frozen
class Formation:
    """Named deployment squares (own-row names such as ``G3``), filled in order."""

    key: str
    front: tuple[str, ...]
    guns: tuple[str, ...]
    mines: tuple[str, ...]


@attrs.frozen
class BoardRules:
    """The board's geometry and rules, every number from ``board.toml``."""

    columns: int
    rows: int
    rows_per_side: int
    deploy_rows: int
    mine_rows: tuple[int, int]
    move_points: int
    to_hit: tuple[int, ...]          # gap -> roll needed
    battle_turn_cap: int
    kinds: Mapping[str, PieceKind]
    mines: Mapping[str, str]         # battle ("land"/"sea") -> mine key
    formations: Mapping[str, Formation]
    rulings: tuple[tuple[str, str], ...] = ()
    version: int = 1
    title: str = ""
    interpreter: int = 1             # the plan interpreter's version its games are played by


@attrs.frozen
class Piece:
    """A unit on the board: ``id`` is unique in the battle."""

    id: str
    side: str
    kind: str
    square: Square


@attrs.frozen
class BoardForce:
    """What one side brings to the board: ``(unit id, kind key)`` pairs and its mines."""

    units: tuple[tuple[str, str], ...] = ()
    mines: int = 0


@attrs.frozen
class BoardPosition:
    """Everything a board battle's next action depends on besides the rules and the dice:
    the pieces, each side's mines (secret to the other side), whose battle turn it is and
    what has happened in it.  What a live battle keeps between its battle-turn files."""

    battle: str
    turn: int
    pieces: tuple[Piece, ...]
    mines: tuple[tuple[str, tuple[Square, ...]], ...]
    mines_laid: tuple[tuple[str, int], ...]
    acted: tuple[str, ...] = ()
    back_shots: tuple[tuple[str, int], ...] = ()
    fielded: tuple[str, ...] = ()


# ------------------------------------------------------------------------------ events
# Squares in events are whole-board names: "C3a" (the attacker's row 3), "C8d".

@attrs.frozen
class BoardEvent:
    kind: ClassVar[str] = "board_event"


@attrs.frozen
class PieceDeployed(BoardEvent):
    kind: ClassVar[str] = "board_deployed"
    side: str
    piece: str
    piece_kind: str
    square: str


@attrs.frozen
class MinesLaid(BoardEvent):
    """The count only: the squares stay secret until a mine goes off."""

    kind: ClassVar[str] = "board_mines_laid"
    side: str
    count: int


@attrs.frozen
class BattleTurnStarted(BoardEvent):
    kind: ClassVar[str] = "board_turn_started"
    turn: int
    side: str


@attrs.frozen
class PieceMoved(BoardEvent):
    kind: ClassVar[str] = "board_moved"
    turn: int
    side: str
    piece: str
    path: tuple[str, ...]            # the squares entered, in order


@attrs.frozen
class ShotFired(BoardEvent):
    """One die: ``need`` the roll needed, ``gap`` the free squares between (-1: a gun's
    shot, not by gap), ``back`` True for counter-fire."""

    kind: ClassVar[str] = "board_shot"
    turn: int
    side: str
    piece: str
    at: str
    gap: int
    need: int
    roll: int
    hit: bool
    back: bool = False


@attrs.frozen
class MineExploded(BoardEvent):
    kind: ClassVar[str] = "board_mine_exploded"
    turn: int
    side: str                        # the mine's owner
    piece: str                       # the enemy piece destroyed
    square: str


@attrs.frozen
class MinesRevealed(BoardEvent):
    """The battle is over: ``side``'s mines that did not go off are revealed on ``squares``
    (a sealed layout is public once its battle has ended, issue 27; docs/taktyczne-mines.md)."""

    kind: ClassVar[str] = "board_mines_revealed"
    side: str
    squares: tuple[str, ...]


@attrs.frozen
class GunsLost(BoardEvent):
    """Long-range guns of a beaten side, destroyed (L31.43)."""

    kind: ClassVar[str] = "board_guns_lost"
    side: str
    pieces: tuple[str, ...]


@attrs.frozen
class BoardBattleEnded(BoardEvent):
    """``reason``: ``attacker_beaten``, ``defender_beaten``, ``mines_cleared`` (the attacker's
    tanks reached the safe zone), ``mines_spent`` (every defending mine went off),
    ``turn_cap`` (the defender holds), ``stalemate`` (no tank or warship left on either side:
    no shot is possible any more; the defender holds), ``nothing_to_fight``."""

    kind: ClassVar[str] = "board_battle_ended"
    turn: int
    winner: str
    reason: str
