"""The standings: a function of the results (which are a function of the games).

Points per game from ``[scoring]`` (a bye scores ``bye``); ties are broken by the
``tiebreaks`` named in the config, in order:

* ``buchholz``: the sum of the opponents' scores; ``median_buchholz`` without the best and
  the worst of them (with three or more opponents);
* ``sonneborn_berger``: the scores of the opponents beaten, plus half of those drawn;
* ``head_to_head``: points in the games among the players still tied at that step;
* ``wins``, ``axis_wins`` (wins on the first side), ``fewest_nmrs``, ``rating`` (openskill
  ordinal).

Players still tied after every tiebreak share their place (shown ``3=``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

import attrs

from .config import TournamentConfig
from .ratings import Rating
from .results import GameResult


@attrs.frozen
class Row:
    rank: int
    shared: bool
    player: str
    played: int
    wins: int
    draws: int
    losses: int
    byes: int
    score: float
    tiebreaks: dict[str, float]
    sides: dict[str, int]               # side -> games played on it (finished or not)
    nmrs: int
    rating: float | None = None

    @property
    def place(self) -> str:
        return f"{self.rank}=" if self.shared else str(self.rank)


def compute_standings(players: Sequence[str], results: Iterable[GameResult],
                      byes: Iterable[tuple[int, str]], cfg: TournamentConfig,
                      ratings: dict[str, Rating] | None = None,
                      first_side: str = "Axis") -> list[Row]:
    """The table, best first.  ``byes``: (round, player)."""
    results = list(results)
    finished = [r for r in results if r.finished]
    score: dict[str, float] = defaultdict(float)
    wins, draws, losses, played, bye_count = (defaultdict(int) for _ in range(5))
    axis_wins, nmrs = defaultdict(int), defaultdict(int)
    sides: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    opponents: dict[str, list[tuple[str, float]]] = defaultdict(list)   # (opponent, my points)
    for r in results:
        for side, p in r.sides.items():
            sides[p][side] += 1
        for p, n in r.nmrs.items():
            nmrs[p] += n
    for r in finished:
        for p in r.players:
            points = r.score(p, cfg)
            score[p] += points
            played[p] += 1
            opponents[p].append((r.opponent(p), points))
            if r.winner is None:
                draws[p] += 1
            elif r.winner == p:
                wins[p] += 1
                if r.side_of(p) == first_side:
                    axis_wins[p] += 1
            else:
                losses[p] += 1
    for _round, p in byes:
        score[p] += cfg.scoring.bye
        bye_count[p] += 1

    def value(name: str, p: str, group: set[str]) -> float:
        if name == "buchholz":
            return sum(score[o] for o, _ in opponents[p])
        if name == "median_buchholz":
            values = sorted(score[o] for o, _ in opponents[p])
            return sum(values[1:-1] if len(values) >= 3 else values)
        if name == "sonneborn_berger":
            full = cfg.scoring.win or 1.0
            return sum(score[o] * pts / full for o, pts in opponents[p])
        if name == "head_to_head":
            return sum(pts for o, pts in opponents[p] if o in group)
        if name == "wins":
            return wins[p]
        if name == "axis_wins":
            return axis_wins[p]
        if name == "fewest_nmrs":
            return -nmrs[p]
        if name == "rating":
            return ratings[p].ordinal if ratings and p in ratings else 0.0
        raise ValueError(name)

    seed = {p: i for i, p in enumerate(players)}
    groups: list[list[str]] = _split(sorted(players, key=lambda p: seed[p]), lambda p: score[p])
    shown: dict[str, dict[str, float]] = {p: {} for p in players}
    for name in cfg.scoring.tiebreaks:
        next_groups = []
        for group in groups:
            members = set(group)
            values = {p: round(value(name, p, members), 9) for p in group}
            for p in group:
                shown[p][name] = values[p]
            next_groups += _split(group, values.__getitem__) if len(group) > 1 else [group]
        groups = next_groups
    rows: list[Row] = []
    rank = 1
    for group in groups:
        for p in group:
            rows.append(Row(rank, len(group) > 1, p, played[p], wins[p], draws[p], losses[p],
                            bye_count[p], score[p], shown[p], dict(sides[p]), nmrs[p],
                            ratings[p].ordinal if ratings and p in ratings else None))
        rank += len(group)
    return rows


def _split(players: list[str], key) -> list[list[str]]:
    """Players grouped by ``key``, best (highest) first; registration order inside."""
    buckets: dict[float, list[str]] = defaultdict(list)
    for p in players:
        buckets[key(p)].append(p)
    return [buckets[k] for k in sorted(buckets, reverse=True)]


def scores_of(rows: Iterable[Row]) -> dict[str, float]:
    return {r.player: r.score for r in rows}


def as_record(rows: Iterable[Row]) -> list[dict]:
    """The standings as the plain data ``standings.json`` records (and verify compares)."""
    return [{"place": r.place, "player": r.player, "score": r.score, "played": r.played,
             "wins": r.wins, "draws": r.draws, "losses": r.losses, "byes": r.byes,
             "tiebreaks": dict(r.tiebreaks), "nmrs": r.nmrs,
             "rating": None if r.rating is None else round(r.rating, 6)} for r in rows]
