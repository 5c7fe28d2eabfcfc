"""Taktyczne Starcie's air strike (issue 27; engine/taktyczne/air_strike.py): what the rules
cases (maps/taktyczne/cases/air-strike.txt) do not show one by one: the invariants of any
strike under any dice (at most four battle turns, four bombs a bomber, the text's order of
fire in every battle turn, every aircraft lost or home, never a mine or an aircraft bombed),
the events through the codec and into the report's words, and the command line end to end
(a game made, a strike processed, the report saying why the defender fired, verify)."""

from __future__ import annotations

from collections import Counter

import attrs
import pytest
from hypothesis import given, settings, strategies as st

from adjudicator.engine.turn import adjudicate, check
from adjudicator.io.codec import decode_events, encode_events
from adjudicator.io.parser import parse_orders
from adjudicator.model.dice import SeededDice
from adjudicator.model.state import GameState, Unit
from adjudicator.model.ts_strike import (AA, BOMBERS, FIGHTERS, StrikeEnded, StrikeHome,
                                         StrikeLaunched, StrikeVolley)
from adjudicator.present.taktyczne_war_report import war_lines
from adjudicator.present.wording import event_text
from adjudicator.service.games import load_game

ORDER = {(AA, "blue"): 0, (FIGHTERS, "red"): 1, (FIGHTERS, "blue"): 2, (BOMBERS, "red"): 3}


@pytest.fixture(scope="module")
def game():
    return load_game("taktyczne", {"players": 2})


def _state(attack: dict[str, int], defence: dict[str, int]) -> GameState:
    return GameState(
        game_id="s", map_id="taktyczne", round=1, power="red",
        owners={"32": "red", "34": "blue", "25": "blue"}, ipcs={"red": 0, "blue": 0},
        units={"32": tuple(Unit(t, "red") for t, n in attack.items() for _ in range(n)),
               "34": tuple(Unit(t, "blue") for t, n in defence.items() for _ in range(n)),
               "25": (Unit("tank_1", "blue"),)},
        extras={"ts_objects": {"32": {"airfield": 1}, "34": {"airfield": 1, "factory": 1}}})


@settings(max_examples=40, deadline=None)
@given(bombers=st.integers(0, 3), fighters=st.integers(0, 4), aa=st.integers(0, 4),
       dfighters=st.integers(0, 2), tanks=st.integers(0, 3), mines=st.integers(0, 2),
       seed=st.integers(0, 10_000))
def test_any_strike_keeps_the_texts_rules(game, bombers, fighters, aa, dfighters, tanks, mines,
                                          seed):
    if bombers + fighters == 0 or 4 * bombers + 3 * fighters > 12:
        return
    attack = {"bomber": bombers, "fighter": fighters}
    defence = {"aa_gun_land": aa, "fighter": dfighters, "tank_1": tanks, "mine_land": mines}
    state = _state({k: v for k, v in attack.items() if v}, {k: v for k, v in defence.items() if v})
    groups = ", ".join(f"{n} {t}" for t, n in attack.items() if n)
    orders = parse_orders(f"strike 34: {groups} 32 -> 34\n", game, power="red")
    assert [p for p in check(game, state, orders) if p.is_error] == []
    result = adjudicate(game, state, orders, SeededDice(seed))
    volleys = [e for e in result.events if isinstance(e, StrikeVolley)]
    ended = next(e for e in result.events if isinstance(e, StrikeEnded))
    assert 1 <= ended.turns <= 4                                           # L23.52
    if bombers == 0:
        assert ended.turns == 1                                            # a sweep, G21
    for turn in range(1, ended.turns + 1):                                 # L23.63-L23.64
        arms = [ORDER[(v.arm, v.power)] for v in volleys if v.turn == turn]
        assert arms == sorted(arms)
    bombs = sum(len(v.shots) for v in volleys if v.arm == BOMBERS)
    assert bombs <= 4 * bombers                                            # L23.31
    for v in volleys:                                                      # one attack a unit
        assert len(v.shots) <= {AA: aa, BOMBERS: bombers}.get(v.arm, fighters + dfighters)
        assert all(s.hit == (s.roll == 6 if s.needed == "6" else s.roll % 2 == 0) for s in v.shots)
    home = Counter()
    for e in result.events:
        if isinstance(e, StrikeHome):
            home.update(e.units)
    assert home + Counter(ended.lost) == Counter({k: v for k, v in attack.items() if v})
    left = Counter(u.type for u in result.state.units.get("34", ()) if u.owner == "blue")
    assert left["mine_land"] == mines                                      # L23.7
    assert decode_events(encode_events(result.events)) == result.events
    assert all(event_text(e, game) for e in result.events)


