"""Dynamic sharing of a run's blocks between threads.

numba's ``prange`` gives each thread an equal, fixed share of the iterations up front. When
the cores run at uneven speed (other work on the machine, a busy neighbour on a shared host),
the faster thread then sits idle at the end while the slower one finishes its share. In the
simulation loops every ``prange`` iteration is instead a worker that takes the next block
from a shared counter until none is left (``next_block``): a thread's first iteration does
its work and its later ones find nothing left. Results never depend on which worker plays a
block: a block's items, their random streams and its statistics row are fixed by its index.

Read the counter only through ``next_block``: a plain read of it after the loop was seen to
return its starting value (numba's loop analysis does not see the intrinsic's write).
"""

import numpy as np
from numba import config, njit

if config.DISABLE_JIT:

    def fetch_add(counter, value):
        """Add ``value`` to ``counter[0]`` and return what it held before (atomically when
        compiled; plain Python runs the workers one after another)."""
        old = counter[0]
        counter[0] += value
        return old

else:
    from numba.core import cgutils, types
    from numba.extending import intrinsic

    @intrinsic
    def _fetch_add(typingctx, counter, value):
        if not (isinstance(counter, types.Array) and counter.dtype == types.int64
                and isinstance(value, types.Integer)):
            return None

        def codegen(context, builder, signature, args):
            array = context.make_array(counter)(context, builder, args[0])
            ptr = cgutils.get_item_pointer(context, builder, counter, array,
                                           [context.get_constant(types.intp, 0)])
            delta = context.cast(builder, args[1], value, types.int64)
            return builder.atomic_rmw("add", ptr, delta, "monotonic")

        return types.int64(counter, value), codegen

    @njit(cache=True, inline="always")
    def fetch_add(counter, value):
        """Add ``value`` to ``counter[0]`` and return what it held before, atomically."""
        return _fetch_add(counter, value)


@njit(cache=True, inline="always")
def next_block(counter):
    """The index of the next block nobody has taken yet (from 0 up; check against the block
    count). ``counter`` is an int64 array whose element 0 starts at 0."""
    return fetch_add(counter, 1)



@njit(cache=True)
def worker_row(width):
    """A zeroed int64 row of ``width`` for one worker (its state row, its statistics row),
    with a cache line of padding on each side, so two threads never write one cache line."""
    return np.zeros(width + 16, dtype=np.int64)[8:8 + width]
