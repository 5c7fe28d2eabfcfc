"""The exact odds of a battle as a sweep over attacker states, with numpy.

A battle is a Markov chain over pairs (attacker side, defender side).  Within a stage both
sides fire at once and each side's casualties depend only on its own state and the hits it
takes, so a stage's transition from a pair is the product of two *marginals*: the
attacker's next state given the defender's fire, and the defender's given the attacker's
(the same ``stage_volleys``, ``hits_by_class`` and ``apply_side_hits`` the dice driver
uses; ``HitDists`` gives the hit counts).  The sweep exploits that product:

* Side states are numbered (``SideSpace``); pair masses live in dense planes, one row per
  attacker state and one column per defender state.
* Rows are processed in order of ``Board.progress`` (every change raises it), one row at a
  time (in the last round bucket, rows of the same progress together: ``sweeprows``; in a
  sea battle the last bucket is played by levels instead, every pair of the same sum of
  both sides' progress at once: ``sweeplevels``).  For a row ``a`` and the masses ``z`` over its defender states, the attacker's
  marginals form a matrix ``G`` (next attacker state x defender state, built from the
  defender's fire, which depends only on the defender state and what it sees of the
  attacker), the defender's a matrix ``M`` (defender state x next defender state, from the
  attacker's fire); the masses after the stage are ``G @ M``.  Mass that stays in the row
  (the attacker took no loss) is fed back until none is left; a pair that can stay as it
  is (both sides unharmed, possible once the round number no longer matters) is resolved
  exactly by scaling with ``1 / (1 - p_stay)``.
* The checks between rounds (``end_of_round``, ``decide_before_round``) are decided from
  the sides' traits (``rules.quiet``) for every pair where nothing can happen; the others
  (a side gone, a retreat, submarines deciding to submerge) run the rule functions one
  pair at a time.  Round 1 (first-round steps such as AA fire and bombardment, which see
  the whole enemy) is played one pair at a time; after it, a stage made only of
  first-round steps is skipped.
* A row's stage operators are kept while the row is processed (built for every defender
  state it met as a source, the new ones merged in) and applied as they are to each pass
  (a source without mass adds nothing): its mass passes through the same stages several
  times, mostly from sources already seen.  They cannot be shared between rows: the
  operators are the attacker state's fire and its losses, and in the 40-ship sea battle
  of benchmarks/bench_issue24.py 125 of the 128 attacker states fire differently.
* Rounds are bucketed as the rules need: round ``r`` for ``r < Board.round_cap``, then one
  bucket for every later round (the rules no longer depend on the round number there).
* A pair whose mass is below ``prune`` when its row is processed is dropped and its mass
  added to ``pruned``: every probability is then exact to within ``pruned``.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable

import numpy as np

from .board import AIMED, Board
from .hitdist import HitDists
from .model import ATT, DEF, BattleState, Volley
from .rules import decide_before_round, end_of_round, quiet
from .arrays import grow2, pow2 as _pow2, sorted_union, unique_inverse
from .sidespace import SideSpace
from .sweeplevels import LevelRows
from .sweeprows import BatchRows
from .stepbase import get_step
from .steps import later_volleys, side_volleys


class _Plane:
    """Masses indexed by (attacker state, defender state), growing as states are numbered."""

    def __init__(self):
        self.a = np.zeros((16, 16))

    def _fit(self, rows: int, cols: int) -> None:
        self.a = grow2(self.a, rows, cols, 0.0)

    def add_rows(self, ids: np.ndarray, mat: np.ndarray, lo: int = 0) -> None:
        """Add ``mat`` to the rows ``ids`` (distinct), from column ``lo``."""
        self._fit(int(ids.max()) + 1, lo + mat.shape[1])
        self.a[ids, lo:lo + mat.shape[1]] += mat

    def add(self, row: int, col: int, mass: float) -> None:
        self._fit(row + 1, col + 1)
        self.a[row, col] += mass

    def add_row(self, row: int, vec: np.ndarray) -> None:
        self._fit(row + 1, vec.shape[0])
        self.a[row, :vec.shape[0]] += vec

    def holds(self, rows: np.ndarray) -> bool:
        """Is there mass in any of ``rows``?"""
        rows = rows[rows < self.a.shape[0]]
        return bool(rows.size) and bool(self.a[rows].any())

    def peek_rows(self, rows: np.ndarray, n: int) -> np.ndarray:
        """The masses of ``rows`` over the first ``n`` columns, left in place."""
        self._fit(int(rows.max()) + 1, n)
        return self.a[rows, :n]

    def take_rows(self, rows: np.ndarray, n: int) -> np.ndarray:
        """The masses of ``rows`` (distinct) over the first ``n`` columns, taken out."""
        self._fit(int(rows.max()) + 1, n)
        out = self.a[rows, :n]
        self.a[rows, :n] = 0.0
        return out

    def take(self, row: int, n: int) -> np.ndarray:
        out = np.zeros(n)
        if row < self.a.shape[0]:
            m = min(n, self.a.shape[1])
            out[:m] = self.a[row, :m]
            self.a[row, :m] = 0.0
        return out


_NO_IDS = np.zeros(0, dtype=np.int64)
_NO_ROWS = np.zeros((0, 0))


def _pad(vec: np.ndarray, n: int) -> np.ndarray:
    if vec.shape[0] >= n:
        return vec
    out = np.zeros(n)
    out[:vec.shape[0]] = vec
    return out


def _groups(keys: np.ndarray):
    """``(key, positions)`` for each distinct value of ``keys`` in increasing order;
    positions is None when every key is the same."""
    lo, hi = int(keys.min()), int(keys.max())
    if lo == hi:
        return [(lo, None)]
    order = np.argsort(keys, kind="stable")
    srt = keys[order]
    cut = np.flatnonzero(srt[1:] != srt[:-1]) + 1
    return [(int(srt[i]), order[i:j]) for i, j in zip([0, *cut.tolist()],
                                                      [*cut.tolist(), keys.size])]


def _joint(dists) -> np.ndarray:
    out = np.ones(())
    for d in dists:
        out = np.multiply.outer(out, d)
    return out


class _FireTable:
    """One side's fire at the other, per firing state, in one stage, for targets that look
    the same to it (same ``EnemyView`` and relevance; in round 1, one target state): its
    target classes (an id into ``classes``), whether it fires at all, and the joint hit
    distribution over the classes, padded to common dimensions per class tuple."""

    def __init__(self):
        self.gamma = np.full(16, -1, dtype=np.int64)
        self.fires = np.zeros(16, dtype=bool)
        self.classes: list[tuple[int, ...]] = []
        self.dims: list[tuple[int, ...]] = []
        self.mats: list[np.ndarray] = []
        self._ids: dict[tuple[int, ...], int] = {}

    def fit(self, n: int) -> None:
        if self.gamma.shape[0] < n:
            size = _pow2(n)
            old = self.gamma.shape[0]
            grown = np.full(size, -1, dtype=np.int64)
            grown[:old] = self.gamma
            self.gamma = grown
            fires = np.zeros(size, dtype=bool)
            fires[:old] = self.fires
            self.fires = fires
            for g, mat in enumerate(self.mats):
                new = np.zeros((size,) + mat.shape[1:])
                new[:mat.shape[0]] = mat
                self.mats[g] = new

    def put(self, x: int, classes: tuple[int, ...], joint: np.ndarray) -> None:
        g = self._ids.get(classes)
        if g is None:
            g = self._ids[classes] = len(self.classes)
            self.classes.append(classes)
            self.dims.append(tuple(s - 1 for s in joint.shape))
            self.mats.append(np.zeros((self.gamma.shape[0],) + joint.shape))
        dims = self.dims[g]
        want = tuple(max(d_, s - 1) for d_, s in zip(dims, joint.shape))
        if want != dims:
            mat = self.mats[g]
            pad = [(0, 0)] + [(0, w - d_) for w, d_ in zip(want, dims)]
            self.mats[g] = np.pad(mat, pad)
            self.dims[g] = dims = want
        self.mats[g][(x,) + tuple(slice(0, s) for s in joint.shape)] = joint
        self.gamma[x] = g
        self.fires[x] = bool(classes)


class _Patterns:
    """The attacker's fire at the defender from one attacker state in one stage, per
    defender state: an id into ``items`` ((classes, dims, flat joint distribution)).  In
    later rounds the fire depends only on what the defender looks like (``EnemyView`` and
    relevance, ``by_look``); in round 1 on the defender state itself (``by_state``)."""

    def __init__(self):
        self.items: list[tuple] = []
        self.fires = np.zeros(0, dtype=bool)
        self.by_look = np.full(64, -1, dtype=np.int64)
        self.by_state: dict[int, int] = {}
        self._ids: dict = {}

    def known(self, key) -> int:
        """The id of the fire ``key`` ((volleys, relevance)) if added already, else -1."""
        return self._ids.get(key, -1)

    def add(self, key, item) -> int:
        found = self._ids.get(key)
        if found is None:
            found = self._ids[key] = len(self.items)
            self.items.append(item)
            self.fires = np.append(self.fires, bool(item[0]))
        return found


class _StageOps:
    """One stage from one attacker state ``a`` for the defender states ``S`` (sources):
    ``ma`` (P(next attacker state | source), one row per next state), ``md`` (P(next
    defender state ``lo + j`` | source), one row per source), ``k`` (the row of ``ma`` where
    the attacker stays ``a``, -1: none), ``rest`` / ``rest_ids`` (the other rows and their
    attacker states), ``stay`` (P(neither side changes) per source), ``succ`` (the attacker
    state of each row of ``ma``), ``fires`` (per source: does anybody fire)."""

    __slots__ = ("S", "lo", "ma", "md", "stay", "k", "rest", "rest_ids", "succ", "fires")


def _fill_ops(ops: _StageOps, S: np.ndarray, lo: int, ma: np.ndarray, md: np.ndarray,
              succ: np.ndarray, a: int) -> None:
    n = S.size
    ops.S, ops.lo, ops.ma, ops.md, ops.succ = S, lo, ma, md, succ
    here = np.flatnonzero(succ == a)
    stay_d = md[np.arange(n), S - lo]
    if here.size:
        k = int(here[0])
        ops.k, ops.stay = k, ma[k] * stay_d
        ops.rest = np.concatenate([np.arange(k), np.arange(k + 1, succ.size)])
        ops.rest_ids = succ[ops.rest]
    else:
        ops.k, ops.stay = -1, np.zeros(n)
        ops.rest, ops.rest_ids = None, succ


def _merge(x: _StageOps, y: _StageOps, a: int) -> _StageOps:
    """The operators of row ``a`` for the sources of ``x`` and ``y`` (disjoint, someone
    fires in each): what ``_build_ops`` gives for them all, since each source's column of
    ``ma`` and row of ``md`` do not depend on the other sources."""
    S, succ = sorted_union(x.S, y.S), sorted_union(x.succ, y.succ)
    lo = min(x.lo, y.lo)
    hi = max(x.lo + x.md.shape[1], y.lo + y.md.shape[1])
    ma, md = np.zeros((succ.size, S.size)), np.zeros((S.size, hi - lo))
    fires = np.zeros(S.size, dtype=bool)
    for part in (x, y):
        cols = np.searchsorted(S, part.S)
        ma[np.ix_(np.searchsorted(succ, part.succ), cols)] = part.ma
        md[cols, part.lo - lo:part.lo - lo + part.md.shape[1]] = part.md
        fires[cols] = part.fires
    out = _StageOps()
    out.fires = fires
    _fill_ops(out, S, lo, ma, md, succ, a)
    return out


class Sweep(BatchRows, LevelRows):
    """The exact odds of one battle (``run``, then read ``terminal``, ``rounds``)."""

    def __init__(self, board: Board, sides: int, prune: float = 1e-15,
                 progress: Callable[[float], None] | None = None, batch: bool = True,
                 levels: bool | None = None):
        """``batch``: rows of the last bucket with the same progress are played out
        together (``sweeprows``); False plays every row alone (the tests compare both).
        ``levels``: the last bucket is played level by level (``sweeplevels``); None: in
        sea battles, where it is the faster way."""
        if not prune > 0:
            raise ValueError("prune must be positive")
        self.board = board
        self.A, self.D = SideSpace(board, ATT), SideSpace(board, DEF)
        self.dists = HitDists(sides, board.low_luck, tail=prune * 1e-6)
        self.cap = board.round_cap
        self.n_stages = len(board.stages)
        # stages where nobody can fire in this battle (surprise strikes on land), and stages
        # made only of first-round steps (AA fire): nobody fires in them after round 1
        silent = tuple(not any(get_step(n).may_fire(board) for n in stage)
                       for stage in board.stages)
        self.first_silent = silent
        self.later_silent = tuple(q or all(get_step(n).first_round_only for n in stage)
                                  for q, stage in zip(silent, board.stages))
        self.prune = prune
        self.progress = progress
        self.batch = batch
        self.levels = board.is_sea if levels is None else levels
        self.terminal: dict[tuple, float] = {}
        self.rounds: list[float] = []
        self.pruned_mass = 0.0
        self.pairs_seen = 0
        buckets = range(self.cap + 1)
        self.pairs = {b: _Plane() for b in buckets}
        self.srcs = {(b, s): _Plane() for b in buckets for s in range(self.n_stages)}
        self.heaps: dict[int, list] = {b: [] for b in buckets}
        self.queued: set[tuple[int, int]] = set()
        self._patterns: dict = {}
        self._joints: dict = {}
        self._routes: dict = {}
        self._quiet: dict = {}
        self._codes: dict = {}
        self._dtables: dict = {}
        self._atables: dict = {}
        self._asucc: dict = {}
        self._rows_done = 0
        self._ops_row = -1
        self._ops_kept: dict = {}

    # ------------------------------------------------------------------ the run
    def run(self) -> None:
        """Bucket 0 holds the start (round 0); bucket b < cap the pairs at the end of round
        b; bucket cap every later round.  The dice of bucket b are those of round b + 1."""
        s0 = self.board.initial_state()
        a0, d0 = self.A.intern(s0.att), self.D.intern(s0.dfn)
        self.pairs[0].add(a0, d0, 1.0)
        self._queue(0, a0)
        for b in range(self.cap + 1):
            if b == self.cap and self.levels:
                self._levels()
                break
            heap = self.heaps[b]
            while heap:
                pot, a = heapq.heappop(heap)
                self.queued.discard((b, a))
                if b < self.cap or not self.batch or not heap or heap[0][0] != pot:
                    self._row(b, a)
                    continue
                rows = [a]                # same progress: they never feed each other
                while heap and heap[0][0] == pot:
                    rows.append(heapq.heappop(heap)[1])
                    self.queued.discard((b, rows[-1]))
                self._rows(b, rows)
        if self.progress is not None:
            self.progress(1.0)

    def _queue(self, b: int, a: int) -> None:
        if (b, a) not in self.queued:
            self.queued.add((b, a))
            heapq.heappush(self.heaps[b], (int(self.A.pot[a]), a))

    def _finish(self, key: tuple, mass: float) -> None:
        self.terminal[key] = self.terminal.get(key, 0.0) + mass

    # ------------------------------------------------------------------ rules, pair by pair
    def _route(self, a: int, d: int, rnd: int):
        """End of round ``rnd`` and the start of the next for the pair (a, d):
        ``("end", terminal key, round begun)`` or ``("go", a', d')`` (the pair the dice of
        the next round start from)."""
        key = (a, d, rnd)
        found = self._routes.get(key)
        if found is None:
            board = self.board
            state = BattleState(self.A.states[a], self.D.states[d], rnd)
            state, _ = end_of_round(board, state)
            if state.outcome is None:
                before = state.round
                state, _ = decide_before_round(board, state)
                begun = state.round > before
            else:
                begun = False
            a2, d2 = self.A.intern(state.att), self.D.intern(state.dfn)
            if state.outcome is not None:
                found = ("end", (state.outcome, a2, d2, state.retreat_to), begun)
            else:
                found = ("go", a2, d2)
            self._routes[key] = found
        return found

    def _route_codes(self, a: int, S: np.ndarray, rnd: int) -> np.ndarray:
        """Per defender state of ``S``: 1 if ``_route`` leaves the pair with ``a`` as it is,
        else 2."""
        key = (a, rnd)
        codes = self._codes.get(key)
        n = len(self.D)
        if codes is None or codes.shape[0] < n:
            new = np.zeros(_pow2(n), dtype=np.int8)
            if codes is not None:
                new[:codes.shape[0]] = codes
            codes = self._codes[key] = new
        found = codes[S]
        unknown = found == 0
        if unknown.any():
            for d in S[unknown].tolist():
                route = self._route(a, d, rnd)
                codes[d] = 1 if route[0] == "go" and route[1] == a and route[2] == d else 2
            found = codes[S]
        return found

    def _quiet_mask(self, a: int, S: np.ndarray, rnd: int) -> np.ndarray:
        if rnd < 1:
            return np.zeros(S.size, dtype=bool)
        return self._quiet_mask_t(int(self.A.trait[a]), S, rnd)

    def _quiet_mask_t(self, ta: int, S: np.ndarray, rnd: int) -> np.ndarray:
        """Per defender state of ``S``: is nothing to decide between rounds ``rnd`` and
        ``rnd + 1`` for it and an attacker of traits ``ta`` (``rules.quiet``)?"""
        key = (ta, rnd)
        table = self._quiet.get(key)
        n = len(self.D.trait_list)
        if table is None or table.shape[0] < n:
            new = np.full(_pow2(n), -1, dtype=np.int8)
            if table is not None:
                new[:table.shape[0]] = table
            table = self._quiet[key] = new
        td = self.D.trait[S]
        unknown = td[table[td] < 0]
        if unknown.size:
            tr_a = self.A.trait_list[ta]
            for t in sorted(set(unknown.tolist())):
                table[t] = quiet(self.board, tr_a, self.D.trait_list[t], rnd)
        return table[td] == 1

    def _pattern(self, vols: tuple[Volley, ...], rel: int):
        """(target classes in assignment order, hit distribution per class) of ``vols``
        aimed at a side with relevance ``rel``: exactly ``hits_by_class``'s grouping."""
        key = (vols, rel)
        found = self._patterns.get(key)
        if found is None:
            groups: dict[int, list[tuple[int, int, str, int]]] = {}
            for v in vols:
                c = v.cls if v.cls >= AIMED else v.cls & rel
                groups.setdefault(c, []).append((v.count, v.target, v.step, v.dice))
            classes = tuple(c for c in self.board.assign_order if c in groups)
            found = self._patterns[key] = (classes, [self.dists.group(tuple(groups[c]))
                                                     for c in classes])
        return found

    # ------------------------------------------------------------------ one row
    def _row(self, b: int, a: int) -> None:
        """Play out every pair of attacker state ``a`` in round bucket ``b``.

        In the last bucket a pair (a, d) may come back to itself (nobody hit) with chance
        ``ell[d]``: every mass arriving at it is pushed as ``mass / (1 - ell[d])`` (all its
        future returns at once) and its return is taken out of the result.  ``ell`` is
        learnt from the stage operators before the push (a dry pass: which states a stage
        reaches does not depend on how much mass goes in)."""
        steady = b == self.cap
        nd = len(self.D)
        w = self.pairs[b].take(a, nd)
        extra = [self.srcs[(b, s)].take(a, nd) for s in range(self.n_stages)]
        first = True
        ell = np.zeros(nd)
        while True:
            w = self._cut(w)
            z0, selfish = self._route_row(a, w, b)
            if first and extra[0].any():
                z0 = _pad(z0, len(extra[0]))
                z0[:len(extra[0])] += extra[0]
            adds = extra if first else None
            plan = None
            if steady and selfish.size:
                plan = self._plan(a, z0, adds, b)
                n = len(self.D)
                z0, ell = _pad(z0, n), _pad(ell, n)
                stay = np.ones(n)
                for S, ops in plan:
                    if ops is not None:
                        here = np.zeros(n)
                        here[ops.S] = ops.stay
                        stay *= here
                ell[selfish] = stay[selfish]
                if (ell[selfish] >= 1.0).any():
                    raise RuntimeError("battle state cannot progress")   # stalemate missed
                z0 = z0.copy()
                z0[selfish] /= 1.0 - ell[selfish]
            self.rounds.append(float(z0.sum()))
            z = z0
            for s in range(self.n_stages):
                if adds is not None and s and adds[s].any():
                    z = _pad(z, len(adds[s])).copy()
                    z[:len(adds[s])] += adds[s]
                if not z.any():
                    continue
                if plan is None:
                    S = np.flatnonzero(z)
                    ops = self._ops(a, S, s, b == 0) if self._live(b, s) else None
                else:
                    S, ops = plan[s]
                own, ids, rows, lo = self._apply(a, ops, z)
                if ids.size:
                    nb, ns = (b, s + 1) if s + 1 < self.n_stages else (min(b + 1, self.cap), None)
                    plane = self.pairs[nb] if ns is None else self.srcs[(nb, ns)]
                    plane.add_rows(ids, rows, lo)
                    for i in ids.tolist():
                        self._queue(nb, i)
                z = own
            first = False
            if not steady:
                if z.any():
                    self.pairs[b + 1].add_row(a, z)
                    self._queue(b + 1, a)
                break
            if selfish.size:
                z = _pad(z, len(z0)).copy()
                z[selfish] = np.maximum(z[selfish] - z0[selfish] * ell[selfish], 0.0)
            w = z
            if not (w >= self.prune).any():
                self._cut(w)
                break
        self._rows_done += 1
        if self.progress is not None and self._rows_done % 8 == 0:
            self.progress(self._share_done(b, a))

    def _share_done(self, b: int, a: int) -> float:
        """Roughly how much of the work is done: rows are swept in order of the attacker's
        progress, most of them in the last bucket."""
        if b < self.cap:
            return 0.0
        top = 2 * sum(len(s.units) for s in self.board.slots[ATT]) + 2
        return min(1.0, int(self.A.pot[a]) / top)

    def _plan(self, a: int, z0: np.ndarray, adds, b: int):
        """The stage operators of a push of ``z0`` (plus ``adds`` per stage), with the
        sources each stage meets: ``[(S, ops or None), ...]``."""
        plan = []
        z = z0
        for s in range(self.n_stages):
            if adds is not None and s and adds[s].any():
                z = _pad(z, len(adds[s])).copy()
                z[:len(adds[s])] += adds[s]
            S = np.flatnonzero(z)
            ops = self._ops(a, S, s, b == 0) if S.size and self._live(b, s) else None
            plan.append((S, ops))
            if ops is not None:
                z = self._apply(a, ops, z)[0]
        return plan

    def _live(self, b: int, s: int) -> bool:
        """May anybody fire in stage ``s`` of the dice of round bucket ``b``?"""
        return not (self.first_silent if b == 0 else self.later_silent)[s]

    def _cut(self, w: np.ndarray) -> np.ndarray:
        small = (w > 0) & (w < self.prune)
        if small.any():
            self.pruned_mass += float(w[small].sum())
            w = np.where(small, 0.0, w)
        return w

    def _route_row(self, a: int, w: np.ndarray, b: int):
        """Pairs (a, d) with masses ``w`` at the end of round bucket ``b``: finished ones
        collected, the rest turned into sources of the next round's dice.  Returns the
        sources in this row and the defender states whose pair stays itself."""
        S = np.flatnonzero(w)
        self.pairs_seen += S.size
        z0 = np.zeros(len(self.D))
        if not S.size:
            return z0, S
        q = self._quiet_mask(a, S, b)
        qs = S[q]
        z0[qs] = w[qs]
        if q.all():
            return z0, qs
        selfish = [qs]
        rest = S[~q]
        code = self._route_codes(a, rest, b)
        same = code == 1
        if same.any():
            # routes that leave the pair as it is (e.g. nobody submerges): kept in bulk
            stays = rest[same]
            z0[stays] += w[stays]
            selfish.append(stays)
            rest = rest[~same]
        for d in rest.tolist():
            mass = float(w[d])
            d2 = self._route_mass(a, d, b, mass)
            if d2 is not None:
                z0 = _pad(z0, len(self.D))
                z0[d2] += mass
                if d2 == d:
                    selfish.append(np.array([d]))
        return _pad(z0, len(self.D)), np.concatenate(selfish)

    def _route_mass(self, a: int, d: int, b: int, mass: float) -> int | None:
        """Send ``mass`` of the pair (a, d) at the end of round bucket ``b`` where its route
        goes: a battle's end (terminal, and a round begun counted), or another attacker
        state's sources for the next round (queued); None then.  A route staying in row
        ``a`` is the caller's: its defender state is returned."""
        route = self._route(a, d, b)
        if route[0] == "end":
            if route[2]:
                self.rounds.append(mass)
            self._finish(route[1], mass)
            return None
        _, a2, d2 = route
        if a2 == a:
            return d2
        self.srcs[(b, 0)].add(a2, d2, mass)
        self._queue(b, a2)
        return None

    # ------------------------------------------------------------------ one stage
    def _apply(self, a: int, ops: _StageOps | None, z: np.ndarray):
        """A stage from the sources ``z`` of row ``a`` (nonzero only at ``ops.S``): (masses
        staying in the row, other attacker states, their masses from column ``ops.lo``)."""
        if ops is None:
            return z, _NO_IDS, _NO_ROWS, 0
        out = (ops.ma * z[ops.S]) @ ops.md
        lo = ops.lo
        own = np.zeros(len(self.D))
        if ops.k >= 0:
            own[lo:lo + out.shape[1]] = out[ops.k]
            out = out[ops.rest]
        reached = out.any(axis=1)     # (the kept operators may hold sources without mass)
        return own, ops.rest_ids[reached], out[reached], lo

    def _dtable(self, a: int, s: int, first: bool) -> _FireTable:
        """The defender's fire at attacker state ``a`` in stage ``s``, per defender state."""
        A = self.A
        key = ("first", a, s) if first else (int(A.view[a]), int(A.rel[a]), s)
        tab = self._dtables.get(key)
        if tab is None:
            tab = self._dtables[key] = _FireTable()
        return tab

    def _fill_dtable(self, tab: _FireTable, a: int, S: np.ndarray, s: int, first: bool) -> None:
        tab.fit(len(self.D))
        missing = S[tab.gamma[S] < 0]
        if not missing.size:
            return
        board, A, D = self.board, self.A, self.D
        rel = int(A.rel[a])
        if first:
            summ = board.summary(ATT, A.states[a])
        else:
            view = A.view_list[int(A.view[a])]
        for d in missing.tolist():
            if first:
                vols = side_volleys(board, DEF, D.states[d], summ, s, True)
            else:
                vols = later_volleys(board, DEF, D.states[d], view, s)
            tab.put(d, *self._joint_of(vols, rel))

    def _apatterns(self, a: int, S: np.ndarray, s: int, first: bool):
        """(pattern id per source, the ``_Patterns``) of the attacker's fire at ``S``."""
        key = (a, s, first)
        pats = self._atables.get(key)
        if pats is None:
            pats = self._atables[key] = _Patterns()
        board, A, D = self.board, self.A, self.D
        if first:
            ids = np.empty(S.size, dtype=np.int64)
            summ_a = None
            for i, d in enumerate(S.tolist()):
                pid = pats.by_state.get(d)
                if pid is None:
                    sd = board.summary(DEF, D.states[d])
                    vols = side_volleys(board, ATT, A.states[a], sd, s, True)
                    rel = int(D.rel[d])
                    pid = pats.by_state[d] = pats.add((vols, rel), self._fire(vols, rel))
                ids[i] = pid
            del summ_a
            return ids, pats
        look = D.view[S] * 8 + D.rel[S]
        if pats.by_look.shape[0] <= int(look.max()):
            grown = np.full(_pow2(int(look.max()) + 1), -1, dtype=np.int64)
            grown[:pats.by_look.shape[0]] = pats.by_look
            pats.by_look = grown
        ids = pats.by_look[look]
        if (ids < 0).any():
            by_view: dict[int, tuple] = {}
            for k in sorted(set(look[ids < 0].tolist())):
                vid, rel = divmod(k, 8)
                vols = by_view.get(vid)
                if vols is None:
                    vols = by_view[vid] = later_volleys(board, ATT, A.states[a],
                                                        D.view_list[vid], s)
                pid = pats.known((vols, rel))     # (views alike to this state's fire)
                pats.by_look[k] = pid if pid >= 0 else pats.add((vols, rel), self._fire(vols, rel))
            ids = pats.by_look[look]
        return ids, pats

    def _joint_of(self, vols, rel: int):
        """(target classes, joint hit distribution) of ``vols`` aimed at relevance ``rel``."""
        key = (vols, rel)
        found = self._joints.get(key)
        if found is None:
            classes, dists = self._pattern(vols, rel)
            found = self._joints[key] = (classes, _joint(dists))
        return found

    def _fire(self, vols, rel: int):
        classes, joint = self._joint_of(vols, rel)
        return classes, tuple(s - 1 for s in joint.shape), joint.ravel()

    def _ops(self, a: int, S: np.ndarray, s: int, first: bool) -> _StageOps | None:
        """The stage operators of row ``a`` in stage ``s`` for (at least) the sources ``S``
        (None: nobody fires at all).  A row meets the same sources again and again (each
        pass of its mass): the operators built for the row are kept while it is processed,
        for every source met so far (built for the new ones only and merged), and used as
        they are (each source's column and row do not depend on the other sources, and a
        source without mass adds nothing)."""
        if a != self._ops_row:
            self._ops_row = a
            self._ops_kept.clear()
        key = (s, first)
        kept = self._ops_kept.get(key)
        if kept is None:
            kept = self._ops_kept[key] = self._build_ops(a, S, s, first)
        else:
            pos = np.minimum(np.searchsorted(kept.S, S), kept.S.size - 1)
            new = S[kept.S[pos] != S]
            if new.size:
                built = self._build_ops(a, new, s, first)
                if kept.fires.any() and built.fires.any():
                    kept = _merge(kept, built, a)
                else:                     # (operators where nobody fires are not written out)
                    kept = self._build_ops(a, sorted_union(kept.S, new), s, first)
                self._ops_kept[key] = kept
        return kept if kept.fires.any() else None

    def _build_ops(self, a: int, S: np.ndarray, s: int, first: bool) -> _StageOps:
        """The stage operators of row ``a`` in stage ``s`` for the sources ``S`` (with
        ``fires`` all False when nobody fires: nothing else is set then)."""
        A, D = self.A, self.D
        tab = self._dtable(a, s, first)
        self._fill_dtable(tab, a, S, s, first)
        pids, pats = self._apatterns(a, S, s, first)
        gam = tab.gamma[S]
        fires = tab.fires[S] | pats.fires[pids]
        if not fires.any():
            ops = _StageOps()
            ops.S, ops.fires = S, fires
            return ops
        n = S.size
        # the attacker side: P(next attacker state | source), one column per source
        blocks = []
        for g, pos in _groups(gam):
            classes = tab.classes[g]
            if not classes:
                blocks.append((pos, None, None))
                continue
            ids, order, starts = self._asucc_of(a, classes, tab.dims[g])
            joint = tab.mats[g][S if pos is None else S[pos]]
            joint = joint.reshape(joint.shape[0], -1)
            blocks.append((pos, ids, np.add.reduceat(joint[:, order], starts, axis=1)))
        if len(blocks) == 1 and blocks[0][1] is not None:
            succ, ma = blocks[0][1], blocks[0][2].T
            keep = ma.any(axis=1)
            if not keep.all():
                succ, ma = succ[keep], ma[keep]
        else:
            mat = np.zeros((n, len(A)))
            for pos, ids, probs in blocks:
                if ids is None:
                    mat[slice(None) if pos is None else pos, a] = 1.0
                elif pos is None:
                    mat[:, ids] = probs
                else:
                    mat[pos[:, None], ids] = probs
            succ = np.flatnonzero(mat.any(axis=0))
            ma = mat[:, succ].T
        # the defender side: P(next defender state | source), one row per source, over the
        # band of defender states from ``lo``
        parts = []
        for p, pos in _groups(pids):
            src = S if pos is None else S[pos]
            classes, dims, joint = pats.items[p]
            if not classes:
                parts.append((pos, src[:, None], None))
            else:
                parts.append((pos, D.grid(classes, dims, src).reshape(src.size, -1), joint))
        lo = min(int(sd.min()) for _, sd, _ in parts)
        width = max(int(sd.max()) for _, sd, _ in parts) + 1 - lo
        flat, weights = [], []
        for pos, succ_d, joint in parts:
            rows = np.arange(n) if pos is None else pos
            flat.append((rows[:, None] * width + (succ_d - lo)).ravel())
            weights.append(np.ones(rows.size) if joint is None
                           else np.broadcast_to(joint, succ_d.shape).ravel())
        if len(flat) > 1:
            flat, weights = np.concatenate(flat), np.concatenate(weights)
        else:
            flat, weights = flat[0], weights[0]
        md = np.bincount(flat, weights=weights, minlength=n * width).reshape(n, width)
        ops = _StageOps()
        ops.fires = fires
        _fill_ops(ops, S, lo, np.ascontiguousarray(ma), md, succ, a)
        return ops

    def _asucc_of(self, a: int, classes: tuple[int, ...], dims: tuple[int, ...]):
        """(attacker states, cell order, group starts): how the cells of a joint hit
        distribution over ``classes`` (up to ``dims`` hits) fold onto the states attacker
        state ``a`` becomes."""
        key = (a, classes, dims)
        agg = self._asucc.get(key)
        if agg is None:
            succ = self.A.grid(classes, dims, np.array([a]))[0].ravel()
            ids, inv = unique_inverse(succ)
            order = np.argsort(inv, kind="stable")
            starts = np.searchsorted(inv[order], np.arange(ids.size))
            agg = self._asucc[key] = (ids, order, starts)
        return agg