def test_the_report_says_why_the_defender_fired(game):
    state = _state({"bomber": 1}, {"aa_gun_land": 2, "tank_1": 1})
    state = attrs.evolve(state, standing_orders={})
    orders = parse_orders("strike 34: 1 bomber 32 -> 34, stay 1\n", game, power="red")
    result = adjudicate(game, state, orders, SeededDice(3))
    launched = next(e for e in result.events if isinstance(e, StrikeLaunched))
    assert "Red strikes 34 held by Blue with 1 Bomber from 32 (32 -> 34, back 34 -> 32)" \
        in event_text(launched, game)
    aa = next(e for e in result.events if isinstance(e, StrikeVolley) and e.arm == AA)
    assert "Blue's AA guns" in event_text(aa, game)
    lines = [line for _title, _style, _indent, line in war_lines(game, result.events)]
    said = lines.index(event_text(aa, game))           # the report's line, then why (contract 5)
    assert lines[said + 1].startswith("why: Blue wrote no standing order for it: the default (air defence")


def test_a_strike_from_the_command_line(game, tmp_path, capsys):
    """pbem check refuses a route five areas out with the rule; pbem process plays a good
    one; the report shows the battle turns and why the defender fired; pbem verify replays."""
    from cli_helpers import pbem
    from adjudicator.service.gamedir import create_game, demo_seeds
    state = attrs.evolve(_state({"bomber": 3}, {"aa_gun_land": 1, "tank_1": 2}), game_id="air")
    create_game(tmp_path, game, "air", initial=state, seeds=demo_seeds("air"),
                created="2026-11-27")
    bad = tmp_path / "bad.txt"
    bad.write_text("strike 34: 3 bomber 32 -> 24 -> 23 -> 31 -> 33 -> 34\n", encoding="utf-8")
    code, out = pbem(capsys, "check", bad, "-g", tmp_path, "--no-color")
    assert code != 0 and "at most 4 bordering areas out" in " ".join(out.split())
    good = tmp_path / "good.txt"
    good.write_text("strike 34: 3 bomber 32 -> 34, target tanks and aa, stay 2\n", encoding="utf-8")
    code, out = pbem(capsys, "process", good, "-g", tmp_path, "--no-color")
    assert code == 0, out
    flat = " ".join(out.split())
    assert "Battle turn 1 over 34 Blue's AA gun fires at" in flat      # one gun, one shot
    assert "why: Blue wrote no standing order for it: the default (air defence" in flat
    assert "the strike on 34 ends after" in flat
    code, out = pbem(capsys, "verify", "-g", tmp_path, "--no-color")
    assert code == 0, out


@pytest.mark.parametrize("text, says", [
    ("strike 34: 1 bomber 32 -> 34, stay 5", "'stay' takes one number from 1 to 4"),
    ("strike 34: 1 bomber 32 -> 34, target factroy", "did you mean 'factory'"),
    ("air defence 34: target bombres", "did you mean 'bombers'"),
    ("strike 34: 1 bomber 32", "'->'"),
])
def test_a_strike_or_air_defence_that_cannot_be_read_says_why(game, text, says):
    from adjudicator.model.errors import PbemError
    with pytest.raises(PbemError) as caught:
        parse_orders(text + "\n", game, power="red")
    assert says in str(caught.value)


def test_strike_lines_read_and_write_back(game):
    from adjudicator.io.parser import format_orders, strip_positions
    text = ("strike 34: 2 bomber 22 -> 23 -> 34 -> 23 -> 22, target AA guns and tank IV, stay 2, "
            "return after 1 lost\nair defence all: target fighters; bombers hold\n")
    orders = parse_orders(text, game, power="red")
    strike, defence = orders.items
    assert (strike.target, strike.path, strike.priority, strike.stay, strike.leave_after) == (
        "34", ("22", "23", "34", "23", "22"), ("aa", "tank_4"), 2, 1)
    assert (defence.space, defence.value) == (None, "target fighters; bombers hold")
    again = parse_orders(format_orders(orders, game), game, power="red")
    assert strip_positions(again) == strip_positions(orders)
