"""Compiled Debertz play with agents: simulation, batched stepping and duplicate deals.

Every seat has an agent ``kind`` and parameter row; ``policy_nb.choose_action`` picks the
move, so a whole run stays in compiled code. Game ``g`` of a run is fixed by (seed, g): its
deals come from the engine's seeded streams, its agents' random choices from
``stream(seed, g, POLICY_KEY)`` (or ``POLICY_KEY + pattern`` in a duplicate match), which makes
results independent of block size and thread count. With random agents in every seat the
statistics equal those of ``cardsim.debertz.simulate_nb.simulate_random``.
"""

import numpy as np
from numba import njit, prange

from agents.debertz.policy_nb import choose_action
from cardsim import rng_nb
from cardsim.debertz import layout as L
from cardsim.debertz.engine_nb import init_game, next_deal, side_of, step
from cardsim.debertz.simulate_nb import NUM_STATS, POLICY_KEY, S_DECISIONS, record_deal_stats
from cardsim.jit import NO_REFCOUNT


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
def play_block(st, R, rng, row, seed, first_game, lo, hi, whole_games, kinds, params):
    """Items lo..hi-1 of a run: fresh games, each one deal or played to its end."""
    for item in range(lo, hi):
        game = first_game + item
        rng[0] = rng_nb.stream(seed, game, POLICY_KEY)
        init_game(st, R, seed, game)
        while True:
            row[S_DECISIONS] += play_until_deal_end(st, R, rng, 0, kinds, params)
            record_deal_stats(st, R, row)
            if st[L.PHASE] == L.PH_GAME_OVER or not whole_games:
                break
            next_deal(st, R)


@njit(cache=True, parallel=True)
def simulate_agents(R, seed, first_game, n_items, whole_games, n_blocks, kinds, params):
    """``n_items`` deals (each a fresh game) or whole games; per-seat agents ``kinds`` with
    parameter rows ``params``. Returns the statistics (cardsim.debertz.simulate_nb S_*)."""
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
        play_block(st, local_rules, rng, row, seed, first_game, lo, hi, whole_games,
                   local_kinds, local_params)
        stats[b] = row
    return stats.sum(axis=0)


@njit(cache=True, parallel=True)
def batch_play_deal(S, R, rng, decisions, kinds, params):
    """Every running game of batch ``S`` plays its current deal to the end (agents per seat,
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
def duplicate_block(st, R, rng, seed, first_game, lo, hi, whole_games, patterns, agent_kinds,
                    agent_params, seat_kinds, seat_params, points, wins, deals):
    """Games lo..hi-1, each played once per seating pattern (see duplicate_match)."""
    n = R[L.R_PLAYERS]
    teams = R[L.R_TEAMS]
    n_agents = points.shape[1]
    for item in range(lo, hi):
        game = first_game + item
        for p in range(patterns.shape[0]):
            for s in range(n):
                a = patterns[p, s]
                seat_kinds[s] = agent_kinds[a]
                for k in range(agent_params.shape[1]):
                    seat_params[s, k] = agent_params[a, k]
            rng[0] = rng_nb.stream(seed, game, POLICY_KEY + 1 + p)
            init_game(st, R, seed, game)
            while True:
                play_until_deal_end(st, R, rng, 0, seat_kinds, seat_params)
                if st[L.PHASE] == L.PH_GAME_OVER or not whole_games:
                    break
                next_deal(st, R)
            n_deals = st[L.DEAL_NO] + 1
            deals[item] += n_deals
            winner = st[L.WINNER] if st[L.GAME_OVER] else -1
            for a in range(n_agents):
                seats = 0
                total = 0.0
                won = 0
                for s in range(n):
                    if patterns[p, s] == a:
                        seats += 1
                        side = side_of(s, teams)
                        if whole_games:
                            total += st[L.SCORES + side] / n_deals
                        else:
                            total += st[L.RECORDED + side]
                        if side == winner:
                            won += 1
                if seats > 0:
                    points[item, a] += total / seats / patterns.shape[0]
                    wins[item, a] += won / seats / patterns.shape[0]


@njit(cache=True, parallel=True)
def duplicate_match(R, seed, first_game, n_games, whole_games, patterns, agent_kinds,
                    agent_params, n_blocks):
    """Duplicate play: game ``first_game + g`` (its deals fixed by the seed) is played once
    for each row of ``patterns`` (pattern[p, seat] = agent index), so every agent meets the
    same cards in every seat. Returns per game and agent the mean points per deal of the seats
    it held (averaged over patterns), its win share (wins per seat held, averaged over
    patterns; whole games only) and the deals played."""
    n_agents = agent_kinds.shape[0]
    points = np.zeros((n_games, n_agents), dtype=np.float64)
    wins = np.zeros((n_games, n_agents), dtype=np.float64)
    deals = np.zeros(n_games, dtype=np.int64)
    per_block = (n_games + n_blocks - 1) // n_blocks
    for b in prange(n_blocks):
        st = np.zeros(L.STATE_WIDTH, dtype=np.int64)
        rng = np.zeros(1, dtype=np.uint64)
        seat_kinds = np.zeros(4, dtype=np.int64)
        seat_params = np.zeros((4, agent_params.shape[1]), dtype=np.float64)
        lo = b * per_block
        hi = min(n_games, lo + per_block)
        duplicate_block(st, R.copy(), rng, seed, first_game, lo, hi, whole_games, patterns,
                        agent_kinds.copy(), agent_params.copy(), seat_kinds, seat_params,
                        points, wins, deals)
    return points, wins, deals
