"""A live battle on a square-by-square sealed mine layout (docs/taktyczne-mines.md §3,
engine/taktyczne/sealed_live.py): the layout's leaves are published when the battle
starts, each attacker battle turn entering sealed squares waits for the owner to open
exactly those, and no published state, event or orders text holds an unfired square."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from adjudicator.engine import adjudicate, check
from adjudicator.io.codec import decode_event, decode_state, encode_event, encode_state
from adjudicator.io.kinds.open import leaves_line
from adjudicator.io.parser import parse_orders
from adjudicator.io.rules_cases import parse_cases
from adjudicator.model import mine_grid
from adjudicator.model.dice import FixedDice, SeededDice
from adjudicator.model.tactical import MineExploded, ShotFired
from adjudicator.model.taktyczne import BoardBattleFought
from adjudicator.model.ts_mines_live import (MineLeavesPublished, MineOpeningsMissed,
                                             MineSquaresOpened, MineSquaresWanted)
from adjudicator.present.wording import event_text
from adjudicator.service.games import load_game
from adjudicator.service.rules_cases import build_position

MASTER = "cd" * 32
NMR = "nmr 2026-11-28T12:00Z\n"
# the attacker's tank deploys on G3a (formation 'line') and walks up column G, 4 squares a
# battle turn: G4a-G7a, then G8a-G10a and the defender's G10 (G10d), then G9d, G8d...
PATHS = ["board a1 -> G4a G5a G6a G7a\n", "board a1 -> G8a G9a G10a G10d\n",
         "board a1 -> G9d G8d\n", "board a1 -> G7d G6d G5d G4d\n"]


def position(game, layout, red="1 tank_3", blue=None):
    text = f"""case live-grid: a live battle on a grid-sealed minefield
source docs/taktyczne-mines.md §3
power red
position empty
owner 22: red
owner 23: blue
units 22: red {red}
units 23: blue {blue or f"{len(layout)} mine_land"}
standing blue: minefield 23: {mine_grid.commitment("blue", "23", layout, MASTER)}
orders:
end
expect valid
"""
    return build_position(game, parse_cases(text)[0])


@pytest.fixture(scope="module")
def game():
    return load_game("taktyczne", options={"live_battles": True})


def play(game, state, text, seed=3):
    orders = parse_orders(text, game, power=state.power)
    problems = [p for p in check(game, state, orders) if p.is_error]
    assert problems == [], problems
    result = adjudicate(game, state, orders, SeededDice(seed))
    assert not [p for p in result.problems if p.is_error], result.problems
    events = tuple(decode_event(encode_event(e)) for e in result.events)
    assert events == result.events
    return decode_state(encode_state(result.state)), events


def leaves_text(layout) -> str:
    leaves = mine_grid.leaves("blue", "23", layout, MASTER)
    return "".join(leaves_line("23", c, leaves[i * 7:(i + 1) * 7]) + "\n"
                   for i, c in enumerate(mine_grid.COLUMNS))


def openings_text(squares, layout) -> str:
    return "".join(f"open 23: {s} {'mine' if s in layout else 'empty'} "
                   f"salt_{mine_grid.square_salt(MASTER, s)}\n" for s in squares)


def reached(game, state, layout) -> tuple[str, ...]:
    """What the owner's program opens: the wanted squares the units reach, none past a mine
    (service.mine_openings, with the whole layout known)."""
    from adjudicator.service.mine_openings import _reached
    opening = state.extras["ts_mine_openings"]
    sealed = state.extras["live_battle"]["sealed"]
    return _reached(game.tables["board"], state, opening, sealed, opening["squares"], set(layout))


def run_battle(game, layout, answer=True):
    """Attack, publish the leaves, walk up column G answering every request; yields each
    turn file's (orders text, state, events)."""
    state, events = play(game, position(game, layout), "move 1 tank_3 22 -> 23\n")
    yield "move 1 tank_3 22 -> 23\n", state, events
    text = leaves_text(layout)
    state, events = play(game, state, text)
    yield text, state, events
    for path in PATHS:
        if "live_battle" not in state.extras:
            return
        state, events = play(game, state, path)
        yield path, state, events
        wanted = next((e for e in events if isinstance(e, MineSquaresWanted)), None)
        if wanted is not None:
            text = openings_text(reached(game, state, layout), layout) if answer else NMR
            state, events = play(game, state, text)
            yield text, state, events
        if "live_battle" in state.extras:
            state, events = play(game, state, NMR)           # the defender has no units
            yield NMR, state, events


