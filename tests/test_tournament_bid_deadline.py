"""The bid deadline gives the default bid to a player who did not bid in time; the
organiser's bid reset lets both players seal new bids (the old files kept aside)."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from adjudicator.cli import main
from adjudicator.model.errors import PbemError
from adjudicator.service.tournament import bids, organiser
from adjudicator.service.tournament.verify import verify_tournament

from tournament_helpers import START, make_tournament

HOUR = dt.timedelta(hours=1)


@pytest.fixture
def league(tmp_path):
    tdir, _ = make_tournament(tmp_path, 2, sides__method='"bid"', bid__deadline_hours="48",
                              bid__default="12")
    plan = organiser.pair(tdir, START)
    return tdir, plan.pairings[0]


def _seal(tdir, game, player, amount):
    nonce = bids.new_nonce()
    digest = bids.commitment("cup", game, player, amount, nonce)
    organiser.bid_commit(tdir, game, player, digest, START + HOUR)
    return nonce


def test_a_missing_bid_gets_the_default_at_the_deadline(league):
    tdir, p = league
    amy, boris = p.players
    nonce = _seal(tdir, p.game, amy, 12)
    assert organiser.tick(tdir, START + 47 * HOUR).bid_defaults == []
    report = organiser.tick(tdir, START + 48 * HOUR)
    assert report.bid_defaults == [f"{p.game} {boris}"]             # amy committed in time
    ctx = organiser.open_tournament(tdir)
    assert organiser.sides_of(ctx, p)[0] is None                     # amy has yet to reveal
    organiser.bid_reveal(tdir, p.game, amy, 12, nonce, START + 49 * HOUR)
    sides, bid = organiser.sides_of(organiser.open_tournament(tdir), p)
    assert sides == {"Axis": boris, "Allies": amy} and bid == 12     # equal: amy bid in time
    with pytest.raises(PbemError, match="default bid of 12"):
        organiser.bid_reveal(tdir, p.game, boris, 3, "00" * 16, START + 50 * HOUR)
    notice = (tdir / "notices" / f"bids-open-{p.game}.txt").read_text()
    assert "12 (the default: no bid by the deadline)" in notice
    assert verify_tournament(tdir).ok
    log = tdir / "log.jsonl"           # a default dated before the deadline is caught
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    for e in entries:
        if e["kind"] == "bid_default":
            e["at"] = "2025-03-02T12:00:00Z"
    log.write_text("".join(json.dumps(e) + "\n" for e in entries))
    audit = verify_tournament(tdir)
    assert not audit.ok and "before the bid deadline" in str(audit.problems), audit.problems


def test_a_committed_bid_never_revealed_gets_the_default_later(league):
    tdir, p = league
    amy, boris = p.players
    _seal(tdir, p.game, amy, 5)
    _seal(tdir, p.game, boris, 7)
    assert organiser.tick(tdir, START + 60 * HOUR).bid_defaults == []
    assert sorted(organiser.tick(tdir, START + 96 * HOUR).bid_defaults) == \
        sorted(f"{p.game} {x}" for x in (amy, boris))
    sides, bid = organiser.sides_of(organiser.open_tournament(tdir), p)
    assert bid == 12 and set(sides.values()) == {amy, boris}


def test_the_organiser_resets_a_lost_commitment(league, capsys):
    tdir, p = league
    amy, boris = p.players
    _seal(tdir, p.game, amy, 5)
    with pytest.raises(PbemError, match="cannot be changed"):
        _seal(tdir, p.game, amy, 6)                     # resealed: refused
    assert main(["tournament", "bid", "reset", str(tdir), p.game, "--reason",
                 "amy lost her nonce", "--now", "2025-03-02T00:00Z"]) == 0
    assert "begin again" in capsys.readouterr().out
    kept = list((tdir / "bids" / p.game).glob("reset-*/*.commit"))
    assert [k.name for k in kept] == [f"{amy}.commit"]
    notice = next((tdir / "notices").glob("bids-reset-*.txt")).read_text()
    assert "amy lost her nonce" in notice and "2025-03-04T00:00:00Z" in notice
    n1, n2 = _seal(tdir, p.game, amy, 6), _seal(tdir, p.game, boris, 4)
    organiser.bid_reveal(tdir, p.game, amy, 6, n1, START + 20 * HOUR)
    organiser.bid_reveal(tdir, p.game, boris, 4, n2, START + 20 * HOUR)
    sides, bid = organiser.sides_of(organiser.open_tournament(tdir), p)
    assert sides["Allies"] == boris and bid == 4
    # the deadline counts from the reset: nothing is due 48 h after the pairing
    assert organiser.tick(tdir, START + 49 * HOUR).bid_defaults == []
    assert verify_tournament(tdir).ok
