"""Barbu's pieces of the ``ismcts`` agent's search (written once for both games in
``agents/ismcts_nb.py``): a node is credited to the seat that acted there, with its deal
score (B7) in units of 50 points for the UCB constant.

The declarer's contract choice is the one decision whose value lies beyond the deal (the
contract is spent, B2): the search takes it as the pimc agent does (``agents/ismcts_nb.py``;
each contract's rollout score on sampled deals less its score on average hands,
``agents/barbu/pimc_nb.py``).
"""

from numba import njit

from agents.ismcts_nb import ismcts_action
from cardsim.barbu import layout as L
from cardsim.barbu.face_nb import GAME
from cardsim.jit import ix

SCORE_UNIT = 50.0


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
def beyond_deal(st, R):
    """The contract choice: its value lies beyond the deal (see the module doc string)."""
    return st[L.PHASE] == L.PH_CONTRACT


@njit(cache=True, inline="always")
def policy_action(game, params, st, R, base, bits, rng, i):
    """The ismcts agent's decision at the table (the ``CompiledPolicy`` signature of
    cardsim.policy_nb)."""
    return ismcts_action(GAME, st, R, base, bits, params, rng, i)
