"""Uniform deals of hidden cards under "holder h cannot hold card c" constraints: the
game-independent core of the hidden-card samplers (``cardsim/<game>/sample_nb.py``).

A game's sampler describes what one seat knows in a **knowledge row** (an int64 vector): the
holders of hidden cards (the other seats, and a dead stock where the game has one), how many
hidden cards each still takes, the cards each is known to hold or known not to hold, and the
pool of hidden cards. The fields below are the shared part of that row; a game appends its
own fields from ``CORE_WIDTH`` on.

**Exact, not approximate.** The pool's cards fall into classes by the set of holders allowed
to hold them. A small dynamic programme counts, per class and per capacities left, the deals
that complete a partial assignment (``count_completions``); a draw then walks the classes and
splits each among its holders with probability proportional to the number of completions
(``draw_hidden``), so every deal meeting the constraints is equally likely. At most three
holders may carry constraints (the programme counts two slots, the third takes the rest).
A row flagged ``KN_UNCONSTRAINED`` (no constraint at all) is simply shuffled and cut.

Cards are bits of an int64 mask (below bit 63): 32 Debertz cards or 52 Barbu cards.
"""

import numpy as np
from numba import njit

from cardsim.bits_nb import lowest_bit, popcount
from cardsim.jit import WITH_REFCOUNT
from cardsim.rng_nb import below, next_u64

KN_SEAT = 0            # the seat that samples
KN_HOLDERS = 1         # number of holders of hidden cards
KN_HOLDER = 2          # [4] seat of holder h, or -1 for a dead stock
KN_CAP = 6             # [4] hidden cards holder h gets from the pool
KN_KNOWN = 10          # [4] cards holder h is known to hold
KN_FORBID = 14         # [4] cards holder h is known not to hold
KN_POOL = 18           # the hidden cards to share out
KN_UNCONSTRAINED = 19  # 1: no card-by-card constraint, the pool is shuffled and cut
KN_CLASSES = 20        # number of classes of hidden cards
KN_CLASS_HOLDERS = 21  # [8] per class: allowed slots (bit per slot 0-2)
KN_CLASS_CARDS = 29    # [8] per class: its cards
KN_SLOT = 37           # [3] holder index of each slot of the counting programme, -1 unused
CORE_WIDTH = 40

MAX_CAP = 53           # capacities are below this (rows of the counting table)
MAX_CARDS = 64         # scratch size of a shuffled pool

FACTORIAL = np.array([float(np.prod(np.arange(1, k + 1, dtype=np.float64)))
                      for k in range(MAX_CARDS + 1)])


@njit(cache=True, inline="always")
def holder_of(kn, seat):
    """Index of the holder that is ``seat``."""
    for k in range(kn[KN_HOLDERS]):
        if kn[KN_HOLDER + k] == seat:
            return k
    return -1


@njit(cache=True)
def prepare_classes(kn):
    """Group the pool by the holders allowed to hold each card, and fix the slots of the
    counting programme (at most three holders: the positions with card constraints)."""
    h = kn[KN_HOLDERS]
    for s in range(3):
        kn[KN_SLOT + s] = -1
    for j in range(8):
        kn[KN_CLASS_HOLDERS + j] = 0
        kn[KN_CLASS_CARDS + j] = 0
    if kn[KN_UNCONSTRAINED]:  # every holder may hold every hidden card
        kn[KN_CLASSES] = 1
        kn[KN_CLASS_CARDS] = kn[KN_POOL]
        kn[KN_CLASS_HOLDERS] = 15
        return
    # slots 0, 1 are counted; slot 2 takes what is left
    if h == 1:
        kn[KN_SLOT + 2] = 0
    elif h == 2:
        kn[KN_SLOT + 0] = 0
        kn[KN_SLOT + 2] = 1
    else:
        kn[KN_SLOT + 0] = 0
        kn[KN_SLOT + 1] = 1
        kn[KN_SLOT + 2] = 2
    m = 0
    pool = kn[KN_POOL]
    while pool != 0:
        c = lowest_bit(pool)
        pool &= pool - 1
        allowed = 0
        for s in range(3):
            k = kn[KN_SLOT + s]
            if k >= 0 and not (kn[KN_FORBID + k] >> c) & 1:
                allowed |= 1 << s
        j = 0
        while j < m and kn[KN_CLASS_HOLDERS + j] != allowed:
            j += 1
        if j == m:
            kn[KN_CLASS_HOLDERS + j] = allowed
            m += 1
        kn[KN_CLASS_CARDS + j] |= 1 << c
    kn[KN_CLASSES] = m


@njit(cache=True, **WITH_REFCOUNT)
def new_ways():
    """The counting table ``count_completions`` fills."""
    return np.zeros((9, MAX_CAP, MAX_CAP), dtype=np.float64)


@njit(cache=True, inline="always")
def split_most(cap, size, allowed):
    """The most cards of a class of ``size`` a slot that still takes ``cap`` cards can get: 0
    where the class is not ``allowed`` to it."""
    return min(cap, size) if allowed else 0


