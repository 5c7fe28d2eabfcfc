"""Taktyczne Starcie's sealed mine layouts (docs/taktyczne-mines.md): the commitment is the
documented SHA-256, a reveal that does not open it is refused, and no file published before
the battle holds a square of the layout (properties); the engine's pause and reveal.  The
rules cases are maps/taktyczne/cases/mines.txt; the mail/CLI flow is tests/test_taktyczne_mines_cli.py."""

from __future__ import annotations

import hashlib
import json
import re
import secrets

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.engine import OrdersRejected, adjudicate, check
from adjudicator.io import codec
from adjudicator.io.parser import parse_orders
from adjudicator.io.rules_cases import read_cases
from adjudicator.model import mine_seal
from adjudicator.model.dice import SideDice
from adjudicator.model.ts_mines import (MineLayoutRevealed, MineRevealMissed, MineRevealWanted,
                                        MinesFired)
from adjudicator.service.games import load_game
from adjudicator.service.rules_cases import build_position

MINE_SQUARES = [f"{c}{r}" for c in "ABCDEFGHIJKLM" for r in range(4, 11)]     # own rows 4-10
salts = st.binary(min_size=32, max_size=32).map(bytes.hex)
layouts = st.lists(st.sampled_from(MINE_SQUARES), min_size=1, max_size=6, unique=True)


def test_the_commitment_is_the_documented_sha256():
    salt = "0f" * 32
    text = f"pbem mine layout\npower: blue\narea: all\nsquares: C5 C10 G4\nsalt: {salt}\n"
    expected = "sha256_" + hashlib.sha256(text.encode()).hexdigest()
    assert mine_seal.commitment("blue", None, ["g4", "C10", "C5"], salt) == expected


@settings(max_examples=200, deadline=None)
@given(layouts, salts, st.data())
def test_only_the_sealed_layout_opens_its_commitment(squares, salt, data):
    sealed = mine_seal.commitment("blue", "23", squares, salt)
    assert mine_seal.opens(sealed, "blue", "23", list(reversed(squares)), salt)
    other = data.draw(layouts.filter(lambda s: set(s) != set(squares)))
    assert not mine_seal.opens(sealed, "blue", "23", other, salt)
    assert not mine_seal.opens(sealed, "blue", "23", squares, data.draw(salts.filter(lambda s: s != salt)))
    assert not mine_seal.opens(sealed, "red", "23", squares, salt)
    assert not mine_seal.opens(sealed, "blue", None, squares, salt)
    assert not mine_seal.opens(sealed, "blue", "23", squares, "not hex")


@pytest.mark.parametrize("event", [
    MineRevealWanted("23", "blue", "23", "sha256_" + "a" * 64, 2, "minefield 23: sha256_" + "a" * 64),
    MineLayoutRevealed("23", "blue", "all", ("A10", "M10"), "b" * 64, "sha256_" + "a" * 64, "minefield all: x"),
    MineRevealMissed("23", "blue", 2),
    MinesFired("23", "blue", ("G5d",), ("tank_3",), "default: formation line"),
])
def test_mine_events_round_trip_through_the_turn_file_codec(event):
    assert codec.decode_event(json.loads(json.dumps(codec.encode_event(event)))) == event


# ---- the engine: an attack on an area with a sealed layout -----------------------------------

POSITION = """edition taktyczne
case sealed: an attack on a sealed minefield
power red
position empty
owner 22: red
owner 23: blue
units 22: red 2 tank_3
units 23: blue 1 tank_1, {mines} mine_land
standing blue: minefield {scope}: {sealed}
orders:
move 2 tank_3 22 -> 23
end
expect valid
"""


def attack(tmp_path, squares, salt, scope="23", mines=None):
    game = load_game("taktyczne")
    sealed = mine_seal.commitment("blue", None if scope == "all" else scope, squares, salt)
    path = tmp_path / "case.txt"
    path.write_text(POSITION.format(scope=scope, sealed=sealed, mines=mines or len(squares)))
    case = read_cases(path)[0]
    state = build_position(game, case)
    orders = parse_orders("move 2 tank_3 22 -> 23\n", game, power="red")
    return game, adjudicate(game, state, orders, SideDice(6, 1, 1))


def published(result, orders_text: str) -> str:
    """What the paused turn publishes: its state, events and the orders."""
    return (json.dumps(codec.encode_state(result.state)) + json.dumps(codec.encode_events(result.events))
            + orders_text)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(layouts, salts)
def test_no_published_file_holds_an_unfired_square(tmp_path, squares, salt):
    game, paused = attack(tmp_path, squares, salt)
    assert [e.kind for e in paused.events if isinstance(e, MineRevealWanted)] == ["ts_mine_reveal_wanted"]
    text = published(paused, "move 2 tank_3 22 -> 23\nminefield 23: "
                     + mine_seal.commitment("blue", "23", squares, salt))
    for square in squares:        # squares are upper case; digests and salts lower-case hex
        assert not re.search(rf"(?<![A-Za-z0-9]){square}(?![0-9])", text), square
    assert salt not in text
    assert paused.state.power == "blue"          # the defender sends the reveal next


def reveal(game, state, line: str):
    orders = parse_orders(line + "\n", game, power=state.power)
    return adjudicate(game, state, orders, SideDice(6, 1, 1))


