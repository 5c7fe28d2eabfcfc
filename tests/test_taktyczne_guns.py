"""Taktyczne Starcie's long-range guns (issue 27): what the rules cases
(maps/taktyczne/cases/guns.txt) do not show one by one: the orders read and written back
for any target priority, the events through the turn file's codec and into words, and a
reaction shot fired in another player's turn through the game directory and the command
line, its standing order written in the gun owner's own earlier turn."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from adjudicator.io.codec import decode_event, encode_event
from adjudicator.io.kinds.lrg_react import react_value
from adjudicator.io.target_words import read_targets
from adjudicator.io.parser import format_orders, parse_orders, strip_positions
from adjudicator.model.ts_gun_orders import LrgFireOrder, react_priority, target_words
from adjudicator.model.ts_guns import LrgFired, LrgReactionFired
from adjudicator.present.taktyczne_war_report import war_lines
from adjudicator.present.wording import event_text
from adjudicator.service.games import load_game

WORDS = sorted(target_words())


@pytest.fixture(scope="module")
def game():
    return load_game("taktyczne")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(WORDS), min_size=0, max_size=6))
def test_any_priority_of_a_fire_line_reads_back_as_written(words):
    game = load_game("taktyczne")
    text = "fire lrg 22 at 23" + (": " + ", ".join(words) if words else "")
    orders = parse_orders(text, game, power="red")
    unique = read_targets(words) if words else ()
    assert orders.items == (LrgFireOrder("22", "23", unique, 1),)
    assert strip_positions(parse_orders(format_orders(orders, game), game, power="red")) \
        == strip_positions(orders)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(WORDS), min_size=0, max_size=6))
def test_a_reaction_value_is_canonical_and_its_words_come_back(words):
    value = react_value(["fire at " + words[0], *words[1:]] if words else ["fire"])
    assert react_priority(value) == (read_targets(words) if words else ())
    again = parse_orders(f"react lrg all: {value}", load_game("taktyczne"), power="red")
    assert [o.value for o in again.items] == [value]    # the canonical text reads as itself


def test_hold_and_the_spellings_of_fire():
    assert react_value(["Hold"]) == "hold" and react_priority("hold") is None
    assert react_value(["fire"]) == react_value(["always"]) == "fire"
    assert react_value(["fire at transports", "tank IV"]) == "fire at ferries, tank_4"
    with pytest.raises(ValueError, match="did you mean 'tanks'"):
        react_value(["fire at tnaks"])
    with pytest.raises(ValueError, match="takes no targets"):
        react_value(["hold", "tanks"])
    with pytest.raises(ValueError, match="not a target word"):
        react_priority("fire at dragons")


SHOTS = [
    LrgFired("red", "22", "23", "blue", "tank_1", 6, True, {}, 4),
    LrgFired("red", "23", "S07", "blue", "ferry", 6, True, {"tank_2": 1}, 1),
    LrgReactionFired("blue", "24", "23", "red", "tank_1", 2, False, "default: lrg_react fire"),
    LrgReactionFired("red", "23", "S07", "blue", "ferry", 6, True, "react lrg all: fire at ferries",
                     {"tank_3": 1}, True),
]


@pytest.mark.parametrize("event", SHOTS)
def test_the_events_go_through_the_turn_files_codec(event):
    assert decode_event(encode_event(event)) == event


def test_the_report_says_who_fired_at_what_and_why(game):
    assert event_text(SHOTS[0], game) == ("Red's long-range gun in 22 fires at Blue's Tank I in 23: "
                                          "rolls 6, hit: destroyed")
    assert event_text(SHOTS[2], game) == (
        "Blue's long-range gun in 24 fires at Red's Tank I entering 23: "
        "rolls 2, a miss (a 6 hits, L31.36)")
    assert event_text(SHOTS[3], game) == (
        "Red's long-range gun in 23 fires at Blue's Ferry entering S07 before it lands: "
        "rolls 6, hit: destroyed, with 1 Tank III aboard")
    assert event_text(LrgFired("red", "22", "23", "blue", "shipyard S07", 6, True), game) == (
        "Red's long-range gun in 22 fires at Blue's shipyard over S07 in 23: rolls 6, hit: destroyed")
    lines = [line for _title, _style, _indent, line in war_lines(game, SHOTS)]    # why: contract 5
    assert lines[lines.index(event_text(SHOTS[2], game)) + 1] == (
        "why: Blue wrote no standing order for it: the default (react lrg: fire)")
    assert lines[lines.index(event_text(SHOTS[3], game)) + 1] == (
        "why: Red's standing order «react lrg all: fire at ferries»")


POSITION = """
case lrg-e2e: blue's gun in 24 watches 23; red's tank in 22
power blue
position empty
owner 22: red
owner 24: blue
units 22: red 1 tank_1, 1 tank_2
units 24: blue 1 lrg
orders:
pass
end
expect valid
"""


def test_a_reaction_shot_fires_in_another_players_turn_by_the_command_line(game, tmp_path, capsys):
    """Blue writes its standing reaction in its own turn; in red's turn, processed by
    ``pbem process``, red's tank II enters 23 and blue's gun fires at it, by the target
    words of blue's order (the others pass between); the report says so and why, and ``pbem verify``
    replays the published turns."""
    from cli_helpers import pbem
    from adjudicator.io.rules_cases import parse_cases
    from adjudicator.service.gamedir import create_game, demo_seeds, process_turn
    from adjudicator.service.rules_cases import build_position
    state = build_position(game, parse_cases(POSITION)[0])
    create_game(tmp_path, game, "lrg", initial=attrs.evolve(state, game_id="lrg"),
                seeds=demo_seeds("lrg"), created="2026-11-27")
    done = process_turn(tmp_path, game, "react lrg 24: fire at tanks\n", seeds=demo_seeds("lrg"))
    while done.state.power != "red":                     # the others pass
        done = process_turn(tmp_path, game, "pass\n", seeds=demo_seeds("lrg"))
    bad = tmp_path / "bad.txt"                 # the orders checked say what is wrong, and why
    for text, said in (("fire lrg 22 at 24: tnaks\n", "did you mean 'tanks'"),
                       ("fire lrg 22 at 23\n", "no long-range gun of yours in 22")):
        bad.write_text(text, encoding="utf-8")
        code, out = pbem(capsys, "check", bad, "-g", tmp_path, "--no-color")
        assert code != 0 and said in " ".join(out.split()), out
    orders = tmp_path / "red.txt"
    orders.write_text("move 1 tank_2 22 -> 23\n", encoding="utf-8")
    code, out = pbem(capsys, "process", orders, "-g", tmp_path, "--no-color")
    assert code == 0, out
    said = " ".join(out.split())
    assert "Blue's long-range gun in 24 fires at Red's Tank II entering 23: rolls" in said, said
    assert "why: Blue's standing order «react lrg 24: fire at tanks»" in said, said
    code, out = pbem(capsys, "verify", "-g", tmp_path, "--no-color")
    assert code == 0, out


VALUE = {"tank_1": 2, "tank_2": 3, "at_gun": 2, "mine_land": 1}     # units.toml costs


def _position(game, guns: dict[str, tuple[str, int]], force: dict[str, int]):
    from adjudicator.io.rules_cases import parse_cases
    from adjudicator.service.rules_cases import build_position
    lines = ["case p: generated", "power red", "position empty", "owner 22: red"]
    for area, (owner, count) in guns.items():
        lines += [f"owner {area}: {owner}", f"units {area}: {owner} {count} lrg"]
    lines.append("units 22: red " + ", ".join(f"{n} {t}" for t, n in force.items()))
    lines += ["orders:", "pass", "end", "expect valid"]
    return build_position(game, parse_cases("\n".join(lines) + "\n")[0])


@settings(max_examples=25, deadline=None)
@given(guns=st.dictionaries(st.sampled_from(["21", "24", "26", "31"]),
                            st.tuples(st.sampled_from(["blue", "green"]), st.integers(1, 2)),
                            max_size=4),
       force=st.dictionaries(st.sampled_from(["tank_1", "tank_2", "at_gun", "mine_land"]),
                             st.integers(1, 2), min_size=1),
       seed=st.integers(0, 10_000))
def test_every_gun_in_range_fires_once_at_an_entering_unit_until_none_is_left(guns, force, seed):
    """Red's force enters the empty 23: each gun of blue and green in an area bordering it
    (21, 24, 26, 31 all do) fires once by the default, in area order, while any entering
    unit is left; every shot is at an entering unit, never a mine (L31.35, L31.41)."""
    from adjudicator.engine import adjudicate
    from adjudicator.model.dice import SeededDice
    assume(sum(VALUE[t] * n for t, n in force.items()) <= 12)        # the stack (L19.17)
    game = load_game("taktyczne")
    state = _position(game, guns, force)
    text = "move " + ", ".join(f"{n} {t}" for t, n in force.items()) + " 22 -> 23\n"
    result = adjudicate(game, state, parse_orders(text, game, power="red"), SeededDice(seed))
    shots = [e for e in result.events if isinstance(e, LrgReactionFired)]
    targets = sum(n for t, n in force.items() if t != "mine_land")
    hits = sum(1 for e in shots if e.hit)
    total = sum(n for _, n in guns.values())
    if hits < targets:                               # units left: every gun fired
        assert len(shots) == total
    else:                                            # none left: the last shot destroyed it
        assert len(shots) <= total and (not shots or shots[-1].hit)
    assert all(e.target in force and e.target != "mine_land" and e.mover == "red" for e in shots)
    assert hits <= targets
    assert [e.gun for e in shots] == sorted(e.gun for e in shots)
    assert all(e.standing == "default: lrg_react fire" for e in shots)


@settings(max_examples=25, deadline=None)
@given(units=st.dictionaries(st.sampled_from(["tank_1", "tank_3", "at_gun", "mine_land",
                                              "aa_gun_land", "fighter"]),
                             st.integers(1, 2), min_size=1),
       factory=st.booleans(),
       words=st.lists(st.sampled_from(WORDS), max_size=3),
       roll=st.integers(1, 6))
def test_a_shot_in_the_owners_turn_destroys_one_target_on_a_six_and_nothing_else(
        units, factory, words, roll):
    """Whatever stands in 23 and whatever priority is written: a 6 destroys exactly the one
    unit or object the event names, never a mine or an aircraft (L31.35); any other roll
    changes nothing (L31.36)."""
    from adjudicator.engine import adjudicate
    from adjudicator.io.rules_cases import parse_cases
    from adjudicator.model.dice import FixedDice
    from adjudicator.model.ts_objects import ObjectDestroyed
    from adjudicator.service.rules_cases import build_position
    assume(sum(VALUE.get(t, 6) * n for t, n in units.items()) <= 12)
    game = load_game("taktyczne")
    lines = ["case p: generated", "power red", "position empty", "owner 22: red",
             "owner 23: blue", "units 22: red 1 lrg",
             "units 23: blue " + ", ".join(f"{n} {t}" for t, n in units.items())]
    if factory:
        lines.append('state ts_objects: {"23": {"factory": 1}}')
    state = build_position(game, parse_cases("\n".join([*lines, "orders:", "pass", "end",
                                                        "expect valid"]) + "\n")[0])
    text = "fire lrg 22 at 23" + (": " + ", ".join(words) if words else "") + "\n"
    orders = parse_orders(text, game, power="red")
    shootable = {t: n for t, n in units.items() if t not in ("mine_land", "fighter")}
    if not shootable and not factory:
        return                                          # nothing to fire at: refused (case ts-lrg-04)
    result = adjudicate(game, state, orders, FixedDice([roll]))
    shot = next(e for e in result.events if isinstance(e, LrgFired))
    assert shot.roll == roll and shot.hit == (roll == 6)
    before = {(u.type) for u in state.units["23"]}
    after = sorted(u.type for u in result.state.units.get("23", ()))
    expected = sorted(t for t, n in units.items() for _ in range(n))
    destroyed = [e for e in result.events if isinstance(e, ObjectDestroyed)]
    if roll == 6 and shot.target in before:
        expected.remove(shot.target)
    assert shot.target not in ("mine_land", "fighter")
    assert after == expected
    assert [e.key for e in destroyed] == (["factory"] if roll == 6 and shot.target == "factory" else [])