@njit(cache=True, inline="always")
def split_ways(ways, j, m, a, b, size, allowed, x0, x1):
    """The deals of classes j.. (of ``m``) in which class j (``size`` cards, slot bits
    ``allowed``) gives ``x0`` cards to slot 0, ``x1`` to slot 1 and the rest to slot 2, when
    slots 0 and 1 still take ``a`` and ``b`` cards: the ways to split the class times the
    completions of the classes after it (``ways[j + 1]``, filled by ``count_completions``)."""
    x2 = size - x0 - x1
    if x2 > 0 and not allowed & 4:
        return 0.0
    if j == m - 1:
        rest = 1.0 if (a == x0 and b == x1) else 0.0
    else:
        rest = ways[j + 1, a - x0, b - x1]
    if rest > 0.0:
        return rest * FACTORIAL[size] / (FACTORIAL[x0] * FACTORIAL[x1] * FACTORIAL[x2])
    return 0.0


@njit(cache=True, **WITH_REFCOUNT)
def count_completions(kn, ways):
    """``ways[j, a, b]``: the number of ways to share classes j.. among the slots when slot 0
    still takes ``a`` cards and slot 1 ``b`` (slot 2 takes the rest). Returns the total."""
    m = kn[KN_CLASSES]
    caps = np.zeros(3, dtype=np.int64)
    for s in range(3):
        k = kn[KN_SLOT + s]
        caps[s] = kn[KN_CAP + k] if k >= 0 else 0
    if m == 0 or kn[KN_UNCONSTRAINED]:
        return 1.0
    left = 0
    for j in range(m - 1, -1, -1):
        size = popcount(kn[KN_CLASS_CARDS + j])
        allowed = kn[KN_CLASS_HOLDERS + j]
        for a in range(caps[0] + 1):
            for b in range(caps[1] + 1):
                c = left + size - a - b  # what slot 2 still takes
                total = 0.0
                if 0 <= c <= caps[2]:
                    for x0 in range(split_most(a, size, allowed & 1) + 1):
                        for x1 in range(split_most(b, size - x0, allowed & 2) + 1):
                            total += split_ways(ways, j, m, a, b, size, allowed, x0, x1)
                ways[j, a, b] = total
        left += size
    return ways[0, caps[0], caps[1]]


@njit(cache=True)
def draw_hidden(kn, ways, rng, i, out, buf):
    """Share the pool among the holders (``out[h]``, known cards included): one uniform
    draw among the deals meeting the card-by-card constraints. ``buf``: MAX_CARDS ints of
    scratch."""
    h = kn[KN_HOLDERS]
    for k in range(h):
        out[k] = kn[KN_KNOWN + k]
    if kn[KN_UNCONSTRAINED]:
        shuffle_mask(kn[KN_POOL], buf, rng, i)
        pos = 0
        for k in range(h):
            for _ in range(kn[KN_CAP + k]):
                out[k] |= 1 << buf[pos]
                pos += 1
        return
    a = kn[KN_CAP + kn[KN_SLOT]] if kn[KN_SLOT] >= 0 else 0
    b = kn[KN_CAP + kn[KN_SLOT + 1]] if kn[KN_SLOT + 1] >= 0 else 0
    m = kn[KN_CLASSES]
    for j in range(m):
        size = popcount(kn[KN_CLASS_CARDS + j])
        allowed = kn[KN_CLASS_HOLDERS + j]
        # the split (x0, x1, x2) of this class, with probability proportional to completions
        target = (next_u64(rng, i) >> np.uint64(11)) * (1.0 / 9007199254740992.0) * ways[j, a, b]
        x0 = 0
        x1 = 0
        chosen = False
        for y0 in range(split_most(a, size, allowed & 1) + 1):
            for y1 in range(split_most(b, size - y0, allowed & 2) + 1):
                w = split_ways(ways, j, m, a, b, size, allowed, y0, y1)
                if w > 0.0:
                    x0 = y0
                    x1 = y1
                    target -= w
                    if target < 0.0:
                        chosen = True
                        break
            if chosen:
                break
        n = shuffle_mask(kn[KN_CLASS_CARDS + j], buf, rng, i)
        for q in range(n):
            slot = 0 if q < x0 else (1 if q < x0 + x1 else 2)
            out[kn[KN_SLOT + slot]] |= 1 << buf[q]
        a -= x0
        b -= x1


@njit(cache=True, inline="always")
def shuffle_mask(mask, buf, rng, i):
    """The cards of ``mask`` into ``buf`` in uniformly random order; returns their number."""
    n = 0
    while mask != 0:
        buf[n] = lowest_bit(mask)
        mask &= mask - 1
        n += 1
    for k in range(n - 1, 0, -1):
        j = below(rng, i, k + 1)
        t = buf[k]
        buf[k] = buf[j]
        buf[j] = t
    return n
