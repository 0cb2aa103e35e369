"""The search agents' clock, for their optional time budget (``ms``)."""

import time

from numba import njit, objmode


@njit(cache=True)
def now_ms():
    """Milliseconds on a monotonic clock."""
    with objmode(t="float64"):
        t = time.perf_counter() * 1000.0
    return t
