"""Live board battles in the turn files (issue 26): the main turn pauses at a live battle,
each battle turn is a turn of its own (the side's ``board`` lines, or the game master's
``nmr`` and the side's plan), and the paused turn goes on from the order after the battle
when it ends.  Played on the test edition Tide War (tests/editions/tidewar) with the rule
``live_battles`` and a step standing in for the main turn's orders (``skirmish``: each
``live <space>`` line starts a board battle there), so the hooks are tested apart from
Taktyczne Starcie's own main turn."""

from __future__ import annotations

import shutil
from pathlib import Path

import attrs
import pytest

from adjudicator import editions
from adjudicator.engine import adjudicate, check
from adjudicator.engine.steps import step
from adjudicator.engine.taktyczne import live_turn
from adjudicator.io.codec import decode_event, decode_state, encode_event, encode_state
from adjudicator.io.parser import parse_orders
from adjudicator.io.tactical_data import load_board
from adjudicator.model.dice import SeededDice
from adjudicator.model.events import IncomeCollected, Moved, OrderSkipped
from adjudicator.model.live_battle_events import LiveBattleStarted, LiveBattleTurn
from adjudicator.model.tactical import ATTACKER, DEFENDER, BattlePlan, BoardForce, Doctrine
from adjudicator.model.taktyczne import BoardBattleFought
from adjudicator.service.games import initial_state, load_game

DATA = Path(__file__).parent / "editions" / "tidewar"
RULES = load_board()
FOUGHT: list = []          # what the step saw when the paused turn went on


@step("skirmish")
def skirmish(ctx, dice) -> None:
    """Each ``live <space>`` line: a board battle of a tank II against a tank I there, in
    the order written; a paused turn goes on after the order whose battle ended."""
    resume, ctx.resume = ctx.resume, None
    for index, order in enumerate(ctx.orders.of("live")):
        ctx.order_index = index
        if resume is not None and index < resume.order:
            continue
        if resume is not None and index == resume.order:
            FOUGHT.append((order.space, resume.outcome))
            continue
        if ctx.checking:
            continue
        forces = {ATTACKER: BoardForce((("t1", "tank_2"),)), DEFENDER: BoardForce((("d1", "tank_1"),))}
        plans = {ATTACKER: BattlePlan(), DEFENDER: BattlePlan(doctrine=Doctrine(stance="hold"))}
        live_turn.pause(ctx, RULES, order.space, "land", ctx.power, "blue", forces, plans)


@pytest.fixture
def game(tmp_path):
    data = tmp_path / "livewar"
    shutil.copytree(DATA, data)
    toml = (data / "game.toml").read_text(encoding="utf-8")
    toml = toml.replace('"conduct_combat", ', '"conduct_combat", "skirmish", ')
    toml = toml.replace('"defend", "toll"]', '"defend", "toll", "live", "board", "nmr"]')
    toml = toml.replace('"barge_ballast"]', '"barge_ballast", "live_battles"]')
    (data / "game.toml").write_text(toml, encoding="utf-8")
    edition = editions.register(editions.Edition("tidewar", "Tide War", str(data),
                                                 plugins=("tidewar_rules",)))
    FOUGHT.clear()
    yield attrs.evolve(load_game("tidewar"), tables={"board": RULES})
    editions.unregister(edition.name)


def play(game, state, text, dice):
    orders = parse_orders(text, game, power=state.power)
    problems = [p for p in check(game, state, orders) if p.is_error]
    assert problems == [], problems
    result = adjudicate(game, state, orders, dice)
    # the state and the events go through the turn file's codec between turns
    events = tuple(decode_event(encode_event(e)) for e in result.events)
    assert events == result.events
    return decode_state(encode_state(result.state)), events


