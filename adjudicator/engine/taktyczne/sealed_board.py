"""The defender's sealed mines on a live battle's board (docs/taktyczne-mines.md §3).

While a live battle is played on a square-by-square sealed layout (``model.mine_grid``),
the board holds, for each of the defender's mines whose square is not known, a
*placeholder* square off the board (``(-1, -k)``): no path ever enters one, so they never
fire, yet the board counts them (``BoardBattle.check_end``: mines spent or cleared) and
the published position shows their number only, which is public (G27).  When the owner
opens a square the attacker enters and it holds a mine, a placeholder becomes that square.
Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ...model import mine_grid
from ...model.live_battle import BoardAction
from ...model.tactical import DEFENDER, BoardRules, MinesLaid, Square
from ..errors import OrderFailed
from ..tactical.geometry import board_square, on_board, own_row, own_square


def placeholders(count: int, start: int = 1) -> set[Square]:
    """``count`` off-board squares standing for sealed mines."""
    return {(-1, -k) for k in range(start, start + count)}


def is_placeholder(square: Square) -> bool:
    return square[0] == -1


def own_name(rules: BoardRules, square: Square) -> str:
    """``square`` as the defender names it in his layout (``G5``: column, own row)."""
    return f"{chr(65 + square[0])}{own_row(rules, DEFENDER, square)}"


def wanted_squares(rules: BoardRules, actions: Sequence[BoardAction],
                   opened: Iterable[str]) -> tuple[str, ...]:
    """The defender's own-row names of the squares in his mine rows that the attacker's
    written paths enter and that are not opened yet, in the order first entered."""
    low, high = rules.mine_rows
    known = set(opened)
    found: list[str] = []
    for action in actions:
        for name in (*action.before, *action.after):
            try:
                square = board_square(rules, name)
            except OrderFailed:
                continue
            if not on_board(rules, square) or not low <= own_row(rules, DEFENDER, square) <= high:
                continue
            own = own_name(rules, square)
            if own not in known and own not in found:
                found.append(own)
    return tuple(found)


def reveal_mine(rules: BoardRules, mines: Iterable[Square], own: str) -> tuple[Square, ...] | None:
    """The defender's board mines once ``own`` is opened as mined: a placeholder becomes
    that square (None: no placeholder left, every mine of the battle is accounted for, so
    the square is a layout square beyond the mines present and holds none)."""
    mines = set(mines)
    spare = sorted((s for s in mines if is_placeholder(s)), reverse=True)
    if not spare:
        return None
    mines.discard(spare[0])
    mines.add(own_square(rules, DEFENDER, own))
    return tuple(sorted(mines))


def lay_sealed(board, count: int) -> None:
    """Lay ``count`` sealed mines of the defender as placeholders (the count is an event,
    as ``BoardBattle.lay_mines`` makes it)."""
    board.mines[DEFENDER] |= placeholders(count, len(board.mines[DEFENDER]) + 1)
    board.mines_laid[DEFENDER] += count
    board.events.append(MinesLaid(DEFENDER, count))


def open_squares(sealed: dict, wanted: Sequence[str], opens) -> tuple[
        tuple[tuple[str, bool], ...] | None, tuple[int, str, dict] | None]:
    """Each ``wanted`` square with whether it holds a mine, if the ``open`` lines open every
    one (once, by its salt, against the leaf kept in ``sealed``) and no other; else None
    and the problem ``(line, code, params)``."""
    leaves = dict(zip(mine_grid.SQUARES, sealed.get("leaves", ())))
    scope = sealed.get("scope", "")
    power = sealed.get("power", "")
    by_square = {o.square: o for o in opens}
    missing = [s for s in wanted if s not in by_square]
    if missing:
        return None, (0, "ts_open_missing", {"squares": " ".join(missing)})
    found = []
    for square in wanted:
        order = by_square[square]
        if order.mined is None:
            return None, (order.line, "ts_open_unreadable",
                          {"reason": "'mine' or 'empty', then salt_<hex>"})
        if not mine_grid.square_opens(leaves.get(square, ""), power,
                                      None if scope == "all" else scope, square, order.mined,
                                      order.salt):
            return None, (order.line, "ts_open_wrong",
                          {"commitment": sealed.get("commitment", ""), "square": square})
        found.append((square, order.mined))
    extra = [o for o in opens if o.square not in wanted]
    if extra:
        return None, (extra[0].line, "ts_open_not_wanted", {})
    return tuple(found), None
