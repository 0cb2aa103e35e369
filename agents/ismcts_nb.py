"""Information-set Monte Carlo tree search (the ``ismcts`` agent's compiled policy), written
once for both games over the game tag (``cardsim.game_nb``).

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012): one tree over the actions
taken from the decision on, shared by every deal the seat cannot tell apart. Each iteration
draws one deal consistent with what the seat knows (``cardsim.sample_nb``), walks down the
tree choosing among the actions legal in that deal by UCB1 (an action's prior count is the
number of times it was available, so rarely legal actions are not over-explored), adds one
node, plays the rest of the deal out with the rollout policy (random or the heuristic) and
credits the result to every node on the path from the point of view of whoever acted there.
The most visited root action is played.

Each game supplies its pieces in ``agents/<game>/ismcts_nb.py``: ``owner`` (whom a node's
result is credited to: Debertz's side, Barbu's seat), ``deal_results`` (each owner's result
of a finished deal, scaled for the UCB constant), ``MAX_DEPTH`` (the most decisions to a
deal's end) and ``special_action`` (a decision the game takes otherwise, -1 for none: Barbu's
contract choice, whose value lies beyond the deal).
"""

import numpy as np
from numba import njit

from agents.clock_nb import now_ms
from cardsim.bits_nb import lowest_bit, popcount
from cardsim.game_nb import apply_action, deal_over, game_piece, legal, state_width, turn
from cardsim.jit import WITH_REFCOUNT
from cardsim.rng_nb import random_bit
from cardsim.sample_nb import sample_deal, sample_prepare

# the agent's parameter vector (agents.<game>.ismcts OPTIONS order, the same in both games)
P_ITERATIONS = 0
P_EXPLORATION = 1
P_ROLLOUT = 2    # 0 random, 1 heuristic
P_MS = 3

# tree arrays: one row per node
N_ACTION, N_PARENT, N_CHILD, N_SIBLING, N_OWNER = 0, 1, 2, 3, 4
NODE_FIELDS = 5

PIECES = "agents.{game}.ismcts_nb"
owner = game_piece(PIECES, "owner", "st, R", "Whom a decision in ``st`` is credited to.")
deal_results = game_piece(PIECES, "deal_results", "st, R, results",
                          "Each owner's result of the finished deal ``st`` in ``results``.")
max_depth = game_piece(PIECES, "max_depth", "R", "The most decisions to a deal's end.")
special_action = game_piece(PIECES, "special_action", "st, R, base, bits, params, rng, i",
                            "A decision the game takes otherwise than by the tree; -1: none.")
rollout_action = game_piece("agents.{game}.heuristic_nb", "rollout_action",
                            "st, R, base, bits, rng, i",
                            "The heuristic's decision (default options) in a play-out.")


@njit(cache=True, **WITH_REFCOUNT)
def ismcts_action(game, st, R, base, bits, params, rng, i):
    """The ismcts agent's action in ``st`` (legal set ``(base, bits)``), drawing from
    ``rng[i]``."""
    if popcount(bits) == 1:
        return base + lowest_bit(bits)
    special = special_action(game, st, R, base, bits, params, rng, i)
    if special >= 0:
        return special
    iterations = max(1, int(params[P_ITERATIONS]))
    c = params[P_EXPLORATION]
    heuristic_rollout = params[P_ROLLOUT] > 0
    me = turn(game, st)
    size = iterations + 1
    tree = np.full((size, NODE_FIELDS), -1, dtype=np.int64)
    visits = np.zeros(size, dtype=np.float64)
    avail = np.zeros(size, dtype=np.float64)
    total = np.zeros(size, dtype=np.float64)
    deal = np.empty(state_width(game), dtype=np.int64)
    path = np.zeros(max_depth(game, R), dtype=np.int64)
    results = np.zeros(4, dtype=np.float64)
    kn, ways = sample_prepare(game, st, R, me)
    nodes = 1
    start = now_ms() if params[P_MS] > 0 else 0.0
    for it in range(iterations):
        if sample_deal(game, st, R, kn, ways, rng, i, deal) < 0:
            break  # no consistent deal: cannot happen in a real position
        node = 0
        depth = 0
        # selection and expansion
        while not deal_over(game, deal):
            lbase, lbits = legal(game, deal, R)
            who = owner(game, deal, R)
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
                tree[new, N_OWNER] = who
                tree[node, N_CHILD] = new
                avail[new] = 1.0
                apply_action(game, deal, R, a)
                path[depth] = new
                depth += 1
                break
            if best < 0:
                break
            apply_action(game, deal, R, tree[best, N_ACTION])
            path[depth] = best
            depth += 1
            node = best
        # rollout
        while not deal_over(game, deal):
            lbase, lbits = legal(game, deal, R)
            if heuristic_rollout:
                a = rollout_action(game, deal, R, lbase, lbits, rng, i)
            else:
                a = lbase + random_bit(lbits, rng, i)
            apply_action(game, deal, R, a)
        deal_results(game, deal, R, results)
        for k in range(depth):
            n = path[k]
            visits[n] += 1.0
            total[n] += results[tree[n, N_OWNER]]
        if params[P_MS] > 0 and now_ms() - start >= params[P_MS]:
            break
    # the most visited root action (the lowest id among equals)
    best = -1
    child = tree[0, N_CHILD]
    while child >= 0:
        a = tree[child, N_ACTION]
        if best < 0 or visits[child] > visits[best] or (
                visits[child] == visits[best] and a < tree[best, N_ACTION]):
            best = child
        child = tree[child, N_SIBLING]
    if best < 0:
        return base + lowest_bit(bits)
    return tree[best, N_ACTION]
