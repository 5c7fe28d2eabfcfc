"""Who plays whom, and which side: Swiss rounds, round robin, ladder challenges.  Pure.

* **Swiss** (Monrad style): players are ranked by score, then by registration; each round
  pairs players of equal score, next to each other in that ranking, as far as possible.
  Two players never meet twice (a hard rule: a round that cannot avoid a rematch is
  refused).  With ``sides`` given the pairing also balances the sides: whoever played the
  first side (Axis) less plays it; a pairing that would leave a player two games more on
  one side than the other is used only when nothing else avoids a rematch.  Solved as a
  maximum-weight matching (networkx), so the result is the best pairing, not a greedy
  one.  Equally good pairings are decided by a rule of ours, not by the library's
  internals: the one whose pairs come first in ranking order (the top player with the
  highest-ranked partner possible, then the next player, ...); see :func:`_tie_broken`.
  An odd player out gets a bye: the lowest-ranked player who has not had one.
* **Round robin** by the circle method: player 1 stays, the others rotate one place a
  round; sides are oriented around a ring so that everyone plays each side equally often
  (an even number of players: within one game).
* **Ladder**: players hold places (registration order at first); a player may challenge
  anyone up to ``ladder_range`` places above; a challenger who wins takes the defender's
  place and everyone in between moves down one.  Results apply in challenge order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

import attrs

from ...model.errors import PbemError

_BYE = "\0bye"


@attrs.frozen
class Pairing:
    """One game of a round.  ``sides``: side name -> player id, or None until bids decide."""

    game: str
    round: int
    players: tuple[str, str]
    sides: dict[str, str] | None = None

    def opponent(self, player: str) -> str:
        a, b = self.players
        return b if player == a else a

    def side_of(self, player: str) -> str | None:
        if self.sides is None:
            return None
        return next((s for s, p in self.sides.items() if p == player), None)


@attrs.frozen
class RoundPlan:
    round: int
    pairings: tuple[Pairing, ...]
    byes: tuple[str, ...] = ()


def game_id(tournament: str, round_no: int, board: int) -> str:
    return f"{tournament}-r{round_no}-{board:02d}"


def challenge_id(tournament: str, number: int) -> str:
    return f"{tournament}-c{number:04d}"


# --------------------------------------------------------------------------- history

def met(history: Iterable[Pairing]) -> set[frozenset[str]]:
    return {frozenset(p.players) for p in history}


def side_balance(history: Iterable[Pairing], first_side: str) -> Counter:
    """player -> games on ``first_side`` minus games on the other side."""
    balance: Counter = Counter()
    for p in history:
        if p.sides is None:
            continue
        for side, player in p.sides.items():
            balance[player] += 1 if side == first_side else -1
    return balance


def last_side(history: Sequence[Pairing], player: str) -> str | None:
    for p in reversed(history):
        side = p.side_of(player)
        if side is not None:
            return side
    return None


def assign_sides(a: str, b: str, sides: tuple[str, str], balance: Counter,
                 history: Sequence[Pairing], round_no: int) -> dict[str, str]:
    """Give ``sides[0]`` to whoever played it less; then to whoever played ``sides[1]``
    last; then to the first-named player in odd rounds, the second in even ones."""
    first, second = sides
    if balance[a] != balance[b]:
        axis = a if balance[a] < balance[b] else b
    else:
        la, lb = last_side(history, a), last_side(history, b)
        if la != lb and la is not None and lb is not None:
            axis = a if la == second else b
        else:
            axis = a if round_no % 2 else b
    return {first: axis, second: b if axis == a else a}


def _sides_fit(a: str, b: str, balance: Counter) -> bool:
    """Can one play the first side and the other the second, both staying within one game
    of even?"""
    return (balance[a] <= 0 <= balance[b]) or (balance[b] <= 0 <= balance[a])


# --------------------------------------------------------------------------- swiss

def swiss_round(tournament: str, round_no: int, players: Sequence[str],
                scores: dict[str, float], history: Sequence[Pairing],
                byes_had: Iterable[str] = (), sides: tuple[str, str] | None = None
                ) -> RoundPlan:
    """The pairings of Swiss round ``round_no`` for ``players`` (registration order)."""
    if len(players) < 2:
        raise PbemError("a round needs at least two players")
    order = sorted(players, key=lambda p: (-scores.get(p, 0.0), players.index(p)))
    position = {p: i for i, p in enumerate(order)}
    seen = met(history)
    had_bye = set(byes_had)
    balance = side_balance(history, sides[0]) if sides else Counter()
    nodes = list(order)
    if len(nodes) % 2:
        nodes.append(_BYE)
        position[_BYE] = len(order)
    n = len(nodes)
    low = min((scores.get(p, 0.0) for p in order), default=0.0)
    span = int(round(2 * (max((scores.get(p, 0.0) for p in order), default=0.0) - low))) + 2
    # Weights: a side clash costs more than every score difference together, a score
    # difference more than every ranking distance together.
    rank_unit = 1
    score_unit = rank_unit * n * n
    side_unit = score_unit * n * (span ** 2 + 1)
    base = side_unit * n
    edges: list[tuple[int, int, int]] = []
    for i in range(n):
        for j in range(i + 1, n):
            a, b = nodes[i], nodes[j]
            if _BYE in (a, b):
                real = b if a == _BYE else a
                if real in had_bye and len(had_bye) < len(order):
                    continue
                below = int(round(2 * (scores.get(real, 0.0) - low))) + 1   # the bye ranks last
                weight = base - score_unit * below * below - rank_unit * (n - position[real])
            else:
                if frozenset((a, b)) in seen:
                    continue
                diff = int(round(2 * abs(scores.get(a, 0.0) - scores.get(b, 0.0))))
                weight = (base - score_unit * diff * diff
                          - rank_unit * abs(position[a] - position[b]))
                if sides and not _sides_fit(a, b, balance):
                    weight -= side_unit
            edges.append((i, j, weight))
    matching = best_matching(n, edges)
    if len(matching) * 2 < n:
        raise PbemError(f"round {round_no} cannot be paired without a rematch "
                        "(too few players for this many rounds)")
    pairs = sorted((tuple(sorted((i, j))) for i, j in matching))
    pairings, byes = [], []
    board = 0
    for i, j in pairs:
        a, b = nodes[i], nodes[j]
        if _BYE in (a, b):
            byes.append(b if a == _BYE else a)
            continue
        board += 1
        assigned = assign_sides(a, b, sides, balance, history, round_no) if sides else None
        pairings.append(Pairing(game_id(tournament, round_no, board), round_no, (a, b), assigned))
    return RoundPlan(round_no, tuple(pairings), tuple(byes))


def best_matching(n: int, edges: list[tuple[int, int, int]]) -> set[tuple[int, int]]:
    """The maximum-cardinality, maximum-weight matching of nodes ``0..n-1``; among equally
    good ones, the one :func:`_tie_broken` prefers, so the answer is unique."""
    import networkx as nx       # loaded only to pair a Swiss round
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_weighted_edges_from(_tie_broken(edges))
    return {tuple(sorted(pair)) for pair in nx.max_weight_matching(graph, maxcardinality=True)}


def _tie_broken(edges: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """Integer weights whose maximum is unique: each weight times 2**E (E edges) plus
    2**(E-1-k) for the k-th edge in (i, j) order.  Every pairing's bonus is below 2**E, so
    it decides only between pairings of equal weight, and there it prefers the one with
    the earliest edge (then the next): the top-ranked player's pair with the best-ranked
    partner, and so on.  Integer weights keep networkx's matching exact."""
    ordered = sorted(edges)
    count = len(ordered)
    return [(i, j, (w << count) + (1 << (count - 1 - k))) for k, (i, j, w) in enumerate(ordered)]


