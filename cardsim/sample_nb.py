"""The hidden-card samplers' entry points, written once for both games over the game tag
(``cardsim.game_nb``); each game's sampler (``cardsim/<game>/sample_nb.py``) supplies what a
seat knows and how a deal is drawn from it.

A search agent at seat ``me`` replaces the hidden part of a state row with a **sampled
deal**, uniform among the deals consistent with everything the seat knows:
``sample_prepare`` gathers that knowledge once per decision (``kn``) with its completion
counts (``ways``, cardsim.deal_split_nb), ``sample_deal`` draws one deal into a whole state
row, ``sample_rows`` many for a batch of positions.

The game's pieces: ``KNOWLEDGE_WIDTH`` and ``SCRATCH`` (the sizes of ``kn`` and of the
drawing scratch buffer, as ``knowledge_width()`` and ``scratch_size()``), ``knowledge(st,
R, me, kn)``, ``draw_deal(st, R, kn, ways, rng, i, held, buf)`` (the hidden hands per holder;
the number of draws it took, -1 when no deal agrees: an inconsistent position) and
``write_drawn(st, R, kn, held, tries, rng, i, out)`` (the drawn deal as a state row).
"""

import numpy as np
from numba import njit

from cardsim.deal_split_nb import count_completions, new_ways
from cardsim.game_nb import game_piece
from cardsim.jit import WITH_REFCOUNT
from cardsim.parallel_nb import next_block, run_workers

PIECES = "cardsim.{game}.sample_nb"
knowledge_width = game_piece(PIECES, "knowledge_width", "", "Length of a knowledge row.")
scratch_size = game_piece(PIECES, "scratch_size", "", "Length of draw_deal's scratch.")
knowledge = game_piece(PIECES, "knowledge", "st, R, me, kn",
                       "What seat ``me`` knows in ``st``, into ``kn``.")
draw_deal = game_piece(PIECES, "draw_deal", "st, R, kn, ways, rng, i, held, buf",
                       "Draw the hidden hands into ``held``; the draws it took, or -1.")
write_drawn = game_piece(PIECES, "write_drawn", "st, R, kn, held, tries, rng, i, out",
                         "Write the drawn deal as state row ``out``.")


@njit(cache=True, **WITH_REFCOUNT)
def sample_prepare(game, st, R, me):
    """What seat ``me`` knows in ``st`` and its completion counts: ``(kn, ways)``, ready for
    ``sample_deal``."""
    kn = np.zeros(knowledge_width(game), dtype=np.int64)
    ways = new_ways()
    knowledge(game, st, R, me, kn)
    count_completions(kn, ways)
    return kn, ways


@njit(cache=True, **WITH_REFCOUNT)
def sample_deal(game, st, R, kn, ways, rng, i, out):
    """One deal consistent with ``kn`` (from ``sample_prepare``), drawn from generator
    ``rng[i]`` and written as a whole state row ``out``. Returns the number of draws it
    took, or -1 (``out`` unwritten) when no deal agrees: an inconsistent position."""
    held = np.zeros(4, dtype=np.int64)
    buf = np.empty(scratch_size(game), dtype=np.int64)
    tries = draw_deal(game, st, R, kn, ways, rng, i, held, buf)
    write_drawn(game, st, R, kn, held, tries, rng, i, out)
    return tries


@njit(cache=True, nogil=True)
def sample_rows_worker(game, states, R, seats, count, rng, out, tries, counter):
    """A worker of ``sample_rows`` (cardsim.parallel_nb): takes rows from ``counter`` until none is
    left, drawing ``count`` deals for each."""
    g = next_block(counter)
    while g < states.shape[0]:
        kn, ways = sample_prepare(game, states[g], R, seats[g])
        for k in range(count):
            t = sample_deal(game, states[g], R, kn, ways, rng, g, out[g, k])
            if t < 0:
                tries[g] = -1
                break
            tries[g] += t
        g = next_block(counter)


def sample_rows(game, states, R, seats, count, rng, out):
    """Batched sampling: for each row ``g`` of ``states``, ``count`` deals for seat
    ``seats[g]`` into ``out[g, k]`` (shape (N, count, state width)), from generator
    ``rng[g]``; the rows shared among numba's threads (cardsim.parallel_nb). Returns the
    number of draws per row (-1 for an inconsistent position)."""
    tries = np.zeros(states.shape[0], dtype=np.int64)
    run_workers(sample_rows_worker, game, states, R, seats, count, rng, out, tries,
                np.zeros(1, dtype=np.int64))
    return tries