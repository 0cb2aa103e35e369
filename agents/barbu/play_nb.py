"""Compiled Barbu play with agents: simulation, batched stepping and duplicate deals.

Every seat has an agent ``kind`` and parameter row; ``policy_nb.choose_action`` picks each
decision, so a whole run stays in compiled code. Items are those of
``cardsim.barbu.simulate_nb``: a whole 28-deal match (``whole_matches``) or one deal (hands
mode, item ``i`` = deal ``i % 28`` of match ``i // 28`` with its contracts left and doubles
owed drawn as that module describes). An item's cards are fixed by (seed, item) alone and its
agents' random choices come from ``simulate_nb.policy_stream`` (or, in duplicate play,
``stream(seed, item, DUPLICATE_KEY + pattern)``), so results do not depend on block or thread
counts. With random agents in every seat ``simulate_agents`` returns exactly the statistics
of ``simulate_nb.simulate_random``.

Duplicate play and per-contract results: in hands mode the contract of a deal is the
declarer's choice, so seatings that put different agents in the declarer's seat may play
different contracts on the same cards. ``duplicate_match_detail`` therefore reports the
contract each pattern actually played (``contracts[item, pattern]``) and every seat's score
in every pattern (``seat_points[item, pattern, seat]``): compare agents per contract among
patterns that played the same one, or read the breakdown as "results on the deals where this
contract was chosen". For a clean per-contract comparison ``duplicate_contracts`` forces
the contract instead: item ``i`` plays contract ``i % 7`` in every pattern (everything else,
trump suit and starting rank included, is still the agents' choice), so every pattern of an
item plays the same contract on the same cards.
"""

import numpy as np
from numba import njit, prange

from agents.barbu.policy_nb import choose_action
from cardsim import rng_nb
from cardsim.barbu import actions as A
from cardsim.barbu import layout as L
from cardsim.barbu.engine_nb import init_game, next_deal, step
from cardsim.barbu.simulate_nb import (NUM_STATS, S_DECISIONS, init_hand_item, policy_stream,
                                       record_deal_stats)
from cardsim.jit import NO_REFCOUNT

DUPLICATE_KEY = 1 << 44  # stream key of duplicate play: stream(seed, item, DUPLICATE_KEY + p)


@njit(cache=True, inline="always")
def play_until_deal_end(st, R, rng, i, kinds, params):
    """Each seat's agent decides until the current deal ends; returns the decisions taken."""
    taken = 0
    while st[L.PHASE] < L.PH_DEAL_END:
        seat = st[L.TURN]
        step(st, R, choose_action(kinds[seat], params[seat], st, R, rng, i))
        taken += 1
    return taken


@njit(cache=True, **NO_REFCOUNT)
def play_block(st, R, rng, row, seed, first_game, lo, hi, whole_matches, kinds, params):
    """Items first_game + lo .. first_game + hi - 1 of a run, statistics added to ``row``."""
    for k in range(lo, hi):
        item = first_game + k
        rng[0] = policy_stream(seed, item, whole_matches)
        if whole_matches:
            init_game(st, R, seed, item)
        else:
            init_hand_item(st, R, seed, item)
        while True:
            row[S_DECISIONS] += play_until_deal_end(st, R, rng, 0, kinds, params)
            record_deal_stats(st, row, whole_matches)
            if st[L.PHASE] == L.PH_MATCH_OVER or not whole_matches:
                break
            next_deal(st, R)


