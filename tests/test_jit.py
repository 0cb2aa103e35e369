"""cardsim.jit's calling helpers: ``Rebound`` calls a kernel's compiled entry point and binds
again when the arrays it is handed change type."""

import numpy as np
from numba import njit

from cardsim.jit import Rebound


@njit
def _weighted_sum(x, w, scale):
    total = 0.0
    for i in range(x.shape[0]):
        total += x[i] * w[i]
    return total * scale


def test_rebound_gives_the_kernels_results_whatever_the_arrays_types():
    call = Rebound(_weighted_sum, varying=(0,))
    w = np.arange(1.0, 5.0)
    x32 = np.array([1, 2, 3, 4], dtype=np.float32)
    x64 = np.array([0.5, 1.5, 2.5, 3.5])
    strided = np.arange(8, dtype=np.float64)[::2]           # not contiguous: another type
    for x in (x32, x64, strided, x32, strided):
        assert call(x, w, 2.0) == _weighted_sum(x, w, 2.0) == 2.0 * float(x @ w)
    if call._entries is not None:                           # compiled (not NUMBA_DISABLE_JIT)
        assert len(call._entries) == 3                      # one entry point per array type
