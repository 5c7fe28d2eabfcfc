"""The board battle event of Taktyczne Starcie's main turn (issue 26, contract 1 of the
split): ``BoardBattleFought`` carries a whole board battle, exactly the board's events, and
survives the turn-file codec; its sentence names the winner and the losses."""

from __future__ import annotations

from adjudicator.engine.tactical import fight
from adjudicator.io.codec import canonical_json, decode_events, encode_events
from adjudicator.io.tactical_data import load_board
from adjudicator.model.dice import SeededDice
from adjudicator.model.tactical import (ATTACKER, DEFENDER, BattlePlan, BoardBattleEnded,
                                        BoardForce, Doctrine, MinesLaid, ShotFired)
from adjudicator.model.taktyczne import BoardBattleFought
from adjudicator.present.wording import event_text

RULES = load_board()


def fought(seed: int = 7) -> BoardBattleFought:
    forces = {ATTACKER: BoardForce(units=(("a1", "tank_3"), ("a2", "tank_1"))),
              DEFENDER: BoardForce(units=(("d1", "tank_2"), ("d2", "at_gun")), mines=2)}
    plans = {ATTACKER: BattlePlan(doctrine=Doctrine(target="guns_first", fire_at=5)),
             DEFENDER: BattlePlan(doctrine=Doctrine(stance="hold"))}
    board = fight(RULES, "land", forces, plans, SeededDice(seed))
    result = board.result
    assert result is not None
    winner = {ATTACKER: "red", DEFENDER: "blue"}[result.winner]
    lost = {side: tuple(pid for pid, _ in forces[side].units if pid not in board.pieces)
            for side in (ATTACKER, DEFENDER)}
    return BoardBattleFought(
        area="23", board="land", attacker="red", defender="blue",
        forces=tuple(forces.items()), plans=tuple(plans.items()),
        board_events=tuple(board.events), winner=winner, turns=result.turn,
        losses=(("red", lost[ATTACKER]), ("blue", lost[DEFENDER])))


def test_board_battle_event_round_trips_through_the_turn_file_codec():
    event = fought()
    data = encode_events([event])
    assert data[0]["kind"] == "ts_board_battle"
    assert {e["kind"] for e in data[0]["board_events"]} >= {"board_deployed", "board_battle_ended"}
    back = decode_events(data)
    assert back == (event,)
    assert isinstance(back[0].board_events[-1], BoardBattleEnded)
    assert any(isinstance(e, MinesLaid) and e.count == 2 for e in back[0].board_events)
    assert any(isinstance(e, ShotFired) for e in back[0].board_events)
    assert dict(back[0].plans)[DEFENDER].doctrine.stance == "hold"
    assert canonical_json(encode_events(back)) == canonical_json(data)


def test_a_live_battle_keeps_its_flag_and_an_unknown_board_event_is_refused():
    event = fought(3)
    live = BoardBattleFought(**{**_fields(event), "live": True})
    assert decode_events(encode_events([live]))[0].live is True
    data = encode_events([event])
    data[0]["board_events"][0]["kind"] = "board_teleported"
    try:
        decode_events(data)
    except Exception as exc:                  # the codec's own error, with the kind named
        assert "board_teleported" in str(exc)
    else:
        raise AssertionError("an unknown board event kind was accepted")


def test_board_battle_sentence_names_the_area_the_winner_and_the_losses():
    event = BoardBattleFought(
        area="23", board="land", attacker="red", defender="blue", forces=(), plans=(),
        board_events=(), winner="blue", turns=4, losses=(("red", ("t1", "t1")), ("blue", ())))
    text = event_text(event)
    assert text == ("red attacks blue in 23 on the land board: blue wins after 4 battle turns; "
                    "red loses 2 t1")
    none = BoardBattleFought(**{**_fields(event), "winner": "", "losses": (), "live": True})
    assert event_text(none) == ("red attacks blue in 23 on the land board (played live by mail): "
                                "no one wins after 4 battle turns")


def _fields(event: BoardBattleFought) -> dict:
    import attrs
    return attrs.asdict(event, recurse=False)
