"""The organiser's decisions and the messages around them: a concession sent off-turn
ends the game, a resignation at any time, an organiser's result with a reason (counted by
the standings, replayed by verify, a bad one caught), orders that arrive after an NMR say
so."""

from __future__ import annotations

import datetime as dt
import email
import email.policy
import json
import re

import pytest

from adjudicator.cli import main
from adjudicator.model.errors import PbemError
from adjudicator.service.tournament import organiser
from adjudicator.service.tournament.verify import verify_tournament

from tournament_helpers import START, make_tournament, send

HOUR = dt.timedelta(hours=1)


@pytest.fixture
def cup(tmp_path):
    tdir, private = make_tournament(tmp_path, 4, keyed=4, format__rounds="1",
                                    deadlines__turn_hours="24",
                                    deadlines__grace_extensions="0")
    plan = organiser.pair(tdir, START)
    organiser.start(tdir, START)
    return tdir, private, [p.game for p in plan.pairings]


def _players(tdir, game):
    status = {s.game: s for s in organiser.status(tdir, START)}
    return status[game].sides           # side -> player


def test_a_signed_concession_sent_off_turn_ends_the_game(cup):
    tdir, private, (first, _second) = cup
    sides = _players(tdir, first)
    axis = sides["Axis"]                 # the Soviet Union moves first: not the Axis' turn
    result = send(tdir, first, "power: Germany\nconcede\n", private, axis, START + HOUR)
    assert result.finished and result.winner == sides["Allies"] and result.how == "resignation"
    assert "resigned: conceded off-turn" in result.detail
    assert first not in {s.game for s in organiser.status(tdir, START + HOUR)
                         if not s.result}
    # unsigned, it is refused (the player has a key)
    with pytest.raises(PbemError, match="must be signed"):
        organiser.submit_orders(tdir, _second_game(cup), b"power: Germany\nconcede\n", None,
                                START + HOUR)
    assert verify_tournament(tdir).ok


def _second_game(cup):
    return cup[2][1]


def test_resign_and_an_organisers_result_are_recorded_counted_and_verified(cup, capsys,
                                                                          monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)     # piped: lines are not folded at 80
    tdir, _private, (first, second) = cup
    sides = _players(tdir, second)
    assert main(["tournament", "resign", str(tdir), first, _players(tdir, first)["Allies"],
                 "--reason", "moving house", "--now", "2025-03-01T13:00Z"]) == 0
    assert "resigned: moving house" in capsys.readouterr().out
    code = main(["tournament", "result", str(tdir), second, "draw", "--reason",
                 "both players agreed a draw", "--now", "2025-03-01T14:00Z"])
    out = capsys.readouterr().out
    assert code == 0 and "draws with" in out and "organiser's decision: both" in out
    with pytest.raises(PbemError, match="already over"):
        organiser.resign(tdir, first, _players(tdir, first)["Axis"], START + 3 * HOUR)
    # the organiser may still override: the Axis player of the second game wins after all
    organiser.decide(tdir, second, sides["Axis"], "a rules error in turn 1", START + 4 * HOUR)
    assert main(["tournament", "standings", str(tdir), "--record"]) == 0
    out = capsys.readouterr().out
    assert "organiser's decision: a rules error in turn 1" in out
    results = {r.game: r for r in organiser.all_results(organiser.open_tournament(tdir))}
    assert results[second].winner == sides["Axis"] and results[second].how == "organiser"
    assert verify_tournament(tdir).ok
    # a decision naming someone who does not play the game is caught by verify
    log = tdir / "log.jsonl"
    lines = log.read_text().splitlines()
    edited = [json.loads(line) for line in lines]
    for e in edited:
        if e["kind"] == "decision" and e["winner"] == sides["Axis"]:
            e["winner"] = "nobody"
    log.write_text("".join(json.dumps(e) + "\n" for e in edited))
    audit = verify_tournament(tdir)
    assert not audit.ok and "names nobody, who does not play it" in str(audit.problems[0])


