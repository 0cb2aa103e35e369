"""The listed rows of a batch shared among workers (``cardsim.parallel_nb``) for the searches
that decide or label them one row at a time (agents/belief_pimc_nb.py,
experiments/train/labels_nb.py): a block per row, 256 blocks at most. A search's rows differ
much in cost (a solve late in a deal against a budgeted one early), so small blocks keep
every thread busy to the end.
"""

from numba import njit

from cardsim.parallel_nb import next_block, row_block

MAX_BLOCKS = 256


@njit(cache=True, inline="always")
def listed_blocks(n_rows):
    """The blocks ``n_rows`` listed rows are cut into: a row each, ``MAX_BLOCKS`` at most (at
    least one)."""
    return max(1, min(n_rows, MAX_BLOCKS))


@njit(cache=True, inline="always")
def next_listed(counter, n_rows):
    """The listed rows ``lo, hi`` (``range(lo, hi)``, maybe empty) of the next block nobody
    has taken yet from the shared ``counter``; ``lo`` -1 once every block is taken."""
    n_blocks = listed_blocks(n_rows)
    b = next_block(counter)
    if b >= n_blocks:
        return -1, -1
    return row_block(b, n_rows, n_blocks)
