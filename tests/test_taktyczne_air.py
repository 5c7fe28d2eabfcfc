"""Taktyczne Starcie's aircraft on the main map (issue 27, engine/taktyczne/air.py): the pieces
the rules cases (maps/taktyczne/cases/air.txt) do not show one by one: the bases and their
caps, the packing on carriers, the legs of a flight (a strike's target is not flown over),
the route an evacuation takes, the standing orders read and written, the events through the
codec, a property of every evacuation (no cap broken, no aircraft lost without an event),
and a game played by the command line with an air move that is shot at."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.engine.context import TurnContext
from adjudicator.engine.taktyczne import air
from adjudicator.engine.taktyczne.stacking import area_points, points
from adjudicator.engine.working import WorkingBoard
from adjudicator.io import codec
from adjudicator.io.parser import format_orders, parse_orders
from adjudicator.model.dice import FixedDice
from adjudicator.model.orders import EvacuateOrder, OrderSet, PatrolOrder, StandingOrders
from adjudicator.model.state import GameState, Unit
from adjudicator.model.ts_air import AircraftEvacuated, OverflightFire
from adjudicator.service import gamedir
from adjudicator.service.games import load_game
from cli_helpers import pbem
from test_taktyczne_edition import play as play_orders



@pytest.fixture(scope="module")
def game():
    return load_game("taktyczne")


def _ctx(game, units, owners, objects, dice=(), standing=None, power="red") -> TurnContext:
    state = GameState(game_id="t", map_id="taktyczne", round=1, power=power, owners=owners,
                      ipcs={"red": 0, "blue": 0}, units=units,
                      extras={"ts_objects": objects})
    return TurnContext(game, WorkingBoard(game, state), OrderSet(power), "play",
                       standing_orders=standing or {}, dice=FixedDice(list(dice)) if dice else None)


def _planes(ctx, space, owner="red"):
    return air.based(ctx.board, space, owner)


# ---------------------------------------------------------------------------------- bases

def test_bases_are_own_airfields_and_carrier_seas_with_their_room(game):
    """L23.9 bases; L19.17 the area's 12 points; L27.13 a carrier's 12 points of aircraft."""
    ctx = _ctx(game, {"22": (Unit("tank_3", "red"), Unit("fighter", "red")),
                      "24": (Unit("fighter", "blue"),),
                      "S07": (Unit("carrier", "red", (Unit("bomber", "red"),)),
                              Unit("carrier", "red"))},
               {"22": "red", "23": "red", "24": "blue"},
               {"22": {"airfield": 1}, "23": {"factory": 1}, "24": {"airfield": 1}})
    assert air.bases(ctx.board, "red") == {"22": 5, "S07": 8}     # 12-4-3; the sea's stack: 12-4
    assert air.bases(ctx.board, "blue") == {"24": 9}


def test_a_bomber_does_not_fit_between_two_half_full_decks(game):
    """The room is a carrier's, not the sea's sum: 2 + 2 free points take no 4-point bomber."""
    ctx = _ctx(game, {"S07": (Unit("carrier", "red", (Unit("fighter", "red"),) * 3),
                              Unit("carrier", "red", (Unit("fighter", "red"),) * 3)),
                      "22": (Unit("bomber", "red"), Unit("fighter", "red"))},
               {"22": "red"}, {"22": {"airfield": 1}})
    board = ctx.board
    bomber, fighter = sorted(_planes(ctx, "22"), key=lambda p: p.type)
    assert air.bases(board, "red")["S07"] == 0          # the sea's stack is full anyway (G7)
    assert air.decks(board, [bomber], "S07", "red") is None
    assert air.decks(board, [fighter], "S07", "red") is not None


def test_landing_at_sea_puts_aircraft_aboard_the_carrier(game):
    ctx = _ctx(game, {"S07": (Unit("carrier", "red"),), "23": (Unit("fighter", "red"),) * 2},
               {"23": "red"}, {"23": {"airfield": 1}})
    board = ctx.board
    planes = _planes(ctx, "23")
    assert air.room_for(board, planes, "S07", "red")
    air.land(board, planes, "S07", "red")
    carrier = next(p for p in board.at("S07") if p.type == "carrier")
    assert sorted(p.uid for p in board.cargo_of(carrier)) == sorted(p.uid for p in planes)
    assert area_points(board, "S07", "red") == 6


# -------------------------------------------------------------------------------- flights

def _over_blue_guns(game, dice, leg):
    ctx = _ctx(game, {"22": (Unit("bomber", "red"),), "23": (Unit("aa_gun_land", "blue"),),
                      "26": (Unit("aa_gun_land", "blue"),)},
               {"22": "red", "23": "blue", "26": "blue"}, {"22": {"airfield": 1}}, dice)
    survivors = air.fly(ctx, _planes(ctx, "22"), ("22", "23", "26"), leg=leg)
    return ctx, survivors


def test_the_way_out_is_not_fired_on_over_the_strikes_target(game):
    """Contract 1: on the way out the last area is the strike's target, fought by the strike."""
    ctx, survivors = _over_blue_guns(game, [1], air.OUT)
    fired = [e.area for e in ctx.events if isinstance(e, OverflightFire)]
    assert fired == ["23"] and len(survivors) == 1


