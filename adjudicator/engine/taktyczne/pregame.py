"""Taktyczne Starcie's pregame (round 0): the start drawn with the game's dice
(L19.1-L19.14), and the rolled order of play for every later round (rule ``ts_turn_order``).

Round 0 is one turn, the first colour's, with no orders: step ``ts_draw_setup`` rolls the
turn order and the capitals (``setup.draw_setup``), gives each player his capital (he holds
it from then on) and its free factory, and keeps the order and the capitals in the state.
The players' 12 points are their starting treasury (``starting_ipcs``, L19.12)."""

from __future__ import annotations

from ...model.taktyczne import MainMap
from ..steps import step
from ..turn_rules import Rule, register_rule
from .elimination import eliminated
from .setup import draw_setup
from .state import CAPITALS, FACTORY, TURN_ORDER, add_object


def main_map(game) -> MainMap:
    """The game's map with its tangent relation, as the setup reads it."""
    return MainMap(title=game.ruleset.title, version=1, game_map=game.map,
                   tangent=game.map.tangents, cells=())


@step("ts_draw_setup")
def draw_start(ctx, dice) -> None:
    """Roll the turn order and the capitals; each player holds his capital and has its free
    factory (L19.14).  Nothing to do when only checking orders (no dice), or once drawn."""
    board = ctx.board
    if dice is None or board.read_state(TURN_ORDER):
        return
    players = board.rules.turn_order
    start = board.rules.powers[players[0]].starting_ipcs
    setup, events = draw_setup(main_map(ctx.game), players, dice, start)
    for event in events:
        ctx.emit(event)
    for player in setup.order:
        board.owners[setup.capitals[player]] = player
        add_object(board, setup.factories[player], FACTORY)
    board.write_state(TURN_ORDER, list(setup.order))
    board.write_state(CAPITALS, dict(sorted(setup.capitals.items())))


@register_rule
class RolledTurnOrder(Rule):
    """Every round is played in the order the pregame rolled (L19.1-L19.2), without the
    players eliminated (L19.48-L19.49): round 1 starts with the first of the roll; after
    the pregame's one turn, round 1 begins."""

    name = "ts_turn_order"
    doc = "the rolled turn order (state ts_turn_order) drives every round after the pregame"

    def next_turn(self, ctx, power: str, round_: int):
        order = ctx.board.read_state(TURN_ORDER)
        if not order:
            return None
        out = set(eliminated(ctx.board))
        playing = [p for p in order if p not in out] or list(order)
        if round_ == 0:
            return playing[0], 1
        later = order[order.index(power) + 1:] if power in order else []
        later = [p for p in later if p not in out]
        return (later[0], round_) if later else (playing[0], round_ + 1)
