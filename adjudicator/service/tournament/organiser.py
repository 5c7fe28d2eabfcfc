"""What the organiser's commands do: the tournament's I/O shell around the pure core
(pairing, bids, deadlines, results, standings, ratings).  Every function takes the time
as an argument (``now``, UTC); nothing here reads the clock.

Each command runs under the tournament's lock and writes files atomically; games are
normal signed game directories under ``games/``, created and played with
``service.gamedir`` like any other game.  The rounds (rounds.py), the bids (bid_orders.py)
and the loading of a tournament (context.py) have modules of their own; their commands
are imported here so that every organiser command is ``organiser.NAME``.
"""

from __future__ import annotations

import datetime as dt
import re
import tomllib
from pathlib import Path

import attrs

from ...io import keys, orders_text
from ...io.layout import list_turns
from ...io.storage import write_atomic
from ...model.errors import PbemError
from .. import gamedir
from ..games import load_game
from . import deadlines, logbook
from .config import CONFIG_FILE, ID_RE, parse_config, settings_changes, template
from .deadlines import stamp
from .notices import Notice, deliver, game_mail_path, mail_settings_for_game, notice_name
from .pairing import Pairing
from .players import Player, add_player as add_to, find as find_player, new_player
from .decisions import RESIGNED, RESULT, decision_entry, decisions_by_game
from .results import GameResult, adjudication_text, result_line, result_of
from .store import GM_KEY_FILE, GM_KEY_PATH_FILE, SECRET_DIR, TournamentDir

from .bid_orders import (  # noqa: F401 -- the organiser's commands, in one namespace
    bid_commit, bid_deadlines_due, bid_place, bid_reset, bid_reveal, bid_start_state,
    _give_default_bids, _sides_decided,
)
from .context import (  # noqa: F401
    PAIRED, ROUND_OVER, Context, _game_definition, all_results, byes, find_pairing, game_for,
    open_tournament, sides_of, signing_key, summary_of,
)
from .rounds import (  # noqa: F401
    StandingsView, _paired_entry, _record_standings, _round_over, _standings, challenge,
    ladder_now, pair, standings, swiss_plan,
)

MAX_TICK_PASSES = 50
_NMR_STAMP_RE = re.compile(r"^\s*nmr\s+(\S+)", re.I | re.M)


# --------------------------------------------------------------------------- new, players

def new_tournament(directory, name: str, ruleset: str, now: dt.datetime,
                   gm_key=None, gm_key_source=None, tournament_id: str | None = None) -> Path:
    """Create the directory with a ``tournament.toml`` to edit, and the game master's key
    (generated in ``.secret/`` unless ``gm_key`` is given)."""
    tdir = TournamentDir(directory)
    if tdir.exists:
        raise PbemError(f"{tdir.path(CONFIG_FILE)} already exists; refusing to overwrite a "
                        "tournament")
    tournament_id = tournament_id or Path(directory).resolve().name
    if not ID_RE.match(tournament_id):
        raise PbemError(f"the tournament id {tournament_id!r} names the games: use letters, "
                        "digits, '-' and '_' (at most 40; --id)")
    load_game(ruleset)                                  # an unknown ruleset fails here
    text = template(name, tournament_id, ruleset)
    parse_config(tomllib.loads(text), str(tdir.path(CONFIG_FILE)))   # a bad name: nothing written
    Path(directory).mkdir(parents=True, exist_ok=True)
    sdir = tdir.path(SECRET_DIR)
    sdir.mkdir(mode=0o700, exist_ok=True)
    if gm_key is None:
        if not (sdir / GM_KEY_FILE).exists():
            keys.new_keypair(sdir / GM_KEY_FILE, f"pbem tournament {tournament_id}")
    else:
        keys.load_private_key(gm_key)
        location = str(Path(gm_key_source or gm_key).expanduser().resolve())
        write_atomic(sdir / GM_KEY_PATH_FILE, (location + "\n").encode("utf-8"),
                     overwrite=True, mode=0o600)
    write_atomic(tdir.path(CONFIG_FILE), text.encode("utf-8"))
    tdir.save_players(())
    cfg = tdir.config()
    tdir.append({"kind": "settings", "digest": cfg.digest, "raw": cfg.raw, "at": stamp(now)})
    return tdir.path(CONFIG_FILE)


