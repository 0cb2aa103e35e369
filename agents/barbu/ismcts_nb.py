"""Barbu's pieces of the ``ismcts`` agent's search (written once for both games in
``agents/ismcts_nb.py``): a node is credited to the seat that acted there, with its deal
score (B7) in units of 50 points for the UCB constant.

The declarer's contract choice is the one decision whose value lies beyond the deal (the
contract is spent, B2): it is taken as the pimc agent takes it (``agents/barbu/pimc_nb.py``: each contract's
rollout score on sampled deals less its score on average hands), with the iterations shared
out among the options.
"""

import numpy as np
from numba import njit

from agents.ismcts_nb import P_ITERATIONS, P_MS, ismcts_action
from agents.pimc_nb import choose_by_rollouts
from cardsim.barbu import layout as L
from cardsim.barbu.face_nb import GAME
from cardsim.bits_nb import popcount
from cardsim.jit import ix

SCORE_UNIT = 50.0
MAX_DEPTH = 2 + 24 + L.PLAYS_WIDTH  # contract, trump or rank, doubling answers, plays


@njit(cache=True, inline="always")
def deal_results(st, R, results):
    """Each seat's deal score (B7) of the finished deal ``st``, in units of ``SCORE_UNIT`` points,
    into ``results``."""
    for s in range(4):
        results[s] = st[ix(L.DEAL_SCORES + s)] / SCORE_UNIT


@njit(cache=True, inline="always")
def owner(st, R):
    """A decision is credited to the seat that takes it."""
    return st[L.TURN]


@njit(cache=True, inline="always")
def max_depth(R):
    """The most decisions from any point to a deal's end (``MAX_DEPTH``): the length of a search
    path."""
    return MAX_DEPTH


@njit(cache=True, inline="always")
def special_action(st, R, base, bits, params, rng, i):
    """The contract choice by simulation, as pimc (see the module doc string); -1 for every
    other decision."""
    if st[L.PHASE] != L.PH_CONTRACT:
        return -1
    rollout_params = np.zeros(8, dtype=np.float64)
    rollout_params[0] = max(1, int(params[P_ITERATIONS]) // (2 * popcount(bits)))
    rollout_params[2] = params[P_MS]
    return base + choose_by_rollouts(GAME, st, R, base, bits, rollout_params, rng, i)


@njit(cache=True, inline="always")
def policy_action(game, params, st, R, base, bits, rng, i):
    """The ismcts agent's decision at the table (the ``CompiledPolicy`` signature of
    cardsim.policy_nb)."""
    return ismcts_action(GAME, st, R, base, bits, params, rng, i)
