"""An odd number of players: each round one player has a bye, announced, scored
``[scoring] bye``, never twice while others have had none; verify agrees."""

from __future__ import annotations

import datetime as dt
from collections import Counter

from adjudicator.service.tournament import organiser
from adjudicator.service.tournament.verify import verify_tournament

from tournament_helpers import START, make_tournament

HOUR = dt.timedelta(hours=1)


def test_three_players_round_robin_each_has_one_bye(tmp_path):
    tdir, _ = make_tournament(tmp_path, 3, format__kind='"round_robin"', format__rounds="0")
    byes = Counter()
    now = START
    for round_no in (1, 2, 3):
        plan = organiser.pair(tdir, now)
        assert len(plan.pairings) == 1 and len(plan.byes) == 1
        byes.update(plan.byes)
        notice = (tdir / "notices").glob(f"pairing-{round_no}*.txt")
        assert any(f"bye: Player {plan.byes[0][1:]}" in n.read_text() for n in notice)
        organiser.start(tdir, now)
        game = plan.pairings[0]
        now += HOUR
        organiser.resign(tdir, game.game, game.players[0], now)
    assert byes == Counter({"p00": 1, "p01": 1, "p02": 1})
    # after each round, once, the standings go to every player; the last round's is final
    rounds = sorted((tdir / "notices").glob("standings-*.txt"))
    assert [p.name for p in rounds] == ["standings-1.txt", "standings-2.txt",
                                        "standings-3.txt"]
    text = rounds[-1].read_text()
    assert "Subject: [Cup] Final standings" in text and "1 bye" in text   # a round robin's end
    assert "Standings after round 2" in rounds[1].read_text()
    assert "Results of round 3:" in text and "resigned" in text
    assert {p.name for p in (tdir / "notices" / "standings-3").iterdir()} == {
        "standings-final.bbcode.txt", "standings-final.md", "standings-final.csv",
        "crosstable-final.csv"}
    view = organiser.standings(tdir, record=True)
    assert all(r.byes == 1 and r.played == 2 for r in view.rows)
    assert sum(r.score for r in view.rows) == 3 + 3          # three games won, three byes
    assert verify_tournament(tdir).ok


def test_a_swiss_bye_goes_to_the_lowest_ranked_without_one(tmp_path):
    tdir, _ = make_tournament(tmp_path, 5, format__rounds="2")
    first = organiser.pair(tdir, START)
    organiser.start(tdir, START)
    for p in first.pairings:
        organiser.resign(tdir, p.game, p.players[1], START + HOUR)
    second = organiser.pair(tdir, START + 2 * HOUR)
    assert len(first.byes) == len(second.byes) == 1 and first.byes != second.byes
    organiser.start(tdir, START + 2 * HOUR)
    for p in second.pairings:
        organiser.resign(tdir, p.game, p.players[1], START + 3 * HOUR)
    final = (tdir / "notices" / "standings-2.txt").read_text()
    assert "Subject: [Cup] Final standings" in final and "Final standings after round 2" in final
    organiser.standings(tdir, record=True)
    assert verify_tournament(tdir).ok
