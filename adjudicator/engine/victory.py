"""The victory check: the edition's victory rules (conditions from data), evaluated at the
end of the turn they name (``after:<power>``) or at the end of the round.

A rule with a ``held`` part (Global 1940's victory cities or Axis capitals "for one complete
round" [L1021-L1023, L1131-L1139]) wins only once that part has held at the end of every
turn since the end of the same turn slot a round before: the engine counts, at the end of
every turn, for how many turns in a row it has held (state ``victory_held``, by rule name;
absent when 0), and a complete round is one more turn than there are turn slots (the turn
it was first seen held, then every slot once).  Its ``condition`` is checked at the check
point only (Global's "an Axis capital at the end of that round"), which is also the Axis'
grace period to retake a capital before the next round starts [L1011]."""

from __future__ import annotations

from ..model.events import VictoryDeclared, VictoryDenied, VictoryInSight
from .conditions import holds
from .context import TurnContext
from .turn_rules import declare_state

HELD = declare_state("victory_held", dict)     # {victory rule name: turns in a row held}


def check_victory(ctx: TurnContext, round_: int, last_in_round: bool) -> str | None:
    """The side that has won after this turn (and emits ``VictoryDeclared``), or None."""
    game = ctx.game
    streaks = _count_held(ctx, round_)
    needed = len(game.ruleset.turn_order) + 1
    for rule in game.ruleset.victory:
        if not rule.checked_after(ctx.power, last_in_round):
            continue
        if rule.held is not None and streaks.get(rule.name, 0) < needed:
            continue
        ok, held = holds(game, rule.condition, rule.side, ctx.board.owners, round_,
                         state=ctx.board.extras, board=ctx.board)
        if ok:
            if rule.held is not None:
                held = _held(ctx, rule, round_)[1] + held
            ctx.emit(VictoryDeclared(rule.side, rule.name, tuple(dict.fromkeys(held))))
            return rule.side
    return None


def _held(ctx: TurnContext, rule, round_: int) -> tuple[bool, tuple[str, ...]]:
    return holds(ctx.game, rule.held, rule.side, ctx.board.owners, round_, state=ctx.board.extras,
                 board=ctx.board)


def _count_held(ctx: TurnContext, round_: int) -> dict[str, int]:
    """Update and return the turns in a row each rule's ``held`` part has held."""
    rules = [r for r in ctx.game.ruleset.victory if r.held is not None]
    if not rules:
        return {}
    board = ctx.board
    before = dict(board.read_state(HELD) or {})
    after: dict[str, int] = {}
    for rule in rules:
        ok, where = _held(ctx, rule, round_)
        was = before.get(rule.name, 0)
        if ok:
            after[rule.name] = was + 1
            if not was:
                ctx.emit(VictoryInSight(rule.side, rule.name, round_ + 1, where))
        elif was:
            ctx.emit(VictoryDenied(rule.side, rule.name, was))
    if after or before:
        board.write_state(HELD, dict(sorted(after.items())))
    return after
