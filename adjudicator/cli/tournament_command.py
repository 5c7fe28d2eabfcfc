"""``pbem tournament``: run a tournament or league of games (service.tournament).

Every command takes the tournament directory first.  The time is read here, once, and
passed down (``--now`` sets it: for scripts, tests and catching up); the tournament
service never reads the clock."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..model.errors import PbemError
from .common import EXIT_OK, EXIT_REJECTED, read_bytes, read_text


PIPED_WIDTH = 200      # columns when the output is not a terminal (a mail, a file, a pipe)


def _wide_when_piped(func):
    """``func`` with a console that does not fold tables and lines at 80 columns when its
    output is piped into a mail or a file (COLUMNS, when set, still decides)."""
    import functools
    import os

    @functools.wraps(func)
    def run(args, console: Console) -> int:
        from .tournament_writers import use_tournament_writers
        use_tournament_writers()
        if not console.is_terminal and "COLUMNS" not in os.environ:
            console.width = PIPED_WIDTH
        return func(args, console)
    return run


def _now(args) -> dt.datetime:
    from ..service.tournament.deadlines import parse_stamp
    if getattr(args, "now", None):
        return parse_stamp(args.now)
    return dt.datetime.now(dt.timezone.utc).replace(microsecond=0)


def _stamp(moment) -> str:
    from ..service.tournament.deadlines import stamp
    return stamp(moment) if moment else ""


def _write(path: str, text: str, force: bool) -> None:
    from ..io.storage import write_atomic
    p = Path(path)
    if not (p.parent if str(p.parent) else Path(".")).is_dir():
        raise PbemError(f"cannot write {p}: directory {p.parent} does not exist")
    write_atomic(p, text.encode("utf-8"), overwrite=force)


# --------------------------------------------------------------------------- commands

def cmd_new(args, console: Console) -> int:
    from ..service.tournament import organiser
    key = None
    if args.key:
        from .signing import gm_signing_key
        key = gm_signing_key(args.key, args)
    path = organiser.new_tournament(args.dir, args.name or Path(args.dir).name, args.ruleset,
                                    _now(args), gm_key=key, gm_key_source=args.key,
                                    tournament_id=args.id)
    console.print(f"Created the tournament in {escape(str(path.parent))}: edit "
                  f"[bold]{escape(str(path))}[/] (every key is explained there), then add "
                  "players with [bold]pbem tournament add-player[/].")
    return EXIT_OK


def cmd_add_player(args, console: Console) -> int:
    from ..service.tournament import organiser
    player = organiser.add_player(args.dir, args.name, args.email, args.key, _now(args),
                                  pid=args.id)
    console.print(f"Added {escape(player.name)} as [bold]{player.id}[/]"
                  + (" (orders must be signed with the key)" if player.key else ""))
    return EXIT_OK


def cmd_pair(args, console: Console) -> int:
    from ..service.tournament import organiser
    plan = organiser.pair(args.dir, _now(args))
    _print_plan(console, args.dir, plan, f"Round {plan.round}")
    return EXIT_OK


def cmd_challenge(args, console: Console) -> int:
    from ..service.tournament import organiser
    from ..service.tournament.players import find
    ctx = organiser.open_tournament(args.dir)
    plan = organiser.challenge(args.dir, find(ctx.players, args.challenger).id,
                               find(ctx.players, args.defender).id, _now(args))
    _print_plan(console, args.dir, plan, f"Challenge {plan.round}")
    return EXIT_OK


def _print_plan(console, directory, plan, title) -> None:
    from ..service.tournament import organiser
    names = organiser.open_tournament(directory).names
    console.print(f"[bold]{title}[/]")
    for p in plan.pairings:
        if p.sides:
            text = "  v  ".join(f"{names[pid]} ({side})" for side, pid in p.sides.items())
        else:
            text = "  v  ".join(names[x] for x in p.players) + "  (sides by sealed bid)"
        console.print(f"  {p.game}: {escape(text)}")
    for b in plan.byes:
        console.print(f"  bye: {escape(names[b])}")
    console.print("Start the games with [bold]pbem tournament start[/] (after the bids, if any).")


def cmd_start(args, console: Console) -> int:
    from ..service.tournament import organiser
    created = organiser.start(args.dir, _now(args))
    if not created:
        console.print("No game is ready to start (sides or bid placements still missing? "
                      "see [bold]pbem tournament status[/]).")
    for game in created:
        console.print(f"Started {escape(game)}")
    return EXIT_OK


def cmd_status(args, console: Console) -> int:
    from ..service.tournament import organiser
    ctx = organiser.open_tournament(args.dir)
    now = _now(args)
    rows = organiser.status(args.dir, now)
    title = f"{ctx.cfg.name}: games at {_stamp(now)}"
    if args.round is not None:
        round_of = {p.game: p.round for p in ctx.tdir.pairings()}
        rows = [s for s in rows if round_of.get(s.game) == args.round]
        title = f"{ctx.cfg.name}: round {args.round} at {_stamp(now)}"
        if not rows:
            raise PbemError(f"no game in round {args.round} (rounds paired: "
                            f"{', '.join(map(str, sorted(set(round_of.values())))) or 'none'})")
    table = Table(title=title)
    for col in ("game", "players", "state", "to move", "deadline"):
        table.add_column(col, overflow="fold")
    for s in rows:
        players = " v ".join(f"{ctx.names[s.sides[side]]} ({side})"
                             for side in (ctx.first_side, ctx.bid_side)) \
            if s.sides else " v ".join(ctx.names[x] for x in s.players)
        mover = (f"{ctx.game.ruleset.powers[s.power].name} ({ctx.names[s.player]}), turn {s.turn}"
                 if s.power else "")
        due = _stamp(s.deadline) + (" [red bold]OVERDUE[/]" if s.overdue else "")
        table.add_row(escape(s.game), escape(players), escape(s.result or s.state),
                      escape(mover), due)
    console.print(table)
    return EXIT_OK


def cmd_standings(args, console: Console) -> int:
    from ..present.tournament_pages import TIEBREAK_TITLES, standings_html
    from ..service.tournament import organiser
    ctx = organiser.open_tournament(args.dir)
    view = organiser.standings(args.dir, record=args.record)
    tiebreaks = ctx.cfg.scoring.tiebreaks
    table = Table(title=f"{ctx.cfg.name}: standings")
    for col in ("#", "player", "score", "W-D-L", *(TIEBREAK_TITLES[t] for t in tiebreaks),
                ctx.first_side, ctx.bid_side, "NMRs", "rating"):
        table.add_column(col, justify="left" if col == "player" else "right")
    for r in view.rows:
        table.add_row(r.place, escape(ctx.names[r.player]), f"{r.score:g}",
                      f"{r.wins}-{r.draws}-{r.losses}" + (f" +{r.byes} bye" if r.byes else ""),
                      *(f"{r.tiebreaks.get(t, 0):g}" for t in tiebreaks),
                      str(r.sides.get(ctx.first_side, 0)), str(r.sides.get(ctx.bid_side, 0)),
                      str(r.nmrs), "" if r.rating is None else f"{r.rating:.2f}")
    console.print(table)
    lines = view.record["results"]
    for line in lines:
        console.print(f"  {escape(line)}")
    note = _adjudication_note(ctx)
    if note:
        console.print(escape(note))
    if args.html:
        from ..present.tournament_exports import crosstable_html
        from ..service.tournament.mailings import report_links
        cross = crosstable_html(view.rows, ctx.names, view.results, ctx.cfg,
                                report_links(ctx.cfg, ctx.tid, view.results))
        _write(args.html, standings_html(ctx.cfg.name, view.rows, ctx.names, tiebreaks, lines,
                                         (ctx.first_side, ctx.bid_side), note, cross),
               args.force)
        console.print(f"Wrote {escape(args.html)}")
    if args.record:
        console.print("Recorded standings.json ([bold]pbem tournament verify[/] recomputes it "
                      "from the games)")
    return EXIT_OK


def _adjudication_note(ctx) -> str:
    """How a game at the round limit is decided ("" without a round limit)."""
    from ..service.tournament.results import adjudication_text
    if not ctx.cfg.end.round_limit:
        return ""
    return adjudication_text(ctx.game, ctx.cfg.end.adjudication)


def cmd_export(args, console: Console) -> int:
    from ..present import tournament_exports as exports
    from ..service.tournament import organiser
    ctx = organiser.open_tournament(args.dir)
    view = organiser.standings(args.dir)
    tiebreaks, sides = ctx.cfg.scoring.tiebreaks, (ctx.first_side, ctx.bid_side)
    lines = view.record["results"]
    if args.format == "csv":
        text = (exports.crosstable_csv(view.rows, ctx.names, view.results, ctx.cfg)
                if args.crosstable else exports.standings_csv(view.rows, ctx.names, tiebreaks))
    else:
        make = exports.bbcode if args.format == "bbcode" else exports.markdown
        from ..service.tournament.mailings import report_links
        text = make(ctx.cfg.name, view.rows, ctx.names, tiebreaks, sides, view.results,
                    ctx.cfg, lines, _adjudication_note(ctx),
                    report_links(ctx.cfg, ctx.tid, view.results))
    if args.output:
        _write(args.output, text, args.force)
        console.print(f"Wrote {escape(args.output)}")
    else:
        console.file.write(text)
    return EXIT_OK


def cmd_history(args, console: Console) -> int:
    from ..present.tournament_pages import history_html
    from ..service.tournament import organiser
    ctx = organiser.open_tournament(args.dir)
    player, entries, view = organiser.history(args.dir, args.player)
    row = next((r for r in view.rows if r.player == player.id), None)
    console.print(f"[bold]{escape(player.name)}[/] ({player.id})"
                  + (f": place {row.place}, score {row.score:g}" if row else ""))
    for e in entries:
        rating = "" if e.rating_after is None else f"  rating {e.rating_after:.2f}"
        console.print(f"  round {e.result.round}  {escape(e.line)}{rating}")
    if args.html:
        _write(args.html, history_html(ctx.cfg.name, player.name, entries, row), args.force)
        console.print(f"Wrote {escape(args.html)}")
    return EXIT_OK


def cmd_verify(args, console: Console) -> int:
    from ..service.tournament.verify import verify_tournament
    audit = verify_tournament(args.dir)
    console.print(f"{audit.games_checked} games, {audit.turns_checked} turns, "
                  f"{audit.dice_checked} dice, {audit.rounds_checked} rounds, "
                  f"{audit.nmrs_checked} NMRs checked"
                  + ("; standings recomputed and equal to standings.json"
                     if audit.standings_checked and audit.ok else ""))
    for note in audit.notes:
        console.print(f"note: {escape(note)}")
    for problem in audit.problems:
        console.print(f"[red bold]FAILED[/] {escape(str(problem))}")
    if audit.ok:
        console.print("[green bold]OK[/]")
        return EXIT_OK
    return EXIT_REJECTED


def cmd_tick(args, console: Console) -> int:
    from ..service.tournament import organiser
    report = organiser.tick(args.dir, _now(args))
    for label, items in (("settings changed", report.settings),
                         ("default bid", report.bid_defaults),
                         ("turns played elsewhere", report.observed),
                         ("reminded", report.reminders), ("grace extension", report.extensions),
                         ("NMR played", report.nmrs), ("game over", report.finished)):
        for item in items:
            console.print(f"{label}: {escape(item)}")
    if report.late_notice:
        console.print(f"late notice for {report.late_notice}")
    for line in report.delivered:
        console.print(escape(line))
    return EXIT_OK


def cmd_orders(args, console: Console) -> int:
    from ..io.limits import MAX_SIGNATURE_BYTES
    from ..service.tournament import organiser
    from ..service.tournament.results import GameResult
    data = read_bytes(args.orders, "orders file")
    signature = read_text(args.sig, "signature file", MAX_SIGNATURE_BYTES) if args.sig else None
    tf = organiser.submit_orders(args.dir, args.game, data, signature, _now(args))
    if isinstance(tf, GameResult):          # a concession sent off-turn
        console.print(f"{escape(args.game)}: {escape(tf.detail)}")
        return EXIT_OK
    console.print(f"Published turn {tf.turn_number} ({escape(tf.power)}) of {escape(args.game)}")
    return EXIT_OK


def cmd_resign(args, console: Console) -> int:
    from ..service.tournament import organiser
    result = organiser.resign(args.dir, args.game, args.player, _now(args), args.reason or "",
                              by="organiser")
    console.print(f"{escape(args.game)}: {escape(result.detail)}")
    return EXIT_OK


def cmd_result(args, console: Console) -> int:
    from ..service.tournament import organiser
    from ..service.tournament.results import result_line
    winner = None if args.winner.lower() == "draw" else args.winner
    result = organiser.decide(args.dir, args.game, winner, args.reason, _now(args))
    names = organiser.open_tournament(args.dir).names
    console.print(escape(result_line(result, names, detail=True)))
    return EXIT_OK


def cmd_withdraw(args, console: Console) -> int:
    from ..service.tournament import seats
    games = seats.withdraw(args.dir, args.player, args.reason, _now(args))
    console.print(f"{escape(args.player)} has withdrawn"
                  + (f"; resigned: {escape(', '.join(games))}" if games else "")
                  + " (announced to every player)")
    return EXIT_OK


def cmd_replace(args, console: Console) -> int:
    from ..service.tournament import seats
    games = seats.replace(args.dir, args.player, args.name, args.email, args.key, args.reason,
                          _now(args))
    console.print(f"{escape(args.name)} takes {escape(args.player)}'s seat"
                  + (f"; signed replacement records in {escape(', '.join(games))}"
                     if games else ""))
    return EXIT_OK


def cmd_bid_seal(args, console: Console) -> int:
    from ..service.tournament import bids
    tournament = args.dir
    if Path(args.dir, "tournament.toml").exists():
        from ..service.tournament.config import load_config
        tournament = load_config(args.dir).id
    nonce = bids.new_nonce()
    digest = bids.commitment(tournament, args.game, args.player, args.amount, nonce)
    console.print(f"commitment: {digest}\nnonce:      {nonce}", soft_wrap=True)  # copied whole
    console.print("Send the commitment now (to a tournament run by mail: a reply with the "
                  "line 'commit sha256:...'); keep the nonce and the amount secret until both "
                  "commitments are in, then reveal them ('reveal AMOUNT NONCE').")
    return EXIT_OK


def cmd_bid_commit(args, console: Console) -> int:
    from ..service.tournament import organiser
    organiser.bid_commit(args.dir, args.game, args.player, args.commitment, _now(args))
    console.print(f"Recorded {escape(args.player)}'s sealed bid for {escape(args.game)}")
    return EXIT_OK


def cmd_bid_reveal(args, console: Console) -> int:
    from ..service.tournament import organiser
    box = organiser.bid_reveal(args.dir, args.game, args.player, args.amount, args.nonce,
                               _now(args))
    outcome = box.outcome()
    if outcome is None:
        console.print(f"Recorded {escape(args.player)}'s bid; waiting for the other opening")
    else:
        console.print(f"Bids open: {box.visible()}; {escape(outcome[0])} plays the bid side "
                      f"with {outcome[1]} IPCs")
    return EXIT_OK


def cmd_bid_reset(args, console: Console) -> int:
    from ..service.tournament import organiser
    organiser.bid_reset(args.dir, args.game, args.reason, _now(args))
    console.print(f"The bids of {escape(args.game)} begin again (announced to both players)")
    return EXIT_OK


def cmd_bid_place(args, console: Console) -> int:
    from ..service.tournament import organiser
    text = read_text(args.orders, "bid orders", 16 * 1024)
    organiser.bid_place(args.dir, args.game, text, _now(args))
    console.print(f"Recorded the bid placement of {escape(args.game)}; "
                  "[bold]pbem tournament start[/] creates the game")
    return EXIT_OK


def cmd_extend(args, console: Console) -> int:
    from ..service.tournament import organiser
    if args.grace:
        ctx = organiser.open_tournament(args.dir)
        from ..service.tournament.players import find
        after = organiser.extend(args.dir, args.game, 0, _now(args), by="grace",
                                 player=find(ctx.players, args.grace).id, reason=args.reason)
    else:
        if args.hours is None:
            raise PbemError("give --hours N (the organiser's extension) or --grace PLAYER")
        after = organiser.extend(args.dir, args.game, args.hours, _now(args),
                                 reason=args.reason)
    console.print(f"{escape(args.game)}: the deadline is now {_stamp(after)} (announced)")
    return EXIT_OK


def cmd_pause(args, console: Console) -> int:
    from ..service.tournament import organiser
    from ..service.tournament.deadlines import parse_stamp
    from ..service.tournament.players import find
    ctx = organiser.open_tournament(args.dir)
    spell = organiser.pause(args.dir, find(ctx.players, args.player).id,
                            parse_stamp(args.start), parse_stamp(args.until), _now(args))
    console.print(f"{escape(args.player)} is away {_stamp(spell.start)} to {_stamp(spell.end)} "
                  f"({spell.days:g} days) in {', '.join(spell.games)} (announced)")
    return EXIT_OK


# --------------------------------------------------------------------------- arguments

def _amount(text: str) -> int:
    import argparse
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of IPCs") from None
    if value < 0:
        raise argparse.ArgumentTypeError("a bid is not negative")
    return value


def _hours(text: str) -> float:
    import argparse
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of hours") from None


def register(sub) -> None:
    from .common import ruleset_option
    from .signing import add_key_options
    p = sub.add_parser("tournament", help="run a tournament: pairings, bids, deadlines, NMR, "
                       "standings, ratings")
    tsub = p.add_subparsers(dest="tournament_command", required=True, metavar="ACTION")

    def command(name, func, help_text, now=True):
        c = tsub.add_parser(name, help=help_text)
        c.add_argument("dir", metavar="TOURNAMENT", help="the tournament directory")
        if now:
            c.add_argument("--now", metavar="TIME",
                           help="the time to act at (ISO 8601, UTC; default: now)")
        c.set_defaults(func=_wide_when_piped(func))
        return c

    c = command("new", cmd_new, "create a tournament directory with a tournament.toml")
    c.add_argument("--name", help="the tournament's title (default: the directory name)")
    c.add_argument("--id", help="the word that names its games (default: the directory name)")
    ruleset_option(c)
    add_key_options(c, "game master's ed25519 key for every game (default: one is generated "
                    "in TOURNAMENT/.secret/)")
    c = command("add-player", cmd_add_player, "register a player")
    c.add_argument("name")
    c.add_argument("--email", help="mail address for pairings, reminders and results")
    c.add_argument("--key", metavar="KEY.pub", help="the player's ed25519 public key: their "
                   "orders must then be signed")
    c.add_argument("--id", help="the player's id in files and commands (default: from the name)")
    command("pair", cmd_pair, "pair the next round (Swiss or round robin) and announce it")
    c = command("challenge", cmd_challenge, "ladder: CHALLENGER challenges DEFENDER")
    c.add_argument("challenger")
    c.add_argument("defender")
    command("start", cmd_start, "create the games whose sides are settled")
    c = command("status", cmd_status, "every game: whose turn, deadline, overdue")
    c.add_argument("--round", type=int, metavar="N", help="only the games of round N")
    c = command("standings", cmd_standings, "the standings with tiebreaks and ratings",
                now=False)
    c.add_argument("--html", metavar="FILE", help="also write them as an HTML page")
    c.add_argument("--record", action="store_true", help="record them in standings.json")
    c.add_argument("--force", action="store_true", help="overwrite the HTML file")
    c = command("export", cmd_export, "standings and crosstable as forum text (BBCode, "
                "Markdown) or CSV", now=False)
    c.add_argument("--format", choices=("bbcode", "markdown", "csv"), default="markdown")
    c.add_argument("--crosstable", action="store_true", help="csv: the crosstable instead "
                   "of the standings")
    c.add_argument("-o", "--output", metavar="FILE", help="write to FILE (default: stdout)")
    c.add_argument("--force", action="store_true", help="overwrite FILE")
    c = command("history", cmd_history, "a player's games, results and rating", now=False)
    c.add_argument("player")
    c.add_argument("--html", metavar="FILE", help="also write it as an HTML page")
    c.add_argument("--force", action="store_true", help="overwrite the HTML file")
    command("verify", cmd_verify, "re-check every game, recompute pairings and standings",
            now=False)
    command("tick", cmd_tick, "reminders, extensions, NMRs at missed deadlines, late notice "
            "(run from cron)")
    c = command("orders", cmd_orders, "play a turn of a tournament game with these orders")
    c.add_argument("game")
    c.add_argument("orders", metavar="ORDERS")
    c.add_argument("--sig", metavar="FILE", help="the player's signature of the orders")
    c = command("extend", cmd_extend, "more time for a game's current turn (announced)")
    c.add_argument("game")
    c.add_argument("--hours", type=_hours, help="the organiser's extension, in hours")
    c.add_argument("--grace", metavar="PLAYER", help="use one of PLAYER's grace extensions")
    c.add_argument("--reason", default="", help="said in the announcement")
    c = command("pause", cmd_pause, "a player's absence (vacation), within the budget")
    c.add_argument("player")
    c.add_argument("--from", dest="start", required=True, metavar="TIME")
    c.add_argument("--until", required=True, metavar="TIME")
    c = command("resign", cmd_resign, "a player gives a game up, at any time (the opponent "
                "wins; recorded)")
    c.add_argument("game")
    c.add_argument("player")
    c.add_argument("--reason", default="", help="recorded and announced")
    c = command("result", cmd_result, "(organiser) enter or override a game's result, with "
                "a reason (recorded; standings and verify count it)")
    c.add_argument("game")
    c.add_argument("winner", metavar="WINNER", help="the winning player, or 'draw'")
    c.add_argument("--reason", required=True, help="why (recorded, shown by standings)")

    c = command("withdraw", cmd_withdraw, "(organiser) a player leaves: their unfinished "
                "games are resigned, no later pairing")
    c.add_argument("player")
    c.add_argument("--reason", required=True, help="recorded and announced")
    c = command("replace", cmd_replace, "(organiser) a new person takes a player's seat "
                "(games, score), in running games too (a signed record in each)")
    c.add_argument("player", help="the player whose seat is taken")
    c.add_argument("name", help="the newcomer's name")
    c.add_argument("--email", help="the newcomer's mail address")
    c.add_argument("--key", metavar="KEY.pub", help="the newcomer's public key (games still "
                   "to start)")
    c.add_argument("--reason", required=True, help="recorded and announced")

    from .tournament_mail_command import register as register_mail
    register_mail(tsub)

    b = tsub.add_parser("bid", help="sealed bids for sides: seal, commit, reveal, place")
    bsub = b.add_subparsers(dest="bid_command", required=True, metavar="STEP")

    def bid(name, func, help_text):
        c = bsub.add_parser(name, help=help_text)
        c.add_argument("dir", metavar="TOURNAMENT", help="the tournament directory (seal: "
                       "or just its id)")
        c.add_argument("game")
        c.add_argument("player")
        c.add_argument("--now", metavar="TIME")
        c.set_defaults(func=_wide_when_piped(func))
        return c

    c = bid("seal", cmd_bid_seal, "(player) make a commitment and nonce for your bid")
    c.add_argument("amount", type=_amount)
    c = bid("commit", cmd_bid_commit, "(organiser) record a player's commitment")
    c.add_argument("commitment")
    c = bid("reveal", cmd_bid_reveal, "(organiser) record a player's opening")
    c.add_argument("amount", type=_amount)
    c.add_argument("nonce")
    c = bsub.add_parser("reset", help="(organiser) begin a game's bids again (a lost nonce, "
                        "a resealed commitment): both players seal new bids")
    c.add_argument("dir", metavar="TOURNAMENT")
    c.add_argument("game")
    c.add_argument("--reason", required=True, help="recorded and announced")
    c.add_argument("--now", metavar="TIME")
    c.set_defaults(func=_wide_when_piped(cmd_bid_reset))
    c = bsub.add_parser("place", help="(organiser) record the bid side's placement orders")
    c.add_argument("dir", metavar="TOURNAMENT")
    c.add_argument("game")
    c.add_argument("orders", metavar="ORDERS")
    c.add_argument("--now", metavar="TIME")
    c.set_defaults(func=cmd_bid_place)
