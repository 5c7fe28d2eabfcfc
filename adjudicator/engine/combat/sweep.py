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
  time.  For a row ``a`` and the masses ``z`` over its defender states, the attacker's
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
  the whole enemy) is played one pair at a time.
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
from .sidespace import SideSpace
from .steps import later_volleys, side_volleys


class _Plane:
    """Masses indexed by (attacker state, defender state), growing as states are numbered."""

    def __init__(self):
        self.a = np.zeros((16, 16))

    def _fit(self, rows: int, cols: int) -> None:
        r, c = self.a.shape
        if rows <= r and cols <= c:
            return
        new = np.zeros((max(r, _pow2(rows)), max(c, _pow2(cols))))
        new[:r, :c] = self.a
        self.a = new

    def add_rows(self, ids: np.ndarray, mat: np.ndarray) -> None:
        self._fit(int(ids.max()) + 1, mat.shape[1])
        self.a[ids, :mat.shape[1]] += mat

    def add(self, row: int, col: int, mass: float) -> None:
        self._fit(row + 1, col + 1)
        self.a[row, col] += mass

    def add_row(self, row: int, vec: np.ndarray) -> None:
        self._fit(row + 1, vec.shape[0])
        self.a[row, :vec.shape[0]] += vec

    def take(self, row: int, n: int) -> np.ndarray:
        out = np.zeros(n)
        if row < self.a.shape[0]:
            m = min(n, self.a.shape[1])
            out[:m] = self.a[row, :m]
            self.a[row, :m] = 0.0
        return out


def _pow2(n: int) -> int:
    return 1 << max(4, (n - 1).bit_length())


def _pad(vec: np.ndarray, n: int) -> np.ndarray:
    if vec.shape[0] >= n:
        return vec
    out = np.zeros(n)
    out[:vec.shape[0]] = vec
    return out


