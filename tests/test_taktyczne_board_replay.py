"""A board battle of the main turn (Taktyczne Starcie, issue 26) replayed: in words by the
terminal and HTML report (every battle turn, move and shot with the roll needed and the die,
the end and why), and drawn a frame per battle turn in the HTML report."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from html import escape

import attrs
import pytest

from adjudicator.engine.tactical.geometry import square_name
from adjudicator.io.loader import load_game as load_bare_game
from adjudicator.model.tactical import (ATTACKER, DEFENDER, BattleTurnStarted, BoardBattleEnded,
                                        BoardForce, MineExploded, PieceMoved, ShotFired)
from adjudicator.present.board_battle_replay import (battle_outcome, find_board_battle,
                                                     replay_lines)
from adjudicator.present.report import battle_summaries, report_html, report_text
from adjudicator.service.games import load_game
from adjudicator.present.wording import BOARD_END_REASONS
from board_battle_helpers import RULES, fought_battle

NS = "{http://www.w3.org/2000/svg}"
SEEDS = (0, 1, 3, 4, 8)          # attacker beaten, mines cleared, stalemate, counter-fire


@pytest.fixture(scope="module")
def game():
    """Taktyczne Starcie with its board's rules; the events' power keys (ann, bob) are
    unknown to it and read as keys (the report reads only the event and the board)."""
    return load_game("taktyczne", {"players": 2})


def test_a_game_with_a_battle_board_has_its_rules_and_only_it(game):
    assert "board" not in load_game("aa1941").tables
    rules = game.tables["board"]
    assert (rules.columns, rules.rows) == (13, 20)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_replay_lists_every_shot_move_mine_and_battle_turn_in_order(game, seed):
    event, finished = fought_battle(seed)
    lines = [text for _, text in replay_lines(event, RULES)]
    shots = [ev for ev in event.board_events if isinstance(ev, ShotFired)]
    shot_lines = [line for line in lines if re.search(r" fires (back )?at ", line)]
    assert len(shot_lines) == len(shots) > 0
    for ev, line in zip(shots, shot_lines):
        assert line.startswith(f"{ev.piece} (")
        assert f" at {ev.at} (" in line
        assert f"needs {ev.need}, rolls {ev.roll}: " in line
        assert ("a hit" in line) == ev.hit
        assert ("fires back" in line) == ev.back
    moves = [ev for ev in event.board_events if isinstance(ev, PieceMoved)]
    assert [line for line in lines if " moves " in line] == [
        f"{ev.piece} ({RULES.kinds[dict(event.forces[0][1].units + event.forces[1][1].units)[ev.piece]].name})"
        f" moves {' > '.join(ev.path)}" for ev in moves]
    assert sum(" mine of " in line for line in lines) == sum(
        isinstance(ev, MineExploded) for ev in event.board_events)
    turns = [int(m.group(1)) for line in lines if (m := re.match(r"Battle turn (\d+):", line))]
    assert turns == list(range(1, event.turns + 1)) == [
        ev.turn for ev in event.board_events if isinstance(ev, BattleTurnStarted)]
    end = event.board_events[-1]
    assert isinstance(end, BoardBattleEnded) and end.reason == finished.result.reason
    (end_line,) = [line for line in lines if line.startswith("The battle ends")]
    assert f"after battle turn {event.turns}: the {end.winner} ({event.winner}) wins" in end_line
    assert BOARD_END_REASONS[end.reason] in end_line
    # the battle turns come after the deployment and before the end
    assert lines.index(end_line) > max(i for i, line in enumerate(lines) if line.startswith("Battle turn"))


def test_the_report_replays_each_board_battle_in_its_own_section(game):
    first, _ = fought_battle(1, area="34")
    second, _ = fought_battle(0, area="S07", attacker="bob", defender="ann")
    text = report_text([first, second], game)
    assert text.count("Board battles") == 1
    assert "Board battle in 34 (land board): ann attacks bob" in text
    assert "Board battle in S07 (land board): bob attacks ann" in text
    flat = " ".join(text.replace("│", " ").split())
    for event in (first, second):
        for ev in event.board_events:
            if isinstance(ev, ShotFired):
                assert f"needs {ev.need}, rolls {ev.roll}" in flat
    assert flat.count(", rolls ") == sum(isinstance(ev, ShotFired) for e in (first, second)
                                       for ev in e.board_events)
    # the panel is the battle: its one-line sentence (wording.EVENT_TEXTS["ts_board_battle"],
    # for the CLI's summary) is not listed again under "Other events"
    assert "ann attacks bob in 34 on the land board" not in flat
    assert "Other events" not in text
    assert battle_summaries([first, second], game) == [battle_outcome(first), battle_outcome(second)]
    assert battle_outcome(first).startswith("ann wins the board battle in 34 after 11 battle turns")


def test_the_html_report_draws_each_battle_frame_by_frame_where_the_events_put_the_pieces(game):
    event, finished = fought_battle(1)
    page = report_html([event], game)
    assert "Board battle in 34" in page
    figure = re.search(r'<figure data-area="34">(<svg.*?</svg>)\s*</figure>', page, re.S)
    assert figure is not None
    root = ET.fromstring(figure.group(1))
    frames = [g for g in root.iter(f"{NS}g") if g.get("class") == "frame"]
    assert [int(f.get("data-turn")) for f in frames] == list(range(event.turns + 1))
    last = {g.get("data-piece"): g.get("data-square") for g in frames[-1].iter(f"{NS}g")
            if g.get("class") == "piece"}
    assert last == {p.id: square_name(RULES, p.square) for p in finished.pieces.values()}
    shots = [line for f in frames for line in f.iter(f"{NS}line") if line.get("class") == "shot"]
    assert {(s.get("data-piece"), s.get("data-at")) for s in shots} == {
        (ev.piece, ev.at) for ev in event.board_events if isinstance(ev, ShotFired)}
    # the phone's narrow layout replays it too
    assert page.count("Board battle in 34 (land board)") >= 3


def test_a_game_without_board_rules_still_reports_in_words():
    event, _ = fought_battle(1)
    bare = load_bare_game("taktyczne")          # the io loader alone: no Game.tables
    assert not bare.tables
    assert ", rolls " in report_text([event], bare)
    assert "board-battle-1" not in report_html([event], bare)


def test_a_board_battle_is_found_by_area_or_number_and_a_wrong_name_says_what_there_is():
    first, _ = fought_battle(1, area="34")
    second, _ = fought_battle(0, area="S07")
    events = [first, second]
    assert find_board_battle(events, "34") is first
    assert find_board_battle(events, "s07") is second
    assert find_board_battle(events, "#2") is second
    with pytest.raises(LookupError, match=r"no board battle was fought in 12 .*#1 34, #2 S07"):
        find_board_battle(events, "12")
    with pytest.raises(LookupError, match="no board battle #3"):
        find_board_battle(events, "#3")
    with pytest.raises(LookupError, match="name one by its number"):
        find_board_battle([first, attrs.evolve(second, area="34")], "34")
    with pytest.raises(LookupError, match="no board battle was fought in that turn"):
        find_board_battle([], "34")


# ------------------------------------------------------------------ pbem show --battle

@pytest.fixture(scope="module")
def battle_game(tmp_path_factory):
    """A Taktyczne Starcie game after its pregame, whose turn file is given two board
    battles as the main turn writes them, re-signed with the game master's key (crafted:
    ``pbem verify`` would find that the replay does not fight them)."""
    import json

    from adjudicator.cli import main
    from adjudicator.io import keys, layout, sshsig
    from adjudicator.io.codec import canonical_json, encode_events
    base = tmp_path_factory.mktemp("battle-game")
    g = base / "g"
    assert main(["new", str(g), "--ruleset", "taktyczne", "--option", "players=2", "--demo-seeds"]) == 0
    orders = base / "pass.txt"
    orders.write_text("pass\n")
    assert main(["process", str(orders), "-g", str(g), "--demo-seeds"]) == 0
    first, finished = fought_battle(1, area="34", attacker="red", defender="blue")
    second, _ = fought_battle(0, area="22", attacker="blue", defender="red")
    path = layout.list_turns(str(g))[-1][2]
    doc = json.loads(path.read_text())
    doc["events"] += encode_events([first, second])
    path.write_bytes(canonical_json(doc))
    gm = keys.load_private_key(g / ".secret" / "gm_ed25519")
    path.with_name(path.name + ".sig").write_text(sshsig.sign(path.read_bytes(), gm, sshsig.NAMESPACE_TURN))
    return g, first, finished


def test_pbem_show_battle_replays_a_board_battle_in_the_terminal(battle_game, capsys):
    from adjudicator.cli import main
    g, first, _ = battle_game
    capsys.readouterr()
    assert main(["show", "-g", str(g), "--battle", "34"]) == 0
    out = " ".join(capsys.readouterr().out.replace("│", " ").split())
    assert "Board battle in 34 (land board): Red attacks Blue" in out
    for ev in first.board_events:
        if isinstance(ev, ShotFired):
            assert f"needs {ev.need}, rolls {ev.roll}" in out
    assert out.count(", rolls ") == sum(isinstance(ev, ShotFired) for ev in first.board_events)
    assert main(["show", "-g", str(g), "--battle", "#2", "--turn", "1"]) == 0
    assert "Board battle in 22 (land board): Blue attacks Red" in capsys.readouterr().out


def test_pbem_show_battle_svg_draws_it_frame_by_frame(battle_game, tmp_path, capsys):
    from adjudicator.cli import main
    g, first, finished = battle_game
    out = tmp_path / "battle.svg"
    assert main(["show", "-g", str(g), "--battle", "34", "--svg", str(out)]) == 0
    root = ET.fromstring(out.read_text())
    frames = [f for f in root.iter(f"{NS}g") if f.get("class") == "frame"]
    assert len(frames) == first.turns + 1
    last = {g.get("data-piece"): g.get("data-square") for g in frames[-1].iter(f"{NS}g")
            if g.get("class") == "piece"}
    assert last == {p.id: square_name(RULES, p.square) for p in finished.pieces.values()}
    assert "Board battle in 34 (land board): Red attacks Blue (turn 1)" in root.find(f"{NS}title").text
    capsys.readouterr()


@pytest.mark.parametrize("args, message", [
    (["--battle", "12"], "no board battle was fought in 12 that turn (there are: #1 34, #2 22)"),
    (["--battle", "34", "--turn", "7"], "no turn 7"),
    (["--battle", "34", "--json"], "--json prints the position"),
    (["--turn", "1"], "--turn goes with --battle"),
    (["--battle", "34", "--svg", "battle.png"], "must end in .svg"),
])
def test_pbem_show_battle_says_what_is_wrong(battle_game, capsys, args, message):
    from adjudicator.cli import main
    g, _, _ = battle_game
    assert main(["show", "-g", str(g), *args]) != 0
    assert message in " ".join(capsys.readouterr().err.split())


def test_pbem_show_battle_in_an_edition_without_a_board_says_so(tmp_path, capsys):
    from adjudicator.cli import main
    g = tmp_path / "g"
    assert main(["new", str(g), "--demo-seeds"]) == 0
    assert main(["show", "-g", str(g), "--battle", "34"]) != 0
    assert "fights no battles on a board" in " ".join(capsys.readouterr().err.split())


def test_pbem_report_of_the_turn_replays_its_board_battles(battle_game, tmp_path, capsys):
    from adjudicator.cli import main
    g, first, _ = battle_game
    page = tmp_path / "report.html"
    capsys.readouterr()
    assert main(["report", "-g", str(g), "--out", str(page)]) == 0
    out = capsys.readouterr().out
    assert "Board battles" in out and "Board battle in 22 (land board): Blue attacks Red" in out
    html = page.read_text()
    assert '<figure data-area="34">' in html and '<figure data-area="22">' in html
    assert f'<li>{escape(battle_outcome(first, {"red": "Red", "blue": "Blue"}.get))}</li>' in html


# ------------------------------------------------------------ a battle the main turn fought

REAL_POSITION = """edition taktyczne
case a board battle fought by the main turn
power red
position empty
owner 22: red
owner 23: blue
units 22: red 1 tank_4, 2 tank_2
units 23: blue 1 tank_3, 1 at_gun, 2 mine_land
standing blue: defend 23: line, hold
orders:
end
expect valid
"""
REAL_ORDERS = "move 1 tank_4, 2 tank_2 22 -> 23\nplan 23: wedge, advance, target guns, fire at 5\n"


def test_a_battle_the_main_turn_fought_is_shown_replayed_and_verified(tmp_path, capsys):
    """End to end on a game folder started on a position: ``pbem process`` fights the board
    battle, ``pbem show --battle`` replays and draws it from the turn file, the report has
    it, and ``pbem verify`` still replays the turn."""
    from adjudicator.cli import main
    from adjudicator.io import layout
    from adjudicator.io.rules_cases import parse_cases
    from adjudicator.io.turnfile import read_turn_file
    from adjudicator.service import gamedir
    from adjudicator.service.rules_cases import build_position
    game = load_game("taktyczne")
    state = build_position(game, parse_cases(REAL_POSITION)[0])
    directory = tmp_path / "game"
    gamedir.create_game(directory, game, state.game_id, None, "2026-01-01", initial=state)
    orders = tmp_path / "red.txt"
    orders.write_text(REAL_ORDERS, encoding="utf-8")
    assert main(["process", str(orders), "-g", str(directory)]) == 0
    processed = " ".join(capsys.readouterr().out.replace("│", " ").split())
    (event,) = [ev for ev in read_turn_file(layout.list_turns(str(directory))[-1][2])[0].events
                if ev.kind == "ts_board_battle"]
    shots = [ev for ev in event.board_events if isinstance(ev, ShotFired)]
    assert "Board battles" in processed and processed.count(", rolls ") == len(shots) > 0
    assert main(["show", "-g", str(directory), "--battle", "23"]) == 0
    shown = " ".join(capsys.readouterr().out.replace("│", " ").split())
    assert "Board battle in 23 (land board): Red attacks Blue" in shown
    assert "targets guns first, fires when it needs 5 or less" in shown
    for ev in shots:
        assert f"fires{' back' if ev.back else ''} at {ev.at} (" in shown
        assert f"needs {ev.need}, rolls {ev.roll}" in shown
    picture = tmp_path / "battle.svg"
    assert main(["show", "-g", str(directory), "--battle", "23", "--svg", str(picture)]) == 0
    frames = [f for f in ET.fromstring(picture.read_text()).iter(f"{NS}g") if f.get("class") == "frame"]
    assert len(frames) == event.turns + 1
    # the last frame has exactly the units the event says survived, each side's
    lost = {pid for power, units in event.losses for pid in units}
    on_board = {g.get("data-piece"): g.get("data-kind") for g in frames[-1].iter(f"{NS}g")
                if g.get("class") == "piece"}
    forces = {pid: kind for _, force in event.forces for pid, kind in force.units}
    assert set(on_board) <= set(forces) and all(forces[p] == k for p, k in on_board.items())
    assert sorted(k for p, k in forces.items() if p not in on_board) == sorted(
        k if k in forces.values() else forces.get(k, k) for k in lost)
    # the main map after the turn: the attack drawn as a combat move into the battle's area
    board = tmp_path / "board.svg"
    assert main(["show", "-g", str(directory), "--svg", str(board)]) == 0
    arrows = [(g.get("data-power"), g.get("data-phase"), g.get("data-path"))
              for g in ET.fromstring(board.read_text()).iter(f"{NS}g")
              if "arrow" in (g.get("class") or "").split()]
    assert arrows == [("red", "combat", "22 > 23")]
    bursts = [(g.get("data-space"), g.get("data-outcome")) for g in ET.fromstring(board.read_text()).iter(f"{NS}g")
              if g.get("class") == "battle"]
    assert bursts == [("23", "attacker_wins" if event.winner == "red" else "defender_wins")]
    assert main(["verify", str(directory)]) == 0
    capsys.readouterr()


SEA_FORCES = {ATTACKER: BoardForce(units=(("w1", "warship_4"), ("w2", "warship_2"), ("w3", "warship_1"))),
              DEFENDER: BoardForce(units=(("v1", "warship_3"), ("v2", "warship_3")), mines=2)}


@pytest.mark.parametrize("seed", range(6))
def test_a_sea_battle_replays_and_draws_from_its_events_alone(game, seed):
    event, finished = fought_battle(seed, area="S05", board="sea", forces=SEA_FORCES, plans={})
    lines = [text for _, text in replay_lines(event, RULES)]
    assert lines[0] == "Board battle in S05 (sea board): ann attacks bob"
    assert "the attacker (ann) brings w1 (Warship IV), w2 (Warship II), w3 (Warship I)" in lines
    shots = [ev for ev in event.board_events if isinstance(ev, ShotFired)]
    assert sum(bool(re.search(r" fires (back )?at ", line)) for line in lines) == len(shots)
    page = report_html([event], game)
    svg = re.search(r'<figure data-area="S05">(<svg.*?</svg>)', page, re.S).group(1)
    frames = [g for g in ET.fromstring(svg).iter(f"{NS}g") if g.get("class") == "frame"]
    last = {g.get("data-piece"): g.get("data-square") for g in frames[-1].iter(f"{NS}g")
            if g.get("class") == "piece"}
    assert last == {p.id: square_name(RULES, p.square) for p in finished.pieces.values()}
