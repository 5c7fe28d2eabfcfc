"""Withdrawing and replacing a player: a withdrawn player's unfinished games are resigned
and later rounds do not pair them; a replacement takes the seat, in a running game too,
through a replacement record signed by the game master that ``tournament verify`` checks."""

from __future__ import annotations

import json

import pytest

from adjudicator.cli import main
from adjudicator.model.errors import PbemError
from adjudicator.service.tournament import organiser, seats
from adjudicator.service.tournament.verify import verify_tournament
from tournament_helpers import START, make_tournament, scripted_orders, send


def test_a_replacement_takes_the_seat_in_a_running_game(tmp_path, capsys):
    tdir, private = make_tournament(tmp_path, 2)
    plan = organiser.pair(tdir, START)
    game = plan.pairings[0].game
    organiser.start(tdir, START)
    send(tdir, game, scripted_orders(tdir, game), private,
         organiser.status(tdir, START)[0].player, START)
    assert main(["tournament", "replace", str(tdir), "p01", "Zoe New", "--email",
                 "zoe@example.org", "--reason", "p01 moved abroad",
                 "--now", "2025-03-02T00:00Z"]) == 0
    assert game in capsys.readouterr().out
    ctx = organiser.open_tournament(tdir)
    assert ctx.player("p01").name == "Zoe New" and ctx.player("p01").email == "zoe@example.org"
    gdir = ctx.tdir.game_dir(game)
    record = json.loads((gdir / "seats" / "0001.json").read_text())
    assert record["old"]["name"] == "Player 01" and record["new"]["email"] == "zoe@example.org"
    book = json.loads((gdir / "addresses.json").read_text())
    assert {e["email"] for e in book.values()} == {"zoe@example.org"}
    # the seat plays on: the next turn's player is still p00 or p01, scores unchanged
    send(tdir, game, scripted_orders(tdir, game), private,
         organiser.status(tdir, START)[0].player, START)
    assert verify_tournament(tdir).ok

    # A record that does not match its log entry, or an address book edited afterwards, fails.
    book[next(iter(book))]["email"] = "mallory@example.org"
    (gdir / "addresses.json").write_text(json.dumps(book))
    audit = verify_tournament(tdir)
    assert not audit.ok and "addresses.json" in str(audit)
    (gdir / "seats" / "0001.json").write_text(json.dumps(dict(record, reason="other")))
    assert "replacement record" in str(verify_tournament(tdir))


def test_a_keyed_seat_is_not_replaced_in_a_running_game(tmp_path):
    tdir, _ = make_tournament(tmp_path, 2, keyed=2)
    organiser.pair(tdir, START)
    organiser.start(tdir, START)
    with pytest.raises(PbemError, match="fixes Player 00's key"):
        seats.replace(tdir, "p00", "Zoe New", "zoe@example.org", None, "moved", START)


def test_a_withdrawn_player_loses_the_running_game_and_is_not_paired_again(tmp_path):
    tdir, private = make_tournament(tmp_path, 4, format__rounds="3")
    plan = organiser.pair(tdir, START)
    organiser.start(tdir, START)
    leaver = plan.pairings[0].players[0]
    games = seats.withdraw(tdir, leaver, "no time any more", START)
    assert games == [plan.pairings[0].game]
    results = {r.game: r for r in organiser.all_results(organiser.open_tournament(tdir))}
    assert results[games[0]].winner == plan.pairings[0].players[1]
    with pytest.raises(PbemError, match="already withdrawn"):
        seats.withdraw(tdir, leaver, "again", START)
    other = plan.pairings[1]
    organiser.resign(tdir, other.game, other.players[0], START)
    second = organiser.pair(tdir, START)
    assert leaver not in {x for p in second.pairings for x in p.players}
    assert leaver not in second.byes and len(second.byes) == 1
    assert verify_tournament(tdir).ok
