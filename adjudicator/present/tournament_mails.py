"""The tournament's announcements in words: the schedule (with a calendar file), a round's
pairings, the standings after a round, the final announcement; each with forum text
(BBCode, Markdown) and CSV as attachments.

Takes the service's plain data (``service.tournament.mailings``: ScheduleData,
PairingsData, StandingsData, any objects with those attributes) and returns
``(subject, body, attachments)``; ``writers()`` bundles the functions for
``mailings.use_writers``.  Needs nothing but the standard library and its neighbours."""

from __future__ import annotations

import csv
import datetime as dt
import io

from . import ics
from .tournament_exports import (bbcode, crosstable_csv, markdown, markdown_link,
                                 standings_csv)
from .tournament_pages import TIEBREAK_TITLES

TIEBREAK_MEANINGS = {
    "buchholz": "Buchholz: the sum of the opponents' scores",
    "median_buchholz": "median Buchholz: the same without the best and the worst of them",
    "sonneborn_berger": "Sonneborn-Berger: the scores of the opponents beaten, plus half of "
                        "those drawn",
    "head_to_head": "head-to-head: points in the games among the players still tied",
    "wins": "games won",
    "axis_wins": "games won with the first side",
    "fewest_nmrs": "fewer turns missed (NMRs)",
    "rating": "the higher rating",
}
FORMAT_WORDS = {"swiss": "Swiss", "round_robin": "round robin", "ladder": "ladder"}


def _day(when: dt.datetime | None) -> str:
    return "-" if when is None else f"{when:%a %d %b %Y}"


def _time(when: dt.datetime | None) -> str:
    return "-" if when is None else f"{when:%a %d %b %Y %H:%M} UTC"


def _hours(value: float) -> str:
    return f"{value:g} h" + (f" ({value / 24:g} days)" if value >= 48 and value % 24 == 0
                             else "")


def _csv(head, rows) -> bytes:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(head)
    writer.writerows(rows)
    return buf.getvalue().encode("utf-8")


def _bb_table(head, rows) -> str:
    lines = ["[table]", "[tr]" + "".join(f"[th]{h}[/th]" for h in head) + "[/tr]"]
    lines += ["[tr]" + "".join(f"[td]{c}[/td]" for c in row) + "[/tr]" for row in rows]
    return "\n".join(lines + ["[/table]"])


def _md_table(head, rows) -> str:
    def cell(text) -> str:
        return str(text).replace("|", "\\|")
    lines = ["| " + " | ".join(map(cell, head)) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(map(cell, row)) + " |" for row in rows]
    return "\n".join(lines)


def _forum(stem: str, title: str, head, rows, bb_rows=None, md_rows=None, notes=()
           ) -> list[tuple[str, str, bytes]]:
    """``stem``.bbcode.txt, ``stem``.md and ``stem``.csv of one table."""
    bb = "\n".join([f"[b]{title}[/b]", _bb_table(head, bb_rows or rows), *notes]) + "\n"
    md = "\n".join([f"## {title}", "", _md_table(head, md_rows or rows), "",
                    *notes]).rstrip("\n") + "\n"
    return [(f"{stem}.bbcode.txt", "text/plain", bb.encode("utf-8")),
            (f"{stem}.md", "text/markdown", md.encode("utf-8")),
            (f"{stem}.csv", "text/csv", _csv(head, rows))]


FORUM_NOTE = ("Attached: the same as forum text (BBCode: .bbcode.txt, Markdown: .md, "
              "to paste into a forum post) and as CSV.")


# --------------------------------------------------------------------------- schedule

