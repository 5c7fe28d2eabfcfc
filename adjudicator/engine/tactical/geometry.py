"""The board's squares: names, each side's rows, straight lines and the gap between two
squares (the free squares strictly between them, L31.20; digest G13)."""

from __future__ import annotations

from collections.abc import Iterator

from ...model.tactical import ATTACKER, DEFENDER, BoardRules, Square
from ...model.tactical import square_name as square_name   # its home: the pictures use it too
from ..errors import OrderFailed

ORTHOGONAL = ((0, 1), (1, 0), (0, -1), (-1, 0))
LINES = ORTHOGONAL + ((1, 1), (1, -1), (-1, -1), (-1, 1))


def own_row(rules: BoardRules, side: str, square: Square) -> int:
    """The row of ``square`` as ``side`` counts it from its own edge (1..rows)."""
    y = square[1]
    return y + 1 if side == ATTACKER else rules.rows - y


def in_own_half(rules: BoardRules, side: str, square: Square) -> bool:
    return own_row(rules, side, square) <= rules.rows_per_side


def own_square(rules: BoardRules, side: str, name: str) -> Square:
    """``"C2"`` in ``side``'s own rows (1..rows_per_side) as a board square."""
    text = name.strip().upper()
    if (not 2 <= len(text) <= 3 or not "A" <= text[0] <= chr(64 + rules.columns)
            or not text[1:].isdigit() or not 1 <= int(text[1:]) <= rules.rows_per_side):
        raise OrderFailed("board_square_unknown", square=name, last_column=chr(64 + rules.columns),
                          rows=rules.rows_per_side)
    row = int(text[1:])
    return ord(text[0]) - 65, row - 1 if side == ATTACKER else rules.rows - row


def board_square(rules: BoardRules, name: str) -> Square:
    """The inverse of ``square_name``: ``"C3a"`` -> the attacker's C3, ``"C3d"`` -> the
    defender's."""
    text = name.strip()
    if len(text) < 3 or text[-1].lower() not in "ad":
        raise OrderFailed("board_square_unknown", square=name, last_column=chr(64 + rules.columns),
                          rows=rules.rows_per_side)
    return own_square(rules, ATTACKER if text[-1].lower() == "a" else DEFENDER, text[:-1])


def on_board(rules: BoardRules, square: Square) -> bool:
    return 0 <= square[0] < rules.columns and 0 <= square[1] < rules.rows


def between(a: Square, b: Square) -> list[Square] | None:
    """The squares strictly between ``a`` and ``b`` on their straight line (orthogonal or
    diagonal), or None when they share no such line (or are the same square)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    if (dx, dy) == (0, 0) or not (dx == 0 or dy == 0 or abs(dx) == abs(dy)):
        return None
    steps = max(abs(dx), abs(dy))
    sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
    return [(a[0] + sx * i, a[1] + sy * i) for i in range(1, steps)]


def neighbours(rules: BoardRules, square: Square) -> Iterator[Square]:
    """The orthogonal neighbours on the board, in a fixed order (L31.10)."""
    for dx, dy in ORTHOGONAL:
        nxt = (square[0] + dx, square[1] + dy)
        if on_board(rules, nxt):
            yield nxt


def square_order(square: Square) -> tuple[int, int]:
    """A fixed order of squares for ties: row first, then column."""
    return square[1], square[0]
