"""Seeded chance for the kernels (docs/architecture.md, the engine: chance is explicit and seeded).

Generators are SplitMix64 streams held in a ``uint64`` state. Every stream is derived from a
(seed, key...) tuple by hashing, never from a running global generator, so the deal that game
``g`` gets at deal ``d`` is the same whatever the batch size, thread count or agents.
"""

import numpy as np
from numba import njit

from cardsim.bits_nb import nth_bit, popcount

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
S30 = np.uint64(30)
S27 = np.uint64(27)
S31 = np.uint64(31)
S32 = np.uint64(32)
LOW32 = np.uint64(0xFFFFFFFF)


@njit(cache=True, inline="always")
def mix64(z):
    """The SplitMix64 finaliser: a bijective hash of a uint64."""
    z = (z ^ (z >> S30)) * MIX1
    z = (z ^ (z >> S27)) * MIX2
    return z ^ (z >> S31)


@njit(cache=True)
def stream(seed, key1, key2):
    """Initial state of the stream for (seed, key1, key2); all non-negative ints."""
    z = mix64(np.uint64(seed) + GOLDEN)
    z = mix64(z ^ (np.uint64(key1) * GOLDEN + np.uint64(0x632BE59BD9B4E019)))
    return mix64(z ^ (np.uint64(key2) * MIX1 + np.uint64(0x8CB92BA72F3D8DD7)))


@njit(cache=True, inline="always")
def next_u64(state_arr, i):
    """Advance generator ``state_arr[i]`` (uint64 array) and return 64 random bits."""
    s = state_arr[i] + GOLDEN
    state_arr[i] = s
    return mix64(s)


@njit(cache=True, inline="always")
def below(state_arr, i, n):
    """A uniform integer in [0, n) for 1 <= n < 2**32 (multiply-shift, bias below 2**-32 * n)."""
    return scale_below(next_u64(state_arr, i), n)


@njit(cache=True, inline="always")
def below_scalar(state, n):
    """Scalar form of ``below`` for a generator held in a local: returns (new state, value)."""
    state = state + GOLDEN
    return state, scale_below(mix64(state), n)


@njit(cache=True, inline="always")
def peek_scalar(state):
    """The 64 bits the next draw from ``state`` returns, without advancing it."""
    return mix64(state + GOLDEN)


@njit(cache=True, inline="always")
def scale_below(bits, n):
    """A draw's 64 random ``bits`` as an integer in [0, n) (multiply-shift on the high half)."""
    return np.int64(((bits >> S32) * np.uint64(n)) >> S32)


@njit(cache=True)
def shuffle_cards(state, cards):
    """Fisher-Yates shuffle of the int array ``cards`` in place from generator state ``state``;
    returns the advanced state. Each 64-bit draw serves two swaps (32 bits each: the bias
    of a multiply-shift draw below 53 is under 2**-26)."""
    k = cards.shape[0] - 1
    while k > 0:
        state = state + GOLDEN
        r = mix64(state)
        j = np.int64(((r >> S32) * np.uint64(k + 1)) >> S32)
        t = cards[k]
        cards[k] = cards[j]
        cards[j] = t
        k -= 1
        if k > 0:
            j = np.int64(((r & LOW32) * np.uint64(k + 1)) >> S32)
            t = cards[k]
            cards[k] = cards[j]
            cards[j] = t
            k -= 1
    return state


@njit(cache=True, inline="always")
def random_bit(mask, rng, i):
    """A uniformly random set bit of ``mask`` (> 0) from generator ``rng[i]``: the random
    policy's choice among legal actions."""
    rng[i], k = random_bit_scalar(mask, rng[i])
    return k


@njit(cache=True, inline="always")
def random_bit_scalar(mask, state):
    """``random_bit`` for a generator held in a local: returns (new state, bit index). The
    same state gives the same choice as ``random_bit``."""
    state, k = below_scalar(state, popcount(mask))
    return state, nth_bit(mask, k)
