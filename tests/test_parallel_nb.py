"""Running a loop's blocks on threads (cardsim.parallel_nb): every block is handed out
exactly once, whatever the thread count, and a worker's error reaches the caller."""

import os
import threading

import numpy as np
import pytest
from numba import njit

from cardsim.jit import ix
from cardsim.parallel_nb import (blocks_of_rows, fetch_add, next_block, row_block, run_workers,
                                 worker_row)
from cardsim.runtime import threads


@njit(nogil=True)
def _take(taken, counter, n_blocks):
    """Worker: marks each block it takes in its own row of ``taken`` (row = first block it
    took, so two workers never share a row)."""
    first = next_block(counter)
    b = first
    while b < n_blocks:
        taken[min(first, taken.shape[0] - 1), b] += 1
        b = next_block(counter)


@njit
def _fetch(counter):
    return fetch_add(counter, 5), fetch_add(counter, 1)


def test_fetch_add_returns_the_old_value():
    counter = np.array([7], dtype=np.int64)
    assert _fetch(counter) == (7, 12)
    assert counter[0] == 13


def test_each_block_is_taken_exactly_once_by_some_worker():
    for n_threads in (1, 2):
        with threads(n_threads):
            for n_blocks in (1, 5, 64, 300):
                taken = np.zeros((n_blocks + 1, n_blocks), dtype=np.int64)
                run_workers(_take, taken, np.zeros(1, dtype=np.int64), n_blocks)
                assert (taken.sum(axis=0) == 1).all(), (n_threads, n_blocks)


def test_the_workers_run_on_as_many_threads_as_asked():
    seen = set()

    def worker(barrier):
        seen.add(threading.get_ident())
        barrier.wait(timeout=30)  # both workers must be running at once to pass

    with threads(2):
        run_workers(worker, threading.Barrier(2))
    assert len(seen) == 2


def test_an_error_in_a_worker_reaches_the_caller():
    def worker(calls):
        with lock:
            calls.append(threading.get_ident())
            n = len(calls)
        if n == 2:
            raise ValueError("worker failed")

    lock = threading.Lock()
    with threads(2), pytest.raises(ValueError, match="worker failed"):
        run_workers(worker, [])


def test_row_blocks_cover_every_row_once():
    for n_rows in (0, 1, 63, 64, 65, 1000):
        n_blocks = blocks_of_rows(n_rows)
        rows = [i for b in range(n_blocks) for i in range(*row_block(b, n_rows, n_blocks))]
        assert rows == list(range(n_rows)) and n_blocks >= 1


def test_ix_indexes_like_a_plain_int():
    @njit
    def read(a, i):
        return a[ix(i + 1)]

    a = np.arange(10, dtype=np.int64)
    assert read(a, 3) == 4


def test_worker_rows_are_zeroed_and_separate():
    a, b = worker_row(21), worker_row(21)
    assert a.shape == (21,) and a.dtype == np.int64 and not a.any()
    a[:] = 7
    assert not b.any()


FORK_SCRIPT = """
import os, sys
import numpy as np
sys.path.insert(0, {tests!r})
from test_parallel_nb import _take
from cardsim.parallel_nb import run_workers
from cardsim.runtime import threads

def run():
    taken = np.zeros((33, 32), dtype=np.int64)
    run_workers(_take, taken, np.zeros(1, dtype=np.int64), 32)
    assert (taken.sum(axis=0) == 1).all()

with threads(2):
    run()  # the parent's pool exists now
    pid = os.fork()
    if pid == 0:
        run()  # the child's own pool: with the parent's, this would wait forever
        os._exit(0)
    _, status = os.waitpid(pid, 0)
print("child", os.waitstatus_to_exitcode(status))
"""


def test_a_forked_child_runs_workers_of_its_own():
    import subprocess
    import sys
    from pathlib import Path

    if not hasattr(os, "fork"):
        pytest.skip("no fork on this platform")
    script = FORK_SCRIPT.format(tests=str(Path(__file__).parent))
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 0, res.stderr[-2000:]
    assert res.stdout.strip().endswith("child 0")