def test_the_attacker_runs_onto_a_sealed_mine(game):
    files = list(run_battle(game, ("G9", "B5")))
    events = [e for _, _, evs in files for e in evs]
    published = next(e for e in events if isinstance(e, MineLeavesPublished))
    assert (published.area, published.power, published.mines) == ("23", "blue", 2)
    assert [e.squares for e in events if isinstance(e, MineSquaresWanted)] == [("G10",), ("G9", "G8")]
    opened = [e for e in events if isinstance(e, MineSquaresOpened)]
    assert [(e.squares, e.mined) for e in opened] == [(("G10",), ()), (("G9",), ("G9",))]
    fought = next(e for e in events if isinstance(e, BoardBattleFought))
    assert fought.live and fought.winner == "blue"
    assert [ev.square for ev in fought.board_events if isinstance(ev, MineExploded)] == ["G9d"]
    state = files[-1][1]
    assert [u.type for u in state.units["23"]] == ["mine_land"]     # B5's mine stays
    assert "22" not in state.units or not state.units["22"]
    assert "opens the sealed squares" in event_text(opened[1], game)
    for e in (published, opened[0]):
        assert event_text(e, game)


def test_a_wrong_opening_is_refused(game):
    files = run_battle(game, ("G10",))
    for text, state, events in files:
        if any(isinstance(e, MineSquaresWanted) for e in events):
            break
    lie = openings_text(("G10",), ())           # says G10 is empty: it is mined
    orders = parse_orders(lie, game, power=state.power)
    assert [p.code for p in check(game, state, orders) if p.is_error] == ["ts_open_wrong"]
    other = parse_orders("board a1 -> G4a\n", game, power=state.power)
    assert "ts_open_other_orders" in [p.code for p in check(game, state, other) if p.is_error]


def test_a_missed_opening_loses_the_sealed_mines(game):
    files = list(run_battle(game, ("G10", "B5"), answer=False))
    events = [e for _, _, evs in files for e in evs]
    missed = next(e for e in events if isinstance(e, MineOpeningsMissed))
    assert (missed.power, missed.count, missed.standing) == ("blue", 2, "default: mines_lost")
    fought = next(e for e in events if isinstance(e, BoardBattleFought))
    assert fought.winner == "red"
    assert not [ev for ev in fought.board_events if isinstance(ev, MineExploded)]
    assert files[-1][1].owners["23"] == "red"


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sets(st.sampled_from(mine_grid.SQUARES), min_size=1, max_size=4))
def test_no_published_file_holds_an_unfired_square(game, layout):
    """Every turn file of the battle (orders text, events, state) names no square of the
    layout before its mine went off: not as a board square in an event or the state, not as
    a coordinate in the kept position, not by its salt or an opening; the master salt is
    never published."""
    fired: set[str] = set()
    layout = tuple(sorted(layout))
    secrets = {s: mine_grid.square_salt(MASTER, s) for s in layout}
    for text, state, events in run_battle(game, layout):
        fired |= {ev.square[:-1] for e in events if isinstance(e, BoardBattleFought)
                  for ev in e.board_events if isinstance(ev, MineExploded)}
        fired |= {ev.square[:-1] for e in events if hasattr(e, "board_events")
                  for ev in e.board_events if isinstance(ev, MineExploded)}
        kept = copy.deepcopy(encode_state(state))
        # the waiting battle turn's lines are the attacker's own paths, not what they meet
        kept.get("extras", {}).get("ts_mine_openings", {}).pop("actions", None)
        results = json.dumps([encode_event(e) for e in events]) + json.dumps(kept)
        published = text + results
        assert MASTER not in published
        kept = state.extras.get("live_battle", {}).get("battle", {}).get("position", {})
        for side, squares in kept.get("mines", []):
            for column, row in squares:
                if column >= 0:
                    assert f"{chr(65 + column)}{20 - row}" in fired
        for square in layout:
            if square not in fired:
                assert secrets[square] not in published
                assert f"{square}d" not in results      # (the attacker writes his own paths)
                assert f"{square} mine" not in published