def add_player(directory, name: str, email: str | None, key, now: dt.datetime,
               pid: str | None = None) -> Player:
    ctx = open_tournament(directory)
    with ctx.tdir.locked():
        player = new_player(name, email, key, pid)
        ctx.tdir.save_players(add_to(ctx.tdir.players(), player))
    return player


# --------------------------------------------------------------------------- start

def start(directory, now: dt.datetime) -> list[str]:
    """Create the game of every pairing whose sides (and bid placement) are settled."""
    ctx = open_tournament(directory)
    created = []
    with ctx.tdir.locked():
        key = signing_key(ctx)
        notices = []
        entries = ctx.tdir.log()
        known = {e["game"] for e in entries if e["kind"] in ("started", "finished")}
        decided = decisions_by_game(entries)        # resigned or decided before its start
        for p in ctx.tdir.pairings():
            if p.game in decided:
                continue
            gdir = ctx.tdir.game_dir(p.game)
            if (gdir / "game.json").exists():
                if p.game not in known and not list_turns(gdir):
                    # created, but the run stopped before its clock was recorded
                    state, _ = gamedir.current_state(gdir)
                    _start_clock(ctx, p.game, 1, state.power, sides_of(ctx, p)[0], now)
                continue
            sides, bid = sides_of(ctx, p)
            if sides is None:
                continue
            if bid and ctx.tdir.placement(p.game) is None:
                continue
            start_state = bid_start_state(ctx, p.game, bid, ctx.tdir.placement(p.game))
            players = {}
            for side, pid in sides.items():
                player = ctx.player(pid)
                for power in ctx.powers_of(side):
                    players[power] = {"key": player.key, "email": player.email,
                                      "name": player.name}
            gdir.parent.mkdir(exist_ok=True)
            gamedir.create_game(gdir, ctx.game, p.game, gm_key_path=key,
                                gm_key_source=ctx.tdir.gm_key(),
                                created=now.date().isoformat(), players=players,
                                initial=start_state)
            settings = mail_settings_for_game(ctx.tdir)
            if settings is not None and not game_mail_path(gdir).exists():
                write_atomic(game_mail_path(gdir), settings)
            first = start_state.power
            clock = _start_clock(ctx, p.game, 1, first, sides, now)
            created.append(p.game)
            notices.append(_game_notice(ctx, p, sides, bid, clock))
        notices += _schedule_notice(ctx, entries)
        deliver(ctx.tdir, notices, ctx.players, ctx.cfg.name, now)
    return created


def _schedule_notice(ctx: Context, entries) -> list[Notice]:
    """The schedule, to every player, once round 1 is paired (again if the plan changes);
    none without the presentation layer's writers or for a ladder."""
    from . import mailings
    write = mailings.writers()
    paired = next((e for e in entries if e["kind"] == PAIRED and e.get("round") == 1), None)
    if write is None or paired is None or ctx.cfg.format.kind == "ladder":
        return []
    domain = (ctx.cfg.organiser.rpartition("@")[2] or "pbem.invalid").lower()
    data = mailings.schedule_data(ctx, domain)
    subject, body, files = write.schedule(data)
    return [Notice(notice_name("schedule", mailings.schedule_key(data)), ("*",), subject,
                   body, attachments=tuple(files))]


def _start_clock(ctx: Context, game_id: str, turn: int, power: str, sides, at: dt.datetime):
    player = sides[ctx.side_of_power(power)]
    ctx.tdir.append({"kind": "started", "game": game_id, "turn": turn, "power": power,
                     "player": player, "at": stamp(at)})
    return deadlines.TurnClock(game_id, turn, power, player, at)


def _game_notice(ctx: Context, p: Pairing, sides, bid: int, clock) -> Notice:
    due_at = deadlines.deadline(clock, ctx.cfg, logbook.ledger(ctx.tdir.log()))
    lines = [f"Game {p.game} has started."]
    for side, pid in sides.items():
        powers = ", ".join(ctx.game.ruleset.powers[k].name for k in ctx.powers_of(side))
        extra = f" (+{bid} IPCs bid)" if side == ctx.bid_side and bid else ""
        lines.append(f"  {ctx.names[pid]} plays the {side}{extra}: {powers}")
    lines.append(f"First to play: {ctx.game.ruleset.powers[clock.power].name} "
                 f"({ctx.names[clock.player]}), due {stamp(due_at)}.")
    return Notice(notice_name("start", p.game), p.players, f"{p.game} has started",
                  "\n".join(lines), game=p.game)


