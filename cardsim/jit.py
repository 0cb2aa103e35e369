"""Compilation options shared by the engines' kernels.

``NO_REFCOUNT``: kernels that allocate no arrays are compiled without numba's reference
counting (its ``_nrt`` option). Each call of a reference-counted kernel pays atomic count
updates on every array argument; over the twenty-odd kernel calls of a deal that was a third
of the simulation time. Kernels that allocate (``np.zeros``/``np.empty``, ``.copy()``) and
parallel loops must not use it.
"""

NO_REFCOUNT = {"_nrt": False}
