"""Round-limit adjudication is symmetric for the sides: each criterion is what a side
gained since the start, so an untouched board is a draw (the 1941 map's 3 Allied capitals
against 2 Axis ones decide nothing); the edition's preset names victory cities where the
map has them."""

from __future__ import annotations

import copy
import datetime as dt

import attrs

from adjudicator.service.games import load_game
from adjudicator.service.tournament import organiser
from adjudicator.service.tournament.results import adjudicate, adjudication_text, criteria_for

from tournament_helpers import START, make_tournament, send

SIDES = ("Axis", "Allies")


def _pass_round(tdir, game_id, private):
    """Every power of round 1 passes: nothing moves, nothing is bought."""
    now = START
    while True:
        status = {s.game: s for s in organiser.status(tdir, now)}
        if status[game_id].power is None or status[game_id].result:
            return
        now += dt.timedelta(hours=1)
        power = status[game_id].power
        send(tdir, game_id, f"power: {power}\npass\n", private, status[game_id].player, now)


def test_an_untouched_board_at_the_round_limit_is_a_draw(tmp_path, capsys):
    tdir, private = make_tournament(tmp_path, 2, format__rounds="1", end__round_limit="1",
                                    nmr__forfeit_after="0")
    plan = organiser.pair(tdir, START)
    organiser.start(tdir, START)
    game_id = plan.pairings[0].game
    _pass_round(tdir, game_id, private)
    [result] = organiser.all_results(organiser.open_tournament(tdir))
    assert result.finished and result.how == "round_limit"
    assert result.winner is None, result.detail        # not the Allies by capitals 3-2
    assert result.detail == ("round limit: capitals gained: Axis +0, Allies +0; income plus "
                             "units' value gained: Axis +0, Allies +0 (all equal)")
    notice = next((tdir / "notices").glob("result-*.txt")).read_text()
    assert "draws with" in notice and "gained since the start" in notice
    standings = (tdir / "notices" / "standings-1.txt").read_text()     # the round's mail
    assert "Final standings after round 1" in standings and "gained since the start" in standings
    from adjudicator.cli import main
    assert main(["tournament", "standings", str(tdir)]) == 0
    out = capsys.readouterr().out
    assert "capitals, then income plus units' value" in out
    for fmt in ("markdown", "bbcode"):
        assert main(["tournament", "export", str(tdir), "--format", fmt]) == 0
        assert "gained since the start" in capsys.readouterr().out


def _summary(tmp_path):
    tdir, private = make_tournament(tmp_path, 2, format__rounds="1", end__round_limit="1",
                                    nmr__forfeit_after="0")
    plan = organiser.pair(tdir, START)
    organiser.start(tdir, START)
    ctx = organiser.open_tournament(tdir)
    summary = organiser.summary_of(ctx, plan.pairings[0].game)
    return ctx.game, summary


def test_a_captured_capital_or_lost_units_decide_for_the_side_that_gained(tmp_path):
    game, summary = _summary(tmp_path)
    assert summary.owners == summary.start_owners
    assert adjudicate(game, summary, ("preset",), SIDES)[0] is None
    owners = dict(summary.owners, Russia="germany")
    side, detail = adjudicate(game, attrs.evolve(summary, owners=owners), ("preset",), SIDES)
    assert side == "Axis" and detail == "round limit: capitals gained: Axis +1, Allies -1"
    # the same board with the sides' roles swapped decides for the other side
    owners = dict(summary.owners, Germany="ussr")
    assert adjudicate(game, attrs.evolve(summary, owners=owners), ("preset",), SIDES)[0] \
        == "Allies"
    # an Allied infantry lost (3 IPCs) without a purchase: the Axis are ahead by units' value
    units = copy.deepcopy(summary.units)
    group = next(g for g in units["Russia"] if g["type"] == "infantry")
    group["count"] -= 1
    side, detail = adjudicate(game, attrs.evolve(summary, units=units), ("preset",), SIDES)
    assert side == "Axis" and detail.endswith("Axis +0, Allies -3")
    # units bought are not a gain: the Allies placed 2 infantry they paid for
    units = copy.deepcopy(summary.units)
    next(g for g in units["Russia"] if g["type"] == "infantry")["count"] += 2
    bought = {"ussr": {"infantry": 2}}
    assert adjudicate(game, attrs.evolve(summary, units=units, bought=bought), ("preset",),
                      SIDES)[0] is None


def test_presets_per_edition():
    aa1941, aa1942 = load_game("aa1941"), load_game("aa1942")
    assert criteria_for(aa1941, ("preset",)) == ("capitals", "income_tuv")
    assert criteria_for(aa1942, ("preset",)) == ("victory_cities", "income_tuv")
    assert criteria_for(aa1942, ("income",)) == ("income",)
    assert "victory cities, then income plus units' value" in adjudication_text(
        aa1942, ("preset",))
