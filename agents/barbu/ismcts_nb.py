"""Information-set Monte Carlo tree search for Barbu (the ``ismcts`` agent's compiled policy).

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012), as the Debertz agent: one tree
over the actions taken from the decision on, shared by every deal the seat cannot tell apart.
Each iteration draws one deal consistent with what the seat knows
(``cardsim.barbu.sample_nb``), walks down the tree choosing among the actions legal in that
deal by UCB1 (an action's prior count is the number of times it was available), adds one
node, plays the rest of the deal out with the rollout policy (random or the heuristic) and
credits each node on the path with the deal score (B7) of the seat that acted there, in
units of 50 points for the UCB constant. The most visited root action is played.

The declarer's contract choice is the one decision whose value lies beyond the deal (the
contract is spent, B2): it is taken as the pimc agent takes it (``pimc_nb``: each contract's
rollout score on sampled deals less its score on average hands), with the iterations shared
out among the options.
"""

import numpy as np
from numba import njit

from agents.barbu.heuristic_nb import heuristic_action
from agents.barbu.pimc_nb import ROLLOUT_PARAMS, choose_by_rollouts, now_ms
from cardsim.barbu import layout as L
from cardsim.barbu import sample_nb as S
from cardsim.barbu.engine_nb import legal_mask, step
from cardsim.bits_nb import lowest_bit, popcount
from cardsim.jit import WITH_REFCOUNT, ix
from cardsim.rng_nb import random_bit

# the agent's parameter vector (agents.barbu.ismcts.BarbuISMCTS.OPTIONS order)
P_ITERATIONS = 0
P_EXPLORATION = 1
P_ROLLOUT = 2    # 0 random, 1 heuristic
P_MS = 3

# tree arrays: one row per node
N_ACTION, N_PARENT, N_CHILD, N_SIBLING, N_SEAT = 0, 1, 2, 3, 4
NODE_FIELDS = 5
SCORE_UNIT = 50.0
MAX_DEPTH = 2 + 24 + L.PLAYS_WIDTH  # contract, trump or rank, doubling answers, plays


@njit(cache=True, **WITH_REFCOUNT)
def ismcts_action(st, R, base, bits, params, rng, i):
    """The ismcts agent's action in ``st`` (legal set ``(base, bits)``), drawing from
    ``rng[i]``."""
    if popcount(bits) == 1:
        return base + lowest_bit(bits)
    if st[L.PHASE] == L.PH_CONTRACT:
        rollout_params = np.zeros(8, dtype=np.float64)
        rollout_params[0] = max(1, int(params[P_ITERATIONS]) // (2 * popcount(bits)))
        rollout_params[2] = params[P_MS]
        return base + choose_by_rollouts(st, R, base, bits, rollout_params, rng, i)
    iterations = max(1, int(params[P_ITERATIONS]))
    c = params[P_EXPLORATION]
    heuristic_rollout = params[P_ROLLOUT] > 0
    me = st[L.TURN]
    size = iterations + 1
    tree = np.full((size, NODE_FIELDS), -1, dtype=np.int64)
    visits = np.zeros(size, dtype=np.float64)
    avail = np.zeros(size, dtype=np.float64)
    total = np.zeros(size, dtype=np.float64)
    deal = np.empty(L.STATE_WIDTH, dtype=np.int64)
    path = np.zeros(MAX_DEPTH, dtype=np.int64)
    kn, ways = S.prepare(st, R, me)
    nodes = 1
    start = now_ms() if params[P_MS] > 0 else 0.0
    for it in range(iterations):
        S.sample_deal(st, R, kn, ways, rng, i, deal)
        node = 0
        depth = 0
        # selection and expansion
        while deal[L.PHASE] < L.PH_DEAL_END:
            lbase, lbits = legal_mask(deal, R)
            seat = deal[L.TURN]
            # the children of node legal here: count their availability, pick by UCB1
            seen = 0
            best = -1
            best_score = -1e300
            child = tree[node, N_CHILD]
            while child >= 0:
                k = tree[child, N_ACTION] - lbase
                if 0 <= k < 63 and (lbits >> k) & 1:
                    seen |= 1 << k
                    avail[child] += 1.0
                    score = total[child] / visits[child] + c * np.sqrt(
                        np.log(avail[child]) / visits[child])
                    if score > best_score:
                        best_score = score
                        best = child
                child = tree[child, N_SIBLING]
            untried = lbits & ~seen
            if untried != 0 and nodes < size:
                a = lbase + random_bit(untried, rng, i)
                new = nodes
                nodes += 1
                tree[new, N_ACTION] = a
                tree[new, N_PARENT] = node
                tree[new, N_SIBLING] = tree[node, N_CHILD]
                tree[new, N_SEAT] = seat
                tree[node, N_CHILD] = new
                avail[new] = 1.0
                step(deal, R, a)
                path[depth] = new
                depth += 1
                break
            if best < 0:
                break
            step(deal, R, tree[best, N_ACTION])
            path[depth] = best
            depth += 1
            node = best
        # rollout
        while deal[L.PHASE] < L.PH_DEAL_END:
            lbase, lbits = legal_mask(deal, R)
            if heuristic_rollout:
                a = heuristic_action(ROLLOUT_PARAMS, deal, R, lbase, lbits)
            else:
                a = lbase + random_bit(lbits, rng, i)
            step(deal, R, a)
        for k in range(depth):
            n = path[k]
            visits[n] += 1.0
            total[n] += deal[ix(L.DEAL_SCORES + tree[n, N_SEAT])] / SCORE_UNIT
        if params[P_MS] > 0 and now_ms() - start >= params[P_MS]:
            break
    # the most visited root action (the lowest id among equals)
    best = -1
    child = tree[0, N_CHILD]
    while child >= 0:
        if best < 0 or visits[child] > visits[best] or (
                visits[child] == visits[best] and tree[child, N_ACTION] < tree[best, N_ACTION]):
            best = child
        child = tree[child, N_SIBLING]
    if best < 0:
        return base + lowest_bit(bits)
    return tree[best, N_ACTION]
