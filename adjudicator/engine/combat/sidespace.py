"""One side's states in the exact odds (``combat.sweep``): every ``Side`` met is numbered,
and what the sweep asks of a state many times is kept in arrays indexed by that number.

The successor table (``grid``) answers "which state does side state ``x`` become after
``h1`` hits of class ``c1``, then ``h2`` of class ``c2``, ...": exactly what
``casualties.apply_side_hits`` gives for ``((c1, h1), (c2, h2), ...)``, built from one-hit
steps (``apply_side_hits`` gives hits one at a time, each choice depending only on the side
as it stands, so h hits equal h - 1 hits and then one more).
"""

from __future__ import annotations

import numpy as np

from .casualties import apply_side_hits
from .model import EnemyView, Side
from .rules import traits


class SideSpace:
    """The numbered states of one side (``idx``: ATT or DEF) of a battle."""

    def __init__(self, board, idx: int):
        self.board = board
        self.idx = idx
        self.states: list[Side] = []
        self.index: dict[Side, int] = {}
        self.capacity = 64
        self.pot = np.zeros(self.capacity, dtype=np.int64)      # Board.progress
        self.trait = np.zeros(self.capacity, dtype=np.int64)    # id of rules.traits
        self.view = np.zeros(self.capacity, dtype=np.int64)     # id of its EnemyView
        self.rel = np.zeros(self.capacity, dtype=np.int64)      # SideSummary.relevance
        self.trait_list: list = []
        self.view_list: list[EnemyView] = []
        self._trait_ids: dict = {}
        self._view_ids: dict = {}
        self._next: dict[int, np.ndarray] = {}        # class -> one-hit successor (-1: unknown)
        self._grids: dict[tuple[int, ...], list] = {}  # classes -> [dims, table, done]

    def __len__(self) -> int:
        return len(self.states)

    # ------------------------------------------------------------------ numbering
    def intern(self, side: Side) -> int:
        found = self.index.get(side)
        if found is not None:
            return found
        i = len(self.states)
        if i == self.capacity:
            self._grow()
        self.states.append(side)
        self.index[side] = i
        board = self.board
        summ = board.summary(self.idx, side)
        self.pot[i] = board.progress(self.idx, side)
        self.trait[i] = self._id(self._trait_ids, self.trait_list, traits(board, self.idx, side))
        self.view[i] = self._id(self._view_ids, self.view_list, EnemyView(summ.tmask, summ.anti_sub))
        self.rel[i] = summ.relevance
        for nxt in self._next.values():
            nxt[i] = -1
        return i

    @staticmethod
    def _id(ids: dict, values: list, value) -> int:
        found = ids.get(value)
        if found is None:
            found = ids[value] = len(values)
            values.append(value)
        return found

    def _grow(self) -> None:
        old = self.capacity
        self.capacity *= 2
        for name in ("pot", "trait", "view", "rel"):
            arr = getattr(self, name)
            new = np.zeros(self.capacity, dtype=arr.dtype)
            new[:old] = arr
            setattr(self, name, new)
        for c, nxt in self._next.items():
            new = np.full(self.capacity, -1, dtype=np.int64)
            new[:old] = nxt
            self._next[c] = new
        for entry in self._grids.values():
            dims, table, done = entry
            grown = np.zeros((self.capacity,) + table.shape[1:], dtype=np.int64)
            grown[:old] = table
            entry[1] = grown
            entry[2] = np.concatenate([done, np.zeros(self.capacity - old, dtype=bool)])

    # ------------------------------------------------------------------ successors
    def _next_array(self, cls: int) -> np.ndarray:
        found = self._next.get(cls)
        if found is None:
            found = self._next[cls] = np.full(self.capacity, -1, dtype=np.int64)
        return found

    def _fill_next(self, cls: int, xs: np.ndarray) -> np.ndarray:
        """Make sure the one-hit successors of the states ``xs`` under class ``cls`` are
        known; returns the (possibly reallocated) successor array."""
        nxt = self._next_array(cls)
        missing = xs[nxt[xs] < 0]
        if missing.size:
            board = self.board
            one = ((cls, 1),)
            for x in sorted(set(missing.tolist())):
                after = apply_side_hits(board, self.idx, self.states[x], one)[0]
                j = self.intern(after)
                nxt = self._next[cls]                 # intern may have grown the arrays
                nxt[x] = j
        return self._next[cls]

    def grid(self, classes: tuple[int, ...], dims: tuple[int, ...], xs: np.ndarray) -> np.ndarray:
        """Successor table rows for the states ``xs``: shape ``(len(xs), dims[0] + 1, ...)``;
        entry ``[i, h1, h2, ...]`` is the state ``xs[i]`` becomes after ``h1`` hits of class
        ``classes[0]``, then ``h2`` of ``classes[1]``, ..."""
        entry = self._grids.get(classes)
        if entry is None or any(d > e for d, e in zip(dims, entry[0])):
            size = dims if entry is None else tuple(max(d, e) for d, e in zip(dims, entry[0]))
            shape = (self.capacity,) + tuple(d + 1 for d in size)
            entry = self._grids[classes] = [size, np.zeros(shape, dtype=np.int64),
                                            np.zeros(self.capacity, dtype=bool)]
        if not entry[2][xs].all():
            # build every state numbered so far: later requests mostly find them done
            todo = np.flatnonzero(~entry[2][:len(self.states)])
            rows = self._build(classes, entry[0], todo)
            entry = self._grids[classes]             # building may have grown the tables
            entry[1][todo] = rows
            entry[2][todo] = True
        table = entry[1][xs]
        if tuple(entry[0]) != tuple(dims):
            table = table[(slice(None),) + tuple(slice(0, d + 1) for d in dims)]
        return table

    def _build(self, classes, dims, xs: np.ndarray) -> np.ndarray:
        cur = xs.copy()
        for cls, h_max in zip(classes, dims):
            layers = [cur]
            for _ in range(h_max):
                prev = layers[-1]
                flat = prev.ravel()
                nxt = self._fill_next(cls, flat)
                step = nxt[flat].reshape(prev.shape)
                layers.append(step)
                if np.array_equal(step, prev):       # nothing left that can take these hits
                    layers.extend([step] * (h_max - len(layers) + 1))
                    break
            cur = np.stack(layers, axis=-1)
        return cur
