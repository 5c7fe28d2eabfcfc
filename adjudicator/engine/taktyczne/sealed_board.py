"""The defender's sealed mines on a live battle's board (docs/taktyczne-mines.md §3).

While a live battle is played on a square-by-square sealed layout (``model.mine_grid``),
the board holds, for each of the defender's mines whose square is not known, a
*placeholder* square off the board (``(-1, -k)``): no path ever enters one, so they never
fire, yet the board counts them (``BoardBattle.check_end``: mines spent or cleared) and
the published position shows their number only, which is public (G27).  When an
attacker's unit enters a square opened as mined, a placeholder becomes that square
(``SealedSquares``, told of each square as the battle turn is played).  Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import attrs

from ...model import mine_grid
from ...model.live_battle import BoardAction
from ...model.tactical import ATTACKER, DEFENDER, BoardRules, MinesLaid, Piece, Square
from ..errors import OrderFailed
from ..tactical.geometry import board_square, on_board, own_row


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


class SquareNeeded(Exception):
    """A unit of the attacker enters a sealed square nobody has opened yet: the battle turn
    cannot be played further without it."""

    def __init__(self, square: str):
        super().__init__(square)
        self.square = square


@attrs.define
class SealedSquares:
    """What is known of the defender's sealed squares while an attacker's battle turn is
    played (``BoardBattle.sealed``, told of every square a unit enters).  A square of the
    defender's mine rows that an attacker's unit enters, while sealed mines (placeholders)
    remain, must be ``known`` (opened: square -> mined); if not, ``layout`` answers (the
    owner's program, which knows the whole layout: the square is then ``reached``) or, in
    the engine, ``SquareNeeded`` stops the battle turn.  A square known mined takes one of
    the sealed mines (a placeholder moves onto it, and the board's mine check fires it:
    the first mines the attacker meets are the ones present); ``placed``: those squares,
    so a spent one does not take another.  Squares entered after the unit's own fire are
    asked for only if it survives it (the dice decide, as they do on the board)."""

    rules: BoardRules
    known: dict[str, bool]
    placed: set[str]
    layout: Callable[[str], bool] | None = None
    reached: list[str] = attrs.field(factory=list)

    @classmethod
    def of(cls, rules: BoardRules, sealed: dict, extra: dict[str, bool] | None = None,
           layout: Callable[[str], bool] | None = None) -> SealedSquares:
        """From a live battle's kept ``sealed`` data (``opened``, ``placed``), with the
        ``extra`` squares opened now."""
        opened = {str(s): bool(m) for s, m in (sealed.get("opened") or {}).items()}
        placed = sealed.get("placed")
        if placed is None:         # kept before 'placed': an opened mine was laid at once
            placed = [s for s, mined in opened.items() if mined]
        return cls(rules, opened | dict(extra or {}), {str(s) for s in placed}, layout)

    def kept(self, sealed: dict) -> dict:
        """``sealed`` with what this battle turn opened and placed."""
        return dict(sealed, opened=dict(sorted(self.known.items())), placed=sorted(self.placed))

    def enter(self, board, piece: Piece, square: Square) -> None:
        if piece.side != ATTACKER or square in board.mines[DEFENDER] or not on_board(self.rules, square):
            return
        low, high = self.rules.mine_rows
        if not low <= own_row(self.rules, DEFENDER, square) <= high:
            return
        spare = sorted((s for s in board.mines[DEFENDER] if is_placeholder(s)), reverse=True)
        own = own_name(self.rules, square)
        if not spare or own in self.placed:    # no sealed mine left, or this one went off
            return
        if own not in self.known:
            if self.layout is None:
                raise SquareNeeded(own)
            self.known[own] = self.layout(own)
            self.reached.append(own)
        if self.known[own]:
            board.mines[DEFENDER].discard(spare[0])
            board.mines[DEFENDER].add(square)
            self.placed.add(own)


def roll_bound(rules: BoardRules, pieces: Iterable[Piece]) -> int:
    """The most dice one battle turn rolls: every unit's shots, fired or fired back (each
    acts once; fire back is what is left of its shots, ruling counter_fire)."""
    return sum(rules.kinds[p.kind].shots for p in pieces if p.kind in rules.kinds)
