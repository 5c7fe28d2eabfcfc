"""Riding on an ally's ships (Global 1940 [L680, L1518, L1618], digest §4.4): units of one
power board another's transports or land on its carriers only while both are at war
(``WorkingBoard.shares``) and the ship's owner agrees: its standing order
``share <space|all>: yes|no`` (default yes: allies agree unless the owner says no; a
player who wants no passengers writes ``share all: no``)."""

from __future__ import annotations

from .turn_rules import declare_standing, standing_choice

SHARE = declare_standing(
    "share", "yes", ("yes", "no"),
    "Whether allies' units may board the power's transports and land on its carriers in a "
    "space: 'share all: no', 'share SZ 6: yes' (default yes; only while both are at war).")


def may_ride(ctx, ship, power: str) -> bool:
    """Whether ``power``'s units may ride on ``ship`` now: its own, or an ally's that both
    are at war and whose owner shares it there."""
    board = ctx.board
    if ship.owner == power:
        return True
    return board.shares(ship.owner, power) and \
        standing_choice(ctx, ship.owner, SHARE.name, ship.space) == "yes"
