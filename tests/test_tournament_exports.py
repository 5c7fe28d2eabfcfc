"""Standings and crosstable exports (BBCode, Markdown, CSV) carry the standings' own
numbers: the CSV equals standings.json, the crosstable the games' results."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json

from adjudicator.cli import main
from adjudicator.service.tournament import organiser

from tournament_helpers import START, make_tournament

HOUR = dt.timedelta(hours=1)


def _export(capsys, tdir, *args) -> str:
    assert main(["tournament", "export", str(tdir), *args]) == 0
    return capsys.readouterr().out


def test_exports_match_the_recorded_standings(tmp_path, capsys):
    tdir, _ = make_tournament(tmp_path, 4, format__rounds="1")
    plan = organiser.pair(tdir, START)
    organiser.start(tdir, START)
    first, second = (p.game for p in plan.pairings)
    sides = {s.game: s.sides for s in organiser.status(tdir, START)}
    organiser.resign(tdir, first, sides[first]["Axis"], START + HOUR, reason="busy")
    organiser.decide(tdir, second, None, "agreed draw | after round 1", START + 2 * HOUR)
    organiser.standings(tdir, record=True)
    recorded = json.loads((tdir / "standings.json").read_text())["standings"]
    ctx = organiser.open_tournament(tdir)

    rows = list(csv.DictReader(io.StringIO(_export(capsys, tdir, "--format", "csv"))))
    assert [r["player"] for r in rows] == [r["player"] for r in recorded]
    for got, want in zip(rows, recorded):
        assert got["place"] == want["place"] and float(got["score"]) == want["score"]
        assert (int(got["wins"]), int(got["draws"]), int(got["losses"])) == \
            (want["wins"], want["draws"], want["losses"])
        for name, value in want["tiebreaks"].items():
            assert float(got[name]) == value
        assert got["name"] == ctx.names[want["player"]]

    cross = list(csv.reader(io.StringIO(_export(capsys, tdir, "--format", "csv",
                                                "--crosstable"))))
    order = [r["player"] for r in recorded]
    winner = order.index(sides[first]["Allies"])
    loser = order.index(sides[first]["Axis"])
    assert cross[winner + 1][2 + loser] == f"1 ({first})"
    assert cross[loser + 1][2 + winner] == f"0 ({first})"
    a, b = (order.index(p) for p in sides[second].values())
    assert cross[a + 1][2 + b] == cross[b + 1][2 + a] == f"½ ({second})"
    assert cross[a + 1][2 + a] == "x"

    md = _export(capsys, tdir, "--format", "markdown")
    assert "| # | Player | Score |" in md and "### Crosstable" in md
    assert "agreed draw \\| after round 1" in md          # a '|' cannot break the table
    bb = _export(capsys, tdir, "--format", "bbcode")
    assert bb.count("[table]") == 2 and f"[td]½ ({second})[/td]" in bb
    for name in ctx.names.values():
        assert f"[td]{name}[/td]" in bb and f"| {name} |" in md
    out = tmp_path / "s.md"
    assert main(["tournament", "export", str(tdir), "-o", str(out)]) == 0
    assert out.read_text() == md
