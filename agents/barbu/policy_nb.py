"""Compiled Barbu policies, selected by an agent's ``kind`` id (agents.base.CompiledAgent).

``choose_action(kind, params, st, R, rng, i)`` returns a legal action for the seat to act in
state row ``st``; ``rng[i]`` is the agent's generator. The random policy draws exactly as
``cardsim.barbu.simulate_nb.random_action`` does (nothing when only one action is legal), so
random agents in every seat reproduce ``simulate_random``. A new compiled agent adds its kind
here.
"""

from numba import njit

from agents.barbu.heuristic_nb import heuristic_action
from agents.barbu.ismcts_nb import ismcts_action
from agents.barbu.pimc_nb import pimc_action
from cardsim.barbu.engine_nb import legal_mask
from cardsim.barbu.simulate_nb import random_action

RANDOM = 0
HEURISTIC = 1
PIMC = 2
ISMCTS = 3


@njit(cache=True, inline="always")
def choose_action(kind, params, st, R, rng, i):
    """The action agent ``kind`` with ``params`` takes in ``st``."""
    base, bits = legal_mask(st, R)
    if kind == HEURISTIC:
        return heuristic_action(params, st, R, base, bits)
    if kind == PIMC:
        return pimc_action(st, R, base, bits, params, rng, i)
    if kind == ISMCTS:
        return ismcts_action(st, R, base, bits, params, rng, i)
    return random_action(base, bits, rng, i)
