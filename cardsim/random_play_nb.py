"""The engine's random-play fast path, written once for both games (``cardsim.game_nb``):
``cardsim simulate`` and ``cardsim bench`` with random play in every seat.

Item ``i`` of a run is fixed by (seed, i): its cards by the engine's seeded deals, its
decisions by ``policy_stream(seed, i)``. Each game's ``play_random_deal(st, R, state)`` takes
the decisions of a deal from a generator held in a local (no memory traffic per decision),
and draws exactly as the random policy at the table does, so a table of random agents gives
the same statistics. Results are the same for any block and thread count (integer sums).
"""

import numpy as np
from numba import njit

from cardsim.game_nb import (
    count_decisions,
    init_item,
    item_over,
    next_deal,
    play_random_deal,
    policy_stream,
    record_deal,
    state_width,
)
from cardsim.jit import NO_REFCOUNT
from cardsim.parallel_nb import next_block, row_block, run_workers, worker_row


# NO_REFCOUNT compiles the block loop without numba's reference counting: it allocates
# nothing, and otherwise every inlined engine call pays atomic reference-count updates on the
# state row and the shared rules array (which also makes threads fight over one cache line).
@njit(cache=True, **NO_REFCOUNT)
def play_block(game, st, R, row, seed, first_game, lo, hi, whole):
    """Items first_game + lo .. first_game + hi - 1, statistics added to ``row``."""
    for k in range(lo, hi):
        item = first_game + k
        state = policy_stream(game, seed, item, whole)
        init_item(game, st, R, seed, item, whole)
        while True:
            state, taken = play_random_deal(game, st, R, state)
            count_decisions(game, row, taken)
            record_deal(game, st, R, row, whole)
            if item_over(game, st, whole):
                break
            next_deal(game, st, R)


@njit(cache=True, nogil=True)
def simulate_worker(game, R, seed, first_game, n_items, whole, stats, counter):
    """A worker of ``simulate_random`` (cardsim.parallel_nb): blocks from ``counter`` until
    none is left, block b's statistics into ``stats[b]``."""
    n_blocks, n_stats = stats.shape
    st = worker_row(state_width(game))
    row = worker_row(n_stats)
    local_rules = R.copy()  # each worker reads its own rules copy
    b = next_block(counter)
    while b < n_blocks:
        row[:] = 0
        lo, hi = row_block(b, n_items, n_blocks)
        play_block(game, st, local_rules, row, seed, first_game, lo, hi, whole)
        for j in range(n_stats):
            stats[b, j] = row[j]
        b = next_block(counter)


def simulate_random(game, R, seed, first_game, n_items, whole, n_stats, n_blocks):
    """Play items ``first_game .. first_game + n_items - 1`` (deals, or whole games) with
    random decisions, in ``n_blocks`` blocks on numba's threads. Returns the game's
    statistics (``n_stats`` columns) summed over blocks."""
    stats = np.zeros((n_blocks, n_stats), dtype=np.int64)
    run_workers(simulate_worker, game, R, seed, first_game, n_items, whole, stats,
                np.zeros(1, dtype=np.int64))
    return stats.sum(axis=0)
