"""Compiled passes over one chunk's per-item results (experiments.tournaments.tally): one loop, no
temporary arrays. Each kernel compiles once for int64 values (counts of 1/scale, exact) and
once for float64 values."""

from __future__ import annotations

import numpy as np
from numba import njit

WHOLE_TOLERANCE = 1e-6  # far above float error on points per deal, far below 1/scale


@njit(cache=True)
def to_units(x, scale, out):
    """``out = x * scale`` as integers; False (``out`` then unusable) if some value is not a
    whole multiple of ``1/scale``."""
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            v = x[i, j] * scale
            q = np.rint(v)
            if abs(v - q) > WHOLE_TOLERANCE:
                return False
            out[i, j] = np.int64(q)
    return True


@njit(cache=True)
def chunk_sums(values, labels, lo, at, count, sums, squares, curve_sums, curve_squares):
    """Add item ``lo + i`` (``values[i]`` = a's and b's points) to group 0 and, when
    ``count`` has more groups, to group ``labels[i] + 1``: the sums and sums of squares of a,
    b and a - b. The running sums of a - b are recorded at prefix lengths ``at``
    (ascending, within lo+1 .. lo+n)."""
    groups = count.shape[0]
    c1 = sums[0, 2] * 0
    c2 = c1
    j = 0
    for i in range(values.shape[0]):
        a = values[i, 0]
        b = values[i, 1]
        d = a - b
        count[0] += 1
        _add(sums, squares, 0, a, b, d)
        if groups > 1:
            g = labels[i] + 1
            if 1 <= g < groups:
                count[g] += 1
                _add(sums, squares, g, a, b, d)
        c1 += d
        c2 += d * d
        while j < at.shape[0] and at[j] == lo + i + 1:
            curve_sums[j] = c1
            curve_squares[j] = c2
            j += 1


@njit(cache=True, inline="always")
def _add(sums, squares, g, a, b, d):
    sums[g, 0] += a
    sums[g, 1] += b
    sums[g, 2] += d
    squares[g, 0] += a * a
    squares[g, 1] += b * b
    squares[g, 2] += d * d