def schedule(data):
    """The schedule mail: the rounds' dates, the bid deadline, the pace, and
    ``NAME-schedule.ics`` with an all-day event per round and a timed one per bid
    deadline."""
    lines = [f"{data.tournament}: {FORMAT_WORDS.get(data.kind, data.kind)} tournament of "
             f"{data.ruleset}"
             + (f", {len(data.rounds)} rounds." if data.rounds else ".")]
    where = "set by the organiser" if data.start_set else "the day round 1 was paired"
    lines.append(f"Round 1 begins {_day(data.start)} ({where}).")
    if data.round_days:
        lines.append(f"Pace: a round is planned to last {data.round_days:g} days. The next "
                     "round is paired as soon as every game of a round is over, which may be "
                     "before or after its planned day.")
    else:
        lines.append("Pace: no fixed round length; each round is paired as soon as the last "
                     "game of the one before ends.")
    lines.append(f"Each turn is due {_hours(data.turn_hours)} after it becomes yours.")
    if data.bids:
        lines.append(
            f"Sides by sealed bid: commit your bid within {_hours(data.bid_hours)} of the "
            f"round's pairing (the bid deadline below) and reveal it within twice that, or "
            f"your bid is {data.default_bid} IPCs." if data.bid_hours else
            "Sides by sealed bid: no bid deadline; your game starts once both bids are in.")
    head = ["Round", "Begins", "Ends", "Bid deadline"]
    rows = [[str(r.number), _day(r.begins), _day(r.ends) if r.ends else "when its games end",
             _time(r.bid_deadline) if r.bid_deadline else "-"] for r in data.rounds]
    if rows:
        lines += ["", "Round    Begins            Ends              Bid deadline"]
        lines += [f"{r[0]:<8} {r[1]:<17} {r[2]:<17} {r[3]}" for r in rows]
    lines += ["", "Attached: the dates as a calendar file (.ics, for any calendar program), "
              "and the table as forum text (BBCode: .bbcode.txt, Markdown: .md, to paste "
              "into a forum post) and as CSV."]
    files = _forum("schedule", f"{data.tournament}: schedule", head, rows)
    name = f"{data.tid}-schedule.ics"
    files.append((name, "text/calendar", calendar(data)))
    return (f"Schedule of {data.tournament}", "\n".join(lines), files)


def calendar(data) -> bytes:
    """The schedule's .ics: one all-day event per round with a date (a round without a
    planned end: its first day), one per bid deadline (timed, UTC).  UIDs name the
    tournament and round, so a changed schedule updates the same events (SEQUENCE)."""
    events = []
    for r in data.rounds:
        if r.begins is None:
            continue
        first = r.begins.date()
        last = r.ends.date() if r.ends is not None else first + dt.timedelta(days=1)
        events.append(ics.Event(
            uid=f"{data.tid}-round-{r.number}@{data.uid_domain}",
            summary=f"{data.tournament}: round {r.number}", start=first,
            end=max(last, first + dt.timedelta(days=1)), sequence=data.sequence,
            description=(f"Round {r.number} of {data.tournament} ({data.ruleset}). Each "
                         f"turn is due {_hours(data.turn_hours)} after it becomes yours.")))
        if r.bid_deadline is not None:
            events.append(ics.Event(
                uid=f"{data.tid}-round-{r.number}-bids@{data.uid_domain}",
                summary=f"{data.tournament}: round {r.number} bids due",
                start=r.bid_deadline, end=r.bid_deadline, sequence=data.sequence,
                description=f"Commit your sealed bid for round {r.number} by now ("
                            f"{_hours(data.bid_hours)} after the round's pairing)."))
    return ics.calendar(events, prodid="-//pbem//tournament schedule//EN", stamp=data.stamp,
                        name=data.tournament)


# --------------------------------------------------------------------------- pairings

def pairings(data):
    """Forum text and CSV of a round's pairings (the body is the notice's own)."""
    head = ["Game", "Player", "Side", "Opponent", "Side"]
    rows, bb, md = [], [], []
    for p in data.rows:
        sides = p.sides or ("by bid", "by bid")
        rows.append([p.game, p.first, sides[0], p.second, sides[1]])
        bb.append([f"[url={p.link}]{p.game}[/url]" if p.link else p.game, p.first, sides[0],
                   p.second, sides[1]])
        md.append([markdown_link({p.game: p.link} if p.link else {})(p.game), p.first,
                   sides[0], p.second, sides[1]])
    for name in data.byes:
        rows.append(["bye", name, "", "", ""])
        bb.append(["bye", name, "", "", ""])
        md.append(["bye", name, "", "", ""])
    what = "challenge" if data.kind == "ladder" else "round"
    files = _forum("pairings", f"{data.tournament}: pairings of {what} {data.round}", head,
                   rows, bb, md)
    return ("", "\n" + FORUM_NOTE, files)


