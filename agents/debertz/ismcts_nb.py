"""Information-set Monte Carlo tree search for Debertz (the ``ismcts`` agent's compiled policy).

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012): one tree over the actions
taken from the decision on, shared by every deal the seat cannot tell apart. Each iteration
draws one deal consistent with what the seat knows (``cardsim.debertz.sample_nb``), walks
down the tree choosing among the actions legal in that deal by UCB1 (an action's prior
count is the number of times it was available, so rarely legal actions are not
over-explored), adds one node, plays the rest of the deal out with the rollout policy
(random or the heuristic) and credits the result to every node on the path from the point
of view of the side that acted there. The most visited root action is played.

Results are each side's recorded points of the deal less the other sides' mean (D9), scaled
by 1/100 for the UCB constant.
"""

import numpy as np
from numba import njit

from agents.debertz.heuristic_nb import heuristic_action
from agents.debertz.pimc_nb import ROLLOUT_PARAMS, now_ms
from cardsim.bits_nb import lowest_bit, popcount
from cardsim.debertz import layout as L
from cardsim.debertz import sample_nb as S
from cardsim.debertz.engine_nb import legal_mask, side_of, step
from cardsim.jit import WITH_REFCOUNT
from cardsim.rng_nb import random_bit

# the agent's parameter vector (agents.debertz.ismcts.DebertzISMCTS.OPTIONS order)
P_ITERATIONS = 0
P_EXPLORATION = 1
P_ROLLOUT = 2    # 0 random, 1 heuristic
P_MS = 3

# tree arrays: one row per node
N_ACTION, N_PARENT, N_CHILD, N_SIBLING, N_SIDE = 0, 1, 2, 3, 4
NODE_FIELDS = 5


@njit(cache=True)
def deal_result(st, R, side):
    """``side``'s recorded points less the other sides' mean, in hundreds of points (D9)."""
    sides = R[L.R_SIDES]
    others = 0.0
    for s in range(sides):
        if s != side:
            others += st[L.RECORDED + s]
    return (st[L.RECORDED + side] - others / (sides - 1)) / 100.0


@njit(cache=True, **WITH_REFCOUNT)
def ismcts_action(st, R, mask, params, rng, i):
    """The ismcts agent's action in ``st`` (a member of ``mask``), drawing from ``rng[i]``."""
    if popcount(mask) == 1:
        return lowest_bit(mask)
    iterations = max(1, int(params[P_ITERATIONS]))
    c = params[P_EXPLORATION]
    heuristic_rollout = params[P_ROLLOUT] > 0
    me = st[L.TURN]
    teams = R[L.R_TEAMS]
    sides = R[L.R_SIDES]
    size = iterations + 1
    tree = np.full((size, NODE_FIELDS), -1, dtype=np.int64)
    visits = np.zeros(size, dtype=np.float64)
    avail = np.zeros(size, dtype=np.float64)
    total = np.zeros(size, dtype=np.float64)
    deal = np.empty(L.STATE_WIDTH, dtype=np.int64)
    path = np.zeros(200, dtype=np.int64)
    results = np.zeros(4, dtype=np.float64)
    kn, ways = S.prepare(st, R, me)
    nodes = 1
    start = now_ms() if params[P_MS] > 0 else 0.0
    for it in range(iterations):
        if S.sample_deal(st, R, kn, ways, rng, i, deal) < 0:
            break
        node = 0
        depth = 0
        expanded = False
        # selection and expansion
        while deal[L.PHASE] < L.PH_DEAL_END:
            legal = legal_mask(deal, R)
            side = side_of(deal[L.TURN], teams)
            # the children of node legal here: count their availability, pick by UCB1
            seen = 0
            best = -1
            best_score = -1e300
            child = tree[node, N_CHILD]
            while child >= 0:
                a = tree[child, N_ACTION]
                if (legal >> a) & 1:
                    seen |= 1 << a
                    avail[child] += 1.0
                    score = total[child] / visits[child] + c * np.sqrt(
                        np.log(avail[child]) / visits[child])
                    if score > best_score:
                        best_score = score
                        best = child
                child = tree[child, N_SIBLING]
            untried = legal & ~seen
            if untried != 0 and not expanded and nodes < size:
                a = random_bit(untried, rng, i)
                new = nodes
                nodes += 1
                tree[new, N_ACTION] = a
                tree[new, N_PARENT] = node
                tree[new, N_SIBLING] = tree[node, N_CHILD]
                tree[new, N_SIDE] = side
                tree[node, N_CHILD] = new
                avail[new] = 1.0
                step(deal, R, a)
                path[depth] = new
                depth += 1
                expanded = True
                break
            if best < 0:
                break
            step(deal, R, tree[best, N_ACTION])
            path[depth] = best
            depth += 1
            node = best
        # rollout
        while deal[L.PHASE] < L.PH_DEAL_END:
            legal = legal_mask(deal, R)
            if heuristic_rollout:
                a = heuristic_action(deal, R, legal, ROLLOUT_PARAMS, rng, i)
            else:
                a = random_bit(legal, rng, i)
            step(deal, R, a)
        for s in range(sides):
            results[s] = deal_result(deal, R, s)
        for k in range(depth):
            n = path[k]
            visits[n] += 1.0
            total[n] += results[tree[n, N_SIDE]]
        if params[P_MS] > 0 and now_ms() - start >= params[P_MS]:
            break
    # the most visited root action (the lowest id among equals)
    best = -1
    child = tree[0, N_CHILD]
    while child >= 0:
        a = tree[child, N_ACTION]
        if (mask >> a) & 1 and (best < 0 or visits[child] > visits[best] or (
                visits[child] == visits[best] and a < tree[best, N_ACTION])):
            best = child
        child = tree[child, N_SIBLING]
    if best < 0:
        return lowest_bit(mask)
    return tree[best, N_ACTION]
