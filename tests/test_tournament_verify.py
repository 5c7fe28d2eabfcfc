"""``tournament verify`` re-checks every game: tampering with any file of any game makes
it fail, naming the file; a changed standings.json or round file is caught too."""

from __future__ import annotations

import datetime as dt
import json
import shutil

import pytest

from adjudicator.cli import main
from adjudicator.service.tournament import organiser, ratings
from adjudicator.service.tournament.verify import verify_tournament

from tournament_helpers import START, make_tournament, scripted_orders, send

HOUR = dt.timedelta(hours=1)


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """Four players, one Swiss round: one game played to the round limit by orders and
    NMRs, the other conceded; standings recorded."""
    tmp = tmp_path_factory.mktemp("verify")
    tdir, private = make_tournament(tmp, 4, keyed=2, format__rounds="1",
                                    end__round_limit="1", deadlines__turn_hours="24",
                                    deadlines__grace_extensions="0")
    plan = organiser.pair(tdir, START)
    organiser.start(tdir, START)
    first, second = (p.game for p in plan.pairings)
    now = START + HOUR / 2
    status = {s.game: s for s in organiser.status(tdir, now)}
    send(tdir, second, scripted_orders(tdir, second, concede=True), private,
         status[second].player, now)
    for turn in range(1, 6):
        status = {s.game: s for s in organiser.status(tdir, now)}
        if turn % 2:
            now += HOUR
            send(tdir, first, scripted_orders(tdir, first), private, status[first].player, now)
        else:
            now = status[first].deadline
            assert organiser.tick(tdir, now).nmrs == [f"{first} turn {turn}"]
    organiser.standings(tdir, record=True)
    return tdir, first, second


def test_the_played_tournament_verifies(played, capsys):
    tdir, first, second = played
    audit = verify_tournament(tdir)
    assert audit.ok, audit.problems
    assert audit.games_checked == 2 and audit.turns_checked == 6 and audit.nmrs_checked == 2
    results = {r.game: r for r in organiser.all_results(organiser.open_tournament(tdir))}
    assert results[first].how == "round_limit" and results[second].how == "concession"
    assert main(["tournament", "verify", str(tdir)]) == 0
    assert "OK" in capsys.readouterr().out


def _game_files(tdir):
    return sorted(p for p in (tdir / "games").rglob("*")
                  if p.is_file() and ".secret" not in p.parts and p.name != "mail.toml")


def test_tampering_with_any_game_file_fails_naming_it(played, tmp_path):
    tdir, _first, _second = played
    files = _game_files(tdir)
    assert len(files) == 2 * 2 + 6 * 3           # game.json(.sig) per game, 3 files a turn
    for path in files:
        copy = tmp_path / path.relative_to(tdir.parent).as_posix().replace("/", "_")
        shutil.copytree(tdir, copy)
        target = copy / path.relative_to(tdir)
        data = bytearray(target.read_bytes())
        middle = len(data) // 2
        while chr(data[middle]) in " \n\r\t=-{}[]\":,":   # change a character of content
            middle += 1
        data[middle] = ord("A") if data[middle] != ord("A") else ord("B")
        target.write_bytes(bytes(data))
        audit = verify_tournament(copy)
        named = path.relative_to(tdir).as_posix()
        assert not audit.ok, named
        # the file, or (a signature that no longer matches its data) the file's signature
        assert audit.problems[0].file in (named, named + ".sig"), (named, audit.problems)
        shutil.rmtree(copy)


def test_a_changed_standings_file_or_round_file_fails(played, tmp_path):
    tdir, _first, _second = played
    copy = tmp_path / "standings"
    shutil.copytree(tdir, copy)
    path = copy / "standings.json"
    path.write_text(path.read_text().replace('"score": 1.0', '"score": 2.0', 1))
    audit = verify_tournament(copy)
    assert [p.file for p in audit.problems] == ["standings.json"]

    copy = tmp_path / "rounds"
    shutil.copytree(tdir, copy)
    path = copy / "rounds" / "0001.json"
    data = json.loads(path.read_text())
    sides = data["pairings"][0]["sides"]
    sides["Axis"], sides["Allies"] = sides["Allies"], sides["Axis"]     # swap the sides
    path.write_text(json.dumps(data))
    audit = verify_tournament(copy)
    assert not audit.ok
    assert audit.problems[0].file == "games/cup-r1-01/game.json"    # its players' sides
    assert "should be played by" in audit.problems[0].detail


def test_a_missing_nmr_record_or_moved_deadline_fails(played, tmp_path):
    tdir, first, _second = played
    copy = tmp_path / "log"
    shutil.copytree(tdir, copy)
    log = copy / "log.jsonl"
    lines = log.read_text().splitlines(keepends=True)
    # an organiser extension slipped in before the first NMR: it was then played early
    index = next(i for i, line in enumerate(lines) if '"kind":"nmr"' in line)
    lines.insert(index, '{"at":"2025-03-01T12:00:00Z","auto":false,"by":"organiser",'
                        f'"game":"{first}","hours":5,"kind":"extension","player":null,'
                        '"reason":"","turn":2}\n')
    log.write_text("".join(lines))
    audit = verify_tournament(copy)
    assert [(p.file, p.check) for p in audit.problems] == [
        (f"games/{first}/turns/0002-germany.json", "nmr")]


def _edit_standings(tdir, tmp_path, name, change):
    copy = tmp_path / name
    shutil.copytree(tdir, copy)
    path = copy / "standings.json"
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))
    return copy


def _shift_ratings(data):
    for row in data["standings"]:
        row["rating"] = row["rating"] + 0.125


def test_ratings_are_checked_exactly_under_the_recorded_library_version(played, tmp_path):
    tdir, _first, _second = played
    recorded = json.loads((tdir / "standings.json").read_text())
    assert recorded["ratings_library"] == ratings.library()
    assert recorded["ratings_library"].startswith("openskill ")
    copy = _edit_standings(tdir, tmp_path, "same", _shift_ratings)
    audit = verify_tournament(copy)
    assert [p.file for p in audit.problems] == ["standings.json"]


def test_ratings_of_another_library_version_are_not_compared_the_rest_is(played, tmp_path):
    tdir, _first, _second = played

    def other_version(data):
        data["ratings_library"] = "openskill 5.9.9"
        _shift_ratings(data)

    audit = verify_tournament(_edit_standings(tdir, tmp_path, "other", other_version))
    assert audit.ok, audit.problems
    assert any("recorded with openskill 5.9.9" in note for note in audit.notes)

    def other_version_and_score(data):
        other_version(data)
        data["standings"][0]["score"] += 1.0

    audit = verify_tournament(_edit_standings(tdir, tmp_path, "score", other_version_and_score))
    assert [p.file for p in audit.problems] == ["standings.json"]


def test_standings_recorded_before_the_library_was_noted_still_verify(played, tmp_path):
    tdir, _first, _second = played
    audit = verify_tournament(_edit_standings(tdir, tmp_path, "old",
                                              lambda data: data.pop("ratings_library")))
    assert audit.ok and audit.standings_checked and not audit.notes, (audit.problems, audit.notes)
