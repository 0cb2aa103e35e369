"""What the open-hand solvers' max-n searches share (``cardsim/<game>/solve_nb.py``).

Max-n (Luckhardt and Irani) values a position by the scores every side takes when each side
to act plays the card best for its own score. It suits the tables where every player plays
for himself (Barbu, Debertz with three players or four each for himself) better than the
paranoid model, where the others are taken for one team against the seat.

No alpha-beta window prunes max-n, so its searches keep every side's score: a row of
``scores`` per depth (one card played per depth) and a frame per depth in ``frames``. The
searches are iterative over these frames: numba's disk cache cannot load a second recursive
search reached from a solver's entry point. A transposition-table entry (``cardsim.
transposition_nb``) holds the four scores packed in its lower-bound column.
"""

from numba import njit

from cardsim.transposition_nb import INF, TT_GEN, TT_KEY, TT_LOWER, TT_MOVE, TT_UPPER

# a max-n node's frame
F_MOVES = 0      # cards still to try
F_SEAT = 1       # the seat to act
F_BEST = 2       # the best score for its side so far
F_BEST_MOVE = 3
F_CEILING = 4    # the most its side could get: trying more cards cannot beat this
F_CARD = 5       # the card being tried, and what undoing it needs:
F_WINNER = 6     # the side that took the trick it completed (-1 if none)
F_POINTS = 7     # and that trick's points
F_SAVED = 8      # [5] what the game's apply_card saved
F_KEY = 13       # transposition key at a trick boundary
F_SLOT = 14      # its slot, -1 within a trick
FRAME_WIDTH = 15
MAX_DEPTH = 56   # cards after the root card: at most 51 (Barbu)

VALUE_BITS = 15
VALUE_OFFSET = 1 << 14   # scores packed four to a table entry, each in [-2**14, 2**14)


@njit(cache=True, inline="always")
def pack_scores(scores, d):
    """The four scores ``scores[d]`` as one int64."""
    packed = 0
    for j in range(4):
        packed |= (scores[d, j] + VALUE_OFFSET) << (VALUE_BITS * j)
    return packed


@njit(cache=True, inline="always")
def unpack_scores(packed, scores, d):
    for j in range(4):
        scores[d, j] = ((packed >> (VALUE_BITS * j)) & ((1 << VALUE_BITS) - 1)) - VALUE_OFFSET


@njit(cache=True, inline="always")
def store_scores(tt, frames, scores, d, gen):
    """Keep a finished node's scores in the table, when it is a trick boundary (its frame
    has a slot)."""
    slot = frames[d, F_SLOT]
    if slot >= 0:
        tt[slot, TT_KEY] = frames[d, F_KEY]
        tt[slot, TT_GEN] = gen
        tt[slot, TT_LOWER] = pack_scores(scores, d)
        tt[slot, TT_UPPER] = INF  # no bounds: max-n entries hold the scores themselves
        tt[slot, TT_MOVE] = frames[d, F_BEST_MOVE]