@njit(cache=True, parallel=True)
def simulate_agents(R, seed, first_game, n_items, whole_matches, n_blocks, kinds, params):
    """``n_items`` deals (hands mode) or whole matches from item ``first_game`` on, with agent
    ``kinds[seat]`` and parameter row ``params[seat]`` in each seat. Returns the statistics
    summed over blocks (columns S_* of cardsim.barbu.simulate_nb)."""
    stats = np.zeros((n_blocks, NUM_STATS), dtype=np.int64)
    per_block = (n_items + n_blocks - 1) // n_blocks
    for b in prange(n_blocks):
        st = np.zeros(L.STATE_WIDTH, dtype=np.int64)
        rng = np.zeros(1, dtype=np.uint64)
        row = np.zeros(NUM_STATS, dtype=np.int64)   # thread-local: no false sharing
        local_rules = R.copy()
        local_kinds = kinds.copy()
        local_params = params.copy()
        lo = b * per_block
        hi = min(n_items, lo + per_block)
        play_block(st, local_rules, rng, row, seed, first_game, lo, hi, whole_matches,
                   local_kinds, local_params)
        for c in range(NUM_STATS):
            stats[b, c] = row[c]
    return stats.sum(axis=0)


@njit(cache=True, parallel=True)
def batch_play_deal(S, R, rng, decisions, kinds, params):
    """Every row of batch ``S`` still in a deal plays it to the end (agents per seat,
    generator ``rng[i]`` for row i); adds the decisions taken to ``decisions[i]``."""
    for i in prange(S.shape[0]):
        decisions[i] += play_until_deal_end(S[i], R, rng, i, kinds, params)


@njit(cache=True)
def batch_act(S, R, kind, params, rng):
    """The action agent ``kind`` takes in every row of ``S`` (one generator, rows in order)."""
    out = np.empty(S.shape[0], dtype=np.int64)
    for i in range(S.shape[0]):
        out[i] = choose_action(kind, params, S[i], R, rng, 0)
    return out


# ---------------------------------------------------------------------------------------------
# duplicate deals
# ---------------------------------------------------------------------------------------------
@njit(cache=True, **NO_REFCOUNT)
def duplicate_block(st, R, rng, seed, first_game, lo, hi, whole_matches, force_contracts,
                    patterns, agent_kinds, agent_params, seat_kinds, seat_params, points,
                    wins, deals, contracts, seat_points):
    """Items lo..hi-1, each played once per seating pattern (see duplicate_match)."""
    n_agents = points.shape[1]
    n_pat = patterns.shape[0]
    for k in range(lo, hi):
        item = first_game + k
        for p in range(n_pat):
            for s in range(4):
                a = patterns[p, s]
                seat_kinds[s] = agent_kinds[a]
                for j in range(agent_params.shape[1]):
                    seat_params[s, j] = agent_params[a, j]
            rng[0] = rng_nb.stream(seed, item, DUPLICATE_KEY + p)
            if whole_matches:
                init_game(st, R, seed, item)
            else:
                init_hand_item(st, R, seed, item)
                if force_contracts:
                    c = item % A.NUM_CONTRACTS
                    st[L.CONTRACTS_LEFT + st[L.DECLARER]] |= 1 << c
                    step(st, R, A.CONTRACT + c)
            while True:
                play_until_deal_end(st, R, rng, 0, seat_kinds, seat_params)
                if st[L.PHASE] == L.PH_MATCH_OVER or not whole_matches:
                    break
                next_deal(st, R)
            contracts[k, p] = -1 if whole_matches else st[L.CONTRACT]
            for s in range(4):
                if whole_matches:
                    seat_points[k, p, s] = st[L.SCORES + s] / L.DEALS_PER_MATCH
                else:
                    seat_points[k, p, s] = st[L.DEAL_SCORES + s]
            deals[k] += L.DEALS_PER_MATCH if whole_matches else 1
            w = st[L.WINNERS]
            for a in range(n_agents):
                seats = 0
                total = 0.0
                won = 0
                for s in range(4):
                    if patterns[p, s] == a:
                        seats += 1
                        if whole_matches:  # the match total, per deal of the match
                            total += st[L.SCORES + s] / L.DEALS_PER_MATCH
                            won += (w >> s) & 1
                        else:
                            total += st[L.DEAL_SCORES + s]
                if seats > 0:
                    points[k, a] += total / seats / n_pat
                    wins[k, a] += won / seats / n_pat


