"""The transposition table of the open-hand solvers (``cardsim/<game>/solve_nb.py``).

One row per slot: the position's key, the lower and upper bounds of its value found so far
(alpha-beta searches with narrow windows learn bounds, not values), the best card, and the
generation of the solve that wrote it. A table is reused across the solves of many deals:
each solve takes a new generation (``new_generation``), so entries of earlier deals, keyed
by cards that meant other hands, no longer match. The size and the generation counter live
in the extra last row.
"""

import numpy as np
from numba import njit

from cardsim.jit import WITH_REFCOUNT

TT_KEY, TT_LOWER, TT_UPPER, TT_MOVE, TT_GEN = 0, 1, 2, 3, 4
TT_WIDTH = 5
INF = 1 << 20  # beyond every value a solver returns


@njit(cache=True, **WITH_REFCOUNT)
def new_table(bits):
    """A table of 2**bits slots (40 bytes each), no entry valid."""
    tt = np.zeros(((1 << bits) + 1, TT_WIDTH), dtype=np.int64)
    tt[:, TT_GEN] = -1
    tt[1 << bits, 1] = bits
    tt[1 << bits, 0] = 0
    return tt


@njit(cache=True)
def new_generation(tt):
    """Start a solve: entries written before no longer match. Returns its generation."""
    last = tt.shape[0] - 1
    tt[last, 0] += 1
    return tt[last, 0]


@njit(cache=True, inline="always")
def tt_slot(tt, key):
    """The slot of ``key``: the high bits of a multiplicative hash."""
    h = np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)
    return np.int64(h >> np.uint64(64 - tt[tt.shape[0] - 1, 1]))


@njit(cache=True, inline="always")
def tt_matches(tt, slot, key, gen):
    """Whether table slot ``slot`` holds position ``key`` written in this solve's generation
    ``gen``."""
    return tt[slot, TT_KEY] == key and tt[slot, TT_GEN] == gen


@njit(cache=True, inline="always")
def tt_save(tt, slot, key, gen, best, alpha0, beta0, move):
    """Record the result ``best`` of a search in window (alpha0, beta0): an upper bound when
    it failed low, a lower bound when it failed high, else the exact value; bounds already
    known for the same position are kept."""
    lo = -INF
    hi = INF
    if tt_matches(tt, slot, key, gen):
        lo = tt[slot, TT_LOWER]
        hi = tt[slot, TT_UPPER]
    if best <= alpha0:
        hi = min(hi, best)
    elif best >= beta0:
        lo = max(lo, best)
    else:
        lo = best
        hi = best
    tt[slot, TT_KEY] = key
    tt[slot, TT_GEN] = gen
    tt[slot, TT_LOWER] = lo
    tt[slot, TT_UPPER] = hi
    tt[slot, TT_MOVE] = move