# --------------------------------------------------------------------------- turns

def _sides_for_game(ctx: Context, game_id: str) -> dict[str, str]:
    sides, _bid = sides_of(ctx, find_pairing(ctx, game_id))
    if sides is None:
        raise PbemError(f"{game_id}: the sides are not decided")
    return sides


def after_turn(ctx: Context, game_id: str, at: dt.datetime, notices: list) -> bool:
    """After a turn was published: start the next turn's clock at ``at``, or record that
    the game is over (and announce the result).  Returns whether the game goes on."""
    summary = summary_of(ctx, game_id)
    sides = _sides_for_game(ctx, game_id)
    if summary.finished:
        ctx.tdir.append({"kind": "finished", "game": game_id, "at": stamp(at)})
        result = result_of(find_pairing(ctx, game_id), sides, summary, ctx.game, ctx.cfg,
                           sides_of(ctx, find_pairing(ctx, game_id))[1])
        body = result_line(result, ctx.names, True)
        if result.how == "round_limit":
            body += "\n\n" + adjudication_text(ctx.game, ctx.cfg.end.adjudication)
        notices.append(Notice(notice_name("result", game_id), ("*",),
                              f"Result of {game_id}", body, game=game_id))
        return False
    turns = list_turns(ctx.tdir.game_dir(game_id))
    number = (turns[-1][0] if turns else 0) + 1
    _start_clock(ctx, game_id, number, summary.power, sides, at)
    return True


def resign(directory, game_id: str, player: str, now: dt.datetime, reason: str = "",
           by: str = "player") -> GameResult:
    """``player`` gives ``game_id`` up, on their turn or not: the opponent wins."""
    ctx = open_tournament(directory)
    with ctx.tdir.locked():
        return _decide(ctx, game_id, now, decision_entry(
            game_id, RESIGNED, reason, by, stamp(now), player=find_player(ctx.players, player).id))


def decide(directory, game_id: str, winner: str | None, reason: str, now: dt.datetime
           ) -> GameResult:
    """The organiser enters or overrides ``game_id``'s result (``winner``: a player, or
    None for a draw), with a reason; recorded and replayed by ``tournament verify``."""
    ctx = open_tournament(directory)
    with ctx.tdir.locked():
        pid = None if winner is None else find_player(ctx.players, winner).id
        return _decide(ctx, game_id, now, decision_entry(
            game_id, RESULT, reason, "organiser", stamp(now), winner=pid))


def _decide(ctx: Context, game_id: str, now: dt.datetime, entry: dict) -> GameResult:
    p = find_pairing(ctx, game_id)
    if (entry["player"] or entry["winner"] or p.players[0]) not in p.players:
        who = entry["player"] or entry["winner"]
        raise PbemError(f"{game_id} is {' v '.join(p.players)}; {who} does not play it")
    before = next(r for r in all_results(ctx) if r.game == game_id) \
        if sides_of(ctx, p)[0] is not None else None
    if before is None:
        raise PbemError(f"{game_id}: the sides are not decided yet (the bids: a bid deadline "
                        "gives a missing bid the default, 'bid reset' begins them again)")
    if entry["decision"] == RESIGNED and before.finished:
        raise PbemError(f"{game_id} is already over ({before.detail or before.how}); only the "
                        "organiser can change its result ('pbem tournament result')")
    ctx.tdir.append(entry)
    if game_id in logbook.clocks(ctx.tdir.log()):
        ctx.tdir.append({"kind": "finished", "game": game_id, "at": stamp(now)})
    result = next(r for r in all_results(ctx) if r.game == game_id)
    notices = [Notice(notice_name("result", game_id, entry["decision"], stamp(now)),
                      ("*",), f"Result of {game_id}", result_line(result, ctx.names, True), game=game_id)]
    _record_standings(ctx, notices, now)
    deliver(ctx.tdir, notices, ctx.players, ctx.cfg.name, now)
    return result


