"""The reaction hook of the Taktyczne Starcie main turn (issue 27, plan contract 2): a
reaction registered for "enter" runs at every entry and sees only the mover's pieces still
on the board."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from adjudicator.engine.taktyczne import reactions


class _Board:
    def __init__(self, pieces):
        self.pieces = {p.uid: p for p in pieces}


def _ctx(pieces):
    return SimpleNamespace(board=_Board(pieces))


@pytest.fixture
def registry(monkeypatch):
    table = {event: [] for event in reactions.EVENTS}
    monkeypatch.setattr(reactions, "REACTIONS", table)
    return table


def test_reactions_run_in_order_and_see_the_pieces_left(registry):
    a, b = SimpleNamespace(uid=1), SimpleNamespace(uid=2)
    ctx = _ctx([a, b])
    seen = []

    @reactions.reaction("enter")
    def first(ctx, mover, area, pieces, before_unload):
        seen.append(("first", mover, area, [p.uid for p in pieces], before_unload))
        del ctx.board.pieces[1]

    @reactions.reaction("enter")
    def second(ctx, mover, area, pieces, before_unload):
        seen.append(("second", [p.uid for p in pieces]))

    reactions.run_reactions(ctx, "enter", "red", "23", [a, b], before_unload=True)
    assert seen == [("first", "red", "23", [1, 2], True), ("second", [2])]


def test_no_reaction_when_every_piece_is_gone(registry):
    a = SimpleNamespace(uid=1)
    calls = []
    reactions.reaction("enter")(lambda *args: calls.append(args))
    reactions.run_reactions(_ctx([]), "enter", "red", "23", [a])
    assert calls == []


def test_an_unknown_event_is_refused():
    with pytest.raises(ValueError, match="unknown reaction event"):
        reactions.reaction("leave")
