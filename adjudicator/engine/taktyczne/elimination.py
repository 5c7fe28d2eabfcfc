"""The end of a player and of the game (L11, L19.48-L19.49): a player with no unit and no
area left is eliminated and whoever finished him takes his unspent points; the last player
standing wins; with the tournament option ``turn_limit`` the game ends after that round and
the standings decide (ruling turn_limit)."""

from __future__ import annotations

from ...model.taktyczne import PlayerEliminated, TurnLimitReached
from ..context import TurnContext
from ..steps import step
from ..turn_rules import declare_state
from .stacking import unit_value

ELIMINATED = declare_state("ts_eliminated", list)     # players out, in the order they fell
WINNER = declare_state("ts_winner", str)              # read by the victory rules
TURN_LIMIT = "ts_turn_limit"


def eliminated(board) -> list[str]:
    return list(board.read_state(ELIMINATED) or [])


def check(ctx: TurnContext, player: str, by: str | None = None) -> bool:
    """Eliminate ``player`` if he has no unit and no land area left (L19.49); ``by`` (the
    player whose turn it is, who took his last area or unit, ruling G32) takes his points
    (L19.48).  True if he is out now."""
    board = ctx.board
    by = by or ctx.power
    if not player or player == by or player not in board.rules.powers or player in eliminated(board):
        return False
    if any(p.owner == player for p in board.pieces.values()):
        return False
    if any(owner == player for area, owner in board.owners.items() if not board.map[area].is_sea):
        return False
    points = board.ipcs.get(player, 0)
    board.ipcs[player] = 0
    board.ipcs[by] = board.ipcs.get(by, 0) + points
    board.write_state(ELIMINATED, [*eliminated(board), player])
    ctx.emit(PlayerEliminated(player, by, points))
    return True


def standing(board) -> list[str]:
    """The players not eliminated, in the turn order."""
    out = eliminated(board)
    return [p for p in turn_order(board) if p not in out]


def turn_order(board) -> list[str]:
    """The rolled turn order (state ``ts_turn_order`` of the edition), else the data's."""
    rolled = board.read_state("ts_turn_order")
    order = list(rolled) if isinstance(rolled, (list, tuple)) and rolled else list(board.rules.turn_order)
    return [p for p in order if p in board.rules.powers]


def last_standing(ctx: TurnContext) -> None:
    """One player left: he wins (L11: the other players' forces destroyed and their areas
    taken, which is what elimination is, L19.49)."""
    board = ctx.board
    left = standing(board)
    if len(left) == 1 and not board.read_state(WINNER):
        board.write_state(WINNER, left[0])


def standings(board) -> list[tuple[str, int, int]]:
    """``(player, land areas held, points)`` best first: areas (the goal is the whole map,
    L11), then points (his units' map value and his treasury, what L19.48 hands over), then
    the turn order rolled at the start (L19.1-L19.2, the only ranking the text gives)."""
    order = turn_order(board)
    rows = []
    for player in standing(board):
        areas = sum(1 for area, owner in board.owners.items()
                    if owner == player and not board.map[area].is_sea)
        value = sum(unit_value(board, p.type) for p in board.pieces.values() if p.owner == player)
        rows.append((player, areas, value + board.ipcs.get(player, 0)))
    rows.sort(key=lambda r: (-r[1], -r[2], order.index(r[0])))
    return rows


@step(TURN_LIMIT)
def turn_limit(ctx: TurnContext, dice) -> None:
    """The last step of every turn: with option ``turn_limit`` N > 0, after the last
    standing player's turn of round N (the rolled order) the leader of ``standings`` wins
    (ruling turn_limit)."""
    board = ctx.board
    limit = board.rules.option("turn_limit", 0)
    if not limit or board.round < limit or board.read_state(WINNER):
        return
    left = standing(board)
    if left and ctx.power != left[-1]:
        return
    rows = standings(board)
    winner = rows[0][0] if rows else ""
    ctx.emit(TurnLimitReached(board.round, tuple(rows), winner))
    if winner:
        board.write_state(WINNER, winner)
