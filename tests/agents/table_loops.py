"""The table's compiled loops (cardsim.table_nb) called with this package's policies, as the
agent tests use them: packed rules, per-seat kinds and parameter rows (each call compiles the
smallest policy set holding its kinds, as a table seating those agents would)."""

import numpy as np

from agents.policies import policies_for_kinds
from cardsim import games
from cardsim import table_nb as T


def _seats(kinds, params, n_patterns=1):
    """Every pattern seats the same agents: kind ``kinds[seat]``, parameters
    ``params[seat]``."""
    kinds = np.asarray(kinds, dtype=np.int64)
    params = np.asarray(params, dtype=np.float64)
    return T.Seats(np.repeat(kinds[None], n_patterns, axis=0),
                   np.repeat(params[None], n_patterns, axis=0),
                   np.zeros((n_patterns, len(kinds)), dtype=np.int64))


def simulate_agents(game, R, seed, first, n, whole, blocks, kinds, params):
    g = games.get(game)
    return T.simulate(g.tag, policies_for_kinds(kinds), R, T.Items(seed, first, n, whole, False),
                      _seats(kinds, params), g.num_stats, blocks)


def duplicate(game, R, seed, first, n, whole, patterns, kinds, params, blocks, force=False,
              detail=False):
    """(points, wins, deals, labels, seat_points) of duplicate play: agent ``a`` has kind
    ``kinds[a]`` and parameters ``params[a]``; ``patterns[p, seat]`` seats the agents."""
    patterns = np.asarray(patterns, dtype=np.int64)
    kinds = np.asarray(kinds, dtype=np.int64)
    params = np.asarray(params, dtype=np.float64)
    seats = T.Seats(kinds[patterns], params[patterns], patterns)
    return T.duplicate(games.get(game).tag, policies_for_kinds(kinds), R,
                       T.Items(seed, first, n, whole, force), seats, len(kinds), detail, blocks)


def play_deal(game, S, R, rng, kinds, params):
    """Every row of ``S`` plays its current deal to the end (agents per seat, generator
    ``rng[i]`` for row i); returns the decisions each row took."""
    g = games.get(game)
    n = S.shape[0]
    rows = T.Rows(S=S, rng=rng, item=np.zeros(n, dtype=np.int64),
                  pattern=np.zeros(n, dtype=np.int64), status=np.zeros(n, dtype=np.int64),
                  seats=np.zeros(n, dtype=np.int64), actions=np.full(n, -1, dtype=np.int64),
                  stats=np.zeros((n, g.num_stats), dtype=np.int64),
                  phase=np.zeros(n, dtype=np.int64))
    T.advance_rows(g.tag, policies_for_kinds(kinds), R, rows, _seats(kinds, params), True, True,
                   2)
    assert (rows.status == T.DEAL_END).all()
    return rows.stats[:, g.stats.S_DECISIONS]


def start_items(game, S, R, rng, seed, items, whole):
    """Row i of ``S`` starts item ``items[i]`` of run ``seed`` as a table starts it (one
    seating pattern, not duplicate), its generator in ``rng[i]``."""
    n = S.shape[0]
    zeros = np.zeros(n, dtype=np.int64)
    rows = T.Rows(S=S, rng=rng, item=np.asarray(items, dtype=np.int64), pattern=zeros,
                  status=zeros.copy(), seats=zeros.copy(), actions=zeros - 1,
                  stats=np.zeros((n, 1), dtype=np.int64), phase=zeros.copy())
    T.start_rows(games.get(game).tag, R, rows, T.Items(seed, 0, n, whole, False), False)