def submit_orders(directory, game_id: str, orders: bytes, signature: str | None,
                  now: dt.datetime):
    """Play a turn of a tournament game with a player's orders (as ``pbem process``), then
    start the next turn's clock."""
    ctx = open_tournament(directory)
    with ctx.tdir.locked():
        clocks = logbook.clocks(ctx.tdir.log())
        if game_id not in clocks:
            find_pairing(ctx, game_id)
            raise PbemError(f"{game_id} is not running (not started, or over)")
        off_turn = _off_turn_concession(ctx, game_id, orders, signature)
        if off_turn is not None:
            return _decide(ctx, game_id, now, decision_entry(
                game_id, RESIGNED, "conceded off-turn", "player", stamp(now), player=off_turn))
        try:
            tf = gamedir.process_turn(ctx.tdir.game_dir(game_id), game_for(ctx, game_id),
                                      orders, gm_key=signing_key(ctx),
                                      orders_signature=signature)
        except PbemError as exc:
            late = _late_after_nmr(ctx, game_id, orders)
            if late is None:
                raise
            raise PbemError(f"{late}\n({exc})") from exc
        notices: list = []
        if not after_turn(ctx, game_id, now, notices):
            _record_standings(ctx, notices, now)
        deliver(ctx.tdir, notices, ctx.players, ctx.cfg.name, now)
    return tf


def _orders_power(ctx: Context, orders: bytes) -> tuple[str | None, bool]:
    """(the power the orders name, whether they concede); (None, False) if unreadable."""
    from ...io.parser import parse_orders
    try:
        parsed = parse_orders(orders.decode("utf-8"), ctx.game)
    except (PbemError, UnicodeDecodeError):
        return None, False
    return parsed.power, bool(parsed.of("concede"))


def _off_turn_concession(ctx: Context, game_id: str, orders: bytes, signature: str | None
                         ) -> str | None:
    """The player who concedes by these orders while it is not their turn (None: these
    are not such orders).  A player with a key must have signed them, naming the game."""
    power, concedes = _orders_power(ctx, orders)
    if not concedes or power is None:
        return None
    gdir = ctx.tdir.game_dir(game_id)
    state, _ = gamedir.current_state(gdir)
    if power == state.power or power not in ctx.game.ruleset.powers:
        return None                               # on their turn: the game plays it
    entry = gamedir.read_game(gdir)[0].players.get(power)
    key = entry.key if entry is not None else None
    if key is not None:
        if signature is None:
            raise PbemError(f"a concession for {power} must be signed by the player's key")
        from ...io import sshsig
        sshsig.verify(orders, signature, key, sshsig.NAMESPACE_ORDERS)
        if orders_text.read_headers(orders.decode("utf-8")).game != game_id:
            raise PbemError(f"a signed concession must name the game (game: {game_id})")
    return _sides_for_game(ctx, game_id)[ctx.side_of_power(power)]


def _late_after_nmr(ctx: Context, game_id: str, orders: bytes) -> str | None:
    """What to tell a player whose orders are for a turn already played as an NMR."""
    summary = summary_of(ctx, game_id)
    if summary is None or not summary.nmr_turns:
        return None
    power, _ = _orders_power(ctx, orders)
    try:
        turn = orders_text.read_headers(orders.decode("utf-8", "replace")).turn
    except PbemError:
        turn = None
    missed = [n for n in summary.nmr_turns if n[0] == turn] or \
        [n for n in summary.nmr_turns if n[1] == power and power != summary.power]
    if not missed:
        return None
    number, missed_power, deadline = missed[-1]
    name = ctx.game.ruleset.powers[missed_power].name \
        if missed_power in ctx.game.ruleset.powers else missed_power
    mover = ctx.game.ruleset.powers[summary.power].name \
        if summary.power in ctx.game.ruleset.powers else summary.power
    return (f"{game_id}: these orders arrived after the deadline of turn {number} ({name}, "
            f"due {deadline}), which was played as an NMR (no purchase, no moves); they were "
            f"not used. The game goes on: it is now {mover}'s turn.")


def nmr_orders(ctx: Context, power: str, game_id: str, turn: int, due_at: dt.datetime) -> str:
    return (f"# {game_id}, turn {turn}: no orders by the deadline\n"
            f"power: {ctx.game.ruleset.powers[power].name}\n"
            f"nmr {stamp(due_at)}\n")


# --------------------------------------------------------------------------- time orders

