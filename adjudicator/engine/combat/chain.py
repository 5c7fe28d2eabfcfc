"""The exact odds of a small battle: the Markov chain over battle states, one state at a time,
in pure Python (the calculator the numpy sweep replaced for large battles, issue 11).  For a
battle of a few units it is faster than the sweep, whose numpy calls have a fixed cost, so
``odds.battle_odds`` uses it up to ``odds.SMALL_BATTLE`` units with normal dice; it is also
the tests' oracle for the sweep (the same figures to 1e-12), with Low Luck too (its hit
distributions are then ``hitdist.HitDists``', and numpy is loaded).  It calls the same rule
functions.  No pruning."""

from __future__ import annotations

import gc
import heapq
import itertools
import math

from .board import Board
from .casualties import apply_side_hits, hits_by_class
from ...model.dice import hit_chance
from .model import ATT, DEF, BattleState, Side, Volley
from .oddsresult import BattleOdds, summarize_terminal
from .rules import decide_before_round, end_of_round
from .steps import stage_volleys


class _Chain:
    def __init__(self, board: Board, sides: int):
        self.board = board
        self.sides = sides
        self.low_luck = None
        if board.low_luck:
            from .hitdist import HitDists          # numpy: only for Low Luck
            self.low_luck = HitDists(sides, low_luck=True)
        self.ids: tuple[dict[Side, int], dict[Side, int]] = ({}, {})
        self.objs: tuple[list[Side], list[Side]] = ([], [])
        self.pots: tuple[list[int], list[int]] = ([], [])
        self._binom: dict = {}
        self._pmf: dict = {}
        self._full: dict = {}
        self._marg: dict = {}
        self._succ: dict = {}

    # ----------------------------------------------------------------- building blocks
    def intern(self, side_idx: int, side: Side) -> int:
        ids = self.ids[side_idx]
        found = ids.get(side)
        if found is None:
            found = ids[side] = len(self.objs[side_idx])
            self.objs[side_idx].append(side)
            self.pots[side_idx].append(self.board.progress(side_idx, side))
        return found

    def binomial(self, n: int, value: int, dice: int = 1) -> list[float]:
        key = (n, value, dice)
        found = self._binom.get(key)
        if found is None:
            p = hit_chance(value, self.sides, dice)
            if p >= 1.0:
                found = [0.0] * n + [1.0]
            else:
                q = 1.0 - p
                found = [math.comb(n, k) * p ** k * q ** (n - k) for k in range(n + 1)]
            self._binom[key] = found
        return found

    def hit_pmf(self, groups: tuple[tuple[int, int, str, int], ...], cap: int) -> list[float]:
        """Distribution of the total hits of volleys ``((count, target, step, dice), ...)``
        (dice per unit, the best kept: ``Volley.dice``), with every count >= ``cap`` lumped
        into ``cap``."""
        key = (groups, cap)
        found = self._pmf.get(key)
        if found is not None:
            return found
        dist, tail = self.full_pmf(groups)
        found = self._pmf[key] = dist[:cap] + [tail[cap]] if cap < len(dist) else dist
        return found

    def full_pmf(self, groups: tuple[tuple[int, int, str, int], ...]):
        """(distribution of the total hits, its suffix sums)."""
        found = self._full.get(groups)
        if found is not None:
            return found
        dist = [1.0]
        if self.low_luck is not None:
            dist = self.low_luck.group(groups).tolist()
            groups = ()
        for n, value, _, dice in groups:
            b = self.binomial(n, value, dice)
            new = [0.0] * (len(dist) + n)
            for i, pi in enumerate(dist):
                if pi:
                    for k, pk in enumerate(b, i):
                        new[k] += pi * pk
            dist = new
        tail = [0.0] * (len(dist) + 1)
        for k in range(len(dist) - 1, -1, -1):
            tail[k] = tail[k + 1] + dist[k]
        found = self._full[groups] = (dist, tail)
        return found

    def successors(self, target_idx: int, target: Side, cls: int, cap: int):
        """(interned next side after 0..cap hits of one class, whether all differ)."""
        key = (target_idx, target, cls)
        found = self._succ.get(key)
        if found is None:
            board = self.board
            found = [self.intern(target_idx, target)]
            side = target
            one = hits_by_class(board, target_idx, target, [(cls, 1)])
            for _ in range(cap):              # h hits = h - 1 hits, then one more
                side = apply_side_hits(board, target_idx, side, one)[0]
                found.append(self.intern(target_idx, side))
            found = self._succ[key] = (found, len(set(found)) == len(found))
        return found

    def capacity(self, side_idx: int, side: Side, cls: int) -> int:
        """How many hits of class ``cls`` the side's units on the board can absorb: more
        hits than that are lost whatever happens, so they need not be told apart."""
        board = self.board
        present = board.summary(side_idx, side).present
        bit = 1 << cls
        total = 0
        for s, n, d in zip(board.slots[side_idx], present, side.damaged):
            if n and s.elig & bit:
                total += 2 * n - d if s.two_hits else n
        return total

    def marginal(self, target_idx: int, target: Side,
                 firing: tuple[Volley, ...]) -> list[tuple[int, float]]:
        """Distribution of ``target``'s next side (as interned ids) after ``firing``."""
        key = (target_idx, target, firing)
        found = self._marg.get(key)
        if found is not None:
            return found
        board = self.board
        if not firing:
            found = self._marg[key] = [(self.intern(target_idx, target), 1.0)]
            return found
        relevance = board.summary(target_idx, target).relevance
        groups: dict[int, list[tuple[int, int, str, int]]] = {}
        for v in firing:
            c = v.cls if v.cls >= 8 else v.cls & relevance
            groups.setdefault(c, []).append((v.count, v.target, v.step, v.dice))
        classes = [c for c in board.assign_order if c in groups]
        caps = [self.capacity(target_idx, target, c) for c in classes]
        dists = [self.hit_pmf(tuple(groups[c]), cap) for c, cap in zip(classes, caps)]
        if len(classes) == 1:
            nxt, distinct = self.successors(target_idx, target, classes[0], caps[0])
            if distinct:
                found = self._marg[key] = list(zip(nxt, dists[0]))
                return found
        out: dict[int, float] = {}
        for combo in itertools.product(*(enumerate(d) for d in dists)):
            p = 1.0
            for _, pk in combo:
                p *= pk
            if not p:
                continue
            class_hits = hits_by_class(board, target_idx, target,
                                       [(c, h) for c, (h, _) in zip(classes, combo)])
            new = apply_side_hits(board, target_idx, target, class_hits)[0] \
                if class_hits else target
            i = self.intern(target_idx, new)
            out[i] = out.get(i, 0.0) + p
        found = self._marg[key] = list(out.items())
        return found

    def stage(self, state: BattleState, stage: int):
        vols = stage_volleys(self.board, state, stage)
        am = self.marginal(ATT, state.att, tuple(v for v in vols if v.side == DEF))
        dm = self.marginal(DEF, state.dfn, tuple(v for v in vols if v.side == ATT))
        return am, dm

    def transitions(self, state: BattleState):
        """One round from a state returned by ``decide_before_round``: a list of
        (probability, attacker marginal, defender marginal) for the round's last stage,
        the earlier stages (e.g. surprise strike, AA fire) branching into several starts."""
        board = self.board
        A, D = self.objs
        starts = [(1.0, state)]
        last = len(board.stages) - 1
        for stage in range(last):
            nxt: dict[tuple, float] = {}
            for q, st in starts:
                if not stage_volleys(board, st, stage):
                    nxt[st] = nxt.get(st, 0.0) + q
                    continue
                am, dm = self.stage(st, stage)
                for ia, pa in am:
                    for id_, pd in dm:
                        s2 = st._replace(att=A[ia], dfn=D[id_])
                        nxt[s2] = nxt.get(s2, 0.0) + q * pa * pd
            starts = [(q, st) for st, q in nxt.items()]
        out = []
        for q, st in starts:
            am, dm = self.stage(st, last)
            out.append((q, am, dm))
        return out

    # ----------------------------------------------------------------- the chain
    def run(self) -> BattleOdds:
        board = self.board
        cap = board.round_cap
        A, D = self.objs
        apot = self.pots[ATT]
        dpot = self.pots[DEF]
        s0 = board.initial_state()
        ia0, id0 = self.intern(ATT, s0.att), self.intern(DEF, s0.dfn)
        rows: dict[tuple[int, int], dict[int, float]] = {(ia0, 0): {id0: 1.0}}
        heap = [(apot[ia0], ia0, 0)]
        terminal: dict[tuple, float] = {}
        rounds: list[float] = []
        nodes = 0

        def finish(state: BattleState, mass: float) -> None:
            key = (state.outcome, self.intern(ATT, state.att), self.intern(DEF, state.dfn),
                   state.retreat_to)
            terminal[key] = terminal.get(key, 0.0) + mass

        while heap:
            _, ia, r = heapq.heappop(heap)
            row = rows.pop((ia, r), None)
            if row is None:
                continue
            local = [(dpot[i], i) for i in row]
            heapq.heapify(local)
            while local:
                _, id_ = heapq.heappop(local)
                mass = row.pop(id_, 0.0)
                if not mass:
                    continue
                nodes += 1
                state = BattleState(A[ia], D[id_], r)
                state, _ = end_of_round(board, state)
                if state.outcome is not None:
                    finish(state, mass)
                    continue
                before = state.round
                state, _ = decide_before_round(board, state)
                if state.outcome is not None:
                    if state.round > before:
                        rounds.append(mass)
                    finish(state, mass)
                    continue
                comps = self.transitions(state)
                r2 = min(state.round, cap)
                same_row = r2 == r
                p_self = 0.0
                if same_row:
                    for q, am, dm in comps:
                        pa = next((p for i, p in am if i == ia), 0.0)
                        if pa:
                            p_self += q * pa * next((p for i, p in dm if i == id_), 0.0)
                    if p_self >= 1.0:
                        raise RuntimeError("battle state cannot progress")  # stalemate missed
                scale = mass / (1.0 - p_self)
                rounds.append(scale)
                for q, am, dm in comps:
                    fq = scale * q
                    for ia2, pa in am:
                        f = fq * pa
                        if same_row and ia2 == ia:
                            for id2, pd in dm:
                                if id2 not in row:
                                    if id2 == id_:
                                        continue           # the self-loop, resolved above
                                    heapq.heappush(local, (dpot[id2], id2))
                                    row[id2] = f * pd
                                else:
                                    row[id2] += f * pd
                            continue
                        key = (ia2, r2)
                        tgt = rows.get(key)
                        if tgt is None:
                            tgt = rows[key] = {}
                            heapq.heappush(heap, (apot[ia2] + r2, ia2, r2))
                        get = tgt.get
                        for id2, pd in dm:
                            tgt[id2] = get(id2, 0.0) + f * pd
        return self.summarize(terminal, rounds, nodes)

    def summarize(self, terminal: dict, rounds: list[float], nodes: int) -> BattleOdds:
        A, D = self.objs
        return summarize_terminal(self.board, terminal, A, D, rounds, nodes)


def chain_odds(setup, *, sides: int = 6) -> BattleOdds:
    """The exact odds of ``setup`` by the state chain."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _Chain(Board(setup), sides).run()
    finally:
        if collecting:
            gc.enable()
