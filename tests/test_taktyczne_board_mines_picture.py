"""A board battle's mines once it has ended (issue 27): the board reveals the mines that did
not go off (``MinesRevealed``, just before ``BoardBattleEnded``), so no layout stays secret
after its battle; the picture shows each mine where it went off and, in the last frame,
the revealed ones; before the end only the count of hidden mines is shown.  The replay
text says it too."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import attrs

from board_battle_helpers import FORCES, PLANS, RULES, fought_battle

from adjudicator.engine.tactical.geometry import own_square
from adjudicator.model.tactical import (
    DEFENDER, BattlePlan, BoardBattleEnded, MineExploded, MinesRevealed, square_name,
)
from adjudicator.present.board_battle_replay import replay_lines
from adjudicator.present.board_battle_svg import board_replay_svg


def frames(svg: str):
    return [e for e in ET.fromstring(svg).iter() if e.get("class") == "frame"]


def mines_of(frame, cls: str):
    return {(e.get("data-square"), e.get("data-side")) for e in frame.iter() if (e.get("class") or "") == cls}


def test_the_mines_left_are_revealed_just_before_the_battle_ends():
    event, finished = fought_battle(3)                       # one mine goes off, one is left
    gone_off = {ev.square for ev in event.board_events if isinstance(ev, MineExploded)}
    left = {square_name(RULES, sq) for sq in finished.mines[DEFENDER]}
    assert gone_off and left and not gone_off & left
    *_, revealed, ended = event.board_events
    assert isinstance(ended, BoardBattleEnded)
    assert revealed == MinesRevealed(DEFENDER, tuple(sorted(left)))


def test_the_plans_own_squares_are_the_ones_revealed():
    plans = {**PLANS, DEFENDER: BattlePlan(formation="wedge", mines=("C5", "H9"))}
    event, _ = fought_battle(4, plans=plans)
    shown = {name for ev in event.board_events if isinstance(ev, (MinesRevealed, MineExploded))
             for name in (ev.squares if isinstance(ev, MinesRevealed) else (ev.square,))}
    assert shown == {square_name(RULES, own_square(RULES, DEFENDER, s)) for s in ("C5", "H9")}


def test_mines_cleared_by_the_attacker_are_revealed_too():
    event, _ = fought_battle(1)                              # the attacker reaches rows 1-3
    assert event.board_events[-1].reason == "mines_cleared"
    assert [ev.squares for ev in event.board_events if isinstance(ev, MinesRevealed)] == [("F5d",)]


def test_a_sealed_live_layouts_unopened_mines_stay_sealed_at_the_end():
    """In a live battle on a layout sealed square by square the mines not yet opened stand
    off the board (``sealed_board.placeholders``): the end reveals the known squares only,
    never a placeholder (docs/taktyczne-mines.md §3: an unfired square is never published)."""
    from adjudicator.engine.taktyczne.sealed_board import placeholders
    _, finished = fought_battle(3)
    left = {square_name(RULES, sq) for sq in finished.mines[DEFENDER]}
    finished.events = []
    finished.mines[DEFENDER] |= placeholders(2)
    finished._reveal_mines()
    assert finished.events == [MinesRevealed(DEFENDER, tuple(sorted(left)))]
    finished.events, finished.mines[DEFENDER] = [], placeholders(2)
    finished._reveal_mines()
    assert finished.events == []


def test_a_battle_without_mines_reveals_nothing():
    event, _ = fought_battle(3, forces={**FORCES, DEFENDER: attrs.evolve(FORCES[DEFENDER], mines=0)})
    assert not [ev for ev in event.board_events if isinstance(ev, MinesRevealed)]


def test_the_last_frame_shows_the_revealed_mines_and_no_frame_before_does():
    event, finished = fought_battle(3)
    *before, last = frames(board_replay_svg(RULES, event.board_events, "t"))
    left = {(square_name(RULES, sq), DEFENDER) for sq in finished.mines[DEFENDER]}
    assert mines_of(last, "mine unfired") == left
    assert mines_of(last, "mine revealed") == {(ev.square, DEFENDER) for ev in event.board_events
                                                if isinstance(ev, MineExploded)}
    assert "hidden mines" not in "".join(last.itertext())
    assert not any(mines_of(frame, "mine unfired") for frame in before)
    assert any("hidden mines: attacker 0, defender 2" in "".join(f.itertext()) for f in before)


def test_the_replay_text_names_the_revealed_squares():
    event, finished = fought_battle(3)
    lines = [text for _style, text in replay_lines(event, RULES, str)]
    left = ", ".join(sorted(square_name(RULES, sq) for sq in finished.mines[DEFENDER]))
    assert f"the battle is over: the mines of the defender (bob) that did not go off are revealed on {left}" in lines
