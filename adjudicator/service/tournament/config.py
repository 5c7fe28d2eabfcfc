"""``tournament.toml``: what a tournament plays and by which rules it runs.

Every key is documented in :data:`TEMPLATE` (what ``pbem tournament new`` writes) and
checked here: an unknown key, a wrong type or a value out of range is an error naming
the key.  The file is bounded (``MAX_CONFIG_BYTES``).  ``digest`` identifies the settings
so that a change can be noticed and announced (``settings_changes``).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
import string
from pathlib import Path
from typing import Any

import attrs

from ...io.storage import read_toml
from ...model.errors import PbemError

CONFIG_FILE = "tournament.toml"
MAX_CONFIG_BYTES = 64 * 1024
FORMATS = ("swiss", "round_robin", "ladder")
SIDE_METHODS = ("balance", "bid")
NMR_POLICIES = ("play", "wait")
CRITERIA = ("victory_cities", "capitals", "income", "tuv", "income_tuv")
PRESET = "preset"
TIEBREAKS = ("buchholz", "median_buchholz", "sonneborn_berger", "head_to_head", "wins",
             "axis_wins", "fewest_nmrs", "rating")
RATING_MODELS = ("plackett_luce", "bradley_terry_full", "bradley_terry_part",
                 "thurstone_mosteller_full", "thurstone_mosteller_part")
LEFTOVER = ("forfeit", "bank")
KNOWN_KEYS: dict[str, set[str]] = {          # every one documented in TEMPLATE
    "": {"name", "id", "ruleset", "organiser", "report_url", "options", "format", "schedule",
         "sides", "bid", "deadlines", "nmr", "end", "scoring", "ratings"},
    "format": {"kind", "rounds", "double", "ladder_range", "ladder_open"},
    "schedule": {"start", "round_days"},
    "sides": {"method", "bid_side"},
    "bid": {"max", "max_units_per_territory", "owned_at_start", "own_nationality",
            "naval_only_with_ships", "allow_air", "leftover", "deadline_hours", "default"},
    "deadlines": {"turn_hours", "reminders", "grace_extensions", "grace_hours", "auto_grace",
                  "absence_days", "late_notice_hour"},
    "nmr": {"policy", "forfeit_after"},
    "end": {"round_limit", "adjudication"},
    "scoring": {"win", "draw", "loss", "bye", "tiebreaks"},
    "ratings": {"model", "mu", "sigma"},
}
ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$")

TEMPLATE = '''\
# tournament.toml -- the settings of one tournament (pbem tournament ...).
# The settings 'pbem tournament new' wrote are the record's first version: the next
# 'pbem tournament tick' announces every difference from the last recorded version (old ->
# new value) to every registered player -- so edit this file before registering players,
# or they are told of your first edits too. Notices are mailed with the tournament's
# mail.toml, else written to notices/.

name = ""                       # shown in notices, standings and pages
id = ""                         # names the games (ID-r1-01) and binds the bids: never change it
ruleset = ""                    # the edition every game plays (aa1941, aa1942)
organiser = ""                  # the organiser's mail address (also gets the daily late notice)
report_url = ""                 # where each game's report is published, linked from the
                                # crosstable: a URL with {tournament}, {game} and {round}, e.g.
                                # "https://league.example/{tournament}/{game}/report.html"
                                # ("": the crosstable shows the game's id)

[options]                       # rule options of every game (see 'pbem rules'), for example:
# low_luck = true               #   Low Luck dice (any edition; docs/low-luck.md)
# turkish_straits = true

[format]
kind = "swiss"                  # "swiss" (N rounds, no rematch), "round_robin" (circle method)
                                # or "ladder" (open challenges)
rounds = 4                      # swiss: the number of rounds; round_robin: 0 = everyone once
double = false                  # round_robin: play every pairing twice, sides swapped
ladder_range = 3                # ladder: how many places above you may be challenged
ladder_open = 1                 # ladder: open challenges per player at a time

[schedule]                      # the plan mailed to every player, with a calendar file, when
                                # the first games start
start = ""                      # the day round 1 begins ("2026-03-02", or a UTC time
                                # "2026-03-02T18:00Z"); "": the day round 1 was paired
round_days = 0                  # the planned length of a round in days: round N runs from
                                # start + (N-1) x round_days; 0: no dates, a round begins
                                # when the last game of the one before ends

[sides]
method = "balance"              # "balance": the pairing gives Axis to whoever played it less;
                                # "bid": sealed bids, the lower bid plays bid_side with its bid
bid_side = "Allies"             # the side the lower bid plays

[bid]                           # sides.method = "bid": what a bid may buy
max = 60                        # the highest bid (IPCs)
max_units_per_territory = 1     # units placed per territory or sea zone (0: no limit)
owned_at_start = true           # only in territories a power of bid_side owns at the start
own_nationality = true          # a unit only where its own power owns the territory
naval_only_with_ships = true    # naval units only in sea zones where that power has ships
allow_air = true                # aircraft may be placed (on land)
leftover = "forfeit"            # IPCs not spent: "forfeit", or "bank" (to the first power of
                                # bid_side in turn order)
deadline_hours = 0              # a bid not committed this long after the pairing (or an
                                # organiser's bid reset), or committed and not revealed twice
                                # as long after, gets the default at the next tick (0: never)
default = 0                     # that default bid (IPCs); on equal bids the player who bid
                                # in time plays bid_side

[deadlines]
turn_hours = 72                 # time for one power's turn, from when it became that power's turn
reminders = [24, 4]             # remind the player this many hours before the deadline
grace_extensions = 2            # extensions a player may take per game
grace_hours = 24                # length of one extension
auto_grace = true               # a missed deadline uses a grace extension while any are left
absence_days = 14               # pause/vacation budget of a player per game (days)
late_notice_hour = 12           # once a day, the first tick from this hour (UTC) sends the list
                                # of late players -- past a deadline (nmr.policy "wait") or on
                                # a grace extension taken for them -- to every player and the
                                # organiser; no notice on a day nobody is late; -1: never

[nmr]
policy = "play"                 # at a missed deadline (no grace left): "play" the turn with no
                                # purchase and no moves (standing defence orders apply, income
                                # is collected), or "wait" (only reported as late)
forfeit_after = 3               # a side with this many NMRs in a game loses it (0: never)

[end]                           # a game ends by the ruleset's victory, a concession, a
                                # forfeit, or at its round limit
round_limit = 0                 # a game still running after this many rounds (0: no limit)
                                # is adjudicated:
adjudication = "preset"         # "preset": the edition's (victory cities where the map has
                                # them, else capitals; then income_tuv), or a list of:
                                # victory_cities, capitals, income, tuv (units' value net of
                                # purchases), income_tuv (income plus that); each measured as
                                # what a side gained since the start (bid included), compared
                                # side against side in order: the first difference decides, all
                                # equal is a draw (docs/tournament.md)

[scoring]
win = 1.0                       # points for a win
draw = 0.5                      # points for a draw
loss = 0.0                      # points for a loss
bye = 1.0                       # a player without an opponent in a round
tiebreaks = ["buchholz", "head_to_head", "sonneborn_berger", "wins"]
                                # any of: buchholz (sum of opponents' scores), median_buchholz,
                                # sonneborn_berger, head_to_head, wins, axis_wins, fewest_nmrs,
                                # rating

[ratings]
model = "plackett_luce"         # openskill model: plackett_luce, bradley_terry_full,
                                # bradley_terry_part, thurstone_mosteller_full,
                                # thurstone_mosteller_part
mu = 25.0                       # a new player's rating
sigma = 8.333                   # and its uncertainty
'''


@attrs.frozen
class Format:
    kind: str = "swiss"
    rounds: int = 4
    double: bool = False
    ladder_range: int = 3
    ladder_open: int = 1


@attrs.frozen
class Schedule:
    start: dt.datetime | None = None        # UTC; None: the day round 1 was paired
    round_days: float = 0.0


@attrs.frozen
class Sides:
    method: str = "balance"
    bid_side: str = "Allies"


@attrs.frozen
class BidPolicy:
    max: int = 60
    max_units_per_territory: int = 1
    owned_at_start: bool = True
    own_nationality: bool = True
    naval_only_with_ships: bool = True
    allow_air: bool = True
    leftover: str = "forfeit"
    deadline_hours: float = 0.0
    default: int = 0


@attrs.frozen
class Deadlines:
    turn_hours: float = 72.0
    reminders: tuple[float, ...] = (24.0, 4.0)
    grace_extensions: int = 2
    grace_hours: float = 24.0
    auto_grace: bool = True
    absence_days: float = 14.0
    late_notice_hour: int = 12


@attrs.frozen
class NmrPolicy:
    policy: str = "play"
    forfeit_after: int = 3


@attrs.frozen
class EndRule:
    round_limit: int = 0
    adjudication: tuple[str, ...] = (PRESET,)


@attrs.frozen
class Scoring:
    win: float = 1.0
    draw: float = 0.5
    loss: float = 0.0
    bye: float = 1.0
    tiebreaks: tuple[str, ...] = ("buchholz", "head_to_head", "sonneborn_berger", "wins")


@attrs.frozen
class Ratings:
    model: str = "plackett_luce"
    mu: float = 25.0
    sigma: float = 25.0 / 3


@attrs.frozen
class TournamentConfig:
    name: str
    id: str
    ruleset: str
    organiser: str = ""
    options: dict[str, Any] = attrs.field(factory=dict)
    report_url: str = ""
    format: Format = Format()
    schedule: Schedule = Schedule()
    sides: Sides = Sides()
    bid: BidPolicy = BidPolicy()
    deadlines: Deadlines = Deadlines()
    nmr: NmrPolicy = NmrPolicy()
    end: EndRule = EndRule()
    scoring: Scoring = Scoring()
    ratings: Ratings = Ratings()
    raw: dict[str, Any] = attrs.field(factory=dict, eq=False, repr=False)

    @property
    def digest(self) -> str:
        """Identifies the settings (not their spelling): changes when a value changes."""
        text = json.dumps(self.raw, sort_keys=True, separators=(",", ":"), default=str)
        return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def template(name: str, tournament_id: str, ruleset: str) -> str:
    """The commented settings file with these three values, written by a TOML library (any
    string survives: quotes, backslashes, newlines, unicode)."""
    import tomlkit

    doc = tomlkit.parse(TEMPLATE)
    doc["name"], doc["id"], doc["ruleset"] = name, tournament_id, ruleset
    return tomlkit.dumps(doc)


def load_config(directory) -> TournamentConfig:
    """Read ``DIRECTORY/tournament.toml`` and check every key."""
    path = Path(directory) / CONFIG_FILE
    if not path.is_file():
        raise PbemError(f"{directory} is not a tournament (no {CONFIG_FILE}); create one "
                        "with 'pbem tournament new NAME'")
    raw = read_toml(path, "tournament settings", MAX_CONFIG_BYTES, PbemError)
    return parse_config(_dates_as_text(raw), str(path))


def _dates_as_text(value):
    """TOML's own dates and times (``start = 2026-03-02``) as ISO text, so that the raw
    settings stay JSON (the log records them)."""
    if isinstance(value, dict):
        return {k: _dates_as_text(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_dates_as_text(v) for v in value]
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    return value


def parse_config(raw: dict[str, Any], where: str = CONFIG_FILE) -> TournamentConfig:
    r = _Reader(where)
    r.keys(raw, KNOWN_KEYS[""], "")
    options = r.table(raw, "options")
    for key, value in options.items():
        if not isinstance(value, (bool, int, str)) or isinstance(value, float):
            r.fail(f"options.{key}", "must be true/false, a whole number or a string")
    fmt = r.section(raw, "format")
    sched = r.section(raw, "schedule")
    sides = r.section(raw, "sides")
    bid = r.section(raw, "bid")
    dl = r.section(raw, "deadlines")
    nmr = r.section(raw, "nmr")
    end = r.section(raw, "end")
    sc = r.section(raw, "scoring")
    rt = r.section(raw, "ratings")
    name = r.string(raw, "name", required=True, where="")
    if not 1 <= len(name) <= 100 or not name.isprintable():
        r.fail("name", "must be 1-100 printable characters")
    tournament_id = r.string(raw, "id", required=True, where="")
    if not ID_RE.match(tournament_id):
        r.fail("id", "must be 1-40 letters, digits, '-' and '_' (it names the games)")
    return TournamentConfig(
        name=name, id=tournament_id,
        ruleset=r.string(raw, "ruleset", required=True, where=""),
        organiser=r.string(raw, "organiser", where="") or "",
        report_url=_report_url(r, raw),
        options=dict(options),
        format=Format(
            kind=r.choice(fmt, "kind", FORMATS, "format", "swiss"),
            rounds=r.integer(fmt, "rounds", "format", 4, 0, 100),
            double=r.boolean(fmt, "double", "format", False),
            ladder_range=r.integer(fmt, "ladder_range", "format", 3, 1, 1000),
            ladder_open=r.integer(fmt, "ladder_open", "format", 1, 1, 100)),
        schedule=Schedule(start=_start(r, sched),
                          round_days=r.number(sched, "round_days", "schedule", 0.0, 0, 365)),
        sides=Sides(method=r.choice(sides, "method", SIDE_METHODS, "sides", "balance"),
                    bid_side=r.string(sides, "bid_side", where="sides") or "Allies"),
        bid=BidPolicy(
            max=r.integer(bid, "max", "bid", 60, 0, 10_000),
            max_units_per_territory=r.integer(bid, "max_units_per_territory", "bid", 1, 0, 1000),
            owned_at_start=r.boolean(bid, "owned_at_start", "bid", True),
            own_nationality=r.boolean(bid, "own_nationality", "bid", True),
            naval_only_with_ships=r.boolean(bid, "naval_only_with_ships", "bid", True),
            allow_air=r.boolean(bid, "allow_air", "bid", True),
            leftover=r.choice(bid, "leftover", LEFTOVER, "bid", "forfeit"),
            deadline_hours=r.number(bid, "deadline_hours", "bid", 0.0, 0, 24 * 365),
            default=r.integer(bid, "default", "bid", 0, 0, 10_000)),
        deadlines=Deadlines(
            turn_hours=r.number(dl, "turn_hours", "deadlines", 72.0, 0.01, 24 * 365),
            reminders=tuple(sorted((r.number_list(dl, "reminders", "deadlines", (24.0, 4.0),
                                                  0.01, 24 * 365)), reverse=True)),
            grace_extensions=r.integer(dl, "grace_extensions", "deadlines", 2, 0, 100),
            grace_hours=r.number(dl, "grace_hours", "deadlines", 24.0, 0.01, 24 * 365),
            auto_grace=r.boolean(dl, "auto_grace", "deadlines", True),
            absence_days=r.number(dl, "absence_days", "deadlines", 14.0, 0, 365),
            late_notice_hour=r.integer(dl, "late_notice_hour", "deadlines", 12, -1, 23)),
        nmr=NmrPolicy(policy=r.choice(nmr, "policy", NMR_POLICIES, "nmr", "play"),
                      forfeit_after=r.integer(nmr, "forfeit_after", "nmr", 3, 0, 1000)),
        end=EndRule(round_limit=r.integer(end, "round_limit", "end", 0, 0, 1000),
                    adjudication=_adjudication(r, end)),
        scoring=Scoring(
            win=r.number(sc, "win", "scoring", 1.0, -100, 100),
            draw=r.number(sc, "draw", "scoring", 0.5, -100, 100),
            loss=r.number(sc, "loss", "scoring", 0.0, -100, 100),
            bye=r.number(sc, "bye", "scoring", 1.0, -100, 100),
            tiebreaks=r.names(sc, "tiebreaks", TIEBREAKS, "scoring",
                              ("buchholz", "head_to_head", "sonneborn_berger", "wins"))),
        ratings=Ratings(model=r.choice(rt, "model", RATING_MODELS, "ratings", "plackett_luce"),
                        mu=r.number(rt, "mu", "ratings", 25.0, -1e6, 1e6),
                        sigma=r.number(rt, "sigma", "ratings", 25.0 / 3, 1e-6, 1e6)),
        raw=raw)


URL_FIELDS = ("tournament", "game", "round")


def _report_url(r: "_Reader", raw: dict) -> str:
    """``report_url``: "" or an http(s) URL whose only fields are ``URL_FIELDS``."""
    url = r.string(raw, "report_url", where="") or ""
    if not url:
        return ""
    if not re.match(r"^https?://[^\s{}]+", url) or any(c.isspace() for c in url):
        r.fail("report_url", "must be an http:// or https:// URL without spaces")
    try:
        fields = {f for _t, f, _s, _c in string.Formatter().parse(url) if f is not None}
    except ValueError:
        r.fail("report_url", "has an unclosed '{' or '}' (write {{ or }} for the character)")
    if not fields <= set(URL_FIELDS):
        r.fail("report_url", "may name only {tournament}, {game} and {round}, not "
               + ", ".join("{" + f + "}" for f in sorted(fields - set(URL_FIELDS))))
    return url


def _start(r: "_Reader", sched: dict) -> dt.datetime | None:
    """``[schedule] start``: "" (None), a day (its midnight UTC) or a UTC time."""
    text = r.string(sched, "start", where="schedule") or ""
    if not text:
        return None
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            return dt.datetime.fromisoformat(text).replace(tzinfo=dt.timezone.utc)
        when = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        when = None
    if when is None or when.tzinfo is None:
        r.fail("schedule.start", f"must be a day (2026-03-02) or a UTC time "
               f"(2026-03-02T18:00Z), not {text!r}")
    return when.astimezone(dt.timezone.utc)


def _adjudication(r: "_Reader", end: dict) -> tuple[str, ...]:
    """``[end] adjudication``: "preset" or a list of criteria."""
    if end.get("adjudication", PRESET) == PRESET:
        return (PRESET,)
    return r.names(end, "adjudication", CRITERIA, "end", CRITERIA)


def settings_changes(old: dict[str, Any], new: dict[str, Any], prefix: str = "") -> list[str]:
    """Every setting that differs between two raw configurations, as ``key: old -> new``."""
    lines = []
    for key in sorted(set(old) | set(new)):
        a, b = old.get(key), new.get(key)
        name = f"{prefix}{key}"
        if isinstance(a, dict) or isinstance(b, dict):
            lines += settings_changes(a if isinstance(a, dict) else {},
                                      b if isinstance(b, dict) else {}, name + ".")
        elif a != b:
            lines.append(f"{name}: {_show(a)} -> {_show(b)}")
    return lines


def _show(value) -> str:
    return "(not set)" if value is None else json.dumps(value)


class _Reader:
    """Typed reads of one table with errors that name the key."""

    def __init__(self, where: str):
        self.where = where

    def fail(self, key: str, why: str):
        raise PbemError(f"{self.where}: {key} {why}")

    def keys(self, table: dict, allowed: set[str], where: str) -> None:
        unknown = sorted(set(table) - allowed)
        if unknown:
            prefix = f"{where}." if where else ""
            raise PbemError(f"{self.where}: unknown setting(s) "
                            f"{', '.join(prefix + k for k in unknown)} (known: "
                            f"{', '.join(sorted(prefix + k for k in allowed))})")

    def table(self, raw: dict, key: str) -> dict:
        value = raw.get(key, {})
        if not isinstance(value, dict):
            self.fail(key, "must be a table ([" + key + "])")
        return value

    def section(self, raw: dict, key: str) -> dict:
        """The table ``[key]``, refusing settings not in ``KNOWN_KEYS[key]``."""
        table = self.table(raw, key)
        self.keys(table, KNOWN_KEYS[key], key)
        return table

    def _get(self, table, key, where):
        return table.get(key), (f"{where}.{key}" if where else key)

    def string(self, table, key, required=False, where="") -> str | None:
        value, name = self._get(table, key, where)
        if value is None:
            if required:
                self.fail(name, "is missing")
            return None
        if not isinstance(value, str) or len(value) > 200:
            self.fail(name, "must be a string (at most 200 characters)")
        return value

    def choice(self, table, key, allowed, where, default) -> str:
        value, name = self._get(table, key, where)
        if value is None:
            return default
        if value not in allowed:
            self.fail(name, f"must be one of {', '.join(allowed)}, not {value!r}")
        return value

    def boolean(self, table, key, where, default) -> bool:
        value, name = self._get(table, key, where)
        if value is None:
            return default
        if not isinstance(value, bool):
            self.fail(name, "must be true or false")
        return value

    def integer(self, table, key, where, default, low, high) -> int:
        value, name = self._get(table, key, where)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            self.fail(name, f"must be a whole number from {low} to {high}")
        return value

    def number(self, table, key, where, default, low, high) -> float:
        value, name = self._get(table, key, where)
        if value is None:
            return float(default)
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or not low <= value <= high:
            self.fail(name, f"must be a number from {low} to {high}")
        return float(value)

    def number_list(self, table, key, where, default, low, high) -> tuple[float, ...]:
        value, name = self._get(table, key, where)
        if value is None:
            return tuple(default)
        if not isinstance(value, list) or len(value) > 10 or any(
                isinstance(v, bool) or not isinstance(v, (int, float)) or not low <= v <= high
                for v in value):
            self.fail(name, f"must be a list of at most 10 numbers from {low} to {high}")
        return tuple(float(v) for v in value)

    def names(self, table, key, allowed, where, default) -> tuple[str, ...]:
        value, name = self._get(table, key, where)
        if value is None:
            return tuple(default)
        if not isinstance(value, list) or len(value) > 20 or \
                any(v not in allowed for v in value) or len(set(value)) != len(value):
            self.fail(name, f"must be a list of distinct names from: {', '.join(allowed)}")
        return tuple(value)


_KEY_LINE = re.compile(r'^(\w+) = ("[^"]*"|\[[^\]]*\]|\S+)\s*(?:#\s?(.*))?$')
_TABLE_LINE = re.compile(r"^\[(\w+)\]\s*(?:#\s?(.*))?$")
_MORE_LINE = re.compile(r"^\s{8,}#\s?(.*)$")


def docs_table() -> str:
    """The "Every setting" table of docs/tournament.md (Markdown), read from
    :data:`TEMPLATE`'s comments, where every key is documented once (a test keeps the docs
    equal to it)."""
    rows: list[list[str]] = []
    table = ""
    for line in TEMPLATE.splitlines():
        if m := _TABLE_LINE.match(line):
            table = m.group(1)
            rows.append([f"**`[{table}]`**", "", m.group(2) or ""])
        elif m := _KEY_LINE.match(line):
            name = f"{table}.{m.group(1)}" if table else m.group(1)
            rows.append([f"`{name}`", f"`{m.group(2)}`", m.group(3) or ""])
        elif (m := _MORE_LINE.match(line)) and rows:
            rows[-1][2] = f"{rows[-1][2]} {m.group(1)}".strip()
    out = ["| key | default | meaning |", "|---|---|---|"]
    out += [f"| {k} | {d} | {text.replace('|', chr(92) + '|')} |" for k, d, text in rows]
    return "\n".join(out) + "\n"