def extend(directory, game_id: str, hours: float, now: dt.datetime, by: str = "organiser",
           player: str | None = None, reason: str = "") -> dt.datetime:
    """More time for the turn a game waits for: the organiser's (any length) or a player's
    grace extension (``grace_hours``, counted).  Recorded and announced to both players."""
    ctx = open_tournament(directory)
    with ctx.tdir.locked():
        entries = ctx.tdir.log()
        clock = logbook.clocks(entries).get(game_id)
        if clock is None:
            find_pairing(ctx, game_id)
            raise PbemError(f"{game_id} is not running")
        ledger = logbook.ledger(entries)
        if by == "grace":
            deadlines.check_grace(clock, player, ctx.cfg, ledger)
            hours = ctx.cfg.deadlines.grace_hours
        elif not 0 < hours <= 24 * 365:
            raise PbemError("an extension is from 0 to 8760 hours")
        before = deadlines.deadline(clock, ctx.cfg, ledger)
        entry = {"kind": "extension", "game": game_id, "turn": clock.turn, "hours": hours,
                 "by": by, "player": player, "auto": False, "reason": reason[:200],
                 "at": stamp(now)}
        ctx.tdir.append(entry)
        after = deadlines.deadline(clock, ctx.cfg, logbook.ledger(entries + [entry]))
        who = "the organiser" if by == "organiser" else ctx.names.get(player, player)
        body = (f"{who} extended turn {clock.turn} of {game_id} "
                f"({ctx.game.ruleset.powers[clock.power].name}) by {hours:g} h: the deadline "
                f"moves from {stamp(before)} to {stamp(after)}." + (f"\nReason: {reason}"
                                                                    if reason else ""))
        deliver(ctx.tdir, [Notice(notice_name("extension", game_id, clock.turn, len(entries)),
                                  find_pairing(ctx, game_id).players,
                                  f"{game_id}: deadline extended", body, game=game_id)],
                ctx.players, ctx.cfg.name, now)
    return after


def pause(directory, player: str, begin: dt.datetime, end: dt.datetime,
          now: dt.datetime) -> deadlines.Pause:
    """A player's absence: their turns' deadlines in every running game move by the time
    it covers, within each game's absence budget.  Recorded and announced."""
    ctx = open_tournament(directory)
    with ctx.tdir.locked():
        entries = ctx.tdir.log()
        running = logbook.clocks(entries)
        games = tuple(sorted(p.game for p in ctx.tdir.pairings()
                             if player in p.players and p.game in running))
        spell = deadlines.Pause(player, begin, end, games)
        deadlines.check_pause(spell, ctx.cfg, logbook.ledger(entries))
        ctx.tdir.append({"kind": "pause", "player": player, "start": stamp(begin),
                         "end": stamp(end), "games": list(games), "at": stamp(now)})
        notices = []
        for game_id in games:
            notices.append(Notice(notice_name("pause", player, game_id, len(entries)),
                                  find_pairing(ctx, game_id).players,
                                  f"{game_id}: {ctx.names[player]} is away",
                                  f"{ctx.names[player]} is away from {stamp(begin)} to "
                                  f"{stamp(end)}; their deadlines in {game_id} move by the "
                                  "time this covers.", game=game_id))
        deliver(ctx.tdir, notices, ctx.players, ctx.cfg.name, now)
    return spell


# --------------------------------------------------------------------------- the tick

@attrs.define
class TickReport:
    observed: list[str] = attrs.Factory(list)       # games whose new turns were noticed
    reminders: list[str] = attrs.Factory(list)
    extensions: list[str] = attrs.Factory(list)
    nmrs: list[str] = attrs.Factory(list)
    finished: list[str] = attrs.Factory(list)
    late_notice: str | None = None
    settings: list[str] = attrs.Factory(list)
    delivered: list[str] = attrs.Factory(list)
    bid_defaults: list[str] = attrs.Factory(list)       # "game player" given the default bid


def tick(directory, now: dt.datetime) -> TickReport:
    """Everything due at ``now`` (cron-friendly, safe to repeat): announce changed
    settings, notice turns played outside (mail runner, ``pbem process``), send reminders,
    take grace extensions, play NMR turns at missed deadlines, send the daily late notice,
    record the standings when a game ended."""
    now = now.astimezone(dt.timezone.utc).replace(microsecond=0)
    ctx = open_tournament(directory)
    report = TickReport()
    with ctx.tdir.locked():
        notices: list[Notice] = []
        entries = ctx.tdir.log()
        _announce_settings(ctx, entries, now, notices, report)
        _give_default_bids(ctx, now, notices, report)
        for game_id, clock in sorted(logbook.clocks(entries).items()):
            turns = list_turns(ctx.tdir.game_dir(game_id))
            last = turns[-1][0] if turns else 0
            if last >= clock.turn:                      # played outside the tournament
                report.observed.append(game_id)
                since = _recover_nmrs(ctx, game_id, turns, clock.turn, now)
                if not after_turn(ctx, game_id, since, notices):
                    report.finished.append(game_id)
        for _ in range(MAX_TICK_PASSES):
            entries = ctx.tdir.log()
            actions = deadlines.due(now, logbook.clocks(entries).values(), ctx.cfg,
                                    logbook.ledger(entries))
            if not actions:
                break
            again = False
            for action in actions:
                again |= _do(ctx, action, now, notices, report)
            if not again:
                break
        if report.nmrs or report.finished or report.observed or report.settings:
            _record_standings(ctx, notices, now)
        report.delivered = deliver(ctx.tdir, notices, ctx.players, ctx.cfg.name, now)
    return report


