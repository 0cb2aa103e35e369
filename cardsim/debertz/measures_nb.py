"""Compiled pieces of the Debertz study measures (``cardsim.debertz.measures``)."""

from numba import njit

from cardsim import rng_nb
from cardsim.debertz.engine_nb import GAME_STREAM_KEY


@njit(cache=True)
def drawn_first_dealers(seeds, games, players, out):
    """``out[i]``: the first dealer drawn for game ``games[i]`` of a run with ``seeds[i]``,
    the draw ``engine_nb.init_game`` makes (D1)."""
    for i in range(seeds.shape[0]):
        out[i] = rng_nb.below_scalar(rng_nb.stream(seeds[i], games[i], GAME_STREAM_KEY),
                                     players)[1]
