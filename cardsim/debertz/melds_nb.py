"""Sequences (D6): finding the runs of a hand and ranking them.

A run is a maximal set of consecutive ranks of one suit in the natural order A K Q J 10 9 8 7,
which is the bit order of a Debertz suit byte. Its kind is terz (3), fifty (4-6) or debertz
(7-8; a fifty instead when ``debertz_trump_only`` and the suit is not trump).

A seat's highest sequence is summarised as a comparison key, larger = higher (D6.2):
``kind << 5 | top << 1 | trump_tiebreak`` plus 1, 0 when the seat has no sequence.
"""

import numpy as np
from numba import njit

from cardsim.jit import ix

KIND_NONE, KIND_TERZ, KIND_FIFTY, KIND_DEBERTZ = 0, 1, 2, 3
KIND_NAMES = (None, "terz", "fifty", "debertz")
KIND_POINTS = np.array([0, 20, 50, 0], dtype=np.int64)  # a debertz wins the game instead (D6.5)


@njit(cache=True)
def run_kind(length, suit, trump, debertz_trump_only):
    """Kind of a run of ``length`` cards in ``suit`` (D6 table, D6.5 convention)."""
    if length >= 7:
        if debertz_trump_only and suit != trump:
            return KIND_FIFTY
        return KIND_DEBERTZ
    if length >= 4:
        return KIND_FIFTY
    if length == 3:
        return KIND_TERZ
    return KIND_NONE


@njit(cache=True)
def list_runs(hand, out):
    """Write the runs of 3+ cards of ``hand`` into ``out[k] = (suit, top rank, length)``.

    Returns how many runs were written (at most 4 with 9 cards, so ``out`` has 4 rows).
    """
    n = 0
    for suit in range(4):
        b = (hand >> (suit * 8)) & 0xFF
        rank = 0
        while rank < 8:
            if b >> rank & 1:
                start = rank
                while rank < 8 and (b >> rank & 1):
                    rank += 1
                length = rank - start
                if length >= 3:
                    out[n, 0] = suit
                    out[n, 1] = rank - 1
                    out[n, 2] = length
                    n += 1
            else:
                rank += 1
    return n


def _suit_tables(plain_long_runs_are_fifties):
    """Per suit byte (256 entries): points of all its runs, and its highest run coded as
    ``(kind << 3 | top) + 1`` (0: none). Built from ``list_runs``/``run_kind`` themselves."""
    points = np.zeros(256, dtype=np.int64)
    best = np.zeros(256, dtype=np.int64)
    runs = np.zeros((4, 3), dtype=np.int64)
    list_runs_py = getattr(list_runs, "py_func", list_runs)  # plain Python: no compiling here
    run_kind_py = getattr(run_kind, "py_func", run_kind)
    for b in range(256):
        for k in range(list_runs_py(b, runs)):
            _, top, length = runs[k]
            # suit 1, trump 0: a plain suit, so debertz_trump_only decides 7-8 card runs
            kind = run_kind_py(length, 1, 0, plain_long_runs_are_fifties)
            points[b] += KIND_POINTS[kind]
            best[b] = max(best[b], (kind << 3 | top) + 1)
    return points, best


RUN_POINTS, RUN_BEST = _suit_tables(False)                    # 7-8 card runs are debertz
RUN_POINTS_NO_DEB, RUN_BEST_NO_DEB = _suit_tables(True)        # ... are fifties (D6.5)


def _suit_melds(points, best):
    """A suit byte's runs in one entry: ``key << 16 | points``, with ``key`` the comparison
    key of its highest run without the trump tie-break bit (0: none), so that a hand's melds
    cost one lookup a suit."""
    key = np.where(best != 0, (((best - 1) >> 3) << 5 | ((best - 1) & 7) << 1) + 1, 0)
    return key << 16 | points


# entry plain * 256 + byte, plain = 1 where 7-8 card runs are fifties (D6.5)
SUIT_MELDS = np.concatenate([_suit_melds(RUN_POINTS, RUN_BEST),
                             _suit_melds(RUN_POINTS_NO_DEB, RUN_BEST_NO_DEB)])


@njit(cache=True, inline="always")
def meld_summary(hand, trump, debertz_trump_only, trump_wins_tie):
    """(key of the highest sequence, points of all sequences, kind of the highest) of a hand.

    Written with selects: the hands are random, so branches on them would be mispredicted."""
    best = 0
    points = 0
    for suit in range(4):
        plain = debertz_trump_only & (suit != trump)  # D6.5: 7-8 card runs are fifties
        melds = SUIT_MELDS[ix(plain * 256 + ((hand >> (suit * 8)) & 0xFF))]
        key = melds >> 16
        points += melds & 0xFFFF
        tie = trump_wins_tie & (suit == trump) & (key != 0)  # the trump run wins a tie
        best = max(best, key + tie)
    return best, points, key_kind(best)


@njit(cache=True, inline="always")
def key_kind(key):
    """Kind of the sequence a comparison key stands for."""
    return (key - 1) >> 5 if key != 0 else KIND_NONE
