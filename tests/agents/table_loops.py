"""The table's compiled loops (cardsim.table_nb) called with this package's policies, as the
agent tests use them: packed rules, per-seat kinds and parameter rows (each call compiles the
smallest policy set holding its kinds, as a table seating those agents would)."""

import numpy as np

from agents.policies import policies_for_kinds
from cardsim import games
from cardsim import table_nb as T


def simulate_agents(game, R, seed, first, n, whole, blocks, kinds, params):
    g = games.get(game)
    return T.simulate(g.tag, policies_for_kinds(kinds), R, seed, first, n, whole,
                      np.asarray(kinds, dtype=np.int64), np.asarray(params, dtype=np.float64),
                      g.num_stats, blocks)


def duplicate(game, R, seed, first, n, whole, patterns, kinds, params, blocks, force=False,
              detail=False):
    """(points, wins, deals, labels, seat_points) of duplicate play."""
    return T.duplicate(games.get(game).tag, policies_for_kinds(kinds), R, seed, first, n, whole, force,
                       np.asarray(patterns, dtype=np.int64), np.asarray(kinds, dtype=np.int64),
                       np.asarray(params, dtype=np.float64), detail, blocks)


def play_deal(game, S, R, rng, kinds, params):
    """Every row of ``S`` plays its current deal to the end (agents per seat, generator
    ``rng[i]`` for row i); returns the decisions each row took."""
    g = games.get(game)
    n = S.shape[0]
    status = np.zeros(n, dtype=np.int64)
    stats = np.zeros((n, g.num_stats), dtype=np.int64)
    T.advance_rows(g.tag, policies_for_kinds(kinds), S, R, rng, np.zeros(n, dtype=np.int64),
                   np.asarray(kinds, dtype=np.int64)[None],
                   np.asarray(params, dtype=np.float64)[None], np.full(n, -1, dtype=np.int64),
                   status, np.zeros(n, dtype=np.int64), stats, True, True, 2)
    assert (status == T.DEAL_END).all()
    return stats[:, g.stats.S_DECISIONS]