def test_the_defender_opens_the_sealed_squares_his_own_units_enter(game):
    """L31.53: his units never enter his own mined squares; the engine knows them only
    opened, so his battle turn opens (as empty) each sealed square his paths enter."""
    layout = ("G4", "B5")
    state = position(game, layout, blue="1 tank_1, 2 mine_land")
    state, _ = play(game, state, "move 1 tank_3 22 -> 23\n")
    state, _ = play(game, state, leaves_text(layout))
    state, _ = play(game, state, "board a1 -> G4a\n")           # enters no sealed square

    def errors(text):
        orders = parse_orders(text, game, power=state.power)
        return [p.code for p in check(game, state, orders) if p.is_error]

    assert errors("board d1 -> F3d F4d\n") == ["ts_open_missing"]
    assert errors("board d1 -> G4d\n" + openings_text(("G4",), layout)) == ["ts_open_own_mine"]
    assert errors("board d1 -> G4d\n" + openings_text(("G4",), ())) == ["ts_open_wrong"]
    state, events = play(game, state, "board d1 -> F3d F4d\n" + openings_text(("F4",), layout))
    assert [e.turn for e in events if e.kind == "ts_live_battle_turn"] == [2]
    assert state.extras["live_battle"]["sealed"]["opened"] == {"F4": False}


def test_a_missed_opening_after_a_mine_went_off_loses_only_the_sealed_ones(game):
    """Three sealed mines; G10's goes off under a1; then blue misses the opening a2's path
    needs: the two still sealed are lost (default mines_lost), the spent one is spent, so
    the area keeps none of the three."""
    layout = ("G10", "F5", "B5")
    state = position(game, layout, red="2 tank_3")
    state, _ = play(game, state, "move 2 tank_3 22 -> 23\n")
    state, _ = play(game, state, leaves_text(layout))
    state, _ = play(game, state, "board a1 -> G4a G5a G6a G7a\nboard a2 -> F4a F5a F6a F7a\n")
    state, _ = play(game, state, NMR)
    state, _ = play(game, state, "board a1 -> G8a G9a G10a G10d\n")
    state, events = play(game, state, openings_text(("G10",), layout))
    assert [ev.square for e in events if e.kind == "ts_live_battle_turn"
            for ev in e.board_events if isinstance(ev, MineExploded)] == ["G10d"]
    state, _ = play(game, state, NMR)
    state, events = play(game, state, "board a2 -> F8a F9a F10a F10d\n")
    assert [e.squares for e in events if isinstance(e, MineSquaresWanted)] == [("F10",)]
    state, events = play(game, state, NMR)
    missed = next(e for e in events if isinstance(e, MineOpeningsMissed))
    assert missed.count == 2
    fought = next(e for e in events if isinstance(e, BoardBattleFought))
    assert fought.winner == "red" and state.owners["23"] == "red"
    assert not [u for u in state.units.get("23", ()) if u.type == "mine_land"]


