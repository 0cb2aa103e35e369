"""Card order and card points of D2 as arrays indexed by Debertz rank (7 8 9 T J Q K A = 0..7).

Byte tables take the 8 bits of one suit of a card mask, so a suit's points or its cards
stronger than a given one are one lookup inside the kernels.
"""

import numpy as np

#                           7  8  9  T   J  Q  K  A
TRUMP_STRENGTH = np.array([0, 1, 6, 4, 7, 2, 3, 5], dtype=np.int64)   # J 9 A 10 K Q 8 7
PLAIN_STRENGTH = np.array([0, 1, 2, 6, 3, 4, 5, 7], dtype=np.int64)   # A 10 K Q J 9 8 7
TRUMP_POINTS = np.array([0, 0, 14, 10, 20, 3, 4, 11], dtype=np.int64)
PLAIN_POINTS = np.array([0, 0, 0, 10, 2, 3, 4, 11], dtype=np.int64)
LAST_TRICK_BONUS = 10


def _byte_sum(values):
    return np.array([sum(int(values[r]) for r in range(8) if b >> r & 1) for b in range(256)],
                    dtype=np.int64)


TRUMP_POINTS_BYTE = _byte_sum(TRUMP_POINTS)   # points of a set of trump ranks
PLAIN_POINTS_BYTE = _byte_sum(PLAIN_POINTS)   # points of a set of plain ranks
# Ranks of the trump suit that beat rank r (as an 8-bit set); the same for a plain suit.
TRUMP_HIGHER = np.array([sum(1 << q for q in range(8) if TRUMP_STRENGTH[q] > TRUMP_STRENGTH[r])
                         for r in range(8)], dtype=np.int64)
PLAIN_HIGHER = np.array([sum(1 << q for q in range(8) if PLAIN_STRENGTH[q] > PLAIN_STRENGTH[r])
                         for r in range(8)], dtype=np.int64)

# A played card's strength and points by ``is_trump * 8 + rank``: plain ranks 0-7, trumps
# 16-23, so any trump beats any card of the led suit (D8). A card of neither suit is -1.
CARD_STRENGTH = np.concatenate([PLAIN_STRENGTH, 16 + TRUMP_STRENGTH])
CARD_POINTS = np.concatenate([PLAIN_POINTS, TRUMP_POINTS])
# Trump ranks (8-bit set) that beat a trick whose best card has strength b (-1 < b < 24):
# every trump while the best card is not a trump.
TRUMPS_BEATING = np.array([0xFF] * 16 + [int(TRUMP_HIGHER[list(TRUMP_STRENGTH).index(v)])
                                          for v in range(8)], dtype=np.int64)
