"""Taktyczne Starcie's nuclear weapons and objects destroyed (issue 27, L19.56-L19.69,
L23.12-L23.14, L23.39-L23.42, L23.65, rulings G22-G26).  The rules cases are in
maps/taktyczne/cases/nuclear.txt; here: what the cases cannot reach (a silo hit by a bomb
or a shell, the atomic bomb's explosion, the aircraft handed to the evacuation), a property
of every blast, and a launch stopped by an anti-missile through the command line."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.engine.context import TurnContext
from adjudicator.engine.taktyczne import air, nuclear
from adjudicator.engine.taktyczne.objects import destroy_object
from adjudicator.engine.taktyczne.state import CAPITALS, OBJECTS, add_object, objects
from adjudicator.engine.working import WorkingBoard
from adjudicator.io.codec import decode_event, encode_event
from adjudicator.model.orders import AntimissileOrder, OrderSet, StandingOrders
from adjudicator.model.state import GameState, Unit
from adjudicator.service import gamedir
from adjudicator.service.games import load_game
from cli_helpers import pbem


@pytest.fixture(scope="module")
def game():
    return load_game("taktyczne", {"players": 2})


def _ctx(game, units, owners=None, extras=None, power="red", standing=None,
         dice=None) -> TurnContext:
    state = GameState(game_id="n", map_id="taktyczne", round=1, power=power,
                      owners=owners or {}, ipcs={"red": 0, "blue": 0}, units=units,
                      extras=extras or {})
    board = WorkingBoard(game, state)
    return TurnContext(game=game, board=board, orders=OrderSet(power=power, items=()),
                       mode="play", standing_orders=standing or {}, dice=dice)


def _types(board, area):
    return sorted((p.owner, p.type) for p in board.at(area, include_cargo=True))


def test_an_object_destroyed_is_gone_and_said(game):
    ctx = _ctx(game, {}, {"23": "blue"})
    add_object(ctx.board, "23", "factory", 2)
    assert destroy_object(ctx, "23", "factory", "red", "bomb")
    assert objects(ctx.board)["23"] == {"factory": 1}
    assert not destroy_object(ctx, "23", "airfield", "red", "bomb")
    [event] = ctx.events
    assert (event.kind, event.area, event.key, event.owner, event.by, event.armed) == \
        ("ts_object_destroyed", "23", "factory", "blue", "red", False)


def test_the_full_radius_is_the_area_with_its_bordering_and_tangent_areas(game):
    """L19.59: the target and every area bordering or tangent to it."""
    ctx = _ctx(game, {})
    areas = set(nuclear.reach(ctx.board, "23", nuclear.FULL))
    assert areas == {"21", "22", "23", "24", "26", "31", "32", "S07"}    # 32: tangent (map.toml)
    assert nuclear.reach(ctx.board, "23", nuclear.AREA) == ("23",)


def test_an_armed_silo_hit_explodes_with_the_full_radius(game):
    """L23.12-L23.14, G23: the armed one of the area's two silos is hit first (ruling
    armed_first) and its warhead explodes over the silo's area and every area touching it."""
    units = {"23": (Unit("tank_1", "blue"),), "32": (Unit("tank_2", "blue"),),
             "33": (Unit("tank_2", "blue"),)}
    ctx = _ctx(game, units, {"23": "blue"},
               {OBJECTS: {"23": {"silo": 2}}, nuclear.ARMED: {"23": {"silo": 1}}})
    assert destroy_object(ctx, "23", "silo", "green", "lrg")     # a gun's reaction shot
    kinds = [e.kind for e in ctx.events]
    assert kinds[:2] == ["ts_object_destroyed", "ts_nuclear_blast"]
    assert ctx.events[0].armed and ctx.events[1].cause == "silo"
    assert {e.by for e in ctx.events} == {"green"}                # not the mover's doing
    assert _types(ctx.board, "23") == [] and _types(ctx.board, "32") == []   # 32 is tangent
    assert _types(ctx.board, "33") == [("blue", "tank_2")]
    # the other silo went with the blast and did not explode in turn (ruling no_chain)
    assert objects(ctx.board) == {} and nuclear.armed(ctx.board) == {}
    assert kinds.count("ts_nuclear_blast") == 1


