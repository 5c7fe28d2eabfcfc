"""A board battle's position as text: the defender's edge at the top, the attacker's at the
bottom, each row labelled as its owner counts it ("10d" ... "1a"); the attacker's units in
capitals ("T3", "AT"), the defender's in small letters, mines (when shown) as "**"."""

from __future__ import annotations

from collections.abc import Iterable

from ..model.tactical import ATTACKER, BoardRules, Piece, Square


def board_text(rules: BoardRules, pieces: Iterable[Piece], mines: Iterable[Square] = ()) -> str:
    cells: dict[Square, str] = {square: "**" for square in mines}
    for piece in pieces:
        kind = rules.kinds.get(piece.kind)
        short = kind.short if kind else "??"
        cells[piece.square] = short.upper() if piece.side == ATTACKER else short.lower()
    header = "    " + " ".join(f"{chr(65 + c)} " for c in range(rules.columns))
    lines = [header]
    for y in range(rules.rows - 1, -1, -1):
        label = f"{y + 1}a" if y < rules.rows_per_side else f"{rules.rows - y}d"
        row = " ".join(cells.get((c, y), "..") for c in range(rules.columns))
        lines.append(f"{label:>3} {row}")
    return "\n".join(lines)
