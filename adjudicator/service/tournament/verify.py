"""``tournament verify``: re-check every game and recompute the standings from the games'
own files.

Checks, each naming the file that fails it (relative to the tournament directory):

* every game directory passes the full game audit (signatures, hash chain, seeds, every
  die, replay of every turn: ``service.audit.verify_game``), all signed by one game master;
* each game is the one its pairing says: its id, its players' names and keys on the right
  sides, and its starting position (the setup plus the bid's units, placed under the
  declared bid policy);
* bids: every opening opens its commitment, no opening without both commitments, and the
  lower bid got the bid side;
* pairings: the same rule recomputed from the games' results gives the recorded rounds
  (Swiss, round robin), no rematch, no player twice in a round;
* every NMR turn in a game was recorded by the tick at exactly the deadline the recorded
  clock gives (turn start, extensions, pauses);
* ``standings.json`` equals the standings recomputed from the games.
"""

from __future__ import annotations

import datetime as dt
import json
from collections import Counter
from pathlib import Path

import attrs

from ...io import keys
from ...io.layout import GAME_FILE
from ...model.errors import PbemError
from ..audit import verify_game
from ..gamedir import read_game
from . import bids as bidding, deadlines, logbook, pairing as pairing_rules
from .seats import seat_at_start, seat_problems
from .decisions import decision_problems
from .organiser import (
    PAIRED, Context, _game_definition, all_results, bid_start_state, open_tournament, sides_of,
    summary_of, swiss_plan, _standings,
)
from .ratings import LIBRARY_KEY
from .store import (
    BID_DEFAULT, BID_RESET, BIDS_DIR, GAMES_DIR, LOG_FILE, ROUNDS_DIR, STANDINGS_FILE,
)


@attrs.frozen
class Problem:
    file: str
    check: str
    detail: str

    def __str__(self) -> str:
        return f"{self.file}: {self.check}: {self.detail}"


