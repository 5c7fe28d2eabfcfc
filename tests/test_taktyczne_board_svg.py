"""The Taktyczne Starcie board battle as a picture (issue 26): one position, and a finished
battle replayed from its events, a frame per battle turn."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from adjudicator.engine.tactical import fight
from adjudicator.engine.tactical.geometry import board_square, square_name
from adjudicator.io.tactical_data import load_board
from adjudicator.model.dice import SeededDice
from adjudicator.model.tactical import (
    ATTACKER, DEFENDER, BattlePlan, BoardForce, Doctrine, MineExploded, Piece, PieceMoved, ShotFired,
)
from adjudicator.present.board_battle_svg import MAX_EVENTS, board_position_svg, board_replay_svg

RULES = load_board()
NS = "{http://www.w3.org/2000/svg}"
FORCES = {ATTACKER: BoardForce((("a1", "tank_3"), ("a2", "tank_2"), ("a3", "tank_1"), ("a4", "at_gun"))),
          DEFENDER: BoardForce((("d1", "tank_2"), ("d2", "tank_2"), ("d3", "at_gun"), ("d4", "lrg")), mines=3)}


def frames(svg: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [g for g in root.iter(f"{NS}g") if g.get("class") == "frame"]


def pieces(frame: ET.Element, cls: str = "piece") -> dict[str, tuple[str, str]]:
    found = [g for g in frame.iter(f"{NS}g") if g.get("class") == cls]
    out = {g.get("data-piece"): (g.get("data-side"), g.get("data-square")) for g in found}
    assert len(out) == len(found)                  # one element per unit
    return out


def test_a_position_has_one_piece_per_unit_on_its_square_and_the_mines_shown():
    units = [Piece("t1", ATTACKER, "tank_4", board_square(RULES, "C3a")),
             Piece("g1", DEFENDER, "at_gun", board_square(RULES, "E2d"))]
    svg = board_position_svg(RULES, units, mines=[board_square(RULES, "F7d")], title="a position")
    (frame,) = frames(svg)
    assert pieces(frame) == {"t1": (ATTACKER, "C3a"), "g1": (DEFENDER, "E2d")}
    mines = [g.get("data-square") for g in frame.iter(f"{NS}g") if g.get("class") == "mine"]
    assert mines == ["F7d"]
    # the 13 x 20 board: 13 column letters, 20 row labels, rows 1-3 and 4-10 shaded per side
    texts = [t.text for t in frame.iter(f"{NS}text")]
    assert [c for c in "ABCDEFGHIJKLM"] == [t for t in texts if t and len(t) == 1]
    assert {f"{r}{s}" for r in range(1, 11) for s in "ad"} <= set(texts)
    bands = [r for r in frame.iter(f"{NS}rect") if (r.get("class") or "").startswith("rows")]
    assert sorted(float(b.get("height")) / 22 for b in bands) == [3, 3, 7, 7]


def test_the_replay_has_a_frame_per_battle_turn_and_follows_the_battle():
    battle = fight(RULES, "land", FORCES, {}, SeededDice(5))
    svg = board_replay_svg(RULES, battle.events, "replay")
    shown = frames(svg)
    assert [int(f.get("data-turn")) for f in shown] == list(range(battle.result.turn + 1))
    deployed = pieces(shown[0])
    assert set(deployed) == {pid for force in FORCES.values() for pid, _ in force.units}
    final = {p.id: (p.side, square_name(RULES, p.square)) for p in battle.pieces.values()}
    assert pieces(shown[-1]) == final
    # every shot and move of a battle turn is drawn in its frame
    for frame in shown[1:]:
        turn = int(frame.get("data-turn"))
        moved = {e.piece for e in battle.events if isinstance(e, PieceMoved) and e.turn == turn}
        fired = {(e.piece, e.at) for e in battle.events if isinstance(e, ShotFired) and e.turn == turn}
        assert {p.get("data-piece") for p in frame.iter(f"{NS}polyline")} == moved
        assert {(s.get("data-piece"), s.get("data-at")) for s in frame.iter(f"{NS}line")} == fired
    assert "the defender wins" in "".join(shown[-1].itertext())


def test_a_mine_that_went_off_is_revealed_from_then_on():
    for seed in range(40):
        battle = fight(RULES, "land", FORCES, {}, SeededDice(seed))
        blasts = [e for e in battle.events if isinstance(e, MineExploded)]
        if blasts:
            break
    else:
        pytest.fail("no mine went off in 40 battles")
    shown = frames(board_replay_svg(RULES, battle.events))
    last = shown[-1]
    revealed = {g.get("data-square") for g in last.iter(f"{NS}g") if g.get("class") == "mine revealed"}
    assert revealed == {e.square for e in blasts}
    assert not [g for g in shown[0].iter(f"{NS}g") if "mine" in (g.get("class") or "")]


def test_text_is_escaped():
    forces = {ATTACKER: BoardForce((("<a&1>", "tank_2"),)), DEFENDER: BoardForce((('d"1', "tank_1"),))}
    battle = fight(RULES, "land", forces, {}, SeededDice(1))
    svg = board_replay_svg(RULES, battle.events, title="<script>&amp;</script>")
    root = ET.fromstring(svg)
    assert root.find(f"{NS}title").text == "<script>&amp;</script>"
    assert "<script>" not in svg
    assert "<a&1>" in pieces(frames(svg)[0])


def test_the_same_battle_gives_the_same_bytes():
    first, second = (board_replay_svg(RULES, fight(RULES, "land", FORCES, {}, SeededDice(9)).events)
                     for _ in range(2))
    assert first == second


def test_size_is_bounded():
    """A battle to the 30-turn cap stays small; an oversized event log is refused."""
    hold = BattlePlan(doctrine=Doctrine(stance="hold"))
    forces = {ATTACKER: BoardForce((("t1", "tank_1"),)), DEFENDER: BoardForce((("v1", "tank_1"),))}
    battle = fight(RULES, "land", forces, {ATTACKER: hold, DEFENDER: hold}, SeededDice(1))
    svg = board_replay_svg(RULES, battle.events)
    assert len(frames(svg)) == RULES.battle_turn_cap + 1
    assert len(svg) < 400_000
    with pytest.raises(ValueError, match=str(MAX_EVENTS)):
        board_replay_svg(RULES, list(battle.events) * (MAX_EVENTS // len(battle.events) + 1))


def test_a_sea_battle_replays_with_its_warships_and_their_rank_pips():
    forces = {ATTACKER: BoardForce((("w1", "warship_4"), ("w2", "warship_2"))),
              DEFENDER: BoardForce((("x1", "warship_3"),), mines=2)}
    battle = fight(RULES, "sea", forces, {}, SeededDice(11))
    shown = frames(board_replay_svg(RULES, battle.events))
    assert pieces(shown[-1]) == {p.id: (p.side, square_name(RULES, p.square)) for p in battle.pieces.values()}
    w1 = next(g for g in shown[0].iter(f"{NS}g") if g.get("data-piece") == "w1")
    assert w1.get("data-kind") == "warship_4"
    assert len([c for c in w1.iter(f"{NS}circle") if c.get("fill") == "#FFFFFF"]) == 4   # rank IV
    assert "W4" in "".join(w1.itertext())