def test_the_owner_opens_no_square_past_a_mine(game):
    """a1's path G9d G8d meets the mine on G9 first: G8 is never reached, so it need not be
    opened (nor may the walk go on without G9)."""
    layout = ("G9", "G8")
    for text, state, events in run_battle(game, layout):
        if any(isinstance(e, MineSquaresWanted) and e.squares == ("G9", "G8") for e in events):
            break
    assert reached(game, state, layout) == ("G9",)

    def errors(text):
        orders = parse_orders(text, game, power=state.power)
        return [p.code for p in check(game, state, orders) if p.is_error]

    assert errors(openings_text(("G9",), layout)) == []
    assert errors(openings_text(("G8",), layout)) == ["ts_open_missing"]
    assert errors(openings_text(("G9", "G8"), layout)) == []     # more than needed: allowed


def _to_the_duel(game, layout):
    """Red's tank on G10d (G10 opened empty), blue's tank on G5d (his F4, F5, G5 opened
    empty), red to play battle turn 5."""
    state = position(game, layout, blue="1 tank_1, 2 mine_land")
    for text in ("move 1 tank_3 22 -> 23\n", leaves_text(layout), PATHS[0],
                 "board d1 -> F3d F4d F5d G5d\n" + openings_text(("F4", "F5", "G5"), layout),
                 PATHS[1], openings_text(("G10",), layout), "pass\n"):
        state, _ = play(game, state, text)
    return state


def _adjudicated(game, state, text, faces):
    orders = parse_orders(text, game, power=state.power)
    result = adjudicate(game, state, orders, FixedDice(faces))
    assert not [p for p in result.problems if p.is_error], result.problems
    return result.state, result.events


def test_a_square_after_a_units_fire_is_asked_for_only_if_it_survives_the_fire_back(game):
    """a1 fires 3 shots at d1 (all miss), d1 fires back and destroys it: its path after
    the fire (G9d, G8d: G9 holds a mine) is never walked, so nothing is asked of the owner
    and the mine on G9 stays sealed; the battle turn is played in red's own file."""
    layout = ("G9", "B5")
    state = _to_the_duel(game, layout)
    after, events = _adjudicated(game, state, "board a1, fire at d1, then G9d G8d\n", [1, 1, 1, 6])
    assert not [e for e in events if isinstance(e, MineSquaresWanted)]
    fought = next(e for e in events if isinstance(e, BoardBattleFought))
    assert fought.winner == "blue" and not [ev for ev in fought.board_events
                                            if isinstance(ev, MineExploded)]
    published = json.dumps([encode_event(e) for e in events]) + json.dumps(encode_state(after))
    assert mine_grid.square_salt(MASTER, "G9") not in published and "G9d" not in published


def test_a_unit_that_survives_its_fire_goes_on_and_the_owner_opens_what_it_reaches(game):
    """The same line, d1's fire back missing: the battle turn waits with the dice rolled in
    red's file kept; the owner's program, playing them with the whole layout, opens G9 (the
    mine) and not G8 past it; the mine then destroys a1."""
    layout = ("G9", "B5")
    state = _to_the_duel(game, layout)
    state, events = _adjudicated(game, state, "board a1, fire at d1, then G9d G8d\n", [1, 1, 1, 1])
    assert [e.squares for e in events if isinstance(e, MineSquaresWanted)] == [("G9", "G8")]
    assert state.extras["ts_mine_openings"]["dice"] == [1, 1, 1, 1]   # the most: 3 shots, 1 back
    assert reached(game, state, layout) == ("G9",)
    state, events = play(game, state, openings_text(("G9",), layout))
    fought = next(e for e in events if isinstance(e, BoardBattleFought))
    assert [ev.square for ev in fought.board_events if isinstance(ev, MineExploded)] == ["G9d"]
    assert [ev.roll for ev in fought.board_events if getattr(ev, "turn", 0) == 5
            and isinstance(ev, ShotFired)] == [1, 1, 1, 1]         # the kept dice


