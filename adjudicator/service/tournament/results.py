"""A game's result, read from the game's own files (never from a separate record).

:func:`summarize_game` reads a game directory's turn files in order (plain JSON: the
signatures, chain and dice are ``tournament verify``'s job) and stops at the turn that
ended the game for the tournament: the ruleset's victory, a concession (the ``concede``
order), a forfeit (the side's ``forfeit_after``-th NMR) or the end of round
``round_limit``.  Turns after that are counted but do not change the result.
:func:`result_of` turns that into a win, draw or loss for the two players; a game at
the round limit is adjudicated by the criteria named in ``[end] adjudication``, compared
side against side in order (the first difference decides, all equal is a draw).

Every criterion is measured as what a side *gained since the game's start* (the start
includes a bid's units), so a board where nothing changed is a draw whatever the setup
gives each side: the 1941 map's 3 Allied capitals against 2 Axis ones decide nothing.
``tuv`` is the units' value gained net of what the side bought (so: minus the value of
the units it lost); ``income_tuv`` adds that to the income gained.  The ``preset`` of an
edition (:func:`criteria_for`) is victory cities where the map has them, else capitals,
then income plus units' value.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import attrs

from ...engine.statements import CONCESSION
from ...io.layout import GAME_FILE, list_turns
from ...io.storage import parse_json_bytes, read_bytes
from ...model.errors import PbemError
from .config import PRESET, TournamentConfig
from .pairing import Pairing

NMR_EVENT = "no_moves_received"
VICTORY_EVENT = "victory"
PURCHASE_EVENT = "purchased"
CRITERION_LABELS = {
    "victory_cities": "victory cities", "capitals": "capitals", "income": "income",
    "tuv": "units' value net of purchases", "income_tuv": "income plus units' value",
}


@attrs.frozen
class GameSummary:
    """What the tournament needs from one game's files."""

    game: str
    turns: int                          # turn files read up to the deciding one
    round: int                          # the round to be played next (after ``turns``)
    power: str                          # whose turn is next
    winner: str | None = None           # winning side, by victory or concession
    rule: str | None = None             # the victory rule ("concession" for a concession)
    nmrs: dict[str, int] = attrs.field(factory=dict)       # side -> NMR turns
    nmr_turns: tuple[tuple[int, str, str], ...] = ()       # (turn, power, deadline)
    forfeit_by: str | None = None       # side that reached the NMR limit
    limit_reached: bool = False
    owners: dict[str, str] = attrs.field(factory=dict)     # of the deciding state
    units: dict = attrs.field(factory=dict)                # grouped, as in the file
    extra_turns: int = 0                # turns published after the game ended
    start_owners: dict[str, str] = attrs.field(factory=dict)   # of the starting position
    start_units: dict = attrs.field(factory=dict)
    bought: dict[str, dict[str, int]] = attrs.field(factory=dict)  # power -> unit -> count

    @property
    def finished(self) -> bool:
        return self.winner is not None or self.forfeit_by is not None or self.limit_reached


@attrs.frozen
class GameResult:
    game: str
    round: int                          # the tournament round (ladder: challenge number)
    sides: dict[str, str]               # side -> player id
    bid: int = 0
    bid_side: str = "Allies"
    finished: bool = False
    winner: str | None = None           # player id; None: a draw (when finished)
    how: str = ""                       # victory, concession, forfeit, round_limit
    detail: str = ""
    nmrs: dict[str, int] = attrs.field(factory=dict)       # player id -> NMR turns
    game_round: int = 1

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.sides.values())

    @property
    def draw(self) -> bool:
        return self.finished and self.winner is None

    def score(self, player: str, cfg: TournamentConfig) -> float:
        if self.winner is None:
            return cfg.scoring.draw
        return cfg.scoring.win if self.winner == player else cfg.scoring.loss

    def side_of(self, player: str) -> str | None:
        return next((s for s, p in self.sides.items() if p == player), None)

    def opponent(self, player: str) -> str:
        return next(p for p in self.sides.values() if p != player)


# --------------------------------------------------------------------------- reading

