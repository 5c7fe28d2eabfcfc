"""The tournament's announcements as data: the schedule (with a calendar file), each round's
pairings, the standings after a round and the final announcement, each with forum text
(BBCode, Markdown) and CSV.

The service gathers the facts (plain values, no wording); the presentation layer writes
the mails (``present.tournament_mails``), passed in by the command line through
:func:`use_writers` like the game reports' ``mail.results.Renderers``: the service never
imports the presentation layer.  Without writers (a library caller) the announcements are
the plain notices alone, and no schedule is mailed.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Callable

import attrs

from .config import PRESET, URL_FIELDS
from .results import CRITERION_LABELS, criteria_for


@attrs.frozen
class Writers:
    """The presentation layer's functions: each takes the data below and returns
    ``(subject, body, attachments)``, an attachment being ``(filename, mime type, bytes)``
    (``pairings``: the text added to the notice's body)."""
    schedule: Callable
    pairings: Callable
    standings: Callable


_WRITERS: list[Writers] = []


def use_writers(writers: Writers | None) -> None:
    """Install (or, with None, remove) the writers of the announcements."""
    _WRITERS[:] = [writers] if writers is not None else []


def writers() -> Writers | None:
    return _WRITERS[0] if _WRITERS else None


# --------------------------------------------------------------------------- schedule

@attrs.frozen
class RoundDates:
    number: int
    begins: dt.datetime | None              # None: when the round before ends
    ends: dt.datetime | None
    bid_deadline: dt.datetime | None        # None: no bids, or no bid deadline


@attrs.frozen
class ScheduleData:
    tournament: str                         # the name
    tid: str
    ruleset: str
    kind: str                               # swiss, round_robin, ladder
    start: dt.datetime                      # round 1's first day (UTC)
    start_set: bool                         # from [schedule] start (else: round 1's pairing)
    round_days: float
    rounds: tuple[RoundDates, ...]
    turn_hours: float
    bid_hours: float                        # 0: no bid deadline (or no bids)
    default_bid: int
    bids: bool
    stamp: dt.datetime                      # DTSTAMP: when these settings were recorded
    sequence: int                           # SEQUENCE: how often the settings changed
    uid_domain: str


def schedule_data(ctx, uid_domain: str) -> ScheduleData:
    """The tournament's plan from its settings and log: round ``n`` begins ``start + (n-1)
    x round_days`` (``start``: ``[schedule] start``, else the day round 1 was paired); its
    bid deadline is ``bid.deadline_hours`` after its pairing (planned: after its first
    day, for a round not paired yet)."""
    from .deadlines import parse_stamp
    from .pairing import round_robin_rounds
    cfg = ctx.cfg
    entries = ctx.tdir.log()
    paired = {e.get("round"): parse_stamp(e["at"]) for e in entries if e["kind"] == "paired"}
    first = paired.get(1)
    start = cfg.schedule.start or first.replace(hour=0, minute=0, second=0)
    kind = cfg.format.kind
    count = (cfg.format.rounds if kind == "swiss" else
             round_robin_rounds([p.id for p in ctx.players], cfg.format.double)
             if kind == "round_robin" else 0)
    days = cfg.schedule.round_days
    bids = cfg.sides.method == "bid"
    bid_hours = cfg.bid.deadline_hours if bids else 0.0
    rounds = []
    for n in range(1, count + 1):
        begins = start + dt.timedelta(days=days * (n - 1)) if days or n == 1 else None
        ends = begins + dt.timedelta(days=days) if begins is not None and days else None
        counted_from = paired.get(n, begins)
        due = counted_from + dt.timedelta(hours=bid_hours) \
            if counted_from is not None and bid_hours else None
        rounds.append(RoundDates(n, begins, ends, due))
    settings = [e for e in entries if e["kind"] == "settings"]
    recorded = parse_stamp(settings[-1]["at"]) if settings else first
    return ScheduleData(cfg.name, ctx.tid, cfg.ruleset, kind, start,
                        cfg.schedule.start is not None, days, tuple(rounds),
                        cfg.deadlines.turn_hours, bid_hours, cfg.bid.default, bids,
                        recorded, max(len(settings) - 1, 0), uid_domain)


def schedule_key(data: ScheduleData) -> str:
    """Names the schedule mail: a plan changed by the settings is mailed again, the same one
    never (a later round's pairing, which fixes its bid deadline, is announced by itself)."""
    text = "|".join(str(x) for x in (data.start, data.round_days, data.turn_hours,
                                     data.bid_hours, data.default_bid, len(data.rounds)))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


# --------------------------------------------------------------------------- standings

@attrs.frozen
class StandingsData:
    """The standings after a round (``final``: the last one), for the mails and exports;
    ``rows``, ``results``, ``cfg`` are the standings service's own objects."""
    tournament: str
    round: int
    final: bool
    rows: list
    names: dict
    results: list                           # every game so far (the crosstable)
    round_results: tuple[str, ...]          # this round's result lines
    all_results: tuple[str, ...]            # every finished game's result line
    byes: tuple[str, ...]                   # names
    tiebreaks: tuple[str, ...]
    sides: tuple[str, str]
    cfg: object
    links: dict                             # game -> its report's URL (report_url)
    round_limit: int
    criteria: tuple[str, ...]               # labels, in order
    preset: bool                            # the edition's preset ([end] adjudication)
    ruleset: str


def report_links(cfg, tid: str, results) -> dict[str, str]:
    """game -> ``report_url`` filled in ({}: no report_url)."""
    if not cfg.report_url:
        return {}
    return {r.game: cfg.report_url.format(**dict(zip(URL_FIELDS, (tid, r.game, r.round))))
            for r in results}


def standings_data(ctx, view, plan, final: bool) -> StandingsData:
    from .results import result_line
    games = {p.game for p in plan.pairings}
    cfg = ctx.cfg
    return StandingsData(
        tournament=cfg.name, round=plan.round, final=final, rows=view.rows, names=ctx.names,
        results=view.results,
        round_results=tuple(result_line(r, ctx.names, True) for r in view.results
                            if r.game in games),
        all_results=tuple(result_line(r, ctx.names, True) for r in view.results
                          if r.finished),
        byes=tuple(ctx.names[b] for b in plan.byes),
        tiebreaks=tuple(cfg.scoring.tiebreaks), sides=(ctx.first_side, ctx.bid_side),
        cfg=cfg, links=report_links(cfg, ctx.tid, view.results),
        round_limit=cfg.end.round_limit,
        criteria=tuple(CRITERION_LABELS.get(c, c)
                       for c in criteria_for(ctx.game, cfg.end.adjudication)),
        preset=tuple(cfg.end.adjudication) == (PRESET,), ruleset=cfg.ruleset)


# --------------------------------------------------------------------------- pairings

@attrs.frozen
class PairingRow:
    game: str
    first: str                              # a player's name (first side's, if decided)
    second: str
    sides: tuple[str, str] | None           # (first side, second side) if decided
    link: str = ""


@attrs.frozen
class PairingsData:
    tournament: str
    round: int
    kind: str
    rows: tuple[PairingRow, ...]
    byes: tuple[str, ...]


def pairings_data(ctx, plan) -> PairingsData:
    links = report_links(ctx.cfg, ctx.tid, [_G(p.game, plan.round) for p in plan.pairings])
    rows = []
    for p in plan.pairings:
        if p.sides:
            rows.append(PairingRow(p.game, ctx.names[p.sides[ctx.first_side]],
                                   ctx.names[p.sides[ctx.bid_side]],
                                   (ctx.first_side, ctx.bid_side), links.get(p.game, "")))
        else:
            rows.append(PairingRow(p.game, ctx.names[p.players[0]], ctx.names[p.players[1]],
                                   None, links.get(p.game, "")))
    return PairingsData(ctx.cfg.name, plan.round, ctx.cfg.format.kind, tuple(rows),
                        tuple(ctx.names[b] for b in plan.byes))


@attrs.frozen
class _G:
    game: str
    round: int