@pytest.mark.parametrize("leg", [air.BACK, air.MOVE])
def test_the_way_back_and_a_move_are_fired_on_to_the_end(game, leg):
    """L23.60: on the way back the bomber is fired on again over every enemy area."""
    ctx, survivors = _over_blue_guns(game, [1, 6], leg)
    fired = [(e.area, e.rolls, e.leg) for e in ctx.events if isinstance(e, OverflightFire)]
    assert fired == [("23", (1,), leg), ("26", (6,), leg)]
    assert survivors == [] and _planes(ctx, "22") == []


def test_checking_flies_without_fire(game):
    """A check has no dice: the flight is not fired on (the play decides)."""
    ctx, survivors = _over_blue_guns(game, (), air.MOVE)
    assert len(survivors) == 1 and not ctx.events


def test_routes_take_the_fewest_areas_then_the_fewest_guns(game):
    """Both 23 -> 24 -> 32 and 23 -> 31 -> 32 are two areas; 24 has an enemy gun."""
    ctx = _ctx(game, {"24": (Unit("aa_gun_land", "red"),)}, {"24": "red"}, {})
    routes = air.routes(ctx.board, "23", "blue")
    assert routes["32"] == ("23", "31", "32")
    assert routes["24"] == ("23", "24")
    assert all(len(path) <= 5 for path in routes.values())
    assert "23" not in routes


# ------------------------------------------------------------------------------ evacuation

def test_a_standing_order_is_followed_and_named_as_the_reason(game):
    standing = {"blue": StandingOrders(choices=(EvacuateOrder("evacuate", "23", "26, 24", 1),))}
    ctx = _ctx(game, {"23": (Unit("fighter", "blue"), Unit("bomber", "blue"))},
               {"23": "blue", "24": "blue", "26": "blue"},
               {"23": {"airfield": 1}, "24": {"airfield": 1}, "26": {"airfield": 1}},
               standing=standing, dice=[1])
    air.evacuate(ctx, "23", "blue", _planes(ctx, "23", "blue"), air.BATTLE_LOST)
    events = [e for e in ctx.events if isinstance(e, AircraftEvacuated)]
    assert [(e.to, e.units, e.standing) for e in events] == [
        ("26", {"bomber": 1, "fighter": 1}, "evacuate 23: 26, 24")]
    assert sorted(p.type for p in _planes(ctx, "26", "blue")) == ["bomber", "fighter"]


def test_the_room_left_sends_the_rest_further(game):
    """L23.75 the 12-point cap where they land: 24 takes one bomber (8 + 4), the other goes on."""
    ctx = _ctx(game, {"23": (Unit("bomber", "blue"),) * 2, "24": (Unit("tank_3", "blue"), Unit("tank_1", "blue"), Unit("tank_1", "blue")),
                      "26": ()},
               {"23": "blue", "24": "blue", "26": "blue"},
               {"23": {"airfield": 1}, "24": {"airfield": 1}, "26": {"airfield": 1}}, dice=[1])
    air.evacuate(ctx, "23", "blue", _planes(ctx, "23", "blue"), air.BASE_DESTROYED)
    assert [(e.to, e.units) for e in ctx.events if isinstance(e, AircraftEvacuated)] == [
        ("24", {"bomber": 1}), ("26", {"bomber": 1})]
    assert area_points(ctx.board, "24", "blue") == 12