def summarize_game(directory, sides_of: dict[str, str], cfg: TournamentConfig) -> GameSummary:
    """Read ``directory``'s game file and turn files (``sides_of``: power -> side)."""
    directory = Path(directory)
    gpath = directory / GAME_FILE
    game_file = parse_json_bytes(read_bytes(gpath, "game file"), gpath, "game file")
    state = game_file.get("initial_state") or {}
    start = state
    bought: dict[str, Counter] = {}
    game_id = str(game_file.get("game_id", directory.name))
    nmrs: Counter = Counter()
    nmr_turns: list[tuple[int, str, str]] = []
    winner = rule = forfeit = None
    limit = False
    turns = list_turns(directory)
    read = 0
    for number, power, path in turns:
        data = parse_json_bytes(read_bytes(path, "turn file"), path, "turn file")
        read += 1
        state = data.get("state") or {}
        for event in data.get("events") or ():
            kind = event.get("kind")
            if kind == NMR_EVENT:
                side = sides_of.get(event.get("power"), "?")
                nmrs[side] += 1
                nmr_turns.append((number, str(event.get("power")), str(event.get("deadline", ""))))
                most = cfg.nmr.forfeit_after
                if most and nmrs[side] >= most and forfeit is None:
                    forfeit = side
            elif kind == VICTORY_EVENT:
                rule = str(event.get("rule"))
            elif kind == PURCHASE_EVENT and isinstance(event.get("units"), dict):
                mine = bought.setdefault(str(event.get("power")), Counter())
                for unit, count in event["units"].items():
                    if isinstance(count, int):
                        mine[str(unit)] += count
        winner = state.get("winner")
        if cfg.end.round_limit and int(state.get("round", 1)) > cfg.end.round_limit:
            limit = True
        if winner is not None or forfeit is not None or limit:
            break
    return GameSummary(
        game=game_id, turns=read, round=int(state.get("round", 1)),
        power=str(state.get("power", "")), winner=winner,
        rule=rule if winner is not None else None, nmrs=dict(nmrs),
        nmr_turns=tuple(nmr_turns), forfeit_by=forfeit, limit_reached=limit and winner is None
        and forfeit is None, owners=dict(state.get("owners") or {}),
        units=dict(state.get("units") or {}), extra_turns=len(turns) - read,
        start_owners=dict(start.get("owners") or {}), start_units=dict(start.get("units") or {}),
        bought={p: dict(c) for p, c in bought.items()})


# --------------------------------------------------------------------------- judging

def result_of(pairing: Pairing, sides: dict[str, str], summary: GameSummary | None, game,
              cfg: TournamentConfig, bid: int = 0) -> GameResult:
    """The result of ``pairing`` (sides: side -> player) from its game's summary (None: no
    game yet)."""
    base = GameResult(pairing.game, pairing.round, dict(sides), bid, cfg.sides.bid_side)
    if summary is None:
        return base
    nmrs = {sides[s]: n for s, n in summary.nmrs.items() if s in sides}
    base = attrs.evolve(base, nmrs=nmrs, game_round=summary.round)
    if summary.winner is not None:
        how = "concession" if summary.rule == CONCESSION else "victory"
        loser_side = next(s for s in sides if s != summary.winner)
        detail = (f"the {loser_side} conceded" if how == "concession"
                  else f"{(summary.rule or 'victory').replace('_', ' ')}")
        return attrs.evolve(base, finished=True, winner=sides.get(summary.winner), how=how,
                            detail=detail)
    if summary.forfeit_by is not None:
        other = next(s for s in sides if s != summary.forfeit_by)
        return attrs.evolve(base, finished=True, winner=sides[other], how="forfeit",
                            detail=f"forfeit: the {summary.forfeit_by} missed "
                                   f"{summary.nmrs[summary.forfeit_by]} deadlines")
    if summary.limit_reached:
        order = tuple(sorted(sides, key=lambda s: s == cfg.sides.bid_side))  # bid side last
        side, detail = adjudicate(game, summary, cfg.end.adjudication, order)
        return attrs.evolve(base, finished=True, winner=sides[side] if side else None,
                            how="round_limit", detail=detail)
    return base


def criteria_for(game, criteria) -> tuple[str, ...]:
    """The criteria ``[end] adjudication`` names, the edition's preset resolved: victory
    cities where the map has them, else capitals; then income plus units' value."""
    if tuple(criteria) != (PRESET,):
        return tuple(criteria)
    territories = game.map.territories.values()
    cities = any(t.victory_city or "victory_cities" in t.tags for t in territories)
    return ("victory_cities" if cities else "capitals", "income_tuv")


