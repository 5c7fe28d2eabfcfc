"""One cron pass of a tournament run by mail (``pbem tournament mail run``): the tournament's
own mail (mail_desk.TournamentDesk), each running game's game master over the same inbox,
the clock (defaults, reminders, NMRs, results, standings), the turn reports not mailed yet,
and the next round's pairing once a round is over.  One game's trouble is reported and the
other games go on."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import attrs

from ...model.errors import PbemError
from ..mail.config import MailConfig
from ..mail.runner import GameMaster
from . import logbook
from .mail_desk import TournamentDesk


@attrs.define
class TournamentPass:
    desk: object = None
    games: dict = attrs.Factory(dict)             # game -> PassSummary line
    errors: list[str] = attrs.Factory(list)
    created: list[str] = attrs.Factory(list)
    paired: list[int] = attrs.Factory(list)
    tick: object = None
    results_queued: int = 0

    def lines(self) -> list[str]:
        out = [f"tournament mail: {self.desk.line() if self.desk else 'not read'}"]
        out += [f"{game}: {line}" for game, line in sorted(self.games.items())]
        out += [f"paired round {n}" for n in self.paired]
        out += [f"started {g}" for g in self.created]
        if self.tick is not None:
            out += [f"NMR played: {x}" for x in self.tick.nmrs]
            out += [f"game over: {x}" for x in self.tick.finished]
        if self.results_queued:
            out.append(f"{self.results_queued} turn report(s) queued")
        out += [f"error: {e}" for e in self.errors]
        return out


def tournament_mail_config(directory) -> MailConfig:
    from ..mail.config import load_config
    from .notices import MAIL_FILE
    path = Path(directory) / MAIL_FILE
    if not path.exists():
        raise PbemError(f"{path} is missing: the tournament's mail settings (address, "
                        "[inbox], [send]; docs/tournament.md)")
    cfg = load_config(Path(directory), path)
    if cfg.inbox is None:
        raise PbemError(f"{path} has no [inbox]: the tournament inbox to read")
    return cfg


def mail_pass(directory, *, renderers, now: dt.datetime, log=lambda s: None
              ) -> TournamentPass:
    """One cron pass of a tournament run by mail: the tournament's own mail, the games'
    mail, the clock (defaults, reminders, NMRs, results, standings), each new turn's
    report to both players, and the next round's pairing once a round is over."""
    from . import organiser
    organiser.open_tournament(directory)            # no tournament: said first
    cfg = tournament_mail_config(directory)
    out = TournamentPass()
    desk = TournamentDesk(directory, cfg, renderers=renderers, now=now, log=log)
    out.desk = desk.run_pass()
    for _ in range(2):                  # again once a new round has been paired
        out.created += organiser.start(directory, now)
        ctx = organiser.open_tournament(directory)
        _game_passes(ctx, renderers, now, log, out)
        out.tick = organiser.tick(directory, now)
        out.results_queued += _mail_reports(organiser.open_tournament(directory),
                                            renderers, now, log, out)
        try:
            plan = _pair_if_due(directory, now)
        except PbemError as exc:            # e.g. no pairing without a rematch: said
            out.errors.append(f"pairing the next round: {exc}")
            break
        if plan is None:
            break
        out.paired.append(plan.round)
    return out


def _started_games(ctx) -> list[str]:
    return [p.game for p in ctx.tdir.pairings()
            if (ctx.tdir.game_dir(p.game) / "game.json").exists()]


def _game_master(ctx, game_id: str, renderers, now: dt.datetime, log) -> GameMaster:
    from ..mail.config import load_config
    from .notices import MAIL_FILE
    from .context import signing_key
    gdir = ctx.tdir.game_dir(game_id)
    # The tournament's settings (its one inbox; paths from the tournament directory), with
    # the game's own journal and outbox in the game's directory.
    cfg = load_config(gdir, ctx.tdir.path(MAIL_FILE))
    return GameMaster(gdir, cfg, renderers=renderers, gm_key=signing_key(ctx),
                      clock=lambda: now.timestamp(), log=log)


def _game_passes(ctx, renderers, now, log, out: TournamentPass) -> None:
    """Each running game's game master over the inbox: its orders and checks, its
    welcome mail; one game's trouble is reported and the others go on."""
    running = set(logbook.clocks(ctx.tdir.log()))
    for game_id in _started_games(ctx):
        if game_id not in running:
            continue
        try:
            summary = _game_master(ctx, game_id, renderers, now, log).run_pass()
            out.games[game_id] = summary.line()
        except Exception as exc:    # noqa: BLE001 -- one game must not stop the others
            out.errors.append(f"{game_id}: {type(exc).__name__}: {exc}")
            log(f"{game_id}: {exc}")


def _mail_reports(ctx, renderers, now, log, out: TournamentPass) -> int:
    """Every published turn's report to both players (those the game master did not
    send: NMR turns played by the clock); a report already queued is never queued again."""
    from ..mail.players import players_of
    from ..mail.results import queue_turn_results
    from ..addresses import with_addresses
    from .. import gamedir
    from ...io.layout import list_turns
    from .context import game_for
    queued = 0
    for game_id in _started_games(ctx):
        try:
            gm = _game_master(ctx, game_id, renderers, now, log)
            gf, _ = gamedir.read_game(gm.dir)
            players = players_of(with_addresses(gf, gm.dir), gm.cfg)
            game = game_for(ctx, game_id)
            fresh = 0
            for number, _power, _path in list_turns(gm.dir):
                fresh += queue_turn_results(
                    directory=gm.dir, game=game, game_id=gf.game_id, turn_number=number,
                    players=players, outbox=gm.outbox, renderers=renderers,
                    sender=gm.cfg.address, sender_name=gm.cfg.name, now=now.timestamp())
            if fresh:
                gm.flush()
            queued += fresh
        except Exception as exc:    # noqa: BLE001 -- one game must not stop the others
            out.errors.append(f"{game_id}: {type(exc).__name__}: {exc}")
    return queued


def _pair_if_due(directory, now: dt.datetime):
    """The next round, once every game of the latest one is over and announced (a Swiss
    tournament up to its rounds, a round robin to its end; never a ladder)."""
    from . import organiser
    ctx = organiser.open_tournament(directory)
    plans = ctx.tdir.rounds()
    kind = ctx.cfg.format.kind
    if not plans or kind == "ladder":
        return None
    if not any(e["kind"] == organiser.ROUND_OVER and e.get("round") == plans[-1].round
               for e in ctx.tdir.log()):
        return None
    if kind == "swiss" and ctx.cfg.format.rounds and len(plans) >= ctx.cfg.format.rounds:
        return None
    if kind != "swiss":
        from .pairing import round_robin_rounds
        if len(plans) >= round_robin_rounds([p.id for p in ctx.players], ctx.cfg.format.double):
            return None
    return organiser.pair(directory, now)