# --------------------------------------------------------------------------- round robin

def round_robin_rounds(players: Sequence[str], double: bool = False) -> int:
    n = len(players) + len(players) % 2
    return (n - 1) * (2 if double else 1)


def round_robin_round(tournament: str, round_no: int, players: Sequence[str],
                      sides: tuple[str, str] | None = None, double: bool = False) -> RoundPlan:
    """Round ``round_no`` (1-based) of a round robin by the circle method."""
    if len(players) < 2:
        raise PbemError("a round robin needs at least two players")
    total = round_robin_rounds(players, double)
    if not 1 <= round_no <= total:
        raise PbemError(f"this round robin has {total} rounds; round {round_no} does not exist")
    ring = list(players) + ([None] if len(players) % 2 else [])
    n = len(ring)
    cycle, r = divmod(round_no - 1, n - 1)
    rest = ring[1:]
    rest = rest[-r:] + rest[:-r] if r else rest
    arranged = [ring[0]] + rest
    pairings, byes = [], []
    board = 0
    for i in range(n // 2):
        a, b = arranged[i], arranged[n - 1 - i]
        if a is None or b is None:
            byes.append(b if a is None else a)
            continue
        first_is_a = _first_side_in_ring(players.index(a), players.index(b), len(players))
        if cycle:
            first_is_a = not first_is_a
        board += 1
        assigned = None
        if sides:
            axis, allies = (a, b) if first_is_a else (b, a)
            assigned = {sides[0]: axis, sides[1]: allies}
        pairings.append(Pairing(game_id(tournament, round_no, board), round_no, (a, b), assigned))
    return RoundPlan(round_no, tuple(pairings), tuple(byes))


def _first_side_in_ring(i: int, j: int, count: int) -> bool:
    """Whether player ``i`` plays the first side against ``j``: on a ring of an odd number
    of places (one empty place added to an even count), each player takes the first side
    against the next half of the ring.  Everyone then plays each side equally often (an
    even count: within one game)."""
    ring = count + (1 - count % 2)
    return 1 <= (j - i) % ring <= (ring - 1) // 2


# --------------------------------------------------------------------------- ladder

def ladder_order(players: Sequence[str], challenges: Sequence[tuple[str, str, str | None]]
                 ) -> list[str]:
    """The ladder, top first: registration order, then each finished challenge
    ``(challenger, defender, winner)`` in challenge order (winner None: a draw)."""
    ladder = list(players)
    for challenger, defender, winner in challenges:
        if winner != challenger or challenger not in ladder or defender not in ladder:
            continue
        i, j = ladder.index(challenger), ladder.index(defender)
        if i > j:
            ladder.pop(i)
            ladder.insert(j, challenger)
    return ladder


def check_challenge(ladder: Sequence[str], challenger: str, defender: str,
                    open_games: Iterable[Pairing], ladder_range: int, ladder_open: int) -> None:
    """Refuse a challenge the ladder rules do not allow."""
    if challenger == defender:
        raise PbemError("a player cannot challenge themselves")
    for p in (challenger, defender):
        if p not in ladder:
            raise PbemError(f"{p} is not on the ladder")
    i, j = ladder.index(challenger), ladder.index(defender)
    if not 0 < i - j <= ladder_range:
        raise PbemError(f"{challenger} (place {i + 1}) may challenge only the "
                        f"{ladder_range} place(s) above (places {max(1, i + 1 - ladder_range)}"
                        f"-{i}), not {defender} (place {j + 1})")
    open_games = list(open_games)
    for p in (challenger, defender):
        count = sum(p in g.players for g in open_games)
        if count >= ladder_open:
            raise PbemError(f"{p} already has {count} open challenge(s) (at most {ladder_open})")