def test_the_reveal_opens_the_commitment_and_the_battle_is_fought(tmp_path):
    salt = secrets.token_hex(32)
    game, paused = attack(tmp_path, ["A10", "M10"], salt)
    done = reveal(game, paused.state, f"reveal 23: A10 M10 salt_{salt}")
    kinds = [e.kind for e in done.events]
    assert "ts_mine_layout_revealed" in kinds and "ts_board_battle" in kinds
    assert kinds.index("ts_mine_layout_revealed") < kinds.index("ts_board_battle")
    assert "ts_mine_reveal" not in done.state.extras       # nothing waits any more
    battle = next(e for e in done.events if e.kind == "ts_board_battle")
    assert battle.attacker == "red" and battle.winner == "red"     # red's paused turn went on
    assert done.state.owners["23"] == "red"


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(layouts, salts, st.data())
def test_a_reveal_that_does_not_open_its_commitment_is_refused(tmp_path, squares, salt, data):
    game, paused = attack(tmp_path, squares, salt)
    other = data.draw(layouts.filter(lambda s: set(s) != set(squares)))
    with pytest.raises(OrdersRejected) as refused:
        reveal(game, paused.state, f"reveal 23: {' '.join(other)} salt_{salt}")
    assert [p.code for p in refused.value.problems if p.is_error] == ["ts_reveal_wrong"]


def test_the_reveal_names_the_scope_of_the_commitment(tmp_path):
    salt = "1" * 64
    game, paused = attack(tmp_path, ["B5"], salt, scope="all")
    assert paused.state.extras["ts_mine_reveal"]["scope"] == "all"
    problems = check(game, paused.state, parse_orders(f"reveal 23: B5 salt_{salt}\n", game, power="blue"))
    assert [p.code for p in problems if p.is_error] == ["ts_reveal_scope"]
    done = reveal(game, paused.state, f"reveal all: B5 salt_{salt}")
    assert any(isinstance(e, MineLayoutRevealed) and e.squares == ("B5",) for e in done.events)


def test_a_mine_that_fires_names_its_owner_and_the_standing_order(tmp_path):
    # every square of the column the first tank crosses is mined: it must enter one
    squares = [f"{c}{r}" for c in "ABCDEFGHIJKLM" for r in (10,)]
    salt = "2" * 64
    game, paused = attack(tmp_path, squares, salt, mines=13)
    done = reveal(game, paused.state, f"reveal 23: {' '.join(squares)} salt_{salt}")
    fired = [e for e in done.events if isinstance(e, MinesFired)]
    assert fired and fired[0].power == "blue" and fired[0].standing.startswith("minefield 23: sha256_")
    assert all(u == "tank_3" for u in fired[0].units)


def test_a_reveal_with_nothing_waiting_is_an_error(tmp_path):
    path = tmp_path / "case.txt"
    path.write_text("edition taktyczne\ncase quiet: nothing waits\npower red\nposition empty\n"
                    "owner 22: red\nexpect valid\n")
    game = load_game("taktyczne")
    state = build_position(game, read_cases(path)[0])
    orders = parse_orders(f"reveal 23: B5 salt_{'1' * 64}\n", game, power=state.power)
    assert "ts_reveal_not_wanted" in [p.code for p in check(game, state, orders)]


def test_a_revealed_layout_retires_its_standing_order(tmp_path):
    """The battle made the layout public: the standing minefield order is withdrawn after
    it (MinefieldRetired), so no later battle there re-reveals a known layout; the report
    says so and tells the owner to seal a new one."""
    from adjudicator.model.ts_mines import MinefieldRetired
    from adjudicator.present.wording import event_text
    for scope in ("23", "all"):
        salt = "3" * 64
        game, paused = attack(tmp_path, ["A10", "M10"], salt, scope=scope)
        assert paused.state.standing_orders["blue"].choice("minefield", "23") is not None
        done = reveal(game, paused.state, f"reveal {scope}: A10 M10 salt_{salt}")
        retired = [e for e in done.events if isinstance(e, MinefieldRetired)]
        assert [(e.area, e.power, e.scope, e.revealed) for e in retired] == [("23", "blue", scope, True)]
        assert retired[0].standing.startswith(f"minefield {scope}: sha256_")
        kinds = [e.kind for e in done.events]
        assert kinds.index("ts_board_battle") < kinds.index("ts_minefield_retired")
        assert done.state.standing_orders["blue"].choice("minefield", "23") is None
        text = event_text(retired[0], game)
        assert "revealed Blue's sealed mine layout" in text and "pbem mines seal" in text
        assert codec.decode_event(json.loads(json.dumps(codec.encode_event(retired[0])))) == retired[0]


def test_a_missed_reveal_keeps_the_standing_order(tmp_path):
    """Nothing was published (the mines are lost by the default): the order stays."""
    game, paused = attack(tmp_path, ["A10"], "4" * 64)
    done = reveal(game, paused.state, "nmr 2026-11-28T12:00Z")
    assert any(isinstance(e, MineRevealMissed) for e in done.events)
    assert not [e for e in done.events if e.kind == "ts_minefield_retired"]
    assert done.state.standing_orders["blue"].choice("minefield", "23") is not None
