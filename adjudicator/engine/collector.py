"""The cyclic garbage collector paused while a turn is played or checked.

A turn builds a board of a piece and two sets per unit, twice (check, then play): on
Global 1940's board, thousands of short-lived objects, none in a reference cycle (a piece
holds its board weakly), all freed by reference counting when the turn is done.  Their
allocations alone start collections of the young generations and, every few turns, a
full collection of every object the process holds (the game, the turn files read by an
audit): a fifth of a Global turn's time, for nothing to collect.  Results are unchanged:
the collector only frees unreachable objects.  The caller drops the turn's board inside the
block: alive when collection resumes, its pieces would be the young generation's first
collection, traversed for nothing (a sixth of a replayed 1941 turn).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """No automatic collection inside the block (it resumes after, if it was on)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
