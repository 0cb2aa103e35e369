"""Running a compiled loop's blocks on several threads, shared dynamically.

A parallel loop here is a compiled *worker* (``@njit(nogil=True)``) that takes the next
block from a shared counter (``next_block``) and plays it, until none is left;
``run_workers(worker, *args)`` calls it on every thread the run uses at once (numba's thread
count, ``cardsim.runtime.threads``). Two reasons against numba's ``prange``:

- ``prange`` gives each thread an equal, fixed share of the iterations up front. When the
  cores run at uneven speed (other work on the machine, a busy neighbour on a shared host),
  the faster thread then sits idle at the end while the slower one finishes its share.
- numba compiles a ``prange`` loop through its parallel-loop passes, about ten seconds on
  the first run for each loop and each game and policy set it is compiled for; a worker
  compiles like any other function.

Results never depend on which worker plays a block: a block's items, their random streams
and its statistics row are fixed by its index.

Read the counter only through ``next_block``: a plain read of it was seen to return a stale
value (numba's loop analysis does not see the intrinsic's write).
"""

import os
from concurrent.futures import ThreadPoolExecutor

import numba
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


ROWS_PER_BLOCK = 64  # rows of a batch per block, where the caller gives no block count


def blocks_of_rows(n_rows: int) -> int:
    """The block count for a batch of ``n_rows`` rows (at least one block)."""
    return max(1, -(-n_rows // ROWS_PER_BLOCK))


@njit(cache=True, inline="always")
def row_block(b, n_rows, n_blocks):
    """Rows (or items) ``lo, hi`` (``range(lo, hi)``) of block ``b`` when ``n_rows`` are cut
    into ``n_blocks`` blocks of equal size (the last ones may be short or empty)."""
    per = (n_rows + n_blocks - 1) // n_blocks
    lo = b * per
    return lo, min(n_rows, lo + per)


_pool: ThreadPoolExecutor | None = None


def _forget_pool() -> None:
    """A forked child has none of its parent's threads: it starts a pool of its own (the
    parent's would queue work that no thread ever takes)."""
    global _pool
    _pool = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool)


def run_workers(worker, *args):
    """Call compiled ``worker(*args)`` on each of numba's threads at once (the calling
    thread is one of them) and wait for all; an error in any worker is raised here. The
    workers share their blocks through a counter among ``args`` (``next_block``), so the
    thread count decides only the speed, never the results. Without compilation
    (NUMBA_DISABLE_JIT) one worker takes every block: the plain Python counter is not
    atomic."""
    global _pool
    helpers = 0 if config.DISABLE_JIT else numba.get_num_threads() - 1
    if helpers <= 0:
        worker(*args)
        return
    if _pool is None:  # as many threads as numba may be set to use, less the caller's
        _pool = ThreadPoolExecutor(max_workers=numba.config.NUMBA_NUM_THREADS,
                                   thread_name_prefix="cardsim-worker")
    futures = [_pool.submit(worker, *args) for _ in range(helpers)]
    try:
        worker(*args)
    finally:
        for f in futures:
            f.result()
