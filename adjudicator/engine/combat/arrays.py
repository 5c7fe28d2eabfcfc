"""Small integer-array helpers for the exact odds, without the masked-array machinery
``np.unique`` loads on first use (15-40 ms in a process that computes one battle)."""

from __future__ import annotations

import numpy as np


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


def sorted_union(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``np.union1d`` of two sorted arrays of distinct integers, without the masked-array
    machinery ``np.unique`` loads on first use (a third of a small sea battle's time)."""
    both = np.concatenate((x, y))
    both.sort(kind="stable")
    keep = np.empty(both.size, dtype=bool)
    keep[:1] = True
    np.not_equal(both[1:], both[:-1], out=keep[1:])
    return both[keep]


def pow2(n: int) -> int:
    """The least power of two at least ``n`` (and 16): sizes of tables that grow."""
    return 1 << max(4, (n - 1).bit_length())


def grow2(arr: np.ndarray, rows: int, cols: int, fill) -> np.ndarray:
    """``arr`` if it has ``rows`` x ``cols`` cells, else a copy grown to powers of two
    (``pow2``) with the new cells ``fill``: a 2-d table indexed by states numbered as met."""
    r, c = arr.shape
    if rows <= r and cols <= c:
        return arr
    new = np.full((max(r, pow2(rows)), max(c, pow2(cols))), fill, dtype=arr.dtype)
    new[:r, :c] = arr
    return new
