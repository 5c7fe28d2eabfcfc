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


def _sealed_steps(rules: BoardRules, action: BoardAction):
    """The squares of the defender's mine rows ``action``'s paths enter, in order, by his
    own names (unreadable names and the other squares left out)."""
    low, high = rules.mine_rows
    for name in (*action.before, *action.after):
        try:
            square = board_square(rules, name)
        except OrderFailed:
            continue
        if on_board(rules, square) and low <= own_row(rules, DEFENDER, square) <= high:
            yield own_name(rules, square)


def wanted_squares(rules: BoardRules, actions: Sequence[BoardAction],
                   opened: Iterable[str]) -> tuple[str, ...]:
    """The defender's own-row names of the squares in his mine rows that the written paths
    enter and that are not opened yet, in the order first entered."""
    known = set(opened)
    found: list[str] = []
    for action in actions:
        for own in _sealed_steps(rules, action):
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


def check_opens(sealed: dict, wanted: Sequence[str], opens) -> tuple[
        dict[str, bool] | None, tuple[int, str, dict] | None]:
    """The ``open`` lines as square -> mined, if each opens one of the ``wanted`` squares
    (by its salt, against the leaf kept in ``sealed``); else None and the problem
    ``(line, code, params)``."""
    leaves = dict(zip(mine_grid.SQUARES, sealed.get("leaves", ())))
    scope = sealed.get("scope", "")
    power = sealed.get("power", "")
    found: dict[str, bool] = {}
    for order in opens:
        if order.square not in wanted or order.square in found:
            return None, (order.line, "ts_open_not_wanted", {})
        if order.mined is None:
            return None, (order.line, "ts_open_unreadable",
                          {"reason": "'mine' or 'empty', then salt_<hex>"})
        if not mine_grid.square_opens(leaves.get(order.square, ""), power,
                                      None if scope == "all" else scope, order.square,
                                      order.mined, order.salt):
            return None, (order.line, "ts_open_wrong",
                          {"commitment": sealed.get("commitment", ""), "square": order.square})
        found[order.square] = order.mined
    return found, None


def open_squares(sealed: dict, wanted: Sequence[str], opens) -> tuple[
        tuple[tuple[str, bool], ...] | None, tuple[int, str, dict] | None]:
    """Each ``wanted`` square with whether it holds a mine, if the ``open`` lines open every
    one and no other (``check_opens``); else None and the problem."""
    found, problem = check_opens(sealed, wanted, opens)
    if problem is not None:
        return None, problem
    missing = [s for s in wanted if s not in found]
    if missing:
        return None, (0, "ts_open_missing", {"squares": " ".join(missing)})
    return tuple((s, found[s]) for s in wanted), None


def entered(rules: BoardRules, actions: Sequence[BoardAction], known: dict[str, bool],
            real: Iterable[str], spare: int) -> tuple[str, ...] | str:
    """Walk the attacker's written paths in order with what is ``known`` of the sealed
    squares (square -> mined), each unit assumed to survive its own fire: the squares of
    the defender's mine rows the units reach, up to each one's first mine (a ``real`` mine
    already on the board, or a square known mined while ``spare`` placeholders remain;
    one beyond them holds none).  A square reached and not known: that square's name (str)
    is returned instead, the first one the walk needs."""
    real, fired = set(real), set()
    reached: list[str] = []
    for action in actions:
        for own in _sealed_steps(rules, action):
            if own in fired:
                continue
            if own in real:
                fired.add(own)
                break
            if own not in known:
                return own
            if own not in reached:
                reached.append(own)
            if known[own] and spare > 0:
                spare -= 1
                fired.add(own)
                break
    return tuple(reached)


def real_mines(rules: BoardRules, mines: Iterable[Square]) -> tuple[str, ...]:
    """The defender's mines on the board whose squares are known (opened, not yet gone
    off), by his own names."""
    return tuple(own_name(rules, s) for s in mines if not is_placeholder(s))
