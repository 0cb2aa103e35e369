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
# numba's compiled callees inherit ``_nrt`` from their caller unless they set it: kernels that
# allocate and may be called from a NO_REFCOUNT loop (search agents seated at the table)
# set it explicitly, so they keep reference counting for their own arrays.
WITH_REFCOUNT = {"_nrt": True}


@njit(cache=True, inline="always")
def ix(i):
    """A non-negative index ``i`` typed unsigned, so indexing with it has no wraparound code."""
    return np.uint64(i)


def bind(kernel, *args):
    """``kernel``'s compiled code for the types of ``args``, callable without numba typing
    its arguments again on every call.

    numba types most arguments in C, but objects of other classes (the game and policy-set
    tags, cardsim.game_nb) go back to Python on every call, a few microseconds each: too
    much for an environment's single step. Call the result only with arguments of the same
    types as ``args`` (the same arrays or arrays alike, ints where ints were): it does not
    check them. Under ``NUMBA_DISABLE_JIT`` the kernel itself is returned."""
    from numba import config

    if config.DISABLE_JIT:
        return kernel
    signature = tuple(kernel.typeof_pyval(a) for a in args)
    kernel.compile(signature)  # compiles, or loads numba's cache
    return kernel.overloads[signature].entry_point


class Rebound:
    """``kernel(*args)`` through ``bind``'s entry points, bound again whenever the types of
    the arguments at positions ``varying`` change: for a caller whose other arguments keep
    their types from call to call (an agent's tags, weights and options) while arrays it is
    handed may not (another table's rows). The key is numba's own fingerprint of those
    arguments (an array's dtype, dimensions, layout and writability: what its numba type
    is made of), computed in C in a fraction of a microsecond. Under
    ``NUMBA_DISABLE_JIT`` the kernel is called as it is."""

    def __init__(self, kernel, varying: tuple[int, ...]):
        from numba import config

        self.kernel, self.varying = kernel, varying
        self._entries = None if config.DISABLE_JIT else {}

    def __call__(self, *args):
        if self._entries is None:
            return self.kernel(*args)
        from numba._dispatcher import compute_fingerprint

        key = compute_fingerprint(tuple(args[i] for i in self.varying))
        entry = self._entries.get(key)
        if entry is None:
            entry = self._entries[key] = bind(self.kernel, *args)
        return entry(*args)
