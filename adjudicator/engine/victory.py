"""The victory check: the edition's victory rules (conditions from data), evaluated at the
end of the turn they name (``after:<power>``) or at the end of the round."""

from __future__ import annotations

from ..model.events import VictoryDeclared
from .conditions import holds
from .context import TurnContext


def check_victory(ctx: TurnContext, round_: int, last_in_round: bool) -> str | None:
    """The side that has won after this turn (and emits ``VictoryDeclared``), or None."""
    game = ctx.game
    for rule in game.ruleset.victory:
        if not rule.checked_after(ctx.power, last_in_round):
            continue
        ok, held = holds(game, rule.condition, rule.side, ctx.board.owners, round_,
                         state=ctx.board.extras)
        if ok:
            ctx.emit(VictoryDeclared(rule.side, rule.name, held))
            return rule.side
    return None