@attrs.define
class TournamentAudit:
    directory: str
    problems: list[Problem] = attrs.Factory(list)
    games_checked: int = 0
    turns_checked: int = 0
    dice_checked: int = 0
    rounds_checked: int = 0
    nmrs_checked: int = 0
    standings_checked: bool = False
    notes: list[str] = attrs.Factory(list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def fail(self, file, check: str, detail: str) -> None:
        self.problems.append(Problem(str(file), check, detail))


def _load(name, options=None):
    return _game_definition(name, tuple(sorted((options or {}).items())))


def verify_tournament(directory, replay: bool = True) -> TournamentAudit:
    audit = TournamentAudit(str(directory))
    try:
        ctx = open_tournament(directory)
    except PbemError as exc:
        audit.fail("tournament.toml", "settings", str(exc))
        return audit
    summaries = {}
    gm_keys: dict[str, str] = {}
    pairings = ctx.tdir.pairings()
    for p in pairings:
        gdir = ctx.tdir.game_dir(p.game)
        if not (gdir / GAME_FILE).exists():
            continue
        if _verify_game(ctx, audit, p, gdir, gm_keys, replay):
            summaries[p.game] = summary_of(ctx, p.game)
    _check_gm_keys(ctx, audit, gm_keys)
    _check_bids(ctx, audit, pairings)
    _check_default_bids(ctx, audit)
    for problem in decision_problems(ctx.tdir.log(), {p.game: p.players for p in pairings}):
        audit.fail("log.jsonl", "decision", problem)
    for where, problem in seat_problems(ctx):
        audit.fail(where, "replacement", problem)
    results = all_results(ctx, summaries) if not audit.problems else None
    if results is not None:
        _check_rounds(ctx, audit, results)
        _check_nmrs(ctx, audit, summaries)
        _check_standings(ctx, audit, results)
    else:
        audit.notes.append("pairings and standings were not recomputed: a game failed")
    return audit


def _verify_game(ctx: Context, audit, p, gdir: Path, gm_keys, replay) -> bool:
    rel = f"{GAMES_DIR}/{p.game}"
    report = verify_game(gdir, _load, replay=replay, require_replay=replay)
    audit.games_checked += 1
    audit.turns_checked += report.turns_checked
    audit.dice_checked += report.dice_checked
    if not report.ok:
        f = report.failure
        audit.fail(f"{rel}/{f.file}", f.check, f.detail)
        return False
    gf, _ = read_game(gdir)
    gm_keys[p.game] = gf.game_master
    if gf.game_id != p.game:
        audit.fail(f"{rel}/{GAME_FILE}", "pairing", f"game id {gf.game_id!r}, the pairing "
                   f"says {p.game!r}")
        return False
    sides, bid = sides_of(ctx, p)
    if sides is None:
        audit.fail(f"{rel}/{GAME_FILE}", "bids", "the game exists but its sides were never "
                   "decided")
        return False
    for side, pid in sides.items():
        name, key = seat_at_start(ctx, pid, p.game)     # before any replacement
        for power in ctx.powers_of(side):
            record = gf.players.get(power)
            if record is None or record.name != name or record.key != key:
                audit.fail(f"{rel}/{GAME_FILE}", "pairing",
                           f"{power} should be played by {name} ({side}), the game "
                           f"file says {record.name if record else 'nobody'}")
                return False
    try:
        expected = bid_start_state(ctx, p.game, bid, ctx.tdir.placement(p.game))
    except PbemError as exc:
        audit.fail(f"{BIDS_DIR}/{p.game}/placement.txt", "bids", str(exc))
        return False
    if gf.initial_state != expected:
        audit.fail(f"{rel}/{GAME_FILE}", "bids", "the starting position is not the setup plus "
                   f"the bid's units ({bid} IPCs)")
        return False
    return True


def _check_gm_keys(ctx, audit, gm_keys) -> None:
    distinct = Counter(" ".join(k.split()[:2]) for k in gm_keys.values())
    if len(distinct) > 1:
        common = distinct.most_common(1)[0][0]
        for game, k in sorted(gm_keys.items()):
            if " ".join(k.split()[:2]) != common:
                audit.fail(f"{GAMES_DIR}/{game}/{GAME_FILE}", "game_master",
                           "signed by another game master than the tournament's other games")
    try:
        own = keys.public_key_line(keys.load_private_key(ctx.tdir.gm_key()))
    except PbemError:
        audit.notes.append("the game master's key is not here (.secret/): the games were "
                           "checked to share one key, not that it is this tournament's")
        return
    for game, k in sorted(gm_keys.items()):
        if k.split()[:2] != own.split()[:2]:
            audit.fail(f"{GAMES_DIR}/{game}/{GAME_FILE}", "game_master",
                       "not signed by this tournament's game master key")


def _check_bids(ctx, audit, pairings) -> None:
    for p in pairings:
        folder = ctx.tdir.path(BIDS_DIR, p.game)
        if not folder.is_dir():
            continue
        box = ctx.tdir.bid_box(ctx.tid, p)
        for player, opening in box.reveals.items():
            where = f"{BIDS_DIR}/{p.game}/{player}.reveal"
            if not box.sealed:
                audit.fail(where, "bids", "a bid was opened before both were committed")
                continue
            try:
                fresh = bidding.BidBox(ctx.tid, p.game, p.players, dict(box.commitments),
                                       defaults=dict(box.defaults))
                fresh.reveal(player, opening.amount, opening.nonce, ctx.cfg.bid.max)
            except PbemError as exc:
                audit.fail(where, "bids", str(exc))


def _check_default_bids(ctx, audit) -> None:
    """A default bid was given no earlier than the bid deadline: ``deadline_hours`` after
    the game's pairing or its last bid reset."""
    since: dict[str, dt.datetime] = {}
    hours = dt.timedelta(hours=ctx.cfg.bid.deadline_hours)
    for e in ctx.tdir.log():
        if e["kind"] == PAIRED:
            since.update((g, deadlines.parse_stamp(e["at"])) for g in e.get("games", ()))
        elif e["kind"] == BID_RESET:
            since[e["game"]] = deadlines.parse_stamp(e["at"])
        elif e["kind"] == BID_DEFAULT:
            start = since.get(e["game"])
            if not hours or start is None or deadlines.parse_stamp(e["at"]) < start + hours:
                audit.fail(LOG_FILE, "bids", f"{e['game']}: {e.get('player')} was given the "
                           f"default bid at {e['at']}, before the bid deadline")


def _check_rounds(ctx: Context, audit, results) -> None:
    plans = ctx.tdir.rounds()
    ids = [p.id for p in ctx.players]
    kind = ctx.cfg.format.kind
    sides = (ctx.first_side, ctx.bid_side) if ctx.cfg.sides.method == "balance" else None
    seen: set[frozenset] = set()
    for plan in plans:
        where = f"{ROUNDS_DIR}/{plan.round:04d}.json"
        audit.rounds_checked += 1
        in_round = Counter(x for p in plan.pairings for x in p.players) + Counter(plan.byes)
        twice = sorted(x for x, n in in_round.items() if n > 1)
        unknown = sorted(x for x in in_round if x not in ids)
        if twice or unknown:
            audit.fail(where, "pairing", f"players twice in the round: {twice}; unknown: {unknown}")
            continue
        for p in plan.pairings:
            if kind != "round_robin" or not ctx.cfg.format.double:
                if frozenset(p.players) in seen:
                    audit.fail(where, "pairing", f"{' v '.join(p.players)} is a rematch")
            seen.add(frozenset(p.players))
        if kind == "swiss":
            again = swiss_plan(ctx, plan.round, ids, results, plans, sides)
        elif kind == "round_robin":
            again = pairing_rules.round_robin_round(ctx.tid, plan.round, ids, sides,
                                                    ctx.cfg.format.double)
        else:
            continue
        if _plain(again) != _plain(plan):
            audit.fail(where, "pairing", f"the {kind.replace('_', ' ')} rule gives other "
                       f"pairings for round {plan.round}: {_show(again)}")


def _plain(plan) -> list:
    return [sorted(plan.byes)] + [(p.game, sorted(p.players), p.sides) for p in plan.pairings]


def _show(plan) -> str:
    return "; ".join(" v ".join(p.players) for p in plan.pairings)


def _check_nmrs(ctx: Context, audit, summaries) -> None:
    entries = ctx.tdir.log()
    recorded: dict[tuple[str, int], tuple[str, int]] = {}
    for index, e in enumerate(entries):
        if e["kind"] == "nmr":
            recorded[(e["game"], int(e["turn"]))] = (e["deadline"], index)
    for game, summary in sorted(summaries.items()):
        for turn, power, stamp_text in summary.nmr_turns:
            where = f"{GAMES_DIR}/{game}/turns/{turn:04d}-{power}.json"
            audit.nmrs_checked += 1
            if (game, turn) not in recorded:
                audit.fail(where, "nmr", f"an NMR turn the tournament log ({LOG_FILE}) has no "
                           "record of")
                continue
            logged, index = recorded[(game, turn)]
            if stamp_text != logged:
                audit.fail(where, "nmr", f"the NMR says deadline {stamp_text}, the log {logged}")
                continue
            before = entries[:index]
            clock = logbook.clocks(before).get(game)
            if clock is None or clock.turn != turn:
                audit.fail(where, "nmr", "no clock was running for this turn")
                continue
            due_at = deadlines.deadline(clock, ctx.cfg, logbook.ledger(before))
            if deadlines.stamp(due_at) != stamp_text:
                audit.fail(where, "nmr", f"played as missing the deadline {stamp_text}, but the "
                           f"recorded clock gives {deadlines.stamp(due_at)}")


def _check_standings(ctx: Context, audit, results) -> None:
    recorded = ctx.tdir.recorded_standings()
    view = _standings(ctx, record=False, results=results)
    if recorded is None:
        audit.notes.append(f"no {STANDINGS_FILE} recorded yet; the standings were recomputed")
        return
    audit.standings_checked = True
    computed = json.loads(json.dumps(view.record))
    library, used = recorded.get(LIBRARY_KEY), computed.get(LIBRARY_KEY)
    if _without(recorded, LIBRARY_KEY) == _without(computed, LIBRARY_KEY):
        return                           # the same numbers (a record older than the key too)
    ranked = "rating" in ctx.cfg.scoring.tiebreaks
    if library != used and _without_ratings(recorded, ranked) == _without_ratings(computed, ranked):
        audit.notes.append(f"the ratings were recorded with {library or 'an unrecorded openskill'}"
                           f" and recomputed with {used}, whose numbers differ: everything else "
                           "matches; install that version to check the ratings too")
        return
    audit.fail(STANDINGS_FILE, "standings", "differs from the standings recomputed from "
               "the games: " + _first_difference(recorded, view.record))


def _without(record: dict, key: str) -> dict:
    return {k: v for k, v in record.items() if k != key}


def _without_ratings(record: dict, ranked: bool) -> dict:
    """The standings with what depends on the rating library's numbers left out: each row's
    rating and rating tiebreak and, when ``ranked`` (a rating tiebreak), the places."""
    rows = []
    for row in record.get("standings", []):
        if not isinstance(row, dict):
            return {"unreadable": record}
        rest = {k: v for k, v in row.items() if k != "rating" and not (ranked and k == "place")}
        if isinstance(rest.get("tiebreaks"), dict):
            rest["tiebreaks"] = {k: v for k, v in rest["tiebreaks"].items() if k != "rating"}
        rows.append(rest)
    plain = {k: v for k, v in record.items() if k not in (LIBRARY_KEY, "standings")}
    if ranked:
        rows.sort(key=lambda r: str(r.get("player")))
    return {**plain, "rows": rows}


def _first_difference(recorded, computed) -> str:
    a, b = recorded.get("standings", []), computed.get("standings", [])
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"place {i + 1}: recorded {x.get('player')} {x.get('score')}, recomputed " \
                   f"{y.get('player')} {y.get('score')}"
    if len(a) != len(b):
        return f"{len(a)} rows recorded, {len(b)} recomputed"
    return "the result lines differ"
