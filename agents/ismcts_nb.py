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

A decision whose value lies beyond the deal (Barbu's contract choice: the contract is spent,
B2), which a tree over deals cannot see, is taken as the pimc agent takes it
(``agents/pimc_nb.py``: each option's play-outs on drawn deals less its play-outs on the
game's baseline deals), with the iterations shared out among the options.

Each game supplies its pieces in ``agents/<game>/ismcts_nb.py``: ``owner`` (whom a node's
result is credited to: Debertz's side, Barbu's seat), ``deal_results`` (each owner's result
of a finished deal, scaled for the UCB constant) and, where it has such decisions,
``beyond_deal`` (whether a decision's value lies beyond the deal).
"""

import numpy as np
from numba import njit

from agents.base import PARAMS_WIDTH, option_slot
from agents.clock_nb import now_ms
from agents.ismcts_options import OPTIONS
from agents.pimc_nb import P_MS as PIMC_MS
from agents.pimc_nb import P_SAMPLES as PIMC_SAMPLES
from agents.pimc_nb import choose_by_rollouts
from cardsim.bits_nb import lowest_bit, popcount
from cardsim.game_nb import apply_action, deal_over, game_piece, legal, state_width, turn
from cardsim.jit import WITH_REFCOUNT
from cardsim.rng_nb import random_bit
from cardsim.sample_nb import sample_deal, sample_prepare

# the places of the agent's options in its parameter vector (agents/ismcts_options.py)
P_ITERATIONS = option_slot(OPTIONS, "iterations")
P_EXPLORATION = option_slot(OPTIONS, "exploration")
P_ROLLOUT = option_slot(OPTIONS, "rollout")  # 0 random, 1 heuristic
P_MS = option_slot(OPTIONS, "ms")

# tree arrays: one row per node
N_ACTION, N_PARENT, N_CHILD, N_SIBLING, N_OWNER = 0, 1, 2, 3, 4
NODE_FIELDS = 5

PIECES = "agents.{game}.ismcts_nb"
owner = game_piece(PIECES, "owner", "st, R", "Whom a decision in ``st`` is credited to.")
deal_results = game_piece(PIECES, "deal_results", "st, R, results",
                          "Each owner's result of the finished deal ``st`` in ``results``.")


@njit(cache=True, inline="always")
def within_deal(st, R):
    """``beyond_deal`` of a game without such decisions: False."""
    return False


beyond_deal = game_piece(PIECES, "beyond_deal", "st, R",
                         "Whether the value of the decision in ``st`` lies beyond the deal.",
                         default=within_deal)
rollout_action = game_piece("agents.{game}.heuristic_nb", "rollout_action",
                            "st, R, base, bits, rng, i",
                            "The heuristic's decision (default options) in a play-out.")


@njit(cache=True, **WITH_REFCOUNT)
def ismcts_action(game, st, R, base, bits, params, rng, i):
    """The ismcts agent's action in ``st`` (legal set ``(base, bits)``): the most visited
    action at the root of its tree, or pimc's choice where the decision's value lies beyond
    the deal (``beyond_deal``); its deals drawn from ``rng[i]``."""
    if popcount(bits) == 1:
        return base + lowest_bit(bits)
    if beyond_deal(game, st, R):
        return base + choose_by_rollouts(game, st, R, base, bits, pimc_playouts(params, bits),
                                         rng, i)
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
    path = np.zeros(size, dtype=np.int64)  # a path's nodes are distinct: never more than all
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


@njit(cache=True)
def pimc_playouts(params, bits):
    """The ``pimc`` options (agents.pimc_nb) of a decision taken by its play-outs
    (``beyond_deal``): ``iterations`` shared out among the options of ``bits``, two play-outs
    of each per deal drawn (the deal and the game's baseline deal), and ``ms``."""
    playouts = np.zeros(PARAMS_WIDTH, dtype=np.float64)
    playouts[PIMC_SAMPLES] = max(1, int(params[P_ITERATIONS]) // (2 * popcount(bits)))
    playouts[PIMC_MS] = params[P_MS]
    return playouts
