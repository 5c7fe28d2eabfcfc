"""The tournament's announcements: the schedule with its calendar file, the pairings, the
standings after each round and the final announcement, each with BBCode, Markdown and CSV.

The standings, crosstable and exports are checked against results computed here from the
games' own files (each game replayed by the audit, ``verify_game``; a side that conceded
has lost, an untouched board at the round limit is a draw) and the rounds' byes -- not
from the standings code."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from collections import Counter
from pathlib import Path

import icalendar
import pytest

from adjudicator.cli import main
from adjudicator.service import gamedir
from adjudicator.service.audit import verify_game
from adjudicator.service.games import load_game
from adjudicator.service.tournament import organiser
from tournament_helpers import START, make_tournament, send, settings

HOUR = dt.timedelta(hours=1)
URL = "https://league.example/{tournament}/{game}/report.html"
REPR = re.compile(r"\{'|': |\[\('|<adjudicator|datetime\.|Row\(|GameResult\(|\bNone\b")


def _configure(tdir: Path, **more) -> None:
    text = (tdir / "tournament.toml").read_text()
    text = text.replace('organiser = ""', 'organiser = "org@league.example"')
    text = text.replace('report_url = ""', f'report_url = "{URL}"')
    (tdir / "tournament.toml").write_text(text)
    if more:
        settings(tdir / "tournament.toml", **more)
    organiser.tick(tdir, START)


def _notice(tdir: Path, stem: str) -> tuple[str, dict[str, bytes]]:
    """A notice written to notices/ (no mail.toml): its text and its attachments."""
    folder = tdir / "notices"
    path, = [p for p in folder.glob(f"{stem}*.txt")]
    files = {p.name: p.read_bytes() for p in (folder / path.stem).iterdir()} \
        if (folder / path.stem).is_dir() else {}
    return path.read_text(encoding="utf-8"), files


# --------------------------------------------------------------------------- schedule

def _strict_ics(data: bytes) -> list[dict[str, str]]:
    """RFC 5545 checked by hand: CRLF only, content lines of at most 75 octets, folded
    lines starting with one space, balanced components, the required properties."""
    assert data.endswith(b"\r\n") and b"\n" not in data.replace(b"\r\n", b"")
    physical = data[:-2].split(b"\r\n")
    assert all(len(line) <= 75 for line in physical), max(physical, key=len)
    logical: list[str] = []
    for line in physical:
        if line.startswith(b" "):
            logical[-1] += line[1:].decode("utf-8")
        else:
            logical.append(line.decode("utf-8"))
    assert logical[0] == "BEGIN:VCALENDAR" and logical[-1] == "END:VCALENDAR"
    assert "VERSION:2.0" in logical and any(x.startswith("PRODID:") for x in logical)
    events, current = [], None
    for line in logical:
        name, _, value = line.partition(":")
        if line == "BEGIN:VEVENT":
            assert current is None
            current = {}
        elif line == "END:VEVENT":
            assert {"UID", "DTSTAMP", "DTSTART"} <= {k.split(";")[0] for k in current}
            events.append(current)
            current = None
        elif current is not None:
            current[name] = value
    assert current is None and events
    return events


def test_the_schedule_mail_and_its_calendar(tmp_path):
    tdir, _ = make_tournament(tmp_path, 4, sides__method='"bid"', format__rounds="3",
                              bid__deadline_hours="48", bid__default="4")
    _configure(tdir, schedule__start='"2025-03-03"', schedule__round_days="14")
    organiser.pair(tdir, START)
    organiser.start(tdir, START)
    organiser.start(tdir, START + HOUR)                       # sent once
    assert len(list((tdir / "notices").glob("schedule-*.txt"))) == 1
    text, files = _notice(tdir, "schedule-")
    assert "Subject: [Cup] Schedule of Cup" in text
    assert "Round 1 begins Mon 03 Mar 2025" in text and "planned to last 14 days" in text
    assert "within 48 h (2 days) of the round's pairing" in text and "4 IPCs" in text
    assert "Mon 17 Mar 2025" in text and "Mon 31 Mar 2025" in text        # rounds 2, 3
    assert not REPR.search(text)
    assert set(files) == {"cup-schedule.ics", "schedule.bbcode.txt", "schedule.md",
                          "schedule.csv"}
    rows = list(csv.DictReader(io.StringIO(files["schedule.csv"].decode())))
    assert [r["Round"] for r in rows] == ["1", "2", "3"]
    assert rows[0]["Bid deadline"] == "Mon 03 Mar 2025 12:00 UTC"   # paired START + 48 h
    assert rows[2]["Begins"] == "Mon 31 Mar 2025"

    data = files["cup-schedule.ics"]
    events = _strict_ics(data)
    assert len(events) == 6                                   # 3 rounds, 3 bid deadlines
    cal = icalendar.Calendar.from_ical(data)                  # an independent parser
    parsed = {str(e["UID"]): e for e in cal.walk("VEVENT")}
    assert set(parsed) == {f"cup-round-{n}{x}@league.example" for n in (1, 2, 3)
                           for x in ("", "-bids")}
    r2 = parsed["cup-round-2@league.example"]
    assert r2.decoded("DTSTART") == dt.date(2025, 3, 17)
    assert r2.decoded("DTEND") == dt.date(2025, 3, 31)        # exclusive: 14 days
    bids = parsed["cup-round-1-bids@league.example"]
    assert bids.decoded("DTSTART") == dt.datetime(2025, 3, 3, 12, tzinfo=dt.timezone.utc)
    assert "," in str(bids["DESCRIPTION"]) or "(" in str(bids["DESCRIPTION"])
    # DTSTAMP is the recorded settings' time, not the clock: the same tournament set up
    # again elsewhere writes the same bytes
    assert r2.decoded("DTSTAMP") == dt.datetime(2025, 3, 1, 12, tzinfo=dt.timezone.utc)
    again, _ = make_tournament(tmp_path / "again", 4, sides__method='"bid"',
                               format__rounds="3", bid__deadline_hours="48",
                               bid__default="4")
    _configure(again, schedule__start='"2025-03-03"', schedule__round_days="14")
    organiser.pair(again, START)
    organiser.start(again, START)
    assert _notice(again, "schedule-")[1]["cup-schedule.ics"] == data


def test_a_schedule_without_dates_says_rounds_follow_each_other(tmp_path):
    tdir, _ = make_tournament(tmp_path, 2, format__rounds="2")
    organiser.pair(tdir, START + 5 * HOUR)
    organiser.start(tdir, START + 5 * HOUR)
    text, files = _notice(tdir, "schedule-")
    assert "Round 1 begins Sat 01 Mar 2025 (the day round 1 was paired)" in text
    assert "no fixed round length" in text
    events = _strict_ics(files["cup-schedule.ics"])
    assert [e["DTSTART;VALUE=DATE"] for e in events] == ["20250301"]    # round 1 only


def test_the_ics_folds_long_lines_between_characters():
    from adjudicator.present import ics
    line = "DESCRIPTION:" + "é" * 100 + "x" * 30
    folded = ics.fold(line)
    parts = folded.encode("utf-8").split(b"\r\n")
    assert all(len(p) <= 75 for p in parts) and all(p.startswith(b" ") for p in parts[1:])
    assert "".join(p.decode("utf-8")[1 if i else 0:] for i, p in enumerate(parts)) == line
    assert ics.escape_text("a;b,c\\d\ne") == "a\\;b\\,c\\\\d\\ne"


# --------------------------------------------------------------------------- standings

def _play_round(tdir: Path, round_no: int, now: dt.datetime) -> dt.datetime:
    """Round ``round_no``'s first game: the first player to move concedes (in the game, a
    turn file); the others: every power passes until the round limit (a draw)."""
    plan = organiser.open_tournament(tdir).tdir.rounds()[round_no - 1]
    for i, p in enumerate(plan.pairings):
        while True:
            s = next(x for x in organiser.status(tdir, now) if x.game == p.game)
            if s.state != "running":
                break
            now += HOUR
            text = f"power: {s.power}\n" + ("concede\n" if i == 0 else "pass\n")
            send(tdir, p.game, text, {}, s.player, now)
    return now


def _independent(tdir: Path) -> dict:
    """Each player's wins, draws, losses, byes and points, and each game's points for
    each player, from the games' files (replayed by the audit) and the rounds' byes."""
    ctx = organiser.open_tournament(tdir)
    by_email = {p.email: p.id for p in ctx.players}
    table = {p.id: Counter() for p in ctx.players}
    cells = {}
    for plan in ctx.tdir.rounds():
        for pid in plan.byes:
            table[pid]["byes"] += 1
            table[pid]["points"] += 1.0
        for p in plan.pairings:
            gdir = ctx.tdir.game_dir(p.game)
            report = verify_game(gdir, load_game)
            assert report.ok and report.complete, report.failure
            gf, _ = gamedir.read_game(gdir)
            game = load_game(gf.ruleset)
            side_of = {by_email[rec.email]: game.ruleset.powers[power].side
                       for power, rec in gf.players.items()}
            final = report.final_state
            if final.winner is None:                  # at the round limit, untouched board
                assert final.owners == gf.initial_state.owners
            for pid, side in side_of.items():
                outcome = ("draws" if final.winner is None else
                           "wins" if final.winner == side else "losses")
                points = {"wins": 1.0, "draws": 0.5, "losses": 0.0}[outcome]
                table[pid][outcome] += 1
                table[pid]["points"] += points
                other = next(x for x in side_of if x != pid)
                cells[pid, other] = (points, p.game)
    return {"table": table, "cells": cells}


def _points_text(points: float) -> str:
    return {1.0: "1", 0.5: "½", 0.0: "0"}[points]


def test_standings_crosstable_and_exports_match_the_games_files(tmp_path, capsys):
    tdir, _ = make_tournament(tmp_path, 5, format__rounds="2", end__round_limit="1")
    _configure(tdir)
    now = START
    for round_no in (1, 2):
        organiser.pair(tdir, now)
        organiser.start(tdir, now)
        now = _play_round(tdir, round_no, now)
    truth = _independent(tdir)
    names = organiser.open_tournament(tdir).names

    text1, _ = _notice(tdir, "standings-1")
    assert "Subject: [Cup] Standings after round 1" in text1
    text, files = _notice(tdir, "standings-2")
    for body in (text1, text, *(v.decode() for v in files.values())):
        assert not REPR.search(body), REPR.search(body)
    assert "Subject: [Cup] Final standings" in text and "is over after round 2" in text
    assert "Tie rule: players on equal points are ordered by 1. Buchholz" in text
    assert "Adjudication: a game still running at the end of its round 1 is decided by the " \
           "aa1941 preset (capitals, then income plus units' value)" in text
    assert "gained since the start" in text and "share their place" in text

    rows = list(csv.DictReader(io.StringIO(files["standings-final.csv"].decode())))
    assert {r["player"] for r in rows} == set(truth["table"])
    for r in rows:
        want = truth["table"][r["player"]]
        assert float(r["score"]) == want["points"], r
        assert (int(r["wins"]), int(r["draws"]), int(r["losses"]), int(r["byes"])) == \
            (want["wins"], want["draws"], want["losses"], want["byes"]), r
        assert r["name"] == names[r["player"]]
    scores = [float(r["score"]) for r in rows]
    assert scores == sorted(scores, reverse=True)
    winner = rows[0]
    assert names[winner["player"]] in text.splitlines()[1]       # the subject names them

    order = [r["player"] for r in rows]
    cross = list(csv.reader(io.StringIO(files["crosstable-final.csv"].decode())))
    assert cross[0] == ["#", "Player", *map(str, range(1, 6)), "Score"]
    for i, me in enumerate(order):
        assert cross[i + 1][1] == names[me] and cross[i + 1][2 + i] == "x"
        for j, other in enumerate(order):
            if (me, other) in truth["cells"]:
                points, game = truth["cells"][me, other]
                assert cross[i + 1][2 + j] == f"{_points_text(points)} ({game})"
            elif i != j:
                assert cross[i + 1][2 + j] == ""
    assert len(truth["cells"]) == 8                          # 4 games, two cells each

    bb = files["standings-final.bbcode.txt"].decode()
    md = files["standings-final.md"].decode()
    for (me, other), (points, game) in truth["cells"].items():
        link = URL.format(tournament="cup", game=game)
        assert f"{_points_text(points)} ([url={link}]{game}[/url])" in bb
        assert f"{_points_text(points)} ([{game}]({link}))" in md
    for r in rows:
        name, score = names[r["player"]], r["score"]
        assert f"[td]{name}[/td][td]{score}[/td]" in bb
        assert f"| {name} | {score} |" in md
    assert "Tie rule" in bb and "Tie rule" in md

    # the same from the command line, and the HTML page's crosstable links each report
    assert main(["tournament", "export", str(tdir), "--format", "csv"]) == 0
    assert capsys.readouterr().out == files["standings-final.csv"].decode()
    page = tmp_path / "s.html"
    assert main(["tournament", "standings", str(tdir), "--html", str(page)]) == 0
    html = page.read_text()
    for _key, (_points, game) in truth["cells"].items():
        assert f'<a href="{URL.format(tournament="cup", game=game)}">{game}</a>' in html
    assert main(["tournament", "verify", str(tdir)]) == 0


def test_without_report_url_the_crosstable_shows_game_ids(tmp_path):
    tdir, _ = make_tournament(tmp_path, 2, format__rounds="1")
    plan = organiser.pair(tdir, START)
    organiser.start(tdir, START)
    game = plan.pairings[0]
    organiser.resign(tdir, game.game, game.players[0], START + HOUR)
    _text, files = _notice(tdir, "standings-1")
    bb = files["standings-final.bbcode.txt"].decode()
    assert f"[td]1 ({game.game})[/td]" in bb and "[url=" not in bb
    assert "no round limit" in _text


@pytest.mark.parametrize("bad", ["https://x/{player}", "mailto:x@y"])
def test_a_bad_report_url_is_refused_by_name(tmp_path, bad, capsys):
    tdir, _ = make_tournament(tmp_path, 2)
    text = (tdir / "tournament.toml").read_text().replace('report_url = ""',
                                                           f'report_url = "{bad}"')
    (tdir / "tournament.toml").write_text(text)
    assert main(["tournament", "status", str(tdir)]) == 2
    assert "report_url" in capsys.readouterr().err
