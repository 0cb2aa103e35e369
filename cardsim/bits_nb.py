"""Bit tricks on card and action masks, as numba kernels.

Masks are non-negative ``int64`` values below 2**63 (52 cards, or up to 63 action ids), so the
same code gives the same answers compiled and under ``NUMBA_DISABLE_JIT=1``.
"""

from numba import njit

M1 = 0x5555555555555555
M2 = 0x3333333333333333
M4 = 0x0F0F0F0F0F0F0F0F


@njit(cache=True, inline="always")
def popcount(x):
    """Number of set bits of a non-negative int64."""
    x = x - ((x >> 1) & M1)
    x = (x & M2) + ((x >> 2) & M2)
    x = (x + (x >> 4)) & M4
    x = x + (x >> 8)
    x = x + (x >> 16)
    x = x + (x >> 32)
    return x & 0x7F


@njit(cache=True, inline="always")
def lowest_bit(x):
    """Index of the lowest set bit of x (x > 0)."""
    return popcount((x & -x) - 1)


@njit(cache=True, inline="always")
def highest_bit(x):
    """Index of the highest set bit of x (x > 0)."""
    r = 0
    while x > 1:
        x >>= 1
        r += 1
    return r


@njit(cache=True, inline="always")
def nth_bit(x, k):
    """Index of the k-th (from 0, counted from the lowest) set bit of x; x has > k bits."""
    for _ in range(k):
        x &= x - 1
    return lowest_bit(x)
