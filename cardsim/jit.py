"""Compilation options and small helpers shared by the engines' kernels.

``NO_REFCOUNT``: kernels that allocate no arrays are compiled without numba's reference
counting (its ``_nrt`` option). Each call of a reference-counted kernel pays atomic count
updates on every array argument; over the twenty-odd kernel calls of a deal that was a third
of the simulation time. Kernels that allocate (``np.zeros``/``np.empty``, ``.copy()``) and
parallel loops must not use it.

``ix``: indexing an array with a signed variable makes numba add negative-index wraparound
(a compare, a select and an address computation) to every access. The hot paths index their
state rows with ``st[ix(L.FIELD + seat)]`` instead, for offsets that are never negative.
"""

import numpy as np
from numba import njit

NO_REFCOUNT = {"_nrt": False}


@njit(cache=True, inline="always")
def ix(i):
    """A non-negative index ``i`` typed unsigned, so indexing with it has no wraparound code."""
    return np.uint64(i)