def test_an_unarmed_silo_hit_by_a_shell_only_falls(game):
    ctx = _ctx(game, {"23": (Unit("tank_1", "blue"),)}, {"23": "blue"},
               {OBJECTS: {"23": {"silo": 1, "launcher": 1}}, nuclear.ARMED: {"23": {"launcher": 1}}})
    assert destroy_object(ctx, "23", "silo", "red", "lrg")
    assert [e.kind for e in ctx.events] == ["ts_object_destroyed"]
    assert _types(ctx.board, "23") == [("blue", "tank_1")]
    assert destroy_object(ctx, "23", "launcher", "red", "lrg")        # its anti-missile is lost
    assert nuclear.armed(ctx.board) == {} and objects(ctx.board) == {}


def test_an_atomic_bomb_explodes_over_its_area_only(game):
    """G22, L23.65: the target area only; the bomb is spent; mines stay."""
    ctx = _ctx(game, {"23": (Unit("tank_1", "blue"), Unit("mine_land", "blue")),
                      "22": (Unit("tank_1", "blue"),), "21": (Unit("bomber", "red"),)},
               {"23": "blue"}, {OBJECTS: {"23": {"factory": 1}}})
    bomber = ctx.board.at("21")[0]
    ctx.board.set_flag(bomber, nuclear.ATOMIC)
    assert nuclear.carries_atomic_bomb(bomber)
    nuclear.atomic_bomb_explodes(ctx, bomber, "23", nuclear.ATOMIC_DROP)
    assert not nuclear.carries_atomic_bomb(bomber)
    assert _types(ctx.board, "23") == [("blue", "mine_land")]
    assert _types(ctx.board, "22") == [("blue", "tank_1")]
    assert objects(ctx.board) == {}
    blast = next(e for e in ctx.events if e.kind == "ts_nuclear_blast")
    assert (blast.radius, blast.areas, blast.destroyed) == ("area", ("23",), {"23": {"tank_1": 1}})


def test_aircraft_in_a_blast_are_handed_to_the_evacuation(game, monkeypatch):
    """L19.59: fighters and bombers are not destroyed by the blast: they evacuate
    (``air.evacuate``, cause blast), those aboard a destroyed carrier too."""
    handed = []
    monkeypatch.setattr(air, "evacuate", lambda ctx, area, power, pieces, cause:
                        handed.append((area, power, sorted(p.type for p in pieces), cause)))
    units = {"23": (Unit("fighter", "blue"), Unit("tank_1", "blue")),
             "S07": (Unit("carrier", "blue", (Unit("bomber", "blue"),)),)}
    ctx = _ctx(game, units, {"23": "blue"}, {OBJECTS: {"23": {"airfield": 1}}})
    nuclear.blast(ctx, "23", nuclear.FULL, "missile")
    assert handed == [("23", "blue", ["fighter"], "blast"), ("S07", "blue", ["bomber"], "blast")]
    blast = next(e for e in ctx.events if e.kind == "ts_nuclear_blast")
    assert blast.destroyed == {"23": {"tank_1": 1}, "S07": {"carrier": 1}}


def test_the_choice_of_a_bystander_for_one_target_overrides_all(game):
    """'antimissile 22: never' beats 'antimissile all: reach' for a missile at 22."""
    standing = {"blue": StandingOrders(choices=(
        AntimissileOrder("antimissile", None, "reach", 1),
        AntimissileOrder("antimissile", "22", "never", 2)))}
    ctx = _ctx(game, {"23": (Unit("tank_1", "blue"),)}, {"23": "blue", "62": "blue"},
               {OBJECTS: {"62": {"launcher": 1}}, nuclear.ARMED: {"62": {"launcher": 1}}},
               standing=standing)
    assert not nuclear.intercepted(ctx, "22")
    assert ctx.events[-1].standing == "antimissile 22: never"
    assert nuclear.intercepted(ctx, "24")
    assert ctx.events[-1].standing == "antimissile all: reach"
    for event in ctx.events:
        assert decode_event(encode_event(event)) == event


# --------------------------------------------------------------- every blast, as a property