layout = st.fixed_dictionaries({
    "fighters": st.integers(0, 4), "bombers": st.integers(0, 3),
    "fill": st.dictionaries(st.sampled_from(["22", "24", "26", "31", "32"]),
                            st.integers(0, 3), max_size=5),
    "fields": st.sets(st.sampled_from(["22", "24", "26", "31", "32", "16", "33"]), max_size=5),
    "carrier": st.booleans(), "guns": st.sets(st.sampled_from(["21", "24", "31", "S07"]), max_size=3),
    "faces": st.lists(st.integers(1, 6), min_size=30, max_size=30)})


@settings(max_examples=60, deadline=None)
@given(layout)
def test_an_evacuation_breaks_no_cap_and_accounts_for_every_aircraft(game, data):
    """Whatever the bases and their room: every aircraft ends at a base of its owner's or is
    named by an event (destroyed, or shot down on the way), and no base holds more than 12."""
    units = {"23": (Unit("fighter", "blue"),) * data["fighters"] + (Unit("bomber", "blue"),) * data["bombers"]}
    for area, tanks in data["fill"].items():
        units[area] = (Unit("tank_3", "blue"),) * tanks
    if data["carrier"]:
        units["S07"] = (Unit("carrier", "blue", (Unit("fighter", "blue"),)),)
    for area in data["guns"]:
        units[area] = units.get(area, ()) + (Unit("aa_gun_land" if area[0] != "S" else "aa_gun_sea", "red"),)
    owners = {a: "blue" for a in ("22", "23", "24", "26", "31", "32", "16", "33")}
    owners.update({a: "red" for a in data["guns"] if a[0] != "S"})
    objects = {a: {"airfield": 1} for a in data["fields"] | {"23"}}
    ctx = _ctx(game, units, owners, objects, dice=data["faces"])
    planes = _planes(ctx, "23", "blue")
    air.evacuate(ctx, "23", "blue", planes, air.BATTLE_LOST)
    board = ctx.board
    accounted = sum(sum(e.units.values()) for e in ctx.events if isinstance(e, AircraftEvacuated) and not e.to)
    accounted += sum(sum(e.lost.values()) for e in ctx.events if isinstance(e, OverflightFire))
    landed = [p for p in planes if p.uid in board.pieces]
    assert len(landed) + accounted == len(planes)
    bases = air.bases(board, "blue")
    for plane in landed:
        assert plane.space in bases and plane.space != "23"
    for base in bases:
        assert area_points(board, base, "blue") <= 12
    for carrier in air.carriers(board, "S07", "blue"):
        assert points(board, board.cargo_of(carrier)) <= 12


# ------------------------------------------------------------------- orders and events

@pytest.mark.parametrize("text, model, value, written", [
    ("evacuate 23 -> 24, S05", EvacuateOrder, "24, S05", "evacuate 23: 24, S05"),
    ("evacuate all: nearest", EvacuateOrder, "nearest", "evacuate all: nearest"),
    ("patrol 23: bombers", PatrolOrder, "bombers", "patrol 23: bombers"),
])
def test_the_standing_orders_read_and_write(game, text, model, value, written):
    orders = parse_orders(text + "\n", game)
    order = orders.items[0]
    assert isinstance(order, model) and order.value == value
    assert format_orders(orders, game).strip().endswith(written)


def test_an_unknown_base_is_refused_where_it_is_written(game):
    with pytest.raises(Exception, match="Atlantis|line 1"):
        parse_orders("evacuate 23: Atlantis\n", game)


@pytest.mark.parametrize("event", [
    OverflightFire("23", "blue", "red", "fighters", 2, (2, 5), {"bomber": 1}, "out",
                   "default (patrol all: always)"),
    AircraftEvacuated("23", "blue", "battle_lost", {"fighter": 2}, "S07", ("23", "S07"),
                      "evacuate all: S07"),
    AircraftEvacuated("23", "blue", "blast", {"bomber": 1}, "", (), "default (evacuate all: nearest)"),
])
def test_the_air_events_round_trip_through_the_codec(event):
    """Contract 5: the events carry who reacted and why, and decode as they were."""
    text = json.dumps(codec.encode_event(event))
    assert codec.decode_event(json.loads(text)) == event


