"""The random policy: a uniformly random legal action (both games)."""

from numba import njit

from cardsim import rng_nb
from cardsim.bits_nb import nth_bit, popcount


@njit(cache=True, inline="always")
def random_action(mask, rng, i):
    """A uniformly random set bit of ``mask`` from generator ``rng[i]``."""
    return nth_bit(mask, rng_nb.below(rng, i, popcount(mask)))
