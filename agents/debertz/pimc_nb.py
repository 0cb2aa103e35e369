"""Perfect-information Monte Carlo for Debertz (the ``pimc`` agent's compiled policy).

**Card play.** The seat draws ``samples`` deals of the cards it cannot see, each uniform
among the deals consistent with what it knows (``cardsim.debertz.sample_nb``), solves each
with every hand open (``cardsim.debertz.solve_nb``: the value of every legal card under
perfect play by all seats) and plays the card with the best mean value. With ``nodes`` > 0
each solve stops searching after that many nodes and values what is left by a static count.
With three or four sides the solver's model of the others is ``maxn``: 0 (the default) all
of them against the seat (paranoid); 1 each side playing for its round points less the
others' (max-n); 2 each side playing for what is written down (max-n on recorded scores:
the byte, the pot and the byte penalty, D9.2-D9.3). With three players and a budget of
20,000 nodes neither max-n measured stronger: without alpha-beta pruning the same budget
searches less deep.

**Bidding and the seven swap** are decided by simulation too, not by hand-valuation tables:
for each of ``rollouts`` sampled deals (the other hands and the stock still to be dealt),
each legal option is tried and the deal played out to its end by the heuristic player in
every seat; the option with the best mean result (the seat's side's recorded points less
the mean of the other sides', D9) is taken. Every option is tried on the same deals, so
their comparison is not blurred by the luck of the draw. A play-out costs far less than a
solve, so these decisions draw many more deals than card play: a bid decided on a handful
of deals is a noisy one (with three players, 200 deals instead of 8 gained 3.6 points a
deal).

``ms`` > 0 stops drawing once that many milliseconds were spent on the decision (at least one
deal is always used); decisions then depend on the machine's speed, so runs with ``ms`` are
not reproducible.
"""

import time

import numpy as np
from numba import njit, objmode

from agents.debertz.heuristic import DebertzHeuristic
from agents.debertz.heuristic_nb import heuristic_action
from cardsim.bits_nb import lowest_bit, popcount
from cardsim.debertz import layout as L
from cardsim.debertz import sample_nb as S
from cardsim.debertz import solve_nb as V
from cardsim.debertz.engine_nb import legal_mask, side_of, step
from cardsim.jit import WITH_REFCOUNT

# the agent's parameter vector (agents.debertz.pimc.DebertzPIMC.OPTIONS order)
P_SAMPLES = 0
P_NODES = 1
P_MS = 2
P_MAXN = 3   # with three or four sides: 0 paranoid, 1 max-n on round points, 2 on records
P_ROLLOUTS = 4  # deals played out per option in bidding and the swap (0: ``samples``)

# the heuristic with its default options plays the rollouts of bidding decisions
ROLLOUT_PARAMS = DebertzHeuristic("debertz").params


@njit(cache=True)
def now_ms():
    """Milliseconds on a monotonic clock (for the optional time budget)."""
    with objmode(t="float64"):
        t = time.perf_counter() * 1000.0
    return t


@njit(cache=True)
def table_bits(st, R):
    """Transposition table size for a position: large early in the round, small late (a
    table is cleared for every decision, so an oversized one costs more than it saves)."""
    left = (8 if R[L.R_PLAYERS] == 4 else 9) - st[L.TRICK_NO]
    return 10 + min(left, 7)


@njit(cache=True, **WITH_REFCOUNT)
def pimc_action(st, R, mask, params, rng, i):
    """The pimc agent's action in ``st`` (a member of ``mask``), drawing from ``rng[i]``."""
    if popcount(mask) == 1:
        return lowest_bit(mask)
    if st[L.PHASE] == L.PH_PLAY:
        return play_by_solving(st, R, mask, params, rng, i)
    return choose_by_rollouts(st, R, mask, params, rng, i)


@njit(cache=True, **WITH_REFCOUNT)
def play_by_solving(st, R, mask, params, rng, i):
    me = st[L.TURN]
    samples = max(1, int(params[P_SAMPLES]))
    deal = np.empty(L.STATE_WIDTH, dtype=np.int64)
    pos = np.zeros(V.POSITION_WIDTH, dtype=np.int64)
    tt = V.new_table(table_bits(st, R))
    values = np.zeros(32, dtype=np.int64)
    total = np.zeros(32, dtype=np.float64)
    kn, ways = S.prepare(st, R, me)
    side = side_of(me, R[L.R_TEAMS])
    start = now_ms() if params[P_MS] > 0 else 0.0
    for k in range(samples):
        if S.sample_deal(st, R, kn, ways, rng, i, deal) < 0:
            break  # no consistent deal: cannot happen in a real position
        V.position_of(deal, R, side, pos)
        pos[V.P_BUDGET] = int(params[P_NODES])
        pos[V.P_MAXN] = params[P_MAXN]
        V.solve_root(pos, tt, values)
        m = mask
        while m != 0:
            c = lowest_bit(m)
            m &= m - 1
            total[c] += values[c]
        if params[P_MS] > 0 and now_ms() - start >= params[P_MS]:
            break
    return best_of(total, mask)


@njit(cache=True)
def best_of(total, mask):
    """The action of ``mask`` with the highest total (the lowest id among equals)."""
    best = -1
    m = mask
    while m != 0:
        a = lowest_bit(m)
        m &= m - 1
        if best < 0 or total[a] > total[best]:
            best = a
    return best


@njit(cache=True)
def rollout_value(deal, R, side, rng, i):
    """Play ``deal`` to the end of its deal with the heuristic in every seat; the result
    for ``side``: its recorded points less the mean of the other sides' (D9)."""
    while deal[L.PHASE] < L.PH_DEAL_END:
        step(deal, R, heuristic_action(deal, R, legal_mask(deal, R), ROLLOUT_PARAMS, rng, i))
    sides = R[L.R_SIDES]
    others = 0.0
    for s in range(sides):
        if s != side:
            others += deal[L.RECORDED + s]
    return deal[L.RECORDED + side] - others / (sides - 1)


@njit(cache=True)
def rollout_count(params):
    """Deals drawn for a bidding or swap decision: ``rollouts``, else ``samples``."""
    if params[P_ROLLOUTS] > 0:
        return int(params[P_ROLLOUTS])
    return max(1, int(params[P_SAMPLES]))


@njit(cache=True, **WITH_REFCOUNT)
def choose_by_rollouts(st, R, mask, params, rng, i):
    me = st[L.TURN]
    samples = rollout_count(params)
    deal = np.empty(L.STATE_WIDTH, dtype=np.int64)
    trial = np.empty(L.STATE_WIDTH, dtype=np.int64)
    total = np.zeros(64, dtype=np.float64)
    kn, ways = S.prepare(st, R, me)
    side = side_of(me, R[L.R_TEAMS])
    start = now_ms() if params[P_MS] > 0 else 0.0
    for k in range(samples):
        if S.sample_deal(st, R, kn, ways, rng, i, deal) < 0:
            break
        m = mask
        while m != 0:
            a = lowest_bit(m)
            m &= m - 1
            trial[:] = deal
            step(trial, R, a)
            total[a] += rollout_value(trial, R, side, rng, i)
        if params[P_MS] > 0 and now_ms() - start >= params[P_MS]:
            break
    return best_of(total, mask)
