"""Dynamic block sharing (cardsim.parallel_nb): every block is handed out exactly once."""

import numpy as np
from numba import njit, prange

from cardsim.jit import ix
from cardsim.parallel_nb import fetch_add, next_block, worker_row
from cardsim.runtime import threads


@njit(parallel=True)
def _counts(n_blocks, n_workers):
    taken = np.zeros((n_workers, n_blocks), dtype=np.int64)
    counter = np.zeros(1, dtype=np.int64)
    for w in prange(n_workers):
        b = next_block(counter)
        while b < n_blocks:
            taken[w, b] += 1
            b = next_block(counter)
    return taken


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
            for n_blocks, n_workers in ((1, 1), (5, 2), (64, 2), (300, 7), (3, 9)):
                taken = _counts(n_blocks, n_workers)
                assert (taken.sum(axis=0) == 1).all(), (n_threads, n_blocks, n_workers)


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
