"""Statements about the whole turn rather than orders of a phase: ``nmr`` (the game
master's record of a missed deadline) and ``concede`` (a side gives the game up).

Each must stand alone: with an ``nmr`` the turn is played with no purchase and no moves
(standing defence orders stay in force, income is collected) and ``NoMovesReceived`` says
so in the turn's events; with ``concede`` the other side wins at the end of the turn.
Both are ordinary lines of the orders text, so a replay of the turn file reproduces them.
"""

from __future__ import annotations

from ..model.events import NoMovesReceived, VictoryDeclared
from .context import TurnContext

STATEMENTS = ("nmr", "concede")
CONCESSION = "concession"          # VictoryDeclared.rule of a conceded game


def check_statements(ctx: TurnContext) -> None:
    """An ``nmr`` or ``concede`` line must be the only order of the turn (and only once);
    a concession needs exactly one other side to win."""
    items = ctx.orders.items
    for statement in ctx.orders.of(*STATEMENTS):
        others = [o for o in items if o is not statement]
        if others:
            ctx.error(statement.line, f"{statement.kind}_with_orders", count=len(others))
        if statement.kind == "concede" and _winner_of_concession(ctx) is None:
            ctx.error(statement.line, "concede_without_opponent")


def announce_statements(ctx: TurnContext) -> None:
    """The event of an ``nmr`` line (at the start of the turn, after ``TurnStarted``)."""
    for statement in ctx.orders.of("nmr"):
        ctx.emit(NoMovesReceived(ctx.power, statement.deadline))


def conceded_to(ctx: TurnContext) -> str | None:
    """The side that wins by this turn's concession (and emits ``VictoryDeclared``), or None."""
    if not ctx.orders.of("concede"):
        return None
    side = _winner_of_concession(ctx)
    if side is not None:
        ctx.emit(VictoryDeclared(side, CONCESSION, ()))
    return side


def _winner_of_concession(ctx: TurnContext) -> str | None:
    powers = ctx.game.ruleset.powers
    own = powers[ctx.power].side
    others = sorted({p.side for p in powers.values() if p.side != own})
    return others[0] if len(others) == 1 else None