# --------------------------------------------------------------------------- standings

def tie_rule(tiebreaks) -> str:
    if not tiebreaks:
        return ("Tie rule: players on equal points share their place (shown 3=).")
    steps = "; ".join(f"{i}. {TIEBREAK_MEANINGS.get(t, TIEBREAK_TITLES.get(t, t))}"
                      for i, t in enumerate(tiebreaks, 1))
    return (f"Tie rule: players on equal points are ordered by {steps}. Players still tied "
            "after all of them share their place (shown 3=).")


def adjudication(data) -> str:
    if not data.round_limit:
        return ("Adjudication: none; there is no round limit, every game is played to its "
                "end (victory, concession or forfeit).")
    rule = ", then ".join(data.criteria)
    whose = (f"the {data.ruleset} preset ({rule})" if data.preset
             else f"the organiser's criteria ({rule})")
    return (f"Adjudication: a game still running at the end of its round {data.round_limit} is "
            f"decided by {whose}, each counted as what a side gained since the start (bid "
            "included), never the absolute numbers; the first difference decides, all equal "
            "is a draw. A board where nothing changed is a draw.")


def _standings_lines(data) -> list[str]:
    lines = []
    for r in data.rows:
        bye = f", {r.byes} bye" + ("s" if r.byes > 1 else "") if r.byes else ""
        lines.append(f"  {r.place:>4}  {data.names.get(r.player, r.player)}: {r.score:g} "
                     f"({r.wins} won, {r.draws} drawn, {r.losses} lost{bye})")
    return lines


def standings(data):
    """The standings after a round, or (``data.final``) the final announcement: the table,
    the round's results and byes, the tie rule and the adjudication, with the standings and
    crosstable as BBCode, Markdown and CSV (the crosstable's games link to their reports
    where ``report_url`` is set)."""
    winners = [data.names.get(r.player, r.player) for r in data.rows if r.rank == 1]
    if data.final:
        who = " and ".join(winners) if winners else "nobody"
        subject = f"Final standings: {who} {'wins' if len(winners) == 1 else 'share first place'}"
        lines = [f"{data.tournament} is over after round {data.round}. "
                 f"{'Winner' if len(winners) == 1 else 'Sharing first place'}: {who}.",
                 "", f"Final standings after round {data.round}:", ""]
    else:
        subject = f"Standings after round {data.round}"
        lines = [f"Standings after round {data.round}:", ""]
    lines += _standings_lines(data)
    lines += ["", f"Results of round {data.round}:"]
    lines += [f"  {line}" for line in data.round_results]
    lines += [f"  bye: {name}" for name in data.byes]
    lines += ["", tie_rule(data.tiebreaks), "", adjudication(data)]
    if data.links:
        lines += ["", "Each game's report: the links in the attached crosstable."]
    lines += ["", FORUM_NOTE]
    note = tie_rule(data.tiebreaks) + "\n\n" + adjudication(data)
    title = data.tournament + (" (final)" if data.final else f" after round {data.round}")
    args = (title, data.rows, data.names, data.tiebreaks, data.sides, data.results, data.cfg,
            list(data.all_results), note)
    stem = "final" if data.final else f"round-{data.round}"
    files = [(f"standings-{stem}.bbcode.txt", "text/plain",
              bbcode(*args, links=data.links).encode("utf-8")),
             (f"standings-{stem}.md", "text/markdown",
              markdown(*args, links=data.links).encode("utf-8")),
             (f"standings-{stem}.csv", "text/csv",
              standings_csv(data.rows, data.names, data.tiebreaks).encode("utf-8")),
             (f"crosstable-{stem}.csv", "text/csv",
              crosstable_csv(data.rows, data.names, data.results, data.cfg).encode("utf-8"))]
    return (subject, "\n".join(lines), files)


def writers(make):
    """The three writers for ``mailings.use_writers`` (``make``: its Writers class)."""
    return make(schedule=schedule, pairings=pairings, standings=standings)
