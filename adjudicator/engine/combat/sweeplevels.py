"""The sweep's last round bucket by levels, every pair of a level at once (``combat.sweep``).

Every change a round makes to a side raises its ``Board.progress``, so a pair (attacker
state, defender state) of the last bucket feeds only pairs of a higher *level* (the sum of
both sides' progress) and itself (nobody hit).  The pairs are therefore played level by
level, all pairs of a level together, each of them once:

* what arrives at a pair before its level is played is final: at the end of a round
  (``pairs``: it is routed, ``rules.end_of_round`` and ``decide_before_round``), or before
  a stage (``srcs``: from other pairs within a round, or routed to it);
* the pair's own returns (a stage where nobody is hit, a round where nobody is hit and the
  checks between rounds change nothing) are taken in closed form: with ``in_s`` arriving
  before stage ``s`` and ``p_s`` the chance that stage ``s`` leaves the pair as it is, the
  mass entering stage 0 is ``x_0 = (in_0 + sum_k in_k p_k ... p_last) / (1 - p_0 ... p_last)``
  and ``x_s = in_s + x_(s-1) p_(s-1)``;
* a stage's transitions for all pairs of the level are built at once from two marginals
  per pair (each side's next state given the other's fire, as in ``Sweep._build_ops``):
  each side's fire comes from a table indexed by (firing state, what it sees of the
  enemy), filled by the rule functions the first time it is asked (``_FireTable2``); the
  hit cells fold onto next states through ``SideSpace.grid``; the product of the two
  marginals is spread over (next attacker state, next defender state) in one scatter.

Where the rows of ``Sweep`` pass each row's mass through its stages again and again (about
3.4 passes per row in the 40-ship sea battle of benchmarks/bench_issue24.py), each with
some fifty small numpy calls, the levels play every pair once and their numpy calls work on
all pairs of a level.  The odds are the rows' to rounding (the tests compare both)."""

from __future__ import annotations

import numpy as np

from .arrays import grow2, unique_inverse
from .model import ATT, DEF
from .steps import later_volleys

# matrix products below this many multiply-adds stay on one thread in OpenBLAS (its
# SMP threshold): threads cost far more than they save on these sizes, on a loaded machine
_GEMM_ONE_THREAD = 200_000
BIG = 1 << 24          # a pair's key: attacker state * BIG + defender state