def test_a_missed_attacker_battle_turn_over_sealed_mines_plays_his_plan(game):
    """Red misses battle turn 3: his plan (advance) plays it, as in a battle without sealed
    mines; its tank reaches sealed squares, so the battle turn waits for the owner, whose
    program opens what the plan's units reach; the battle turn is then the plan's."""
    layout = ("G10", "B5")
    state = position(game, layout)
    for text in ("move 1 tank_3 22 -> 23\n", leaves_text(layout), PATHS[0], NMR):
        state, _ = play(game, state, text)
    state, events = play(game, state, NMR)                  # red's battle turn 3, missed
    wanted = [e for e in events if isinstance(e, MineSquaresWanted)]
    assert len(wanted) == 1 and state.extras["ts_mine_openings"].get("by_plan") is True
    opened = reached(game, state, layout)
    assert opened and opened[-1] == "G10"        # the plan's tank walks up to the mine
    state, events = play(game, state, openings_text(opened, layout))
    turn = next(e for e in events if e.kind == "ts_live_battle_turn")
    assert turn.by_plan and turn.turn == 3
    assert [ev.square for ev in turn.board_events if isinstance(ev, MineExploded)] == ["G10d"]


def test_a_live_battle_on_a_sealed_layout_retires_its_standing_order(game):
    """Its leaves and some squares were published: after the battle the minefield order is
    withdrawn (not revealed whole), as the report says."""
    from adjudicator.model.ts_mines import MinefieldRetired
    files = list(run_battle(game, ("G9", "B5")))
    assert files[0][1].standing_orders["blue"].choice("minefield", "23") is not None
    events = [e for _, _, evs in files for e in evs]
    retired = [e for e in events if isinstance(e, MinefieldRetired)]
    assert [(e.area, e.power, e.scope, e.revealed) for e in retired] == [("23", "blue", "23", False)]
    assert files[-1][1].standing_orders["blue"].choice("minefield", "23") is None
    assert "opened squares of Blue's sealed mine layout" in event_text(retired[0], game)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.integers(1, 6), min_size=4, max_size=4))
def test_the_owner_is_asked_for_the_square_after_a_fire_only_when_the_unit_survives(game, faces):
    """Whatever the dice: a1 fires (3 shots, a 6 hits) at d1, which fires back once if it
    survives; a1's path after the fire enters G9 (a mine). The battle turn waits for the
    owner exactly when a1 survives, and then the owner opens G9 alone."""
    layout = ("G9", "B5")
    state = _to_the_duel(game, layout)
    after, events = _adjudicated(game, state, "board a1, fire at d1, then G9d G8d\n", faces)
    killed_d1 = 6 in faces[:3]
    survives = killed_d1 or faces[3] < 6
    assert bool([e for e in events if isinstance(e, MineSquaresWanted)]) == survives
    if survives:
        assert reached(game, after, layout) == ("G9",)
        assert after.extras["ts_mine_openings"]["dice"] == faces


def test_kept_dice_that_run_short_are_an_error_for_people(game, tmp_path, monkeypatch):
    """A damaged state (the waiting battle turn's dice cut short) is refused with a message
    by the owner's program and by the engine, never a traceback."""
    import attrs as _attrs
    from adjudicator.model.errors import PbemError
    from adjudicator.service import mine_openings
    layout = ("G9", "B5")
    state = _to_the_duel(game, layout)
    state, _ = _adjudicated(game, state, "board a1, fire at d1, then G9d G8d\n", [1, 1, 1, 1])
    extras = copy.deepcopy(state.extras)
    extras["ts_mine_openings"]["dice"] = [1]
    damaged = _attrs.evolve(state, extras=extras)
    monkeypatch.setattr(mine_openings, "_layout", lambda *args: {         # blue's .secret/
        "scope": "23", "squares": list(layout), "salt": MASTER})
    assert " G9 mine " in mine_openings.waiting_text(tmp_path, state, "blue", game.tables["board"])[0]
    with pytest.raises(PbemError, match="cannot be read"):
        mine_openings.waiting_text(tmp_path, damaged, "blue", game.tables["board"])
    orders = parse_orders(openings_text(("G9",), layout), game, power="blue")
    assert [p.code for p in check(game, damaged, orders) if p.is_error] == ["board_live_state"]