def unique_inverse(arr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(arr, return_inverse=True)`` for a 1-d integer array, without the
    masked-array machinery ``np.unique`` loads on first use."""
    order = np.argsort(arr, kind="stable")
    srt = arr[order]
    new = np.empty(srt.size, dtype=bool)
    new[:1] = True
    np.not_equal(srt[1:], srt[:-1], out=new[1:])
    inv = np.empty(arr.size, dtype=np.int64)
    inv[order] = np.cumsum(new) - 1
    return srt[new], inv


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

    def add(self, key, item) -> int:
        found = self._ids.get(key)
        if found is None:
            found = self._ids[key] = len(self.items)
            self.items.append(item)
            self.fires = np.append(self.fires, bool(item[0]))
        return found


class _StageOps:
    """One stage from one attacker state ``a`` for the defender states ``S``: ``succ`` (the
    attacker's possible next states), ``ma`` (P(next attacker state | source), shape
    ``len(succ) x len(S)``), ``groups`` of sources sharing the attacker's fire at them
    (positions in S, first column, matrix of P(next defender state | source) over a column
    band), ``stay`` (P(neither side changes) per source)."""

    __slots__ = ("succ", "ma", "groups", "stay")


class Sweep:
    """The exact odds of one battle (``run``, then read ``terminal``, ``rounds``)."""

    def __init__(self, board: Board, sides: int, prune: float = 1e-15,
                 progress: Callable[[float], None] | None = None):
        if not prune > 0:
            raise ValueError("prune must be positive")
        self.board = board
        self.A, self.D = SideSpace(board, ATT), SideSpace(board, DEF)
        self.dists = HitDists(sides, board.low_luck, tail=prune * 1e-6)
        self.cap = board.round_cap
        self.n_stages = len(board.stages)
        self.prune = prune
        self.progress = progress
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
        self._routes: dict = {}
        self._quiet: dict = {}
        self._dtables: dict = {}
        self._atables: dict = {}
        self._asucc: dict = {}
        self._rows_done = 0

    # ------------------------------------------------------------------ the run
    def run(self) -> None:
        """Bucket 0 holds the start (round 0); bucket b < cap the pairs at the end of round
        b; bucket cap every later round.  The dice of bucket b are those of round b + 1."""
        s0 = self.board.initial_state()
        a0, d0 = self.A.intern(s0.att), self.D.intern(s0.dfn)
        self.pairs[0].add(a0, d0, 1.0)
        self._queue(0, a0)
        for b in range(self.cap + 1):
            heap = self.heaps[b]
            while heap:
                _, a = heapq.heappop(heap)
                self.queued.discard((b, a))
                self._row(b, a)
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

    def _quiet_mask(self, a: int, S: np.ndarray, rnd: int) -> np.ndarray:
        if rnd < 1:
            return np.zeros(S.size, dtype=bool)
        ta = int(self.A.trait[a])
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
            groups: dict[int, list[tuple[int, int, str]]] = {}
            for v in vols:
                c = v.cls if v.cls >= AIMED else v.cls & rel
                groups.setdefault(c, []).append((v.count, v.target, v.step))
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
                        here[S] = ops.stay
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
                    ops = self._ops(a, S, s, b == 0)
                else:
                    S, ops = plan[s]
                own, ids, rows = self._apply(a, ops, S, z)
                if ids.size:
                    nb, ns = (b, s + 1) if s + 1 < self.n_stages else (min(b + 1, self.cap), None)
                    plane = self.pairs[nb] if ns is None else self.srcs[(nb, ns)]
                    plane.add_rows(ids, rows)
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
            ops = self._ops(a, S, s, b == 0) if S.size else None
            plan.append((S, ops))
            if ops is not None:
                z = self._apply(a, ops, S, z)[0]
        return plan

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
        for d in S[~q].tolist():
            mass = float(w[d])
            route = self._route(a, d, b)
            if route[0] == "end":
                if route[2]:
                    self.rounds.append(mass)
                self._finish(route[1], mass)
                continue
            _, a2, d2 = route
            if a2 == a:
                z0 = _pad(z0, len(self.D))
                z0[d2] += mass
                if d2 == d:
                    selfish.append(np.array([d]))
            else:
                self.srcs[(b, 0)].add(a2, d2, mass)
                self._queue(b, a2)
        return _pad(z0, len(self.D)), np.concatenate(selfish)

    # ------------------------------------------------------------------ one stage
    def _apply(self, a: int, ops: _StageOps | None, S: np.ndarray, z: np.ndarray):
        """A stage from the sources ``z`` (nonzero at ``S``) of row ``a``: (masses staying
        in the row, other attacker states, their masses)."""
        if ops is None:
            return z, np.zeros(0, dtype=np.int64), np.zeros((0, 0))
        g = ops.ma * z[S]
        out = np.zeros((len(ops.succ), len(self.D)))
        for pos, lo, md in ops.groups:
            if pos is None:
                out[:, lo:lo + md.shape[1]] += g @ md
            else:
                out[:, lo:lo + md.shape[1]] += g[:, pos] @ md
        mine = ops.succ == a
        if mine.any():
            k = int(np.flatnonzero(mine)[0])
            others = ~mine
            return out[k], ops.succ[others], out[others]
        return np.zeros(len(self.D)), ops.succ, out

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
            classes, dists = self._pattern(vols, rel)
            tab.put(d, classes, _joint(dists))

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
            for k in sorted(set(look[ids < 0].tolist())):
                vid, rel = divmod(k, 8)
                vols = later_volleys(board, ATT, A.states[a], D.view_list[vid], s)
                pats.by_look[k] = pats.add((vols, rel), self._fire(vols, rel))
            ids = pats.by_look[look]
        return ids, pats

    def _fire(self, vols, rel: int):
        classes, dists = self._pattern(vols, rel)
        return classes, tuple(len(p) - 1 for p in dists), _joint(dists).ravel()

    def _ops(self, a: int, S: np.ndarray, s: int, first: bool) -> _StageOps | None:
        A, D = self.A, self.D
        tab = self._dtable(a, s, first)
        self._fill_dtable(tab, a, S, s, first)
        pids, pats = self._apatterns(a, S, s, first)
        gam = tab.gamma[S]
        if not tab.fires[S].any() and not pats.fires[pids].any():
            return None
        ops = _StageOps()
        n = S.size
        # the attacker side: its next states and their probabilities, per source
        g0, g1 = int(gam.min()), int(gam.max())
        blocks = []
        for g in ([g0] if g0 == g1 else sorted(set(gam.tolist()))):
            pos = None if g0 == g1 else np.flatnonzero(gam == g)
            src = S if pos is None else S[pos]
            classes = tab.classes[g]
            if not classes:
                blocks.append((pos, np.array([a]), np.ones((1, src.size))))
                continue
            succ_key = (a, classes, tab.dims[g])
            agg = self._asucc.get(succ_key)
            if agg is None:
                succ = A.grid(classes, tab.dims[g], np.array([a]))[0].ravel()
                ids, inv = unique_inverse(succ)
                order = np.argsort(inv, kind="stable")
                starts = np.searchsorted(inv[order], np.arange(ids.size))
                agg = self._asucc[succ_key] = (ids, order, starts)
            ids, order, starts = agg
            joint = tab.mats[g][src].reshape(src.size, -1)
            probs = np.add.reduceat(joint[:, order], starts, axis=1)
            keep = probs.any(axis=0)
            if not keep.all():
                ids, probs = ids[keep], probs[:, keep]
            blocks.append((pos, ids, probs.T))
        if len(blocks) == 1:
            ops.succ, ops.ma = blocks[0][1], blocks[0][2]
        else:
            succ = unique_inverse(np.concatenate([b_[1] for b_ in blocks]))[0]
            ma = np.zeros((succ.size, n))
            for pos, ids, probs in blocks:
                ma[np.ix_(np.searchsorted(succ, ids), pos)] = probs
            ops.succ, ops.ma = succ, ma
        here = np.flatnonzero(ops.succ == a)
        stay = ops.ma[here[0]].copy() if here.size else np.zeros(n)
        # the defender side, per group of sources the attacker fires at alike
        p0, p1 = int(pids.min()), int(pids.max())
        groups = []
        for p in ([p0] if p0 == p1 else sorted(set(pids.tolist()))):
            pos = None if p0 == p1 else np.flatnonzero(pids == p)
            src = S if pos is None else S[pos]
            classes, dims, joint = pats.items[p]
            if not classes:
                lo, hi = int(src.min()), int(src.max()) + 1
                md = np.zeros((src.size, hi - lo))
                md[np.arange(src.size), src - lo] = 1.0
                groups.append((pos, lo, md))
                continue
            succ = D.grid(classes, dims, src).reshape(src.size, -1)
            nz = joint > 0
            if not nz.all():
                succ, joint = succ[:, nz], joint[nz]
            lo, hi = int(succ.min()), int(succ.max()) + 1
            width = hi - lo
            flat = (np.arange(src.size)[:, None] * width + (succ - lo)).ravel()
            md = np.bincount(flat, weights=np.tile(joint, src.size),
                             minlength=src.size * width).reshape(src.size, width)
            stay_d = (succ == src[:, None]) @ joint
            if pos is None:
                stay *= stay_d
            else:
                stay[pos] *= stay_d
            groups.append((pos, lo, md))
        ops.groups = groups
        ops.stay = stay
        return ops
