"""A simulated Swiss tournament: 16 players, 4 rounds, scripted orders, random NMRs and
concessions, an injected clock.  Pairings are valid (no rematch, sides balanced), NMRs
are played exactly at their deadlines, every game verifies, and the standings recomputed
from the games' files equal the recorded ones."""

from __future__ import annotations

import datetime as dt
import json
import random
from collections import Counter

from adjudicator.io.layout import list_turns
from adjudicator.service.tournament import organiser
from adjudicator.service.tournament.deadlines import stamp
from adjudicator.service.tournament.pairing import side_balance
from adjudicator.service.tournament.standings import as_record, compute_standings
from adjudicator.service.tournament.verify import verify_tournament

from tournament_helpers import START, make_tournament, scripted_orders, send

SECOND = dt.timedelta(seconds=1)
HOUR = dt.timedelta(hours=1)


def _nmr_events(gdir):
    found = []
    for number, power, path in list_turns(gdir):
        data = json.loads(path.read_bytes())
        found += [(number, e["power"], e["deadline"]) for e in data["events"]
                  if e["kind"] == "no_moves_received"]
    return found


def test_swiss_tournament_16_players_4_rounds(tmp_path):
    rng = random.Random(1941)
    tdir, private = make_tournament(
        tmp_path, 16, keyed=6, format__rounds="4", end__round_limit="1",
        deadlines__turn_hours="48", deadlines__reminders="[12]",
        deadlines__grace_extensions="1", deadlines__grace_hours="12",
        nmr__forfeit_after="4")
    now = START
    expected_nmrs: dict[tuple[str, int], str] = {}     # (game, turn) -> deadline stamp
    for round_no in range(1, 5):
        plan = organiser.pair(tdir, now)
        assert plan.round == round_no and len(plan.pairings) == 8 and not plan.byes
        history = organiser.open_tournament(tdir).tdir.pairings()
        assert len({frozenset(p.players) for p in history}) == len(history), "a rematch"
        balance = side_balance(history, "Axis")
        assert set(balance) == {f"p{i:02d}" for i in range(16)}
        assert max(abs(v) for v in balance.values()) <= 1, balance
        assert sorted(organiser.start(tdir, now)) == sorted(p.game for p in plan.pairings)

        plans: dict[tuple[str, int], tuple[str, dt.datetime]] = {}
        while True:
            running = [s for s in organiser.status(tdir, now, results=False)
                       if s.state == "running"]
            if not running:
                break
            for s in running:
                if (s.game, s.turn) not in plans:
                    if rng.random() < 0.2:
                        plans[(s.game, s.turn)] = ("nmr", s.deadline)
                    else:
                        move = "concede" if rng.random() < 0.04 else "orders"
                        plans[(s.game, s.turn)] = (move, now + rng.randint(1, 40) * HOUR)
            # the next thing to happen: a player's mail, or a deadline nobody meets
            s, (what, when) = min(((s, plans[(s.game, s.turn)]) for s in running),
                                  key=lambda item: (item[0].deadline if item[1][0] == "nmr"
                                                    else item[1][1], item[0].game))
            if what == "nmr":
                deadline = s.deadline
                before = len(list_turns(tdir / "games" / s.game))
                report = organiser.tick(tdir, deadline - SECOND)
                assert not report.nmrs and not report.extensions
                assert len(list_turns(tdir / "games" / s.game)) == before
                now = deadline
                due_now = {(x.game, x.turn) for x in running if x.deadline == now}
                report = organiser.tick(tdir, now)
                # every turn due now got a grace extension or its NMR, and no other did
                acted = report.extensions + report.nmrs
                assert sorted(acted) == sorted(f"{g} turn {t}" for g, t in due_now)
                for game, turn in due_now:
                    assert plans[(game, turn)][0] == "nmr"
                    if f"{game} turn {turn}" in report.nmrs:
                        expected_nmrs[(game, turn)] = stamp(now)
            else:
                now = when
                text = scripted_orders(tdir, s.game, concede=(what == "concede"))
                send(tdir, s.game, text, private, s.player, now)
        now += HOUR

    # every NMR was played, exactly at its deadline, and no other
    found = {}
    for game in sorted((tdir / "games").iterdir()):
        for number, _power, deadline in _nmr_events(game):
            found[(game.name, number)] = deadline
    assert found == expected_nmrs and found

    view = organiser.standings(tdir, record=True)
    audit = verify_tournament(tdir)
    assert audit.ok, audit.problems
    assert audit.games_checked == 32 and audit.rounds_checked == 4
    assert audit.standings_checked and audit.nmrs_checked == len(expected_nmrs)
    # the standings are a function of the games: recomputed from fresh results they equal
    # the recorded file
    ctx = organiser.open_tournament(tdir)
    results = organiser.all_results(ctx)
    assert len(results) == 32 and all(r.finished for r in results)
    rows = compute_standings([p.id for p in ctx.players], results, [], ctx.cfg,
                             view.ratings, "Axis")
    assert as_record(rows) == ctx.tdir.recorded_standings()["standings"]
    assert sum(r.played for r in rows) == 64
    wins = Counter(r.how for r in results)
    assert wins["round_limit"] > 0, wins