@njit(cache=True, parallel=True)
def _duplicate(R, seed, first_game, n_items, whole_matches, force_contracts, patterns,
               agent_kinds, agent_params, n_blocks):
    n_agents = agent_kinds.shape[0]
    points = np.zeros((n_items, n_agents), dtype=np.float64)
    wins = np.zeros((n_items, n_agents), dtype=np.float64)
    deals = np.zeros(n_items, dtype=np.int64)
    contracts = np.zeros((n_items, patterns.shape[0]), dtype=np.int64)
    seat_points = np.zeros((n_items, patterns.shape[0], 4), dtype=np.float64)
    per_block = (n_items + n_blocks - 1) // n_blocks
    for b in prange(n_blocks):
        st = np.zeros(L.STATE_WIDTH, dtype=np.int64)
        rng = np.zeros(1, dtype=np.uint64)
        seat_kinds = np.zeros(4, dtype=np.int64)
        seat_params = np.zeros((4, agent_params.shape[1]), dtype=np.float64)
        lo = b * per_block
        hi = min(n_items, lo + per_block)
        duplicate_block(st, R.copy(), rng, seed, first_game, lo, hi, whole_matches,
                        force_contracts, patterns, agent_kinds.copy(), agent_params.copy(),
                        seat_kinds, seat_params, points, wins, deals, contracts, seat_points)
    return points, wins, deals, contracts, seat_points


def duplicate_match_detail(R, seed, first_game, n_items, whole_matches, patterns, agent_kinds,
                           agent_params, n_blocks, force_contracts=False):
    """Duplicate play: item ``first_game + i`` (one deal in hands mode, or a whole 28-deal
    match) is played once for each row of ``patterns`` (``pattern[p, seat]`` = agent index),
    so every agent meets the same cards in every seat it is given. ``force_contracts`` (hands
    mode only): item ``i`` plays contract ``i % 7`` in every pattern.

    Returns ``(points, wins, deals, contracts, seat_points)``:
    ``points[i, a]``: agent a's mean score per seat it held, averaged over the patterns: the
    deal score (B7.3) in hands mode; in whole matches the final match total divided by the
    28 deals (points per deal, as the tournament layer reads it; x 28 = the match total);
    ``wins[i, a]``: its match-win share per seat held, averaged over the patterns (a shared
    win counts for each winner, B2; 0 in hands mode);
    ``deals[i]``: deals played for the item over all patterns;
    ``contracts[i, p]``: the contract pattern p played (hands mode; -1 for whole matches);
    ``seat_points[i, p, seat]``: each seat's score in pattern p (deal score, or match total
    / 28), so results can be broken down by pattern, seat, declarer or contract played.
    """
    if whole_matches and force_contracts:
        raise ValueError("force_contracts needs hands mode (whole_matches=False)")
    return _duplicate(R, seed, first_game, n_items, bool(whole_matches), bool(force_contracts),
                      np.ascontiguousarray(patterns, dtype=np.int64),
                      np.ascontiguousarray(agent_kinds, dtype=np.int64),
                      np.ascontiguousarray(agent_params, dtype=np.float64), n_blocks)


def duplicate_match(R, seed, first_game, n_items, whole_matches, patterns, agent_kinds,
                    agent_params, n_blocks):
    """``(points, wins, deals)`` of ``duplicate_match_detail`` (the interface the Debertz
    loops share with experiments/tournament.py)."""
    return duplicate_match_detail(R, seed, first_game, n_items, whole_matches, patterns,
                                  agent_kinds, agent_params, n_blocks)[:3]


def duplicate_contracts(R, seed, first_game, n_items, patterns, agent_kinds, agent_params,
                        n_blocks):
    """Hands-mode duplicate play with item ``i``'s contract forced to ``i % 7``
    (actions.CONTRACT_NAMES order) in every pattern; returns ``(points, wins, deals,
    contracts, seat_points)`` as ``duplicate_match_detail``."""
    return duplicate_match_detail(R, seed, first_game, n_items, False, patterns, agent_kinds,
                                  agent_params, n_blocks, force_contracts=True)