AREAS = ("21", "22", "23", "24", "26", "31", "32", "33", "53", "S07", "S08")
LAND = ("tank_1", "tank_2", "at_gun", "aa_gun_land", "mine_land", "fighter")
SEA = ("warship_1", "ferry", "aa_gun_sea", "mine_sea")


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_a_blast_never_destroys_a_capital_or_a_mine(game, data):
    """Whatever stands where: after any blast every capital is still its holder's area and
    token, every mine is still there, and no other unit or object is left in its reach."""
    units, owners, found = {}, {}, {}
    for area in AREAS:
        owner = data.draw(st.sampled_from(("red", "blue", None)))
        sea = game.map[area].is_sea
        if owner is None:
            continue
        if not sea:
            owners[area] = owner
            keys = data.draw(st.lists(st.sampled_from(("factory", "silo", "launcher", "airfield")),
                                      max_size=3))
            if keys:
                found[area] = {k: keys.count(k) for k in keys}
        types = data.draw(st.lists(st.sampled_from(SEA if sea else LAND), max_size=4))
        if types:
            units[area] = tuple(Unit(t, owner) for t in types)
    capitals = {"red": "53", "blue": data.draw(st.sampled_from(("23", "32", "33")))}
    ctx = _ctx(game, units, owners, {OBJECTS: found, CAPITALS: capitals})
    centre = data.draw(st.sampled_from(AREAS))
    radius = data.draw(st.sampled_from((nuclear.FULL, nuclear.AREA)))
    mines_before = sorted((p.space, p.owner, p.type) for p in ctx.board.pieces.values()
                          if p.type.startswith("mine"))
    nuclear.blast(ctx, centre, radius, "missile")
    board = ctx.board
    reached = set(nuclear.reach(board, centre, radius))
    assert sorted((p.space, p.owner, p.type) for p in board.pieces.values()
                  if p.type.startswith("mine")) == mines_before
    for power, capital in capitals.items():
        assert board.owners.get(capital) == owners.get(capital)
    assert board.read_state(CAPITALS) == capitals
    for area in reached:
        assert not objects(board).get(area)
        assert all(p.type.startswith("mine") for p in board.at(area, include_cargo=True))
    for area in set(AREAS) - reached:
        assert objects(board).get(area, {}) == found.get(area, {})


# ------------------------------------------------------------------- by mail, end to end

def _nuclear_game(capsys, tmp_path, defence: str):
    """A two-player game on real files, played by the command line: after the draw the game
    master's correction gives both players a long game's savings (L27.9); the first builds a
    silo in his capital, the other a launcher in his, each arms it (the other's orders end
    with ``defence``), and the first launches at the other's capital.  Returns the game,
    the two players and capitals, and the last turn's report."""
    game = tmp_path / "game"
    code, out = pbem(capsys, "new", game, "--ruleset", "taktyczne", "--demo-seeds",
                     "--option", "players=2")
    assert code == 0, out
    (tmp_path / "pregame.txt").write_text("pass\n", encoding="utf-8")
    code, out = pbem(capsys, "process", tmp_path / "pregame.txt", "-g", game, "--demo-seeds")
    assert code == 0, out
    state, _ = gamedir.current_state(game)
    first, second = state.extras["ts_turn_order"]
    mine, theirs = state.extras["ts_capitals"][first], state.extras["ts_capitals"][second]
    code, out = pbem(capsys, "correct", "-g", game, "--ipcs", f"{first} 400", "--ipcs",
                     f"{second} 400", "--reason", "a long game's savings", "--demo-seeds")
    assert code == 0, out
    turns = [f"build silo {mine}\n", f"build launcher {theirs}\n",
             f"arm missile {mine}\n", f"arm antimissile {theirs}\n{defence}",
             f"launch {theirs}\n"]
    for number, text in enumerate(turns):
        orders = tmp_path / f"t{number}.txt"
        orders.write_text(text, encoding="utf-8")
        code, out = pbem(capsys, "check", orders, "-g", game)
        assert code == 0, out
        code, out = pbem(capsys, "process", orders, "-g", game, "--demo-seeds")
        assert code == 0, out
    code, out = pbem(capsys, "report", "-g", game)
    assert code == 0, out
    return game, (first, second, mine, theirs), " ".join(out.split())


def test_a_launch_stopped_by_an_anti_missile_through_the_command_line(capsys, tmp_path):
    """The other's armed launcher fires by default (L19.67): the report says so and why,
    no blast, both weapons spent; the game verifies."""
    game, (first, second, mine, theirs), text = _nuclear_game(capsys, tmp_path, "")
    state, _ = gamedir.current_state(game)
    assert state.extras.get("ts_armed", {}) == {}
    assert state.extras["ts_objects"][theirs] == {"factory": 1, "launcher": 1}
    assert state.extras["ts_objects"][mine] == {"factory": 1, "silo": 1}
    assert f"launches the nuclear missile of the silo in {mine} at {theirs}" in text, text
    assert "anti-missile from" in text and "high up, with no effect" in text, text
    assert "why: Red wrote no standing order for it: the default (antimissile: reach)" in text, text   # contract 5
    assert "nuclear explosion" not in text
    code, out = pbem(capsys, "verify", "-g", game)
    assert code == 0, out


