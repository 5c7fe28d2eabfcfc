"""Live-by-mail board battles as values (issue 26): a side's battle-turn order and the
battle a paused main turn waits for (``LiveBattle``, in ``model.live_battle_state``).

A live battle is played battle turn by battle turn, each a small turn file of the game's
hash chain whose orders are one side's ``board`` lines (``BoardAction``); between those
files the battle waits in ``GameState.extras`` as a ``LiveBattle`` (written as plain JSON
by ``engine.taktyczne.live``).  Squares are whole-board names (``C3a``: the attacker's
row 3, ``C8d``: the defender's), as the board's events write them.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .order_base import Order

MAX_PATH = 10          # squares in one written path (the rules allow 4 moves: more is an error)


@attrs.frozen(repr=False)
class BoardAction(Order):
    """``board T1 -> C4a C5a, fire at t9 2 shots, then C6a``: one unit's action in a live
    battle turn (``engine.tactical.battle.BoardBattle.act``): move along ``before``, fire
    at ``target`` up to ``shots`` (None: all it has), move on along ``after``."""

    kind: ClassVar[str] = "board"
    piece: str
    before: tuple[str, ...] = ()
    target: str | None = None
    shots: int | None = None
    after: tuple[str, ...] = ()
    line: int = 0


@attrs.frozen(repr=False)
class LiveOrder(Order):
    """``live 34``: the board battle this turn's attack on ``space`` starts is played live
    by mail, battle turn by battle turn (without it, by the plans; the game's option
    ``live_battles`` makes every board battle live)."""

    kind: ClassVar[str] = "live"
    space: str
    line: int = 0


def __getattr__(name: str):
    """``LiveBattle`` lives in ``model.live_battle_state`` (with the board it needs), so that
    reading a ``board`` or ``live`` order makes no board classes; it is still found here."""
    if name == "LiveBattle":
        from .live_battle_state import LiveBattle
        return LiveBattle
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
