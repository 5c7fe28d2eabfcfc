"""Deadlines: when each waiting turn is due, and what a tick must do now.  Pure: the time
is an argument (``now``), never read here.

A power's turn is due ``turn_hours`` after it became that power's turn, plus the turn's
extensions (a player's grace extension, the organiser's extension), plus the part of the
player's pauses (vacations) that falls in the turn's time.  All of these are recorded
orders (``log``): the deadline is a function of them.  :func:`due` lists what is to be
done at ``now``: reminders before the deadline, a grace extension or the NMR at a missed
deadline (exactly at the deadline: the NMR is stamped with the deadline, not with the
time the tick ran), and the daily late notice.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence

import attrs

from ...model.errors import PbemError
from .config import TournamentConfig

HOUR = dt.timedelta(hours=1)
DAY = dt.timedelta(days=1)


@attrs.frozen
class TurnClock:
    """The turn a game waits for: ``turn`` (turn number) of ``power``, played by ``player``,
    whose time began at ``started``."""

    game: str
    turn: int
    power: str
    player: str
    started: dt.datetime


@attrs.frozen
class Extension:
    game: str
    turn: int
    hours: float
    by: str                     # "grace" (the player's, counted) or "organiser"
    player: str | None = None
    auto: bool = False          # taken by the tick at a missed deadline


@attrs.frozen
class Pause:
    player: str
    start: dt.datetime
    end: dt.datetime
    games: tuple[str, ...] = ()

    @property
    def days(self) -> float:
        return (self.end - self.start) / DAY


@attrs.frozen
class Ledger:
    """The recorded orders and notices that deadlines depend on."""

    extensions: tuple[Extension, ...] = ()
    pauses: tuple[Pause, ...] = ()
    reminded: frozenset[tuple[str, int, float]] = frozenset()    # (game, turn, hours before)
    late_notices: frozenset[str] = frozenset()                   # days (YYYY-MM-DD) sent


# --------------------------------------------------------------------------- actions

@attrs.frozen
class Remind:
    game: str
    turn: int
    power: str
    player: str
    deadline: dt.datetime
    hours: float                # the reminder threshold this is


@attrs.frozen
class Grace:
    game: str
    turn: int
    power: str
    player: str
    hours: float
    deadline: dt.datetime       # the deadline that was missed


@attrs.frozen
class PlayNmr:
    game: str
    turn: int
    power: str
    player: str
    deadline: dt.datetime


@attrs.frozen
class Late:
    game: str
    turn: int
    power: str
    player: str
    deadline: dt.datetime
    overdue: bool               # past the deadline (policy "wait"); else in a grace extension


@attrs.frozen
class LateNotice:
    day: str
    late: tuple[Late, ...]


# --------------------------------------------------------------------------- deadlines

def deadline(clock: TurnClock, cfg: TournamentConfig, ledger: Ledger) -> dt.datetime:
    """When ``clock``'s turn is due."""
    due_at = clock.started + cfg.deadlines.turn_hours * HOUR
    for ext in ledger.extensions:
        if ext.game == clock.game and ext.turn == clock.turn:
            due_at += ext.hours * HOUR
    for pause in sorted(ledger.pauses, key=lambda p: p.start):
        if pause.player != clock.player or clock.game not in pause.games:
            continue
        overlap = min(pause.end, due_at) - max(pause.start, clock.started)
        if overlap > dt.timedelta(0):
            due_at += overlap
    return due_at


def grace_used(game: str, player: str, ledger: Ledger) -> int:
    return sum(1 for e in ledger.extensions
               if e.game == game and e.player == player and e.by == "grace")


def grace_left(game: str, player: str, cfg: TournamentConfig, ledger: Ledger) -> int:
    return max(0, cfg.deadlines.grace_extensions - grace_used(game, player, ledger))


def absence_used(game: str, player: str, ledger: Ledger) -> float:
    return sum(p.days for p in ledger.pauses if p.player == player and game in p.games)