# ------------------------------------------------------------------------ by the command line

def _flight(game, capital: str, enemy: str) -> tuple[str, str]:
    """A land area bordering ``capital`` (not ``enemy``'s capital) and a sea bordering it."""
    area_map = game.map
    for land in sorted(area_map.neighbours(capital)):
        if land == enemy or area_map[land].is_sea:
            continue
        seas = sorted(s for s in area_map.neighbours(land) if area_map[s].is_sea)
        if seas:
            return land, seas[0]
    raise AssertionError("no route on this map")


def test_a_game_turn_by_the_command_line_with_an_air_move_shot_at(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    game_dir = tmp_path / "game"
    code, out = pbem(capsys, "new", game_dir, "--ruleset", "taktyczne", "--demo-seeds",
                     "--option", "players=2")
    assert code == 0, out

    def play(text: str) -> str:
        return play_orders(capsys, tmp_path, game_dir, text)

    play("pass\n")
    state, _ = gamedir.current_state(game_dir)
    first, second = state.extras["ts_turn_order"]
    capital, other = state.extras["ts_capitals"][first], state.extras["ts_capitals"][second]
    play(f"build airfield {capital}\n")
    play("patrol all: bombers\n")                 # the second player's standing order
    loaded = load_game("taktyczne")
    over, sea = _flight(loaded, capital, other)
    code, out = pbem(capsys, "correct", "-g", game_dir, "--demo-seeds", "--reason", "an air test",
                     "--set", f"{capital}: 2 {first} bomber", "--set", f"{sea}: 1 {first} carrier",
                     "--set", f"{over}: 4 {second} aa_gun_land, 1 {second} fighter",
                     "--owner", f"{over} {second}")
    assert code == 0, out
    out = play(f"move 2 bomber {capital} -> {over} -> {sea}\n")
    code, report = pbem(capsys, "report", "-g", game_dir)
    assert code == 0, report
    assert f"AA guns in {over} fire 4 shots" in report
    assert "rule (every AA gun fires at each overflight, L23.61)" in report
    fired = [e for e in _events(game_dir) if e.get("kind") == "ts_overflight_fire"]
    if any(e["shooters"] == "fighters" for e in fired):     # a bomber was left to aim at
        assert "why: " in report and "standing order «patrol all: bombers»" in " ".join(report.split())
    state, _ = gamedir.current_state(game_dir)
    shot = sum(sum(e["lost"].values()) for e in _events(game_dir) if e.get("kind") == "ts_overflight_fire")
    aboard = [u for u in state.units.get(sea, ()) if u.type == "carrier"][0].cargo
    assert len(aboard) + shot == 2 and all(u.type == "bomber" for u in aboard)
    assert not [u for u in state.units.get(capital, ()) if u.type == "bomber"]
    code, out = pbem(capsys, "verify", "-g", game_dir)
    assert code == 0, out


def _events(game_dir: Path) -> list[dict]:
    latest = max((game_dir / "turns").glob("*.json"), key=lambda p: p.stat().st_mtime)
    return json.loads(latest.read_text())["events"]


def test_a_bombers_cargo_lands_with_it_and_is_no_aircraft_of_its_own(game):
    """An atomic bomb (air, no range) rides its bomber (G26): it lands where the bomber does
    and never flies or evacuates alone."""
    ctx = _ctx(game, {"22": (Unit("bomber", "red", (Unit("atomic_bomb", "red"),)),),
                      "S07": (Unit("carrier", "red"),)},
               {"22": "red"}, {"22": {"airfield": 1}})
    board = ctx.board
    (bomber,) = _planes(ctx, "22")
    assert not air.is_aircraft(board, "atomic_bomb") and air.is_aircraft(board, bomber)
    air.land(board, [bomber], "S07", "red")
    assert [p.type for p in board.cargo_of(bomber)] == ["atomic_bomb"]
    assert all(p.space == "S07" for p in board.cargo_of(bomber))


def test_a_blast_sends_the_aircraft_past_the_other_areas_it_reaches(game):
    """L23.35-L23.36 a blast spares aircraft that have somewhere to go: not into another area
    of the same blast (``avoid``)."""
    ctx = _ctx(game, {"23": (Unit("fighter", "blue"),)}, {"23": "blue", "24": "blue", "32": "blue"},
               {"23": {"airfield": 1}, "24": {"airfield": 1}, "32": {"airfield": 1}}, dice=[1])
    air.evacuate(ctx, "23", "blue", _planes(ctx, "23", "blue"), air.BLAST, avoid=("24",))
    assert [e.to for e in ctx.events if isinstance(e, AircraftEvacuated)] == ["32"]


route_fire = st.fixed_dictionaries({
    "bombers": st.integers(0, 3), "fighters": st.integers(0, 4),
    "guns": st.lists(st.integers(0, 3), min_size=3, max_size=3),
    "patrols": st.lists(st.integers(0, 2), min_size=3, max_size=3),
    "faces": st.lists(st.integers(1, 6), min_size=40, max_size=40),
    "leg": st.sampled_from([air.OUT, air.BACK, air.MOVE])})


@settings(max_examples=80, deadline=None)
@given(route_fire)
def test_overflight_fire_is_one_shot_per_gun_and_fighter_and_hits_only_as_the_text_says(game, data):
    """L23.27 one shot per AA gun, a six (L23.28); L23.46 one per fighter, an even roll at a
    bomber (L23.45), a six at a fighter (L23.68): no flight loses more than its shooters'
    hits allow, and what is not shot down flies on."""
    if data["bombers"] + data["fighters"] == 0:
        return
    route = ("22", "23", "26", "31")
    units = {"22": (Unit("bomber", "red"),) * data["bombers"] + (Unit("fighter", "red"),) * data["fighters"]}
    for area, guns, patrol in zip(route[1:], data["guns"], data["patrols"]):
        units[area] = (Unit("aa_gun_land", "blue"),) * guns + (Unit("fighter", "blue"),) * patrol
    ctx = _ctx(game, units, {"22": "red", "23": "blue", "26": "blue", "31": "blue"},
               {"22": {"airfield": 1}}, dice=data["faces"])
    planes = _planes(ctx, "22")
    survivors = air.fly(ctx, planes, route, leg=data["leg"])
    fired = [e for e in ctx.events if isinstance(e, OverflightFire)]
    over = route[1:-1] if data["leg"] == air.OUT else route[1:]
    for event in fired:
        assert event.area in over and event.power == "blue" and event.mover == "red"
        index = route.index(event.area) - 1
        assert event.count == len(event.rolls) == (data["guns"][index] if event.shooters == "aa"
                                                   else data["patrols"][index])
        hits = sum(event.lost.values())
        if event.shooters == "aa":
            assert hits <= sum(1 for r in event.rolls if r == 6)
        else:
            assert event.lost.get("fighter", 0) <= sum(1 for r in event.rolls if r == 6)
            assert hits <= sum(1 for r in event.rolls if r % 2 == 0)
    lost = sum(sum(e.lost.values()) for e in fired)
    assert len(survivors) + lost == len(planes)
    assert all(p.uid in ctx.board.pieces for p in survivors)


def test_aircraft_whose_airfield_is_gone_evacuate_and_others_stay(game):
    """L23.34 an airfield destroyed (by a bomber or a long-range gun): its aircraft evacuate;
    with the airfield still standing nothing moves."""
    units = {"23": (Unit("fighter", "blue"),), "24": (Unit("fighter", "blue"),)}
    owners = {"23": "blue", "24": "blue", "26": "blue"}
    ctx = _ctx(game, units, owners, {"24": {"airfield": 1}, "26": {"airfield": 1}}, dice=[1])
    air.airfield_lost(ctx, "23")
    air.airfield_lost(ctx, "24")
    assert [(e.area, e.to, e.cause) for e in ctx.events if isinstance(e, AircraftEvacuated)] == [
        ("23", "24", air.BASE_DESTROYED)]
    assert len(_planes(ctx, "24", "blue")) == 2