def test_a_turn_pauses_at_each_live_battle_and_goes_on_after_it(game):
    state = initial_state(game, "g")
    assert state.power == "red"
    dice = SeededDice(5)
    state, events = play(game, state, "live Redholm\nlive Bluehaven\n", dice)
    started = [e for e in events if isinstance(e, LiveBattleStarted)]
    assert [(e.area, e.next_power) for e in started] == [("Redholm", "red")]
    assert not any(isinstance(e, IncomeCollected) for e in events)   # the turn waits
    assert state.power == "red" and state.round == 1 and "live_battle" in state.extras
    turn_number = state.turn_number
    # battle turn 1: the attacker's own lines (the tank moves up four squares)
    state, events = play(game, state, "board t1 -> G4a G5a G6a G7a\n", dice)
    played = [e for e in events if isinstance(e, LiveBattleTurn)]
    assert [(e.turn, e.power, e.side, e.by_plan, e.next_power) for e in played] == [
        (1, "red", ATTACKER, False, "blue")]
    assert [e.path for e in played[0].board_events if e.kind == "board_moved"] == [
        ("G4a", "G5a", "G6a", "G7a")]
    assert state.power == "blue" and state.turn_number == turn_number + 1
    # the rest by missed deadlines: each side's plan plays, until the battle ends
    battles = 0
    while "live_battle" in state.extras:
        state, events = play(game, state, "nmr 2026-01-01T00:00Z\n", dice)
        if any(isinstance(e, BoardBattleFought) for e in events):
            battles += 1
            if battles == 1:      # the paused turn went on and paused at the second battle
                assert [e.area for e in events if isinstance(e, LiveBattleStarted)] == ["Bluehaven"]
                assert not any(isinstance(e, IncomeCollected) for e in events)
        assert state.turn_number < turn_number + 80
    assert battles == 2
    assert [space for space, _ in FOUGHT] == ["Redholm", "Bluehaven"]
    fought = [outcome for _, outcome in FOUGHT]
    assert all(isinstance(f, BoardBattleFought) and f.live for f in fought)
    assert any(isinstance(e, IncomeCollected) and e.power == "red" for e in events)   # the end
    assert state.power == "blue" and state.round == 1 and "live_battle" not in state.extras


def test_board_lines_without_a_live_battle_are_an_error(game):
    state = initial_state(game, "g")
    orders = parse_orders("board t1 -> G4a\n", game, power="red")
    assert [p.code for p in check(game, state, orders) if p.is_error] == ["board_not_live"]


def test_a_battle_turn_takes_only_board_lines_of_the_side_to_move(game):
    state = initial_state(game, "g")
    state, _ = play(game, state, "live Redholm\n", SeededDice(1))
    bad = parse_orders("board t1 -> G4a G5a G6a G7a G8a\nbuy 1 soldier\n", game, power="red")
    codes = sorted(p.code for p in check(game, state, bad) if p.is_error)
    assert codes == ["board_live_other_orders", "board_too_far"]
    enemy = parse_orders("board d1 -> G2d\n", game, power="red")
    assert [p.code for p in check(game, state, enemy) if p.is_error] == ["board_not_your_turn"]


# ------------------------------------------------------------------------------ Taktyczne Starcie

POSITION = """
case live-01: a live board battle in the main turn
power red
position empty
owner 22: red
owner 24: red
owner 23: blue
owner 26: blue
units 22: red 2 tank_2
units 24: red 1 tank_1
units 23: blue 1 tank_1
orders:
pass
end
expect valid
"""


@pytest.fixture
def taktyczne():
    from adjudicator.io.rules_cases import parse_cases
    from adjudicator.service.rules_cases import build_position
    game = load_game("taktyczne")
    return game, build_position(game, parse_cases(POSITION)[0])


@pytest.mark.parametrize("seed, winner", [(1, "red"), (8, "blue")])
def test_taktyczne_main_turn_pauses_at_a_live_battle_and_goes_on_in_written_order(
        taktyczne, seed, winner):
    """ts-main-01 played live: the attack on 23 pauses the turn; its battle turns are turn
    files of red and blue (here each side's plan plays: nmr); when it ends, the order after
    the attack is carried out (red won: more units into 23; red lost: 23 was attacked this
    turn already, ruling G9, so the order is skipped) and the turn passes to blue."""
    game, state = taktyczne
    dice = SeededDice(seed)
    mover_turn = state.turn_number
    state, events = play(game, state, "live 23\nmove 2 tank_2 22 -> 23\nmove 1 tank_1 24 -> 23\n", dice)
    assert [e.area for e in events if isinstance(e, LiveBattleStarted)] == ["23"]
    assert state.power == "red" and "live_battle" in state.extras
    tanks = {u.type: u.flags for u in state.units["22"]}
    assert tanks == {"tank_2": ("ts_attacking", "ts_moved_before_pause")}
    sides = []
    while "live_battle" in state.extras:
        sides.append(state.power)
        state, events = play(game, state, "nmr 2026-01-01T00:00Z\n", dice)
        assert state.turn_number < mover_turn + 40
    fought = [e for e in events if isinstance(e, BoardBattleFought)]
    assert len(fought) == 1 and fought[0].live and fought[0].area == "23"
    assert fought[0].winner == winner and len(sides) == fought[0].turns
    assert sides == ["red", "blue", "red", "blue", "red"][:len(sides)]
    assert not any(u.flags for us in state.units.values() for u in us)
    assert "ts_attacked_before_pause" not in state.extras
    assert state.owners["23"] == winner
    if winner == "red":             # the order after the attack: the tank from 24 moves in
        assert [e for e in events if isinstance(e, Moved) and e.path == ("24", "23")]
        assert sorted(u.type for u in state.units["23"]) == ["tank_1", "tank_2", "tank_2"]
    else:
        assert [(e.line, e.reason) for e in events if isinstance(e, OrderSkipped)] == [
            (3, "ts_attacked_twice")]
        assert [u.type for u in state.units["24"]] == ["tank_1"]
    assert (state.power, state.round) == ("blue", 1)       # the turn passed