def check_pause(pause: Pause, cfg: TournamentConfig, ledger: Ledger) -> None:
    """Refuse a pause that is malformed or over the absence budget of any of its games."""
    if pause.end <= pause.start:
        raise PbemError("a pause must end after it starts")
    if not pause.games:
        raise PbemError(f"{pause.player} has no running game to pause")
    for game in pause.games:
        used = absence_used(game, pause.player, ledger)
        if used + pause.days > cfg.deadlines.absence_days + 1e-9:
            raise PbemError(f"{pause.player} has {cfg.deadlines.absence_days - used:g} of "
                            f"{cfg.deadlines.absence_days:g} days of absence left in {game}; "
                            f"this pause is {pause.days:g} days")


def check_grace(clock: TurnClock, player: str, cfg: TournamentConfig, ledger: Ledger) -> None:
    if player != clock.player:
        raise PbemError(f"it is not {player}'s turn in {clock.game} (it is {clock.player}'s)")
    if grace_left(clock.game, player, cfg, ledger) <= 0:
        raise PbemError(f"{player} has used all {cfg.deadlines.grace_extensions} grace "
                        f"extension(s) in {clock.game}")


# --------------------------------------------------------------------------- the tick

def is_late(clock: TurnClock, cfg: TournamentConfig, ledger: Ledger,
            now: dt.datetime) -> Late | None:
    due_at = deadline(clock, cfg, ledger)
    auto = any(e.auto for e in ledger.extensions if e.game == clock.game and e.turn == clock.turn)
    if now >= due_at or auto:
        return Late(clock.game, clock.turn, clock.power, clock.player, due_at, now >= due_at)
    return None


def due(now: dt.datetime, clocks: Iterable[TurnClock], cfg: TournamentConfig,
        ledger: Ledger) -> list:
    """What is to be done at ``now``, game by game, then the daily late notice."""
    actions: list = []
    late: list[Late] = []
    for clock in clocks:
        due_at = deadline(clock, cfg, ledger)
        if now >= due_at:
            if cfg.deadlines.auto_grace and grace_left(clock.game, clock.player, cfg, ledger):
                actions.append(Grace(clock.game, clock.turn, clock.power, clock.player,
                                     cfg.deadlines.grace_hours, due_at))
            elif cfg.nmr.policy == "play":
                actions.append(PlayNmr(clock.game, clock.turn, clock.power, clock.player, due_at))
            else:
                late.append(Late(clock.game, clock.turn, clock.power, clock.player, due_at, True))
            continue
        reminder = _reminder(clock, due_at, now, cfg, ledger)
        if reminder is not None:
            actions.append(reminder)
        state = is_late(clock, cfg, ledger, now)
        if state is not None:
            late.append(state)
    notice = late_notice(now, late, cfg, ledger)
    if notice is not None:
        actions.append(notice)
    return actions


def _reminder(clock, due_at, now, cfg, ledger) -> Remind | None:
    """The most urgent reminder threshold passed and not yet sent (one mail, not several
    when the tick ran late)."""
    passed = [h for h in cfg.deadlines.reminders if now >= due_at - h * HOUR]
    if not passed:
        return None
    hours = min(passed)
    if any((clock.game, clock.turn, h) in ledger.reminded for h in cfg.deadlines.reminders
           if h <= hours):
        return None
    return Remind(clock.game, clock.turn, clock.power, clock.player, due_at, hours)


def reminded_thresholds(reminder: Remind, cfg: TournamentConfig) -> list[float]:
    """The thresholds a reminder settles (itself and every earlier one)."""
    return [h for h in cfg.deadlines.reminders if h >= reminder.hours]


def late_notice(now: dt.datetime, late: Sequence[Late], cfg: TournamentConfig,
                ledger: Ledger) -> LateNotice | None:
    hour = cfg.deadlines.late_notice_hour
    if hour < 0 or not late:
        return None
    day = now.date().isoformat()
    if day in ledger.late_notices or now.hour < hour:
        return None
    return LateNotice(day, tuple(sorted(late, key=lambda x: (x.deadline, x.game))))


def stamp(moment: dt.datetime) -> str:
    """``2025-03-04T12:00:00Z``: a UTC time as the NMR statement and the log write it."""
    return moment.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_stamp(text: str) -> dt.datetime:
    """A time given by a person or read from a file: ISO 8601, UTC unless it says."""
    try:
        moment = dt.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except (ValueError, AttributeError):
        raise PbemError(f"{text!r} is not a time (write e.g. 2025-03-04T12:00Z)") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.timezone.utc)
    return moment.astimezone(dt.timezone.utc)
