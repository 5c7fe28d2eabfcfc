"""The sweep's last round bucket, many rows at once (``combat.sweep``).

Rows of the same ``Board.progress`` never feed each other (every change raises it), so once
the rows of lower progress are done, their masses are final and they can be played out
together: their masses as one matrix (rows x defender states), the routes between rounds
decided for all their pairs at once, and each stage's operators built for all rows at once
(``_Stack``; where each side's fire aims at one tuple of target classes, as in land
battles: otherwise the rows are played one by one, ``Sweep._row``).  A stage's product is
one per row over its own sources (the union of a batch's sources is half as large again).
A battle with AA guns has many such rows (one per AA result for each state of the land
units); a battle without them mostly one, played as before.

Every step is the one ``Sweep._row`` takes for each row of the batch (routes between
rounds, the return of pairs that stay themselves taken out with ``1 / (1 - p_stay)``,
pruning), so the odds are the same to rounding.
"""

from __future__ import annotations

import numpy as np

from .arrays import grow2, sorted_union, unique_inverse


class _Stack:
    """One stage's operators for rows ``R`` and defender sources ``S``.  ``md`` (source,
    row, next defender state ``lo + j``): the attacker's fire at the defender;
    ``groups``: the defender's fire at the attacker, ``(rows, joint, succ)`` for rows
    that share it: ``joint`` (source, cell) the probability of each cell (a hit count per
    class, or a next state), ``succ`` (row, cell) the attacker state the cell makes of
    the row; ``stay`` (row, source): P(neither side changes)."""

    __slots__ = ("S", "lo", "md", "groups", "stay", "band", "cells")

    def bound(self) -> "_Stack":
        """Note, per source, the columns of ``md`` (``band``) and per group the cells of
        ``joint`` (``cells``) that may hold mass: ``(first, last + 1)`` arrays."""
        self.band = _span(self.md.any(axis=1))
        self.cells = [_span(joint != 0) for _, joint, _ in self.groups]
        return self