def test_taktyczne_live_option_makes_every_battle_live():
    from adjudicator.io.rules_cases import parse_cases
    from adjudicator.service.rules_cases import build_position
    game = load_game("taktyczne", options={"live_battles": True})
    state = build_position(game, parse_cases(POSITION)[0])
    state, events = play(game, state, "move 2 tank_2 22 -> 23\n", SeededDice(2))
    assert [e.area for e in events if isinstance(e, LiveBattleStarted)] == ["23"]
    by_plan = load_game("taktyczne")
    state = build_position(by_plan, parse_cases(POSITION)[0])
    _, events = play(by_plan, state, "move 2 tank_2 22 -> 23\n", SeededDice(2))
    assert [e.live for e in events if isinstance(e, BoardBattleFought)] == [False]


def test_a_live_battle_is_published_turn_file_by_turn_file_and_verifies(taktyczne, tmp_path):
    """The whole live battle through the game directory: the paused turn, one signed turn
    file per battle turn in the hash chain (the first a player's own board line, the rest
    the game master's nmr after missed deadlines), the resumed turn; ``pbem verify``
    replays every file offline, and a changed battle-turn file fails it."""
    from adjudicator.service.audit import verify_game
    from adjudicator.service.gamedir import create_game, demo_seeds, process_turn
    game, state = taktyczne
    create_game(tmp_path, game, "live", initial=attrs.evolve(state, game_id="live"), seeds=demo_seeds("live"), created="2026-11-27")
    seeds = demo_seeds("live")
    process_turn(tmp_path, game, "live 23\nmove 2 tank_2 22 -> 23\nmove 1 tank_1 24 -> 23\n", seeds=seeds)
    first = process_turn(tmp_path, game, "board a1 -> G4a G5a\n", seeds=seeds)
    assert first.power == "red" and first.state.power == "blue"
    files = 2
    while "live_battle" in first.state.extras:
        first = process_turn(tmp_path, game, "nmr 2026-11-28T12:00Z\n", seeds=seeds)
        files += 1
        assert files < 40
    names = sorted(p.name for p in (tmp_path / "turns").glob("*.json"))
    assert len(names) == files and names[1] == "0002-red.json" and names[2] == "0003-blue.json"
    assert any(isinstance(e, BoardBattleFought) and e.live for e in first.events)
    report = verify_game(tmp_path)
    assert report.ok and report.complete, report.failure
    # a battle-turn file changed by hand (the unit's path) no longer replays
    path = tmp_path / "turns" / names[1]
    path.write_text(path.read_text(encoding="utf-8").replace('"G5a"', '"G6a"'), encoding="utf-8")
    assert not verify_game(tmp_path).ok


def test_the_report_says_what_a_battle_turn_did(taktyczne):
    from adjudicator.present.wording import event_text
    game, state = taktyczne
    dice = SeededDice(1)
    state, events = play(game, state, "live 23\nmove 2 tank_2 22 -> 23\n", dice)
    started = next(e for e in events if isinstance(e, LiveBattleStarted))
    assert event_text(started, game) == (
        "Red attacks Blue in 23 on the land board, played live by mail: the turn waits for "
        "the battle; Red plays the first battle turn")
    state, events = play(game, state, "board a1 -> G4a G5a\n", dice)
    played = next(e for e in events if isinstance(e, LiveBattleTurn))
    assert event_text(played, game) == ("battle turn 1 in 23: Red (attacker) played; "
                                        "attacker a1 moves G4a > G5a; Blue plays next")
    state, events = play(game, state, "nmr 2026-11-28T12:00Z\n", dice)
    played = next(e for e in events if isinstance(e, LiveBattleTurn))
    assert "Blue (defender) missed the deadline: the plan played" in event_text(played, game)


def test_a_live_order_for_an_area_not_attacked_is_a_warning(taktyczne):
    game, state = taktyczne
    orders = parse_orders("live 26\nmove 2 tank_2 22 -> 23\n", game, power="red")
    problems = [(p.line, p.code, p.severity) for p in check(game, state, orders)]
    assert (1, "live_not_attacked", "warning") in problems
    assert not [p for p in problems if p[2] == "error"]