def _where(cols: np.ndarray, xs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per ``xs[i]``: its position in the sorted array ``cols`` (0 if absent), and whether
    it is there."""
    pos = np.minimum(np.searchsorted(cols, xs), cols.size - 1)
    return pos, cols[pos] == xs


class _FireTable2:
    """One side's fire at the other in one stage of later rounds: ``fid[x, look]`` the fire
    of firing state ``x`` at an enemy that looks like ``look`` (``view * 8 + relevance``),
    -1 not yet known; each fire's target classes (``cid``, an id into ``classes``) and its
    joint hit distribution (``local``: a row of ``mats[cid]``, padded to ``dims[cid]``)."""

    def __init__(self):
        self.fid = np.full((16, 16), -1, dtype=np.int64)
        self.cid = np.zeros(16, dtype=np.int64)
        self.local = np.zeros(16, dtype=np.int64)
        self.classes: list[tuple[int, ...]] = []
        self.dims: list[tuple[int, ...]] = []
        self.mats: list[np.ndarray] = []
        self.rows: list[int] = []
        self._cids: dict = {}
        self._fids: dict = {}
        self.n = 0

    def silent(self, fids: np.ndarray) -> bool:
        """Does none of the fires ``fids`` fire at all?"""
        c = self._cids.get(())
        return c is not None and bool((self.cid[fids] == c).all())

    def add(self, key, classes, dims, joint) -> int:
        found = self._fids.get(key)
        if found is not None:
            return found
        c = self._cids.get(classes)
        if c is None:
            c = self._cids[classes] = len(self.classes)
            self.classes.append(classes)
            self.dims.append(dims)
            self.mats.append(np.zeros((8,) + tuple(d + 1 for d in dims)))
            self.rows.append(0)
        want = tuple(max(a, b) for a, b in zip(self.dims[c], dims))
        mat = self.mats[c]
        if want != self.dims[c]:
            mat = np.pad(mat, [(0, 0)] + [(0, w - d) for w, d in zip(want, self.dims[c])])
            self.dims[c] = want
        row = self.rows[c]
        if row == mat.shape[0]:
            mat = np.concatenate([mat, np.zeros_like(mat)])
        self.mats[c] = mat
        mat[(row,) + tuple(slice(0, d + 1) for d in dims)] = joint.reshape(
            tuple(d + 1 for d in dims))
        self.rows[c] = row + 1
        f = self._fids[key] = self.n
        if f == self.cid.shape[0]:
            self.cid = np.concatenate([self.cid, np.zeros_like(self.cid)])
            self.local = np.concatenate([self.local, np.zeros_like(self.local)])
        self.cid[f], self.local[f] = c, row
        self.n += 1
        return f


class LevelRows:
    """Mixin of ``Sweep``: ``_levels`` plays out the last round bucket level by level."""

    def _levels(self) -> None:
        b = self.cap
        A, D = self.A, self.D
        self._ftabs = {}
        self._lv_codes = np.zeros((16, 16), dtype=np.int8)
        self._held = np.zeros((16, 16), dtype=bool)
        self.heaps[b].clear()
        self.queued = {q for q in self.queued if q[0] != b}
        planes = [self.pairs[b]] + [self.srcs[(b, s)] for s in range(self.n_stages)]
        for plane in planes:
            ai, di = np.nonzero(plane.a)
            if ai.size:
                self._note(ai, di)
        top = 2 * sum(len(s.units) for side in self.board.slots for s in side) + 4
        while True:
            held = self._held
            flat = np.flatnonzero(held)
            if not flat.size:
                break
            ai, di = np.divmod(flat, held.shape[1])
            lv = A.pot[ai] + D.pot[di]
            level = int(lv.min())
            now = lv == level
            ai, di = ai[now], di[now]
            held[ai, di] = False
            self._level(b, ai, di)
            if self.progress is not None:
                self.progress(min(1.0, level / top))

    def _note(self, ai: np.ndarray, di: np.ndarray) -> None:
        """Remember that the pairs (ai, di) hold mass (``_levels`` plays them in order of
        their levels)."""
        self._held = grow2(self._held, int(ai.max()) + 1, int(di.max()) + 1, False)
        self._held[ai, di] = True

    def _level(self, b: int, ai: np.ndarray, di: np.ndarray) -> None:
        """Play every pair (ai, di) (one level, distinct) of the last bucket ``b``."""
        n_st = self.n_stages
        E = self.pairs[b]
        X = [self.srcs[(b, s)] for s in range(n_st)]
        for plane in [E] + X:
            plane._fit(int(ai.max()) + 1, int(di.max()) + 1)
        e = E.a[ai, di]
        E.a[ai, di] = 0.0
        ins = []
        for plane in X:
            ins.append(plane.a[ai, di])
            plane.a[ai, di] = 0.0
        tot = e + sum(ins)
        keep = tot >= self.prune
        if not keep.all():
            self.pruned_mass += float(tot[~keep].sum())
            ai, di, e = ai[keep], di[keep], e[keep]
            ins = [x[keep] for x in ins]
        if not ai.size:
            return
        self.pairs_seen += int((e > 0).sum())
        self._rows_done += 1
        r = self._level_codes(ai, di, b) == 1          # the checks between rounds keep it
        ins[0] = ins[0] + np.where(r, e, 0.0)
        n = ai.size
        stays, flows = [], []
        for s in range(n_st):
            if self._live(b, s):
                stay, flow = self._level_stage(ai, di, s)
            else:
                stay, flow = np.ones(n), None
            stays.append(stay)
            flows.append(flow)
        # the pair's own returns in closed form
        loop = np.ones(n)
        back = np.zeros(n)                 # sum_k in_k p_k ... p_last, for k >= 1
        for s in range(n_st - 1, -1, -1):
            loop = loop * stays[s]
            if s:
                back = back + ins[s] * loop
        loop = np.where(r, loop, 0.0)
        if (loop >= 1.0).any():
            raise RuntimeError("battle state cannot progress")   # stalemate missed
        x = (ins[0] + np.where(r, back, 0.0)) / (1.0 - loop)
        self.rounds.append(float(x.sum()))
        for s in range(n_st):
            if s:
                x = ins[s] + x * stays[s - 1]
            if flows[s] is not None:
                self._spread(X[s + 1] if s + 1 < n_st else E, x, *flows[s])
        # what leaves the last stage unchanged where the checks between rounds move it
        out = np.where(r, 0.0, e + x * stays[-1])
        go: list[tuple[int, int, float]] = []
        for i in np.flatnonzero(out).tolist():
            a, d, mass = int(ai[i]), int(di[i]), float(out[i])
            route = self._route(a, d, b)
            if route[0] == "end":
                if route[2]:
                    self.rounds.append(mass)
                self._finish(route[1], mass)
            else:
                go.append((route[1], route[2], mass))
        if go:
            a2, d2 = np.array([g[0] for g in go]), np.array([g[1] for g in go])
            X[0]._fit(int(a2.max()) + 1, int(d2.max()) + 1)
            np.add.at(X[0].a, (a2, d2), [g[2] for g in go])
            self._note(a2, d2)

    def _spread(self, plane, x, ma, ca, md, cd, own) -> None:
        """Add to ``plane`` what the pairs of a level with masses ``x`` send elsewhere in a
        stage: the sum over pairs of ``x`` times the product of their two marginals (one
        matrix product over the next states they reach, ``ca`` and ``cd``), less what stays
        in each pair (``own``: its cell, where it may stay; pairs of one level reach no
        other pair of that level)."""
        ma = ma * x[:, None]
        step = max(1, _GEMM_ONE_THREAD // (ma.shape[1] * md.shape[1]))
        out = ma[:step].T @ md[:step]
        for i in range(step, ma.shape[0], step):
            out += ma[i:i + step].T @ md[i:i + step]
        out[own] = 0.0
        ra, rd = np.nonzero(out)
        if ra.size:
            plane._fit(int(ca[-1]) + 1, int(cd[-1]) + 1)
            plane.a[ca[:, None], cd[None, :]] += out
            self._note(ca[ra], cd[rd])

    def _level_codes(self, ai: np.ndarray, di: np.ndarray, b: int) -> np.ndarray:
        """Per pair: 1 if the checks between rounds leave it as it is (``rules.quiet``, or
        ``_route`` says so), else 2."""
        codes = self._lv_codes = grow2(self._lv_codes, int(ai.max()) + 1, int(di.max()) + 1, 0)
        got = codes[ai, di]
        unknown = np.flatnonzero(got == 0)
        if unknown.size:
            ua, ud = ai[unknown], di[unknown]
            ta = self.A.trait[ua]
            q = np.zeros(unknown.size, dtype=bool)
            for t in sorted(set(ta.tolist())):
                on = ta == t
                q[on] = self._quiet_mask_t(t, ud[on], b)
            codes[ua[q], ud[q]] = 1
            for a, d in zip(ua[~q].tolist(), ud[~q].tolist()):
                route = self._route(a, d, b)
                codes[a, d] = 1 if route[0] == "go" and route[1] == a and route[2] == d else 2
            got = codes[ai, di]
        return got

    # ------------------------------------------------------------------ one stage
    def _level_stage(self, ai: np.ndarray, di: np.ndarray, s: int):
        """Stage ``s`` of later rounds from the pairs (ai, di): per pair the chance that it
        stays as it is, and the two marginals (``_marginal``) of its transitions (None:
        nobody moves)."""
        A, D = self.A, self.D
        fa = self._fire_ids(ATT, s, ai, D.view[di] * 8 + D.rel[di])
        fd = self._fire_ids(DEF, s, di, A.view[ai] * 8 + A.rel[ai])
        ta, td = self._ftabs[(ATT, s)], self._ftabs[(DEF, s)]
        if ta.silent(fa) and td.silent(fd):
            return np.ones(ai.size), None        # nobody fires
        ma, ca = self._marginal(self._ftabs[(DEF, s)], fd, ai, A)
        md, cd = self._marginal(self._ftabs[(ATT, s)], fa, di, D)
        pa, in_a = _where(ca, ai)
        pd, in_d = _where(cd, di)
        rows = np.arange(ai.size)
        stay = np.where(in_a, ma[rows, pa], 0.0) * np.where(in_d, md[rows, pd], 0.0)
        if (stay == 1.0).all():
            return stay, None                    # nobody can change
        both = in_a & in_d
        return stay, (ma, ca, md, cd, (pa[both], pd[both]))

    def _fire_ids(self, side: int, s: int, xs: np.ndarray, looks: np.ndarray) -> np.ndarray:
        """The fire of side ``side``'s states ``xs`` at enemies that look like ``looks``,
        as ids of its ``_FireTable2`` (filled by the rule functions where unknown)."""
        tab = self._ftabs.get((side, s))
        if tab is None:
            tab = self._ftabs[(side, s)] = _FireTable2()
        tab.fid = grow2(tab.fid, int(xs.max()) + 1, int(looks.max()) + 1, -1)
        got = tab.fid[xs, looks]
        missing = got < 0
        if missing.any():
            mine, other = (self.A, self.D) if side == ATT else (self.D, self.A)
            keys = unique_inverse(xs[missing] * BIG + looks[missing])[0]
            board = self.board
            seen: dict = {}
            for k in keys.tolist():
                x, look = divmod(k, BIG)
                vid, rel = divmod(look, 8)
                vols = seen.get((x, vid))
                if vols is None:
                    vols = seen[(x, vid)] = later_volleys(board, side, mine.states[x],
                                                          other.view_list[vid], s)
                classes, dims, joint = self._fire(vols, rel)
                tab.fid[x, look] = tab.add((vols, rel), classes, dims, joint)
            got = tab.fid[xs, looks]
        return got

    def _marginal(self, tab: _FireTable2, fids: np.ndarray, targets: np.ndarray, T):
        """Per pair, the next states of its side ``T`` state ``targets[i]`` under the fire
        ``fids[i]``: ``(m, cols)``, ``m[i, j]`` the chance that it becomes state ``cols[j]``
        (the states some pair may become, in increasing order)."""
        cids = tab.cid[fids]
        keys, succs, weights = [], [], []
        used = sorted(set(cids.tolist()))
        for c in used:
            pos = np.arange(fids.size) if len(used) == 1 else np.flatnonzero(cids == c)
            classes = tab.classes[c]
            if not classes:
                keys.append(pos)
                succs.append(targets[pos])
                weights.append(np.ones(pos.size))
                continue
            dims = tab.dims[c]
            joint = tab.mats[c][tab.local[fids[pos]]].reshape(pos.size, -1)
            succ = T.grid(classes, dims, targets[pos]).reshape(pos.size, -1)
            keys.append(np.repeat(pos, succ.shape[1]))
            succs.append(succ.ravel())
            weights.append(joint.ravel())
        succ = np.concatenate(succs) if len(succs) > 1 else succs[0]
        rows = np.concatenate(keys) if len(keys) > 1 else keys[0]
        weights = np.concatenate(weights) if len(weights) > 1 else weights[0]
        lo = int(succ.min())
        width = int(succ.max()) + 1 - lo
        dense = np.bincount(rows * width + (succ - lo), weights=weights,
                            minlength=fids.size * width).reshape(fids.size, width)
        cols = np.flatnonzero(dense.any(axis=0))
        return dense[:, cols], cols + lo