def _recover_nmrs(ctx: Context, game_id: str, turns, first: int, now: dt.datetime):
    """NMR turns published without their log entry (a run interrupted between the two):
    record them; the next turn's time then starts at the last one's deadline."""
    since = now
    for number, power, _path in turns:
        if number < first:
            continue
        text = (ctx.tdir.game_dir(game_id) / "orders" / f"{number:04d}-{power}.txt").read_text(
            encoding="utf-8", errors="replace")
        since = now
        if orders_text.is_nmr_statement(text):
            found = _NMR_STAMP_RE.search(text)
            stamp_text = found.group(1) if found else ""
            ctx.tdir.append({"kind": "nmr", "game": game_id, "turn": number, "power": power,
                             "deadline": stamp_text, "at": stamp(now)})
            if stamp_text:
                since = deadlines.parse_stamp(stamp_text)
    return since


def _announce_settings(ctx, entries, now, notices, report) -> None:
    last = logbook.last_settings(entries)
    if last is not None and last.get("digest") == ctx.cfg.digest:
        return
    changes = settings_changes(last.get("raw", {}) if last else {}, ctx.cfg.raw)
    ctx.tdir.append({"kind": "settings", "digest": ctx.cfg.digest, "raw": ctx.cfg.raw,
                     "at": stamp(now)})
    if last is not None and changes:
        report.settings = changes
        notices.append(Notice(notice_name("settings", ctx.cfg.digest[7:23]), ("*",),
                              "The tournament settings changed",
                              "The organiser changed these settings:\n" +
                              "\n".join(f"  {c}" for c in changes)))


def _do(ctx: Context, action, now, notices, report) -> bool:
    """Carry out one action of ``deadlines.due``; True if it may make more due."""
    power_name = ctx.game.ruleset.powers[action.power].name if hasattr(action, "power") else ""
    if isinstance(action, deadlines.Remind):
        ctx.tdir.append({"kind": "reminder", "game": action.game, "turn": action.turn,
                         "hours": deadlines.reminded_thresholds(action, ctx.cfg),
                         "at": stamp(now)})
        notices.append(Notice(notice_name("reminder", action.game, action.turn, action.hours),
                              (action.player,), f"{action.game}: your turn is due",
                              f"{power_name} ({action.game}, turn {action.turn}) is due "
                              f"{stamp(action.deadline)}: under {action.hours:g} h left.", game=action.game))
        report.reminders.append(f"{action.game} turn {action.turn}")
        return False
    if isinstance(action, deadlines.Grace):
        ctx.tdir.append({"kind": "extension", "game": action.game, "turn": action.turn,
                         "hours": action.hours, "by": "grace", "player": action.player,
                         "auto": True, "reason": "missed deadline", "at": stamp(now)})
        used = deadlines.grace_used(action.game, action.player,
                                    logbook.ledger(ctx.tdir.log()))
        notices.append(Notice(notice_name("grace", action.game, action.turn, used),
                              find_pairing(ctx, action.game).players,
                              f"{action.game}: grace extension",
                              f"{ctx.names[action.player]} missed the deadline "
                              f"{stamp(action.deadline)} for {power_name} (turn {action.turn}); "
                              f"a grace extension of {action.hours:g} h applies.", game=action.game))
        report.extensions.append(f"{action.game} turn {action.turn}")
        return True
    if isinstance(action, deadlines.PlayNmr):
        gdir = ctx.tdir.game_dir(action.game)
        text = nmr_orders(ctx, action.power, action.game, action.turn, action.deadline)
        gamedir.process_turn(gdir, game_for(ctx, action.game), text, gm_key=signing_key(ctx))
        ctx.tdir.append({"kind": "nmr", "game": action.game, "turn": action.turn,
                         "power": action.power, "deadline": stamp(action.deadline),
                         "at": stamp(now)})
        notices.append(Notice(notice_name("nmr", action.game, action.turn),
                              find_pairing(ctx, action.game).players,
                              f"{action.game}: no moves received",
                              f"No orders for {power_name} ({ctx.names[action.player]}) by "
                              f"{stamp(action.deadline)}: turn {action.turn} was played with "
                              "no purchase and no moves; standing defence orders apply and "
                              "income was collected.", game=action.game))
        report.nmrs.append(f"{action.game} turn {action.turn}")
        if not after_turn(ctx, action.game, action.deadline, notices):
            report.finished.append(action.game)
        return True
    if isinstance(action, deadlines.LateNotice):
        ctx.tdir.append({"kind": "late_notice", "day": action.day, "at": stamp(now)})
        lines = [f"  {ctx.names[x.player]}: {x.game}, {ctx.game.ruleset.powers[x.power].name}"
                 f" turn {x.turn}, " + ("overdue since " if x.overdue else "due ")
                 + stamp(x.deadline) for x in action.late]
        to = ("*",) + ((ctx.cfg.organiser,) if ctx.cfg.organiser else ())
        notices.append(Notice(notice_name("late", action.day), to,
                              f"Late players on {action.day}", "\n".join(lines)))
        report.late_notice = action.day
        return False
    raise AssertionError(action)