class BatchRows:
    """Mixin of ``Sweep``: ``_rows`` plays out rows of the last bucket together."""

    def _rows(self, b: int, rows: list[int]) -> None:
        """Play out every pair of the attacker states ``rows`` (same progress) in the last
        round bucket ``b``; what ``_row`` does for each of them."""
        R = np.array(rows, dtype=np.int64)
        if any(self.srcs[(b, s)].holds(R) for s in range(self.n_stages)):
            for a in rows:                    # mass entering within a round: row by row
                self._row(b, a)
            return
        kept: dict[int, _Stack] = {}
        S = np.flatnonzero(self.pairs[b].peek_rows(R, len(self.D)).any(axis=0))
        for s in range(self.n_stages):
            if self._live(b, s) and S.size:
                kept[s] = self._stack_fast(R, S, s)
                if kept[s] is None:       # several target classes (sea battles): stacking
                    for a in rows:        # every row's own operators gains nothing
                        self._row(b, a)
                    return
        W = self.pairs[b].take_rows(R, len(self.D))
        while True:
            W = self._cut(W)
            Z0, selfish = self._route_rows(R, W, b)
            plan = self._stack_plan(R, Z0, kept, b)
            n = len(self.D)                      # (building may have numbered new states)
            if n > Z0.shape[1]:
                Z0 = np.pad(Z0, ((0, 0), (0, n - Z0.shape[1])))
                selfish = np.pad(selfish, ((0, 0), (0, n - selfish.shape[1])))
            ell = None
            if selfish.any():
                stay = np.ones(Z0.shape)
                for ops in plan:
                    if ops is not None:
                        here = np.zeros(Z0.shape)
                        here[:, ops.S] = ops.stay
                        stay *= here
                ell = np.where(selfish, stay, 0.0)
                if (ell[selfish] >= 1.0).any():
                    raise RuntimeError("battle state cannot progress")   # stalemate missed
                Z0[selfish] /= 1.0 - ell[selfish]
            self.rounds.append(float(Z0.sum()))
            Z = Z0
            for s, ops in enumerate(plan):
                if ops is not None:
                    Z = self._stack_apply(R, ops, Z, b, s)
            if ell is not None:
                n = Z0.shape[1]
                Z[:, :n][selfish] = np.maximum(Z[:, :n][selfish] - Z0[selfish] * ell[selfish],
                                               0.0)
            W = Z
            if not (W >= self.prune).any():
                self._cut(W)
                break
        before = self._rows_done
        self._rows_done += len(rows)
        if self.progress is not None and before // 8 != self._rows_done // 8:
            self.progress(self._share_done(b, rows[-1]))

    # ------------------------------------------------------------------ routes
    def _route_rows(self, R: np.ndarray, W: np.ndarray, b: int):
        """``_route_row`` for every row of ``R`` (masses ``W``): the sources of the next
        round's dice (rows x defender states) and which of them are pairs that stay
        themselves."""
        ri, di = np.nonzero(W)
        self.pairs_seen += ri.size
        moved: list[tuple[int, int, float]] = []
        q = np.zeros(ri.size, dtype=bool)
        if ri.size and b >= 1:
            ta = self.A.trait[R][ri]
            for t in sorted(set(ta.tolist())):
                on = ta == t
                q[on] = self._quiet_mask_t(t, di[on], b)
        same = np.zeros(ri.size, dtype=bool)
        rest = np.flatnonzero(~q)
        if rest.size:
            code = self._route_grid(R[ri[rest]], di[rest], b)
            same[rest[code == 1]] = True
            for j in rest[code != 1].tolist():       # (in row order: ``np.nonzero``)
                i, d = int(ri[j]), int(di[j])
                mass = float(W[i, d])
                d2 = self._route_mass(int(R[i]), d, b, mass)
                if d2 is not None:
                    moved.append((i, d2, mass, d2 == d))
        n = len(self.D)
        Z0 = np.zeros((R.size, n))
        selfish = np.zeros((R.size, n), dtype=bool)
        keep = q | same
        Z0[ri[keep], di[keep]] = W[ri[keep], di[keep]]
        selfish[ri[keep], di[keep]] = True
        for i, d2, mass, itself in moved:
            Z0[i, d2] += mass
            if itself:
                selfish[i, d2] = True
        return Z0, selfish

    def _route_grid(self, ai: np.ndarray, di: np.ndarray, b: int) -> np.ndarray:
        """``_route_codes`` of the pairs ``(ai, di)`` at the end of round bucket ``b``, all
        at once: 1 if the route leaves the pair as it is, else 2; kept in a table of every
        pair met (0: not asked yet)."""
        grids = self.__dict__.setdefault("_route_grids", {})
        grid = grids.get(b)
        grid = grids[b] = grow2(np.zeros((0, 0), dtype=np.int8) if grid is None else grid,
                                len(self.A), len(self.D), 0)
        code = grid[ai, di]
        for j in np.flatnonzero(code == 0).tolist():
            a, d = int(ai[j]), int(di[j])
            route = self._route(a, d, b)
            code[j] = grid[a, d] = 1 if route[0] == "go" and route[1:] == (a, d) else 2
        return code

    # ------------------------------------------------------------------ operators
    def _stack_plan(self, R: np.ndarray, Z0: np.ndarray, kept: dict, b: int) -> list:
        """The stacked operators of each stage for a push of ``Z0`` (None: nobody fires or
        no mass), built for the sources met and kept for the next passes."""
        plan: list = []
        Z = Z0
        live = [s for s in range(self.n_stages) if self._live(b, s)]
        for s in range(self.n_stages):
            if s not in live:
                plan.append(None)
                continue
            cols = np.flatnonzero(Z.any(axis=0))
            if not cols.size:
                plan.append(None)
                continue
            ops = kept.get(s)
            if ops is None or not _within(cols, ops.S):
                S = cols if ops is None else sorted_union(ops.S, cols)
                ops = kept[s] = self._stack_ops(R, S, s)
            plan.append(ops)
            if s != live[-1]:
                Z = self._stack_apply(R, ops, Z, b, s, dry=True)
        return plan

    def _stack_ops(self, R: np.ndarray, S: np.ndarray, s: int) -> _Stack:
        """The stage operators of the rows ``R`` for the sources ``S``: built for all rows
        at once where every fire of a side aims at the same classes (``_stack_fast``),
        else every row's ``_build_ops`` (a row where nobody fires stays as it is)."""
        fast = self._stack_fast(R, S, s)
        if fast is not None:
            return fast
        built = [self._build_ops(int(a), S, s, False) for a in R.tolist()]
        fires = [o.fires.any() for o in built]
        lo = min([o.lo for o, f in zip(built, fires) if f] + [int(S[0])])
        hi = max([o.lo + o.md.shape[1] for o, f in zip(built, fires) if f] + [int(S[-1]) + 1])
        n, r = S.size, R.size
        out = _Stack()
        out.S, out.lo, out.groups = S, lo, []
        out.md = np.zeros((n, r, hi - lo))
        out.stay = np.zeros((r, n))
        cols = np.arange(n)
        for i, (a, o, f) in enumerate(zip(R.tolist(), built, fires)):
            pos = np.array([i])
            if not f:
                out.groups.append((pos, np.ones((n, 1)), np.array([[a]])))
                out.md[cols, i, S - lo] = 1.0
                out.stay[i] = 1.0
                continue
            out.groups.append((pos, o.ma.T, o.succ[None, :]))
            out.md[:, i, o.lo - lo:o.lo - lo + o.md.shape[1]] = o.md
            out.stay[i] = o.stay
        return out.bound()

    def _stack_fast(self, R: np.ndarray, S: np.ndarray, s: int) -> _Stack | None:
        """The stage operators of the rows ``R`` built together, or None where the fire of
        a side aims at different classes from different states (then row by row)."""
        A, D, n, r = self.A, self.D, S.size, R.size
        # the defender's fire at each row: one table per enemy view of the rows
        keys: dict[tuple, list[int]] = {}
        for i, a in enumerate(R.tolist()):
            keys.setdefault((int(A.view[a]), int(A.rel[a])), []).append(i)
        tables = []
        for pos in keys.values():
            a = int(R[pos[0]])
            tab = self._dtable(a, s, False)
            self._fill_dtable(tab, a, S, s, False)
            gam = tab.gamma[S]
            used = {int(g) for g in gam.tolist() if tab.classes[g]}
            if len(used) != 1:
                return None
            g = used.pop()
            joint = tab.mats[g][S].reshape(n, -1).copy()
            silent = ~tab.fires[S]
            joint[silent] = 0.0
            joint[silent, 0] = 1.0               # nobody fires: no hit
            tables.append((np.array(pos), tab.classes[g], tab.dims[g], joint))
        # the attacker's fire at each source, per row: it depends on what the source looks
        # like (``_Patterns.by_look``), so it is asked once per row and look
        look = D.view[S] * 8 + D.rel[S]
        looks, inv = unique_inverse(look)
        reps = np.empty(looks.size, dtype=np.int64)
        reps[inv] = S                               # one source per look
        items = []
        for a in R.tolist():
            ids, p = self._apatterns(a, reps, s, False)
            items.append([p.items[k] for k in ids.tolist()])
        firing = [it for row in items for it in row if it[0]]
        classes = {it[0] for it in firing}
        if len(classes) != 1:
            return None
        cls = classes.pop()
        dims = tuple(max(d) for d in zip(*[it[1] for it in firing]))
        cells = int(np.prod([d + 1 for d in dims]))
        succ_d = D.grid(cls, dims, S).reshape(n, cells)
        by_look = np.zeros((r, reps.size, cells))                 # rows x looks x cells
        for i, row in enumerate(items):
            for k, (kc, kd, joint) in enumerate(row):
                if not kc:
                    by_look[i, k, 0] = 1.0
                elif kd == dims:
                    by_look[i, k] = joint
                else:
                    by_look[i, k].reshape([d + 1 for d in dims])[
                        tuple(slice(0, d + 1) for d in kd)] = joint.reshape([d + 1 for d in kd])
        weights = by_look[:, inv].transpose(1, 0, 2)               # sources x rows x cells
        lo = int(succ_d.min())
        width = int(succ_d.max()) + 1 - lo
        flat = np.arange(n * r).reshape(n, r, 1) * width + (succ_d - lo)[:, None]
        md = np.bincount(flat.ravel(), weights=weights.ravel(),
                         minlength=n * r * width).reshape(n, r, width)
        stay_d = md[np.arange(n), :, S - lo].T                     # rows x sources
        out = _Stack()
        out.S, out.lo, out.md, out.groups = S, lo, md, []
        out.stay = np.zeros((r, n))
        for pos, classes_a, dims_a, joint in tables:
            succ, joint = _fold_tail(A.grid(classes_a, dims_a, R[pos]).reshape(pos.size, -1),
                                     joint)
            out.groups.append((pos, joint, succ))
            here = (succ == R[pos][:, None]).astype(float)          # rows x cells
            out.stay[pos] = (here @ joint.T) * stay_d[pos]
        return out.bound()

    def _stack_apply(self, R: np.ndarray, ops: _Stack, Z: np.ndarray, b: int, s: int,
                     dry: bool = False) -> np.ndarray:
        """A stage from the sources ``Z`` of the rows ``R``: the masses that stay in each
        row (rows x defender states); the others are added to the attacker states they
        reach (unless ``dry``)."""
        zs = Z[:, ops.S].T                                         # sources x rows
        lo, width = ops.lo, ops.md.shape[2]
        own = np.zeros((R.size, max(len(self.D), Z.shape[1])))
        moved, ids = [], []
        has = zs != 0
        by_row = np.nonzero(has.T)                 # (row, source) pairs in row order
        cut = np.searchsorted(by_row[0], np.arange(R.size + 1))
        w0s, w1s = _bounds(has, *ops.band)
        for (pos, joint, succ), (c_lo, c_hi) in zip(ops.groups, ops.cells):
            c0s, c1s = _bounds(has, c_lo, c_hi)
            for j, i in enumerate(pos.tolist()):
                # one product per row, over its own sources and the cells and defender
                # states they reach: rows of a batch meet different defender states
                if cut[i] == cut[i + 1]:
                    continue
                src = by_row[1][cut[i]:cut[i + 1]]
                c0, c1, w0, w1 = c0s[i], c1s[i], w0s[i], w1s[i]
                y = zs[src, i, None] * ops.md[src, i, w0:w1]       # sources x band
                out = joint[src, c0:c1].T @ y                      # cells x band
                to = succ[j, c0:c1]
                here = to == R[i]
                own[i, lo + w0:lo + w1] = here @ out
                if not dry:
                    block = np.zeros((c1 - c0, width))
                    block[:, w0:w1] = out
                    moved.append(block[~here])
                    ids.append(to[~here])
        if dry or not ids:
            return own
        flat, ids = np.concatenate(moved), np.concatenate(ids)
        reached = flat.any(axis=1)
        flat, ids = flat[reached], ids[reached]
        if ids.size:
            last = s + 1 >= self.n_stages
            nb = min(b + 1, self.cap) if last else b
            plane = self.pairs[nb] if last else self.srcs[(nb, s + 1)]
            order = np.argsort(ids, kind="stable")
            srt = ids[order]
            start = np.flatnonzero(np.concatenate(([True], srt[1:] != srt[:-1])))
            if start.size == ids.size:
                uniq = ids
                plane.add_rows(ids, flat, lo)
            else:                         # several cells reach one state: summed first
                uniq = srt[start]
                plane.add_rows(uniq, np.add.reduceat(flat[order], start, axis=0), lo)
            queued = self.queued
            for i in uniq.tolist():
                if (nb, i) not in queued:
                    self._queue(nb, i)
        return own


