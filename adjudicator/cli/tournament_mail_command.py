"""``pbem tournament mail run``: the cron pass of a tournament run by mail (one
tournament inbox; service.tournament.mail_desk)."""

from __future__ import annotations

import datetime as dt
import signal
import threading

from rich.console import Console
from rich.markup import escape

from ..model.errors import PbemError
from .common import EXIT_OK, EXIT_REJECTED


def cmd_tournament_mail_run(args, console: Console) -> int:
    from ..service.tournament.mail_pass import mail_pass, tournament_mail_config
    from ..service.tournament.deadlines import parse_stamp
    from .mail_command import mail_renderers
    from .tournament_writers import use_tournament_writers
    use_tournament_writers()

    def now() -> dt.datetime:
        if args.now:
            return parse_stamp(args.now)
        return dt.datetime.now(dt.timezone.utc).replace(microsecond=0)

    def say(text: str) -> None:
        console.print(escape(text), highlight=False, soft_wrap=True)

    log = say if args.verbose else (lambda s: None)
    renderers = mail_renderers()

    def one() -> int:
        result = mail_pass(args.dir, renderers=renderers, now=now(), log=log)
        for line in result.lines():
            say(line)
        return EXIT_REJECTED if result.errors else EXIT_OK

    if not args.watch:
        return one()
    if args.now:
        raise PbemError("--now sets the time of one pass; --watch runs on the clock")
    interval = tournament_mail_config(args.dir).poll_seconds
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    say(f"watching the tournament inbox every {interval:g} s; Ctrl-C to stop")
    while not stop.is_set():
        try:
            one()
        except PbemError as exc:            # a server down: said, and tried again
            say(f"pass failed: {exc}")
        stop.wait(interval)
    return EXIT_OK


def register(tsub) -> None:
    m = tsub.add_parser("mail", help="run the tournament by mail: one inbox for every game")
    msub = m.add_subparsers(dest="tournament_mail_command", required=True, metavar="STEP")
    c = msub.add_parser("run", help="read the tournament inbox (bids, orders, concessions, "
                        "absences), play the clock, mail reports, pairings and standings")
    c.add_argument("dir", metavar="TOURNAMENT", help="the tournament directory")
    c.add_argument("--watch", action="store_true", help="keep running: a pass every "
                   "poll_seconds (mail.toml) instead of once (for cron: once)")
    c.add_argument("--now", metavar="TIME", help="the time to act at (ISO 8601, UTC; "
                   "default: now; not with --watch)")
    c.add_argument("-v", "--verbose", action="store_true", help="say what each mail did")
    c.set_defaults(func=cmd_tournament_mail_run)