# --------------------------------------------------------------------------- status

@attrs.frozen
class GameStatus:
    game: str
    round: int
    players: tuple[str, str]
    sides: dict[str, str] | None
    state: str                          # waiting for bids, not started, running, over
    turn: int | None = None
    power: str | None = None
    player: str | None = None
    deadline: dt.datetime | None = None
    overdue: bool = False
    result: str = ""


def status(directory, now: dt.datetime, results: bool = True) -> list[GameStatus]:
    """Every pairing's game: whose turn and until when, or its result (``results=False``
    skips reading finished games' files)."""
    ctx = open_tournament(directory)
    entries = ctx.tdir.log()
    clocks = logbook.clocks(entries)
    ledger = logbook.ledger(entries)
    over = logbook.finished_games(entries)
    out = []
    for p in ctx.tdir.pairings():
        sides, bid = sides_of(ctx, p)
        if sides is None:
            box = ctx.tdir.bid_box(ctx.tid, p)
            def stage(x):
                return ("revealed" if x in box.reveals else
                        "sealed" if x in box.commitments else "missing")
            state = "waiting for bids: " + ", ".join(f"{ctx.names[x]} {stage(x)}"
                                                     for x in p.players)
            out.append(GameStatus(p.game, p.round, p.players, None, state))
            continue
        if p.game in clocks:
            c = clocks[p.game]
            due_at = deadlines.deadline(c, ctx.cfg, ledger)
            out.append(GameStatus(p.game, p.round, p.players, sides, "running", c.turn,
                                  c.power, c.player, due_at, now >= due_at))
        elif p.game in over:
            line = ""
            if results:
                result = result_of(p, sides, summary_of(ctx, p.game), ctx.game, ctx.cfg, bid)
                line = result_line(result, ctx.names, True)
            out.append(GameStatus(p.game, p.round, p.players, sides, "over", result=line))
        else:
            why = "bid to place" if bid and ctx.tdir.placement(p.game) is None else "to start"
            out.append(GameStatus(p.game, p.round, p.players, sides, why))
    return out


# --------------------------------------------------------------------------- history

@attrs.frozen
class HistoryEntry:
    result: GameResult
    line: str
    rating_after: float | None


def history(directory, player_text: str) -> tuple[Player, list[HistoryEntry], StandingsView]:
    """A player's games, results and rating after each."""
    from .players import find
    ctx = open_tournament(directory)
    player = find(ctx.players, player_text)
    view = _standings(ctx, record=False)
    after = {(s.game, s.player): s.after.ordinal for s in view.steps}
    entries = [HistoryEntry(r, result_line(r, ctx.names, detail=True),
                            after.get((r.game, player.id)))
               for r in sorted(view.results, key=lambda r: (r.round, r.game))
               if player.id in r.players]
    return player, entries, view
