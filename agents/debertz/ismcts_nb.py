"""Debertz's pieces of the ``ismcts`` agent's search (written once for both games in
``agents/ismcts_nb.py``): a node is credited to the side that acted there, with each side's
recorded points of the deal less the other sides' mean (D9), in hundreds of points for the
UCB constant. Every Debertz decision is searched by the tree (none lies beyond the deal)."""

from numba import njit

from agents.debertz.pimc_nb import side_result
from agents.ismcts_nb import ismcts_action
from cardsim.debertz import layout as L
from cardsim.debertz.engine_nb import side_of
from cardsim.debertz.face_nb import GAME


@njit(cache=True)
def deal_result(st, R, side):
    """``side``'s recorded points less the other sides' mean, in hundreds of points (D9;
    pimc's ``side_result``)."""
    return side_result(st, R, side) / 100.0


@njit(cache=True, inline="always")
def deal_results(st, R, results):
    """Each side's result of the finished deal ``st`` (``deal_result``: recorded points less the
    other sides' mean, in hundreds) into ``results``."""
    for s in range(R[L.R_SIDES]):
        results[s] = deal_result(st, R, s)


@njit(cache=True, inline="always")
def owner(st, R):
    """A decision is credited to the side of the seat that takes it."""
    return side_of(st[L.TURN], R[L.R_TEAMS])


@njit(cache=True, inline="always")
def policy_action(game, params, st, R, base, bits, rng, i):
    """The ismcts agent's decision at the table (the ``CompiledPolicy`` signature of
    cardsim.policy_nb)."""
    return ismcts_action(GAME, st, R, base, bits, params, rng, i)