def test_the_commands_show_a_waiting_battle_and_take_battle_turn_files(taktyczne, tmp_path, capsys):
    """pbem show --battle draws the battle waiting for its next battle turn (the board, the
    units' names, whose turn); pbem check says what is wrong with a battle turn's lines;
    pbem process plays it; pbem verify replays it."""
    from cli_helpers import pbem
    from adjudicator.service.gamedir import create_game, demo_seeds, process_turn
    game, state = taktyczne
    create_game(tmp_path, game, "live", initial=attrs.evolve(state, game_id="live"),
                seeds=demo_seeds("live"), created="2026-11-27")
    process_turn(tmp_path, game, "live 23\nmove 2 tank_2 22 -> 23\n", seeds=demo_seeds("live"))
    code, out = pbem(capsys, "show", "-g", tmp_path, "--battle", "23", "--no-color")
    assert code == 0, out
    assert "battle turn 1 is Red's (the attacker)" in out and "a1   Red        Tank II on" in out
    code, out = pbem(capsys, "show", "-g", tmp_path, "--battle", "23", "--svg", tmp_path / "b.svg")
    assert code == 0 and (tmp_path / "b.svg").read_text(encoding="utf-8").startswith("<svg")
    bad = tmp_path / "bad.txt"
    bad.write_text("board a1 -> G4a G5a G6a G7a G8a\nboard d1 -> G2d\n", encoding="utf-8")
    code, out = pbem(capsys, "check", bad, "-g", tmp_path, "--no-color")
    assert code != 0
    assert "bad.txt:1: error: a1 has 4 movement points in a battle turn; the paths take 5" in out
    assert "bad.txt:2: error:" in out and "d1" in out
    good = tmp_path / "good.txt"
    good.write_text("board a1 -> G4a G5a\n", encoding="utf-8")
    code, out = pbem(capsys, "process", good, "-g", tmp_path, "--no-color")
    assert code == 0, out
    assert "battle turn 1 in 23: Red (attacker) played; attacker a1 moves G4a > G5a" in " ".join(out.split())
    code, out = pbem(capsys, "verify", "-g", tmp_path, "--no-color")
    assert code == 0, out


def test_battle_turns_are_signed_by_their_players_and_name_their_turn(taktyczne, tmp_path):
    """With players' keys, each battle turn's orders are signed by the side's player and
    carry the game: and turn: headers; an unsigned battle turn, or one signed by the other
    side, is refused; the game master's nmr for a missed deadline needs no signature; the
    whole game verifies."""
    from adjudicator.io import keys, sshsig
    from adjudicator.model.errors import PbemError
    from adjudicator.service.audit import verify_game
    from adjudicator.service.gamedir import create_game, demo_seeds, process_turn
    game, state = taktyczne
    red = keys.new_keypair(tmp_path / "red-key", "red player")
    blue = keys.new_keypair(tmp_path / "blue-key", "blue player")
    d = tmp_path / "game"
    create_game(d, game, "live", None, "2026-11-27",
                {"red": keys.public_key_line(red), "blue": keys.public_key_line(blue)},
                initial=attrs.evolve(state, game_id="live"), seeds=demo_seeds("live"))
    seeds = demo_seeds("live")

    def send(text, key, turn):
        text = f"game: live\nturn: {turn}\n{text}"
        return process_turn(d, game, text, orders_signature=sshsig.sign(text.encode(), key, "pbem-orders"),
                            seeds=seeds)

    send("live 23\nmove 2 tank_2 22 -> 23\n", red, 1)
    with pytest.raises(PbemError, match="orders for red must be signed by the player's key"):
        process_turn(d, game, "game: live\nturn: 2\nboard a1 -> G4a\n", seeds=seeds)
    with pytest.raises(PbemError, match="signed by SHA256:.*expected SHA256:"):
        send("board a1 -> G4a\n", blue, 2)                     # blue's key on red's battle turn
    tf = send("board a1 -> G4a G5a\n", red, 2)
    assert tf.orders_signature is not None and tf.state.power == "blue"
    turn = 3
    while "live_battle" in tf.state.extras:
        tf = process_turn(d, game, "nmr 2026-11-28T12:00Z\n", seeds=seeds)            # missed
        turn += 1
        assert turn < 40
    report = verify_game(d)
    assert report.ok and report.complete, report.failure


def test_a_battle_turns_sentence_counts_its_skipped_lines_in_words():
    from adjudicator.present.wording import event_text
    one = LiveBattleTurn("S01", "blue", ATTACKER, 3, (), False, ((2, "a1", "board_blocked"),), "yellow")
    assert "1 line skipped" in event_text(one, None)
    two = attrs.evolve(one, skipped=one.skipped * 2)
    assert "2 lines skipped" in event_text(two, None)