def _within(x: np.ndarray, y: np.ndarray) -> bool:
    """Is every element of ``x`` in the sorted array ``y``?"""
    pos = np.minimum(np.searchsorted(y, x), y.size - 1)
    return bool((y[pos] == x).all())


def _fold_tail(succ: np.ndarray, joint: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The cells (columns of ``succ``, rows x cells, and of ``joint``, sources x cells)
    from which every row's next state stays the same (more hits than the rows have units
    to lose) made one: fewer cells for the products, the same masses reaching each state."""
    varies = np.flatnonzero((succ != succ[:, -1:]).any(axis=0))
    k = int(varies[-1]) + 1 if varies.size else 0
    if k + 1 >= succ.shape[1]:
        return succ, joint
    folded = joint[:, :k + 1].copy()
    folded[:, k] = joint[:, k:].sum(axis=1)
    return succ[:, :k + 1], folded


def _bounds(has: np.ndarray, first: np.ndarray, last: np.ndarray) -> tuple[list, list]:
    """Per row (column of ``has``, sources x rows): the least ``first`` and the greatest
    ``last`` over the sources it has, as lists of ints (0, 0 for a row without any)."""
    lo = np.where(has, first[:, None], _BIG).min(axis=0)
    hi = np.where(has, last[:, None], 0).max(axis=0)
    return np.where(lo == _BIG, 0, lo).tolist(), hi.tolist()


_BIG = np.iinfo(np.int64).max


def _span(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row of a boolean matrix, its first and one past its last True column (0, 0
    for a row without any)."""
    anyt = mask.any(axis=1)
    first = np.where(anyt, mask.argmax(axis=1), 0)
    last = np.where(anyt, mask.shape[1] - mask[:, ::-1].argmax(axis=1), 0)
    return first, last
