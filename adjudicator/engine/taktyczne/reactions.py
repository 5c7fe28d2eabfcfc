"""Reactions in the mover's turn by the other players (issue 27, plan contract 2): what
happens when the mover's units enter an area, fired by the main turn at each entry.

A reaction registers under the event it answers::

    @reaction("enter")
    def lrg_fire(ctx, mover, area, pieces, before_unload): ...

``run_reactions(ctx, "enter", mover, area, pieces, before_unload)`` is called by
``main_turn`` after every move into an area with no other player's units (L31.38), after
the survivors of a won attack stand in the area they took (the battle is over, L31.39), and
for a ferry entering a sea (``before_unload``: it carries land units that have not landed
yet, L31.40).  Reactions run in the order they were registered; each decides by its owner's
standing orders (plan contract 5: its events say which).  A reaction may remove pieces of
``pieces``; the ones left are the mover's.  They run while orders are only checked too: a
reaction that rolls dice returns when ``ctx.checking`` (after finding that it would act, so
that a turn where nothing reacts stays independent of the mode, ``TurnContext.mode_dependent``).
"""

from __future__ import annotations

from collections.abc import Callable

from ..context import TurnContext
from ..working import Piece

Reaction = Callable[[TurnContext, str, str, list[Piece], bool], None]

EVENTS = ("enter",)
REACTIONS: dict[str, list[Reaction]] = {event: [] for event in EVENTS}


def reaction(event: str) -> Callable[[Reaction], Reaction]:
    """Registers a reaction to ``event`` (one of ``EVENTS``)."""
    if event not in REACTIONS:
        raise ValueError(f"unknown reaction event {event!r}: one of {', '.join(EVENTS)}")

    def register(function: Reaction) -> Reaction:
        if function not in REACTIONS[event]:
            REACTIONS[event].append(function)
        return function
    return register


def run_reactions(ctx: TurnContext, event: str, mover: str, area: str, pieces: list[Piece],
                  before_unload: bool = False) -> None:
    """Every reaction to ``event``: the mover's ``pieces`` entered ``area``; each sees the
    pieces still on the board, and none runs once none is left."""
    for function in REACTIONS[event]:
        alive = [p for p in pieces if ctx.board.pieces.get(p.uid) is p]
        if not alive:
            return
        function(ctx, mover, area, alive, before_unload)
