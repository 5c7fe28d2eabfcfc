"""Rounds: the next round's pairings (Swiss or round robin) or a ladder challenge, announced;
the standings recorded after what changed them, and announced once a round is over."""

from __future__ import annotations

import datetime as dt

import attrs

from ...model.errors import PbemError
from . import logbook, mailings, pairing as pairing_rules
from .deadlines import stamp
from .notices import Notice, deliver, notice_name, reads_mail
from .pairing import Pairing, RoundPlan
from .ratings import LIBRARY_KEY, compute_ratings, library as ratings_library
from .results import GameResult, adjudication_text, result_line
from .standings import as_record, compute_standings

from .context import PAIRED, ROUND_OVER, Context, all_results, byes, open_tournament, sides_of


@attrs.frozen
class StandingsView:
    rows: list
    results: list[GameResult]
    ratings: dict
    steps: list
    record: dict


def standings(directory, record: bool = False, results: list[GameResult] | None = None
              ) -> StandingsView:
    """The standings recomputed from the games; ``record``: also write standings.json."""
    ctx = open_tournament(directory)
    return _standings(ctx, record, results)


def _standings(ctx: Context, record: bool, results=None) -> StandingsView:
    results = all_results(ctx) if results is None else results
    ids = [p.id for p in ctx.players]
    ratings, steps = compute_ratings(ids, results, ctx.cfg.ratings)
    rows = compute_standings(ids, results, byes(ctx), ctx.cfg, ratings, ctx.first_side)
    data = {"tournament": ctx.tid, LIBRARY_KEY: ratings_library(),
            "standings": as_record(rows),
            "results": [result_line(r, ctx.names, detail=True) for r in results if r.finished]}
    if record:
        with ctx.tdir.locked():
            ctx.tdir.save_standings(data)
    return StandingsView(rows, results, ratings, steps, data)


def _record_standings(ctx: Context, notices: list | None = None,
                      now: dt.datetime | None = None) -> None:
    """Record the standings (under the caller's lock) after what changed them: a game
    over, an NMR (counted in the table), a change of the scoring settings; with
    ``notices``, announce them once the last game of the latest round is over."""
    view = _standings(ctx, record=False)
    ctx.tdir.save_standings(view.record)
    if notices is not None and now is not None:
        notice = _round_over(ctx, view, now)
        if notice is not None:
            notices.append(notice)


def _round_over(ctx: Context, view: StandingsView, now: dt.datetime) -> Notice | None:
    """The standings after the latest round, once every game of it is over (once)."""
    plans = ctx.tdir.rounds()
    if not plans or ctx.cfg.format.kind == "ladder":
        return None
    plan = plans[-1]
    done = {r.game for r in view.results if r.finished}
    if not {p.game for p in plan.pairings} <= done or any(
            e["kind"] == ROUND_OVER and e.get("round") == plan.round for e in ctx.tdir.log()):
        return None
    ctx.tdir.append({"kind": ROUND_OVER, "round": plan.round, "at": stamp(now)})
    last = _last_round(ctx, plan.round)
    write = mailings.writers()
    if write is not None:
        subject, body, files = write.standings(mailings.standings_data(ctx, view, plan, last))
        return Notice(notice_name("standings", plan.round), ("*",), subject, body,
                      attachments=tuple(files))
    lines = [f"{'Final standings' if last else 'Standings'} after round {plan.round}:", ""]
    for r in view.rows:
        bye = f", {r.byes} bye" + ("s" if r.byes > 1 else "") if r.byes else ""
        lines.append(f"  {r.place:>4}  {ctx.names[r.player]}: {r.score:g} "
                     f"({r.wins} won, {r.draws} drawn, {r.losses} lost{bye})")
    games = {p.game for p in plan.pairings}
    lines += ["", f"Results of round {plan.round}:"]
    lines += [f"  {result_line(r, ctx.names, True)}" for r in view.results if r.game in games]
    lines += [f"  bye: {ctx.names[b]}" for b in plan.byes]
    if ctx.cfg.end.round_limit:
        lines += ["", adjudication_text(ctx.game, ctx.cfg.end.adjudication)]
    subject = "Final standings" if last else f"Standings after round {plan.round}"
    return Notice(notice_name("standings", plan.round), ("*",), subject, "\n".join(lines))


def _last_round(ctx: Context, number: int) -> bool:
    """Whether round ``number`` is the tournament's last (a Swiss tournament's rounds, a
    round robin's end; a ladder has none)."""
    kind = ctx.cfg.format.kind
    if kind == "swiss":
        return number == ctx.cfg.format.rounds
    if kind == "round_robin":
        return number == pairing_rules.round_robin_rounds([p.id for p in ctx.players],
                                                          ctx.cfg.format.double)
    return False


def pair(directory, now: dt.datetime) -> RoundPlan:
    """The next round's pairings (Swiss or round robin), recorded in rounds/ and announced."""
    ctx = open_tournament(directory)
    kind = ctx.cfg.format.kind
    if kind == "ladder":
        raise PbemError("a ladder has no rounds: players challenge each other "
                        "('pbem tournament challenge')")
    with ctx.tdir.locked():
        plans = ctx.tdir.rounds()
        results = all_results(ctx)
        unfinished = [r.game for r in results if not r.finished]
        undecided = [p.game for p in ctx.tdir.pairings() if sides_of(ctx, p)[0] is None]
        if unfinished or undecided:
            raise PbemError(f"round {len(plans)} is not over: "
                            f"{', '.join((unfinished + undecided)[:8])} still to finish")
        ids = [p.id for p in ctx.players]
        round_no = len(plans) + 1
        sides = (ctx.first_side, ctx.bid_side) if ctx.cfg.sides.method == "balance" else None
        if kind == "swiss":
            if ctx.cfg.format.rounds and round_no > ctx.cfg.format.rounds:
                raise PbemError(f"all {ctx.cfg.format.rounds} rounds have been paired")
            plan = swiss_plan(ctx, round_no, ids, results, plans, sides)
        else:
            total = pairing_rules.round_robin_rounds(ids, ctx.cfg.format.double)
            if round_no > total:
                raise PbemError(f"all {total} rounds of the round robin have been paired")
            plan = pairing_rules.round_robin_round(ctx.tid, round_no, ids, sides,
                                                   ctx.cfg.format.double)
        ctx.tdir.save_round(plan)
        ctx.tdir.append(_paired_entry(plan, now))
        if plan.byes:
            _record_standings(ctx)                  # a bye scores at once
        deliver(ctx.tdir, [_pairing_notice(ctx, plan)], ctx.players, ctx.cfg.name, now)
    return plan