def test_a_standing_order_by_mail_declines_and_the_capital_stands(capsys, tmp_path):
    """The other wrote 'antimissile all: never' with his orders (G25): kept as his standing
    order, it holds his anti-missile in the launcher's owner's next turn; the blast destroys
    his capital's units and objects, the capital stays his (G24)."""
    game, (first, second, mine, theirs), text = _nuclear_game(
        capsys, tmp_path, "antimissile all: never\n")
    state, _ = gamedir.current_state(game)
    assert state.owners[theirs] == second
    assert theirs not in state.extras["ts_objects"]
    assert not state.units.get(theirs)
    assert state.extras.get("ts_armed", {}) == {}      # the launcher held, then went with its area
    assert "does not fire an anti-missile" in text and "antimissile all: never" in text, text
    assert "nuclear explosion" in text and f"the capital {theirs} stands" in text, text
    code, out = pbem(capsys, "verify", "-g", game)
    assert code == 0, out


def test_the_aircraft_of_an_airfield_destroyed_by_a_shell_evacuate(game):
    """L23.34: aircraft whose airfield a bomb or a long-range gun destroys fly to another
    base in range (``air.airfield_lost``), here the blue airfield two areas away; aircraft
    with no base left in range are destroyed (L23.76)."""
    units = {"23": (Unit("fighter", "blue"), Unit("fighter", "blue"))}
    ctx = _ctx(game, units, {"23": "blue", "21": "blue"},
               {OBJECTS: {"23": {"airfield": 1}, "21": {"airfield": 1}}})
    assert destroy_object(ctx, "23", "airfield", "red", "lrg")
    assert [e.kind for e in ctx.events] == ["ts_object_destroyed", "ts_aircraft_evacuated"]
    assert _types(ctx.board, "23") == []
    assert _types(ctx.board, "21") == [("blue", "fighter"), ("blue", "fighter")]
    lonely = _ctx(game, {"23": (Unit("fighter", "blue"),)}, {"23": "blue"},
                  {OBJECTS: {"23": {"airfield": 1}}})
    assert destroy_object(lonely, "23", "airfield", "red", "bomb")
    assert _types(lonely.board, "23") == []                      # nowhere to go: lost


def test_an_atomic_bomb_adds_nothing_to_the_stack(game):
    """Ruling bomb_load: three bombers (12 points, L23.53) with an atomic bomb aboard one
    still fit a 12-point stack."""
    from adjudicator.engine.taktyczne.stacking import area_points
    ctx = _ctx(game, {"23": (Unit("bomber", "red"),) * 3}, {"23": "red"})
    bomber = next(p for p in ctx.board.at("23"))
    bomb = ctx.board.add_new("atomic_bomb", "red", "23")
    bomb.carried_by = bomber.uid
    assert area_points(ctx.board, "23", "red") == 12


def test_a_bomber_shot_down_on_its_way_drops_its_atomic_bomb_there(game):
    """L23.65: a bomber carrying an atomic bomb that is shot down explodes 'over that area
    only': an AA gun of 23 downs it on its way (an overflight, not over the target), and
    the blast takes 23 alone, not the target further on nor 23's neighbours."""
    from adjudicator.model.dice import FixedDice
    units = {"22": (Unit("bomber", "red"),), "23": (Unit("aa_gun_land", "blue"),
                                                     Unit("tank_2", "blue")),
             "26": (Unit("tank_1", "blue"),), "24": (Unit("tank_1", "blue"),)}
    ctx = _ctx(game, units, {"22": "red", "23": "blue", "26": "blue", "24": "blue"},
               {OBJECTS: {"22": {"airfield": 1}, "23": {"factory": 1}}}, dice=FixedDice([6]))
    [bomber] = ctx.board.at("22")
    ctx.board.set_flag(bomber, nuclear.ATOMIC)
    assert air.fly(ctx, [bomber], ("22", "23", "26"), leg=air.OUT) == []
    blasts = [e for e in ctx.events if e.kind == "ts_nuclear_blast"]
    assert [(e.centre, e.cause) for e in blasts] == [("23", nuclear.ATOMIC_SHOT_DOWN)]
    assert _types(ctx.board, "23") == [] and objects(ctx.board).get("23", {}) == {}
    assert _types(ctx.board, "26") == [("blue", "tank_1")]            # the target: untouched
    assert _types(ctx.board, "24") == [("blue", "tank_1")]            # a neighbour: untouched
    plain = _ctx(game, units, {"22": "red", "23": "blue"}, {OBJECTS: {"22": {"airfield": 1}}},
                 dice=FixedDice([6]))
    air.fly(plain, list(plain.board.at("22")), ("22", "23", "26"), leg=air.OUT)
    assert not [e for e in plain.events if e.kind == "ts_nuclear_blast"]   # no bomb, no blast
