"""``adjudicate`` does not check again orders its caller has just checked in the same
position (issue 11), and still never plays orders with an error."""

from __future__ import annotations

import pytest

from adjudicator.engine import turn
from adjudicator.engine.turn import OrdersRejected, adjudicate, check
from adjudicator.io.hmac_dice import HmacDice
from adjudicator.io.parser import parse_orders
from adjudicator.io.paths import TURNS_DIR
from adjudicator.service.games import initial_state, load_game

GAME = load_game("aa1941")
VALID = (TURNS_DIR / "aa1941-example" / "orders" / "01-ussr.txt").read_text(encoding="utf-8")
INVALID = "combat:\nmove 3 inf Karelia -> Germany\n"       # three spaces away


def dice():
    return HmacDice(bytes(32), "check-once", 1, bytes(32))


@pytest.fixture
def plays(monkeypatch):
    """Records each run of the turn's steps: 'check' or 'play'."""
    seen: list[str] = []
    real = turn._play

    def counting(game, state, orders, dice):
        seen.append("check" if dice is None else "play")
        return real(game, state, orders, dice)

    monkeypatch.setattr(turn, "_play", counting)
    turn._CHECKED.clear()
    return seen


def test_orders_just_checked_are_played_without_a_second_check(plays):
    state = initial_state(GAME, "g")
    orders = parse_orders(VALID, GAME, power=state.power)
    assert not [p for p in check(GAME, state, orders) if p.is_error]
    again = parse_orders(VALID, GAME, power=state.power)      # equal, not the same object
    result = adjudicate(GAME, initial_state(GAME, "g"), again, dice())
    assert plays == ["check", "play"]
    assert result.state.turn_number == state.turn_number + 1


def test_unchecked_orders_are_checked_first(plays):
    state = initial_state(GAME, "g")
    adjudicate(GAME, state, parse_orders(VALID, GAME, power=state.power), dice())
    assert plays == ["check", "play"]
    plays.clear()
    other = initial_state(GAME, "other-game")                # another position: checked
    adjudicate(GAME, other, parse_orders(VALID, GAME, power=other.power), dice())
    assert plays == ["check", "play"]


def test_invalid_orders_are_never_played(plays):
    state = initial_state(GAME, "g")
    bad = parse_orders(INVALID, GAME, power=state.power)
    assert any(p.is_error for p in check(GAME, state, bad))
    with pytest.raises(OrdersRejected):                       # checked, with errors
        adjudicate(GAME, state, bad, dice())
    check(GAME, state, parse_orders(VALID, GAME, power=state.power))
    turn._CHECKED[1:] = []                                    # only the valid orders remembered
    with pytest.raises(OrdersRejected):                       # different orders: checked again
        adjudicate(GAME, state, bad, dice())
    assert "play" not in plays


QUIET = "buy 2 inf\nnoncombat:\nmove 1 inf Karelia -> Archangel\nplace 2 inf Russia\n"
UNPLACED = "buy 2 inf\nnoncombat:\nmove 1 inf Karelia -> Archangel\n"   # placed for us


def _played_again(state, orders, problems):
    """The turn played as ``adjudicate`` plays a turn whose check it cannot reuse."""
    ctx = turn._play(GAME, state, orders, dice())
    return turn._result(ctx, state, list(problems))


def test_a_turn_without_battles_or_dice_is_played_once(plays):
    """Its check meets nothing that depends on the mode (``TurnContext.mode_dependent``):
    the check's board and events are the result, the same as playing the turn again."""
    state = initial_state(GAME, "g")
    orders = parse_orders(QUIET, GAME, power=state.power)
    result = adjudicate(GAME, state, orders, dice())
    assert plays == ["check"]
    assert result == _played_again(state, orders, result.problems)
    assert result.state.units["Archangel"] != state.units["Archangel"]   # the move was made


def test_a_turn_whose_check_asked_the_mode_is_played_again(plays):
    """Units bought and not placed: the check warns, the play places them (it asks
    ``checking``), so the check's result is not kept."""
    state = initial_state(GAME, "g")
    orders = parse_orders(UNPLACED, GAME, power=state.power)
    result = adjudicate(GAME, state, orders, dice())
    assert plays == ["check", "play"]
    assert [p.code for p in result.problems] == ["units_not_placed"]
    assert result == _played_again(state, orders, result.problems)


def test_a_turn_with_a_battle_is_played_again(plays):
    state = initial_state(GAME, "g")
    result = adjudicate(GAME, state, parse_orders(VALID, GAME, power=state.power), dice())
    assert plays == ["check", "play"]
    assert any(type(e).__name__ == "DiceRolled" for e in result.events)