def test_orders_after_an_nmr_say_so(cup):
    tdir, private, (first, _second) = cup
    sides = _players(tdir, first)
    report = organiser.tick(tdir, START + 25 * HOUR)           # the USSR missed turn 1
    assert f"{first} turn 1" in report.nmrs
    allies = sides["Allies"]
    with pytest.raises(PbemError) as caught:
        send(tdir, first, "power: Soviet Union\nbuy 1 inf\nplace 1 inf Russia\n", private,
             allies, START + 26 * HOUR)
    # signed with the current turn's header (2): the power named finds the missed turn
    assert "turn 1 (Soviet Union, due 2025-03-02T12:00:00Z), which was played as an NMR" \
        in str(caught.value) and "it is now Germany's turn" in str(caught.value)
    key = private[allies]
    from adjudicator.io import sshsig
    late = (f"game: {first}\nturn: 1\npower: Soviet Union\nbuy 1 inf\n"
            "place 1 inf Russia\n").encode()
    with pytest.raises(PbemError, match="turn 1 \\(Soviet Union, due 2025-03-02T12:00:00Z\\)"
                       ", which was played as an NMR"):
        organiser.submit_orders(tdir, first, late,
                                sshsig.sign(late, key, sshsig.NAMESPACE_ORDERS),
                                START + 26 * HOUR)


def test_status_of_one_round(cup, capsys):
    tdir, _private, (first, second) = cup
    assert main(["tournament", "status", str(tdir), "--round", "1",
                 "--now", "2025-03-01T13:00Z"]) == 0
    out = capsys.readouterr().out
    assert "round 1" in out and first in out and second in out
    assert main(["tournament", "status", str(tdir), "--round", "2"]) == 2
    assert "no game in round 2 (rounds paired: 1)" in capsys.readouterr().err


REPR = re.compile(r"\{'|\{\"|\[\(|\[\]|\(\)|<[\w.]+ object at|\bNone\b|PosixPath|"
                  r"datetime\.|\battrs\b|Traceback")


def test_no_python_repr_reaches_a_mail(cup, tmp_path):
    """Every notice of a busy round (pairing, start, reminders, grace, NMR, a settings
    change, an extension, a pause, a resignation, an organiser's result) read as a person."""
    tdir, private, (first, second) = cup
    (tdir / "mail.toml").write_text('address = "gm@example.org"\nname = "GM"\n'
                                    '[send]\ntype = "outbox"\n')
    organiser.extend(tdir, first, 5, START + HOUR, reason="a server outage")
    organiser.pause(tdir, _players(tdir, second)["Axis"], START + 2 * HOUR, START + 30 * HOUR,
                    START + HOUR)
    toml = tdir / "tournament.toml"
    toml.write_text(toml.read_text().replace("forfeit_after = 3", "forfeit_after = 2"))
    organiser.tick(tdir, START + 20 * HOUR)
    organiser.tick(tdir, START + 40 * HOUR)
    organiser.resign(tdir, first, _players(tdir, first)["Axis"], START + 41 * HOUR,
                     reason="no time")
    organiser.decide(tdir, second, None, "agreed", START + 42 * HOUR)   # a draw
    texts = [p.read_text() for p in (tdir / "notices").glob("*.txt")]
    for path in (tdir / ".mail" / "outbox").glob("*.eml"):
        msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        texts += [part.get_content() for part in msg.walk()
                  if part.get_content_type() == "text/plain"] + [str(msg["Subject"])]
    assert len(texts) >= 8, texts
    for text in texts:
        assert not REPR.search(text), text


def test_a_game_decided_before_its_start_is_not_started(tmp_path):
    bids, _ = make_tournament(tmp_path, 2, name="bids", sides__method='"bid"')
    game = organiser.pair(bids, START).pairings[0]
    with pytest.raises(PbemError, match="sides are not decided"):
        organiser.resign(bids, game.game, game.players[0], START)
    tdir, _ = make_tournament(tmp_path, 2)
    game = organiser.pair(tdir, START).pairings[0]
    organiser.decide(tdir, game.game, game.players[1], "a no-show", START + HOUR)
    assert organiser.start(tdir, START + 2 * HOUR) == []
    [result] = organiser.all_results(organiser.open_tournament(tdir))
    assert result.finished and result.winner == game.players[1]
