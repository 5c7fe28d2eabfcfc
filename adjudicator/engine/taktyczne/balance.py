"""The main map's balance figures, computed exactly from the map: where a capital may be
drawn (L19.10-L19.11), how often a draw must be repeated, and how far capitals lie apart.

The capital draw is a rejection draw: each player in turn order rolls two dice until they
name a land area that is neither drawn already nor bordering or tangent to a drawn capital,
so each player's capital is uniform over the areas still free, and the chance of a
re-roll is the excluded share of the 36 numbers.  ``draw_figures`` walks every sequence of
draws with its probability.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping

import attrs

from ...model.taktyczne import MainMap


def exclusion(main_map: MainMap, capital: str) -> frozenset[str]:
    """The land areas a capital closes to later capitals: itself and every land area
    bordering or tangent to it (L19.10-L19.11)."""
    land = set(main_map.land)
    return frozenset({capital} | (main_map.touching(capital) & land))


def free_areas(main_map: MainMap, capitals: Iterable[str]) -> tuple[str, ...]:
    """The land areas a capital may still be drawn in, given the capitals drawn."""
    closed: set[str] = set()
    for capital in capitals:
        closed |= exclusion(main_map, capital)
    return tuple(a for a in main_map.land if a not in closed)


def distances(main_map: MainMap, start: str, land_only: bool = True) -> dict[str, int]:
    """Moves from ``start`` to every area (bordering only, L19.19): over land only, or over
    land and sea (a ferry's or a ship's way)."""
    allowed = set(main_map.land) if land_only else set(main_map.game_map.territories)
    seen = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in main_map.bordering(here):
            if there in allowed and there not in seen:
                seen[there] = seen[here] + 1
                queue.append(there)
    return seen


def connected(main_map: MainMap, areas: Iterable[str]) -> bool:
    """Whether ``areas`` are one piece when moving only through them."""
    wanted = set(areas)
    if not wanted:
        return True
    start = min(wanted)
    seen = {start}
    queue = [start]
    while queue:
        for there in main_map.bordering(queue.pop()):
            if there in wanted and there not in seen:
                seen.add(there)
                queue.append(there)
    return seen == wanted


@attrs.frozen
class Spread:
    low: float
    mean: float
    high: float


@attrs.frozen
class DrawFigures:
    """The capital draw for ``players`` players.  ``reroll[k]``: the chance that one roll of
    the (k+1)-th drawer must be repeated; ``expected_rolls[k]`` his expected number of rolls;
    ``fewest_free[k]`` the fewest areas ever left to him.  Over the final capitals
    (weighted by their probability): ``nearest`` each player's land distance to the nearest
    enemy capital, ``nearest_any`` the same over land and sea, ``pairs`` every pair's land
    distance, ``share`` each player's land areas nearer to him than to any enemy (a tie
    shared), ``small_share`` the chance that some player's share is under 3 areas."""

    players: int
    reroll: tuple[float, ...]
    expected_rolls: tuple[float, ...]
    fewest_free: tuple[int, ...]
    nearest: Spread
    nearest_any: Spread
    pairs: Spread
    share: Spread
    small_share: float


class _Tally:
    def __init__(self) -> None:
        self.low = float("inf")
        self.high = float("-inf")
        self.total = 0.0

    def add(self, value: float, weight: float) -> None:
        self.low = min(self.low, value)
        self.high = max(self.high, value)
        self.total += value * weight

    def spread(self) -> Spread:
        return Spread(self.low, round(self.total, 6), self.high)


def draw_figures(main_map: MainMap, players: int) -> DrawFigures:
    """Exact figures of the capital draw for 1..4 players (every sequence of draws)."""
    land = main_map.land
    index = {a: i for i, a in enumerate(land)}
    by_land = [[distances(main_map, a).get(b, 999) for b in land] for a in land]
    any_way = [[distances(main_map, a, land_only=False).get(b, 999) for b in land] for a in land]
    closed = [frozenset(index[b] for b in exclusion(main_map, a)) for a in land]
    n = len(land)
    reroll = [0.0] * players
    fewest = [n] * players
    tallies = {k: _Tally() for k in ("nearest", "nearest_any", "pairs", "share")}
    small = 0.0

    def leaf(caps: list[int], weight: float) -> None:
        nonlocal small
        for i, c in enumerate(caps):
            others = [o for j, o in enumerate(caps) if j != i]
            if others:
                tallies["nearest"].add(min(by_land[c][o] for o in others), weight / len(caps))
                tallies["nearest_any"].add(min(any_way[c][o] for o in others), weight / len(caps))
            for o in others:
                if o > c:
                    tallies["pairs"].add(by_land[c][o], weight / (len(caps) * (len(caps) - 1) / 2))
        shares = [0.0] * len(caps)
        for a in range(n):
            ds = [by_land[c][a] for c in caps]
            best = min(ds)
            winners = [i for i, d in enumerate(ds) if d == best]
            for i in winners:
                shares[i] += 1 / len(winners)
        for s in shares:
            tallies["share"].add(s, weight / len(caps))
        if min(shares) < 3:
            small += weight

    def walk(caps: list[int], shut: frozenset[int], weight: float) -> None:
        k = len(caps)
        if k == players:
            leaf(caps, weight)
            return
        free = [a for a in range(n) if a not in shut]
        if not free:
            raise ValueError(f"no area left for capital {k + 1} after {[land[c] for c in caps]}")
        reroll[k] += weight * (1 - len(free) / n)
        fewest[k] = min(fewest[k], len(free))
        for a in free:
            walk(caps + [a], shut | closed[a], weight / len(free))

    walk([], frozenset(), 1.0)
    expected = []
    for k in range(players):
        expected.append(round(_expected_rolls(main_map, players, k), 6))
    return DrawFigures(players=players, reroll=tuple(round(r, 6) for r in reroll),
                       expected_rolls=tuple(expected), fewest_free=tuple(fewest),
                       nearest=tallies["nearest"].spread(),
                       nearest_any=tallies["nearest_any"].spread(),
                       pairs=tallies["pairs"].spread(), share=tallies["share"].spread(),
                       small_share=round(small, 6))


def _expected_rolls(main_map: MainMap, players: int, k: int) -> float:
    """The (k+1)-th drawer's expected number of rolls: n / free, averaged over the earlier
    draws (a geometric number of rolls for each position)."""
    land = main_map.land
    n = len(land)

    def walk(caps: tuple[str, ...], weight: float) -> float:
        free = free_areas(main_map, caps)
        if len(caps) == k:
            return weight * n / len(free)
        return sum(walk(caps + (a,), weight / len(free)) for a in free)

    return walk((), 1.0)


def land_neighbours(main_map: MainMap) -> Mapping[str, int]:
    """How many land areas border each land area: a capital's room to grow."""
    land = set(main_map.land)
    return {a: len(main_map.bordering(a) & land) for a in main_map.land}