def adjudication_text(game, criteria) -> str:
    """How a game at the round limit is decided, in words (standings, result notices)."""
    names = [CRITERION_LABELS.get(c, c) for c in criteria_for(game, criteria)]
    return ("A game at the round limit is decided by what each side gained since the start "
            f"(bid included): {', then '.join(names)}; the first difference decides, "
            "all equal is a draw.")


def adjudicate(game, summary: GameSummary, criteria, sides: tuple[str, ...]
               ) -> tuple[str | None, str]:
    """(winning side or None for a draw, what decided) at the round limit: each criterion
    is what a side gained since the start, compared side against side in order."""
    powers = game.ruleset.powers
    measured = []
    for criterion in criteria_for(game, criteria):
        values = {s: _gain(game, criterion, summary, s, powers) for s in sides}
        text = (f"{CRITERION_LABELS.get(criterion, criterion)} gained: "
                + ", ".join(f"{s} {values[s]:+d}" for s in sides))
        measured.append(text)
        best = max(values.values())
        leaders = [s for s in sides if values[s] == best]
        if len(leaders) == 1:
            return leaders[0], "round limit: " + "; ".join(measured)
    return None, "round limit: " + "; ".join(measured) + " (all equal)"


def _gain(game, criterion: str, summary: GameSummary, side: str, powers) -> int:
    def ours(power) -> bool:
        return power in powers and powers[power].side == side
    if criterion == "income_tuv":
        return (_gain(game, "income", summary, side, powers)
                + _gain(game, "tuv", summary, side, powers))
    if criterion == "tuv":
        spent = sum(_cost(game, unit) * count for power, units in summary.bought.items()
                    if ours(power) for unit, count in units.items())
        return (_measure(game, criterion, summary.owners, summary.units, ours)
                - _measure(game, criterion, summary.start_owners, summary.start_units, ours)
                - spent)
    return (_measure(game, criterion, summary.owners, summary.units, ours)
            - _measure(game, criterion, summary.start_owners, summary.start_units, ours))


def _measure(game, criterion: str, owners, units, ours) -> int:
    territories = game.map.territories
    if criterion == "victory_cities":
        return sum(1 for t, o in owners.items() if ours(o) and t in territories and
                   (territories[t].victory_city or "victory_cities" in territories[t].tags))
    if criterion == "capitals":
        return sum(1 for t, o in owners.items() if ours(o) and t in territories and
                   territories[t].capital_of)
    if criterion == "income":
        return sum(territories[t].ipc for t, o in owners.items() if ours(o) and t in territories)
    if criterion == "tuv":
        return sum(_tuv(groups, game, ours) for groups in units.values())
    raise PbemError(f"unknown adjudication criterion {criterion!r}")


def _cost(game, unit: str) -> int:
    utype = game.ruleset.units.get(unit)
    return utype.cost if utype is not None and utype.buyable else 0


def _tuv(groups, game, ours) -> int:
    total = 0
    for g in groups or ():
        if ours(g.get("owner")):
            total += _cost(game, g.get("type")) * int(g.get("count", 1))
        total += _tuv(g.get("cargo"), game, ours)
    return total


# --------------------------------------------------------------------------- posting

def side_label(result: GameResult, side: str) -> str:
    bid = f" +{result.bid}" if side == result.bid_side and result.bid else ""
    return f"{side}{bid}"


def result_line(result: GameResult, names: dict[str, str], detail: bool = False) -> str:
    """The result as players post it: ``Amy (Axis) defeats Boris (Allies +10)``."""
    def who(player: str) -> str:
        return f"{names.get(player, player)} ({side_label(result, result.side_of(player))})"
    a, b = result.players
    if result.finished and result.winner is not None:
        line = f"{who(result.winner)} defeats {who(result.opponent(result.winner))}"
    elif result.finished:
        line = f"{who(a)} draws with {who(b)}"
    else:
        line = f"{who(a)} v {who(b)}: in progress, round {result.game_round}"
    if detail and result.finished and result.detail:
        line += f" ({result.detail})"
    return line