def _paired_entry(plan: RoundPlan, now: dt.datetime) -> dict:
    """The log's record of when a round's games were paired (the bid deadline counts
    from it)."""
    return {"kind": PAIRED, "round": plan.round, "games": [p.game for p in plan.pairings],
            "at": stamp(now)}


def swiss_plan(ctx: Context, round_no: int, ids, results, plans, sides) -> RoundPlan:
    """Swiss round ``round_no`` from the results before it (also what verify recomputes)."""
    earlier = [r for r in results if r.round < round_no]
    rows = compute_standings(ids, earlier, [(r, b) for r, b in byes(ctx) if r < round_no],
                             ctx.cfg, None, ctx.first_side)
    scores = {row.player: row.score for row in rows}
    history = [attrs.evolve(p, sides=sides_of(ctx, p)[0])
               for plan in plans if plan.round < round_no for p in plan.pairings]
    byes_had = [b for plan in plans if plan.round < round_no for b in plan.byes]
    gone = logbook.withdrawn_before(ctx.tdir.log(), round_no)
    active = [x for x in ids if x not in gone]          # a withdrawn player is not paired
    return pairing_rules.swiss_round(ctx.tid, round_no, active, scores, history, byes_had,
                                     sides)


def challenge(directory, challenger: str, defender: str, now: dt.datetime) -> RoundPlan:
    """A ladder challenge: a one-game 'round' of its own."""
    ctx = open_tournament(directory)
    if ctx.cfg.format.kind != "ladder":
        raise PbemError("challenges are for ladders ([format] kind = \"ladder\")")
    with ctx.tdir.locked():
        plans = ctx.tdir.rounds()
        results = all_results(ctx)
        ladder = ladder_now(ctx, results)
        open_games = [p for p in ctx.tdir.pairings()
                      if not any(r.game == p.game and r.finished for r in results)]
        pairing_rules.check_challenge(ladder, challenger, defender, open_games,
                                      ctx.cfg.format.ladder_range, ctx.cfg.format.ladder_open)
        number = len(plans) + 1
        sides = None
        if ctx.cfg.sides.method == "balance":
            balance = pairing_rules.side_balance(
                [attrs.evolve(p, sides=sides_of(ctx, p)[0]) for p in ctx.tdir.pairings()],
                ctx.first_side)
            sides = pairing_rules.assign_sides(challenger, defender,
                                               (ctx.first_side, ctx.bid_side), balance,
                                               [], number)
        plan = RoundPlan(number, (Pairing(pairing_rules.challenge_id(ctx.tid, number), number,
                                          (challenger, defender), sides),))
        ctx.tdir.save_round(plan)
        ctx.tdir.append(_paired_entry(plan, now))
        deliver(ctx.tdir, [_pairing_notice(ctx, plan)], ctx.players, ctx.cfg.name, now)
    return plan


def ladder_now(ctx: Context, results: list[GameResult]) -> list[str]:
    finished = {r.game: r for r in results if r.finished}
    done = []
    for p in ctx.tdir.pairings():
        if p.game in finished:
            done.append((p.players[0], p.players[1], finished[p.game].winner))
    return pairing_rules.ladder_order([p.id for p in ctx.players], done)


def _pairing_notice(ctx: Context, plan: RoundPlan) -> Notice:
    lines = []
    for p in plan.pairings:
        a, b = (ctx.names[x] for x in p.players)
        if p.sides:
            lines.append(f"{p.game}: {ctx.names[p.sides[ctx.first_side]]} ({ctx.first_side}) "
                         f"v {ctx.names[p.sides[ctx.bid_side]]} ({ctx.bid_side})")
        else:
            lines.append(f"{p.game}: {a} ({p.players[0]}) v {b} ({p.players[1]}) -- sides by "
                         "sealed bid: " + _how_to_commit(ctx, p.game))
    for b in plan.byes:
        lines.append(f"bye: {ctx.names[b]}")
    what = "challenge" if ctx.cfg.format.kind == "ladder" else "round"
    files, write = (), mailings.writers()
    if write is not None:
        _subject, more, files = write.pairings(mailings.pairings_data(ctx, plan))
        lines.append(more)
    return Notice(notice_name("pairing", plan.round), ("*",),
                  f"Pairings of {what} {plan.round}", "\n".join(lines),
                  attachments=tuple(files))


def _how_to_commit(ctx: Context, game_id: str) -> str:
    """What a player of a bid game does first."""
    if not reads_mail(ctx.tdir):
        return "send your commitment ('pbem tournament bid seal')"
    return (f"seal your bid with 'pbem tournament bid seal {ctx.tid} {game_id} YOUR-ID "
            "AMOUNT' (YOUR-ID: in brackets above) and reply with the line 'commit sha256:...' it prints (keep the "
            "nonce)")
