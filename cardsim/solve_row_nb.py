"""The fields that every game's open-hand solver position row (``cardsim/<game>/solve_nb.py``)
keeps at the same place, and the pieces of the shared search (``cardsim.solve_nb``) that read
only them. Each game's solver takes these pieces from here as its own: the search reaches
them through the game's module like its other pieces.

A game's row lays out its other fields around these; the Debertz solver's reference rows
(tests/fixtures/debertz_solver_reference.npz) fix where these stand.
"""

from numba import njit

P_TRICK_LEN = 8    # cards already in the current trick (0 at a trick boundary)
P_NODES = 25       # nodes searched (checked against the budget)
P_BUDGET = 26      # node budget (0: none)
P_GEN = 27         # generation of this solve's transposition table entries


@njit(cache=True, inline="always")
def count_node(pos):
    """One more node searched (checked against the budget ``P_BUDGET``; what a count covers,
    the whole solve or one root card, is the game's ``begin_card``)."""
    pos[P_NODES] += 1


@njit(cache=True, inline="always")
def trick_len(pos):
    """Number of cards already in the current trick (0 at a trick boundary)."""
    return pos[P_TRICK_LEN]


@njit(cache=True, inline="always")
def generation(pos):
    """The transposition table generation of this solve: entries of earlier solves do not match
    it."""
    return pos[P_GEN]


@njit(cache=True, inline="always")
def restore_budget(pos, budget):
    """Put back the node budget that the game's ``share_budget`` returned, after the root cards
    are searched."""
    pos[P_BUDGET] = budget
