"""Compiled Debertz policies, selected by an agent's ``kind`` id (agents.base.CompiledAgent).

``choose_action(kind, params, st, R, rng, i)`` returns a legal action for the seat to act in
state row ``st``; ``rng[i]`` is the agent's generator. A new compiled agent adds its kind here.
"""

from numba import njit

from agents.debertz.heuristic_nb import heuristic_action
from agents.debertz.ismcts_nb import ismcts_action
from agents.debertz.pimc_nb import pimc_action
from cardsim.debertz.engine_nb import legal_mask
from cardsim.rng_nb import random_bit

RANDOM = 0
HEURISTIC = 1
PIMC = 2
ISMCTS = 3


@njit(cache=True, inline="always")
def choose_action(kind, params, st, R, rng, i):
    """The action agent ``kind`` with ``params`` takes in ``st``."""
    mask = legal_mask(st, R)
    if kind == HEURISTIC:
        return heuristic_action(st, R, mask, params, rng, i)
    if kind == PIMC:
        return pimc_action(st, R, mask, params, rng, i)
    if kind == ISMCTS:
        return ismcts_action(st, R, mask, params, rng, i)
    return random_bit(mask, rng, i)
