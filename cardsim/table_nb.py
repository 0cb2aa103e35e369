"""The table: compiled loops that play games with a seating of policies, written once for
both games (``cardsim.game_nb`` picks each game's kernels at compile time, and
``cardsim.policy_nb`` the policies).

A seating gives every seat a policy ``kind`` and a float parameter row. Compiled kinds
(>= 0) decide inside the loops; a seat of kind ``PYTHON`` (-1) makes its game wait, so that
``cardsim.table`` can ask the Python agent for the decisions of every waiting game at once.

What decisions cost: the loops of tournaments (duplicate play, and row by row) decide
through ``play_seats``, which counts every decision of each agent and times one in
``cardsim.decision_cost_nb.SAMPLE_EVERY`` into a cost record (one row per agent); the plain
simulation, which reports no cost, through ``play_compiled``.

Items and chance: item ``i`` of a run has its cards fixed by (seed, i) (the engine's seeded
deals) and its policies' random draws from ``policy_stream(seed, i)`` in a simulation or
``duplicate_stream(seed, i, pattern)`` under a duplicate seating pattern. Nothing depends on
which thread or block plays an item, so results are the same for any thread count and batch
size, and the same whether a game is played by the block loops (all seats compiled) or row by
row with Python agents.
"""

import numpy as np
from numba import njit

from cardsim.bits_nb import fill_legal
from cardsim.decision_cost_nb import (COST_WIDTH, DECISIONS, end_timing, first_phase, is_timed,
                                      new_timer, next_phase, renew_checkpoint, start_timing)
from cardsim.game_nb import (apply_action, count_decisions, deal_over, deals_played,
                             duplicate_stream, force_contract, init_item, item_label, item_over,
                             legal, next_deal, num_seats, observe, policy_stream, record_deal,
                             seat_points, seat_won, state_width, turn)
from cardsim.jit import NO_REFCOUNT
from cardsim.parallel_nb import blocks_of_rows, next_block, row_block, run_workers, worker_row
from cardsim.policy_nb import PYTHON, choose

# Row status in the row-by-row loop (advance_rows).
WAITING = 0    # a Python seat is to act (its seat in seats[i]); also: not started yet
DEAL_END = 1   # paused at a deal end (hand records are read here)
FINISHED = 2   # the item is over


# Not inlined: called once per deal (or per stop for a Python seat), and compiled once per
# game and policy set for every loop that calls it.
@njit(cache=True, **NO_REFCOUNT)
def play_compiled(game, policies, st, R, rng, i, kinds, params):
    """Compiled seats decide until the deal ends or a ``PYTHON`` seat is to act; returns the
    decisions taken. ``rng[i]`` is the game's generator."""
    taken = 0
    while not deal_over(game, st):
        seat = turn(game, st)
        kind = kinds[seat]
        if kind == PYTHON:
            break
        apply_action(game, st, R, choose(policies, game, kind, params[seat], st, R, rng, i))
        taken += 1
    return taken


@njit(cache=True)
def timed_choice(policies, game, kind, params, st, R, rng, i, timer, cost, agent):
    """``choose``, timed for ``agent`` of cost record ``cost`` (cardsim.decision_cost_nb)."""
    start = start_timing(timer, agent)
    action = choose(policies, game, kind, params, st, R, rng, i)
    end_timing(timer, cost, agent, start)
    return action


@njit(cache=True, **NO_REFCOUNT)
def play_seats(game, policies, st, R, rng, i, kinds, params, agents, cost, phase, timer):
    """``play_compiled`` that also keeps what the decisions cost: each decision of seat
    ``s`` is counted in row ``agents[s]`` of cost record ``cost``, and timed there (with
    the thread's ``timer``) when ``phase[i]`` says so (cardsim.decision_cost_nb). The
    timing draws nothing from ``rng``: the games are those ``play_compiled`` plays."""
    # Kept lean, as measured on a table of the heuristic and random play: the counts stay in
    # registers (a store into the record at every decision would make the compiled code
    # read the state row again after it: both are int64 arrays, which could overlap); the
    # seat is counted before the decision and a timed decision goes through a call of its
    # own (values kept alive across the inlined decision are spilled to memory).
    taken = 0
    at = phase[i]
    by_seat = 0  # decisions of seat s in bits 16s .. 16s+15 (a deal has far fewer)
    while not deal_over(game, st):
        seat = turn(game, st)
        kind = kinds[seat]
        if kind == PYTHON:
            break
        by_seat += 1 << (seat << 4)
        timed = is_timed(at)
        at = next_phase(at)
        if timed:
            action = timed_choice(policies, game, kind, params[seat], st, R, rng, i, timer,
                                  cost, agents[seat])
        else:
            if is_timed(at):  # the next decision is timed: this one takes a checkpoint's cost
                renew_checkpoint(timer)
            action = choose(policies, game, kind, params[seat], st, R, rng, i)
        apply_action(game, st, R, action)
        taken += 1
    phase[i] = at
    for s in range(agents.shape[0]):
        cost[agents[s], DECISIONS] += (by_seat >> (s << 4)) & 0xFFFF
    return taken


# ---------------------------------------------------------------------------------------------
# simulation: every seat compiled, statistics summed per block
# ---------------------------------------------------------------------------------------------
@njit(cache=True, **NO_REFCOUNT)
def simulate_block(game, policies, st, R, rng, row, seed, first, lo, hi, whole, kinds, params):
    """Items first + lo .. first + hi - 1, their statistics added to ``row``."""
    for k in range(lo, hi):
        item = first + k
        rng[0] = policy_stream(game, seed, item, whole)
        init_item(game, st, R, seed, item, whole)
        while True:
            count_decisions(game, row, play_compiled(game, policies, st, R, rng, 0, kinds,
                                                     params))
            record_deal(game, st, R, row, whole)
            if item_over(game, st, whole):
                break
            next_deal(game, st, R)


@njit(cache=True, nogil=True)
def simulate_worker(game, policies, R, seed, first, n_items, whole, kinds, params, stats,
                    counter):
    """A worker of ``simulate`` (cardsim.parallel_nb): blocks from ``counter`` until none is
    left, block b's statistics into ``stats[b]``."""
    n_blocks, n_stats = stats.shape
    st = worker_row(state_width(game))
    row = worker_row(n_stats)
    rng = np.zeros(1, dtype=np.uint64)
    local_rules = R.copy()  # each worker reads its own copies
    local_kinds = kinds.copy()
    local_params = params.copy()
    b = next_block(counter)
    while b < n_blocks:
        row[:] = 0
        lo, hi = row_block(b, n_items, n_blocks)
        simulate_block(game, policies, st, local_rules, rng, row, seed, first, lo, hi, whole,
                       local_kinds, local_params)
        for j in range(n_stats):
            stats[b, j] = row[j]
        b = next_block(counter)


def simulate(game, policies, R, seed, first, n_items, whole, kinds, params, n_stats, n_blocks):
    """Play items ``first .. first + n_items - 1`` (deals, or whole games) with policy
    ``kinds[seat]`` and parameter row ``params[seat]`` in each seat, in ``n_blocks`` blocks
    on numba's threads. Returns the game's statistics (``n_stats`` columns) summed over
    blocks."""
    stats = np.zeros((n_blocks, n_stats), dtype=np.int64)
    run_workers(simulate_worker, game, policies, R, seed, first, n_items, whole, kinds, params,
                stats, np.zeros(1, dtype=np.int64))
    return stats.sum(axis=0)


# ---------------------------------------------------------------------------------------------
# duplicate play: every item once per seating pattern
# ---------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def add_pattern_result(game, st, R, whole, k, p, patterns, points, wins, deals, labels,
                       seat_pts, detail):
    """Add the finished item ``k`` under pattern ``p`` (``patterns[p, seat]`` = agent) to the
    results: per agent its mean points per deal over the seats it held and its win share,
    each averaged over the patterns; the deals played; with ``detail``, the item's label
    (Barbu: the contract played) and every seat's points."""
    n = num_seats(game, R)
    n_pat = patterns.shape[0]
    deals[k] += deals_played(game, st, whole)
    if detail:
        labels[k, p] = item_label(game, st, whole)
        for s in range(n):
            seat_pts[k, p, s] = seat_points(game, st, R, s, whole)
    for a in range(points.shape[1]):
        seats = 0
        total = 0.0
        won = 0
        for s in range(n):
            if patterns[p, s] == a:
                seats += 1
                total += seat_points(game, st, R, s, whole)
                won += seat_won(game, st, R, s, whole)
        if seats > 0:
            points[k, a] += total / seats / n_pat
            wins[k, a] += won / seats / n_pat


@njit(cache=True, inline="always")
def start_item(game, st, R, rng, i, seed, item, whole, pattern, duplicate, force):
    """Row ``st`` starts item ``item`` and ``rng[i]`` gets its stream (``pattern``'s under
    duplicate play); ``force``: Barbu's contract ``item % 7`` is imposed."""
    if duplicate:
        rng[i] = duplicate_stream(game, seed, item, pattern)
    else:
        rng[i] = policy_stream(game, seed, item, whole)
    init_item(game, st, R, seed, item, whole)
    if force:
        force_contract(game, st, R, item)


@njit(cache=True, **NO_REFCOUNT)
def duplicate_block(game, policies, st, R, rng, seed, first, lo, hi, whole, force, patterns,
                    agent_kinds, agent_params, seat_kinds, seat_params, points, wins, deals,
                    labels, seat_pts, detail, cost, phase, timer):
    """Items lo..hi-1 (of ``first``), each played once per seating pattern; what each
    agent's decisions cost is added to record ``cost``."""
    n = num_seats(game, R)
    for k in range(lo, hi):
        item = first + k
        for p in range(patterns.shape[0]):
            for s in range(n):
                a = patterns[p, s]
                seat_kinds[s] = agent_kinds[a]
                for j in range(agent_params.shape[1]):
                    seat_params[s, j] = agent_params[a, j]
            start_item(game, st, R, rng, 0, seed, item, whole, p, True, force)
            phase[0] = first_phase(item, p)
            while True:
                play_seats(game, policies, st, R, rng, 0, seat_kinds, seat_params,
                           patterns[p], cost, phase, timer)
                if item_over(game, st, whole):
                    break
                next_deal(game, st, R)
            add_pattern_result(game, st, R, whole, k, p, patterns, points, wins, deals,
                               labels, seat_pts, detail)


@njit(cache=True, nogil=True)
def duplicate_worker(game, policies, R, seed, first, n_items, whole, force, patterns,
                     agent_kinds, agent_params, detail, points, wins, deals, labels, seat_pts,
                     cost, counter, n_blocks):
    """A worker of ``duplicate`` (cardsim.parallel_nb): blocks from ``counter`` until none is
    left, block b's cost record into ``cost[b]``."""
    st = worker_row(state_width(game))
    rng = np.zeros(1, dtype=np.uint64)
    phase = np.zeros(1, dtype=np.int64)
    timer = new_timer(agent_kinds.shape[0])
    seat_kinds = np.zeros(4, dtype=np.int64)
    seat_params = np.zeros((4, agent_params.shape[1]), dtype=np.float64)
    local_rules = R.copy()
    local_kinds = agent_kinds.copy()
    local_params = agent_params.copy()
    b = next_block(counter)
    while b < n_blocks:
        lo, hi = row_block(b, n_items, n_blocks)
        duplicate_block(game, policies, st, local_rules, rng, seed, first, lo, hi, whole, force,
                        patterns, local_kinds, local_params, seat_kinds, seat_params, points,
                        wins, deals, labels, seat_pts, detail, cost[b], phase, timer)
        b = next_block(counter)


def duplicate(game, policies, R, seed, first, n_items, whole, force, patterns, agent_kinds,
              agent_params, detail, n_blocks, cost=None):
    """Duplicate play of items ``first .. first + n_items - 1``: each once per row of
    ``patterns`` (``patterns[p, seat]`` = agent index), all agents compiled, in ``n_blocks``
    blocks on numba's threads.

    Returns ``(points, wins, deals, labels, seat_points)``: per item and agent the mean points
    per deal of the seats it held and its win share (averaged over patterns), deals played
    per item; with ``detail`` the label of each item and pattern (Barbu: the contract) and
    every seat's points (else empty arrays). What each agent's decisions cost is added to
    ``cost``, a cost record (cardsim.decision_cost_nb) with a row per agent, when given."""
    n_agents = agent_kinds.shape[0]
    n_pat = patterns.shape[0]
    points = np.zeros((n_items, n_agents), dtype=np.float64)
    wins = np.zeros((n_items, n_agents), dtype=np.float64)
    deals = np.zeros(n_items, dtype=np.int64)
    m = n_items if detail else 0
    labels = np.zeros((m, n_pat), dtype=np.int64)
    seat_pts = np.zeros((m, n_pat, 4), dtype=np.float64)
    block_cost = np.zeros((n_blocks, n_agents, COST_WIDTH), dtype=np.int64)
    run_workers(duplicate_worker, game, policies, R, seed, first, n_items, whole, force,
                patterns, agent_kinds, agent_params, detail, points, wins, deals, labels,
                seat_pts, block_cost, np.zeros(1, dtype=np.int64), n_blocks)
    if cost is not None:
        cost += block_cost.sum(axis=0)
    return points, wins, deals, labels, seat_pts


# ---------------------------------------------------------------------------------------------
# row by row: games that wait for Python agents
# ---------------------------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def start_rows_worker(game, S, R, rng, seed, items, row_pattern, whole, duplicate, force,
                      counter, n_blocks):
    """A worker of ``start_rows`` (cardsim.parallel_nb): takes blocks of rows from ``counter``
    until none is left and starts each row's item."""
    b = next_block(counter)
    while b < n_blocks:
        lo, hi = row_block(b, S.shape[0], n_blocks)
        for i in range(lo, hi):
            start_item(game, S[i], R, rng, i, seed, items[i], whole, row_pattern[i],
                       duplicate, force)
        b = next_block(counter)


def start_rows(game, S, R, rng, seed, items, row_pattern, whole, duplicate, force):
    """Row i of ``S`` starts item ``items[i]`` (pattern ``row_pattern[i]`` under duplicate
    play) with its generator in ``rng[i]``."""
    run_workers(start_rows_worker, game, S, R, rng, seed, items, row_pattern, whole, duplicate,
                force, np.zeros(1, dtype=np.int64), blocks_of_rows(S.shape[0]))


@njit(cache=True, **NO_REFCOUNT)
def advance_range(game, policies, S, R, rng, row_pattern, kinds, params, actions, status,
                  seats, stats, whole, pause, seat_agents, cost, phase, timer, lo, hi):
    """``advance_rows`` for rows ``lo .. hi-1``, on one thread."""
    for i in range(lo, hi):
        st = S[i]
        if status[i] == FINISHED:
            continue
        if status[i] == DEAL_END:
            if item_over(game, st, whole):
                status[i] = FINISHED
                continue
            next_deal(game, st, R)
        elif actions[i] >= 0:
            apply_action(game, st, R, actions[i])
            count_decisions(game, stats[i], 1)
        p = row_pattern[i]
        while True:
            count_decisions(game, stats[i], play_seats(game, policies, st, R, rng, i, kinds[p],
                                                       params[p], seat_agents[p], cost,
                                                       phase, timer))
            if not deal_over(game, st):
                status[i] = WAITING
                seats[i] = turn(game, st)
                break
            record_deal(game, st, R, stats[i], whole)
            if pause:
                status[i] = DEAL_END
                break
            if item_over(game, st, whole):
                status[i] = FINISHED
                break
            next_deal(game, st, R)


@njit(cache=True, nogil=True)
def advance_rows_worker(game, policies, S, R, rng, row_pattern, kinds, params, actions, status,
                        seats, stats, whole, pause, seat_agents, cost, phase, counter,
                        n_blocks):
    """A worker of ``advance_rows`` (cardsim.parallel_nb): takes blocks of rows from ``counter``
    until none is left, with its own copy of the rules row; block b's cost record into
    ``cost[b]``."""
    local_rules = R.copy()
    timer = new_timer(cost.shape[1])
    b = next_block(counter)
    while b < n_blocks:
        lo, hi = row_block(b, S.shape[0], n_blocks)
        advance_range(game, policies, S, local_rules, rng, row_pattern, kinds, params, actions,
                      status, seats, stats, whole, pause, seat_agents, cost[b], phase, timer,
                      lo, hi)
        b = next_block(counter)


def advance_rows(game, policies, S, R, rng, row_pattern, kinds, params, actions, status, seats,
                 stats, whole, pause, n_blocks, seat_agents=None, cost=None, phase=None):
    """Every unfinished row goes on: a waiting row first plays ``actions[i]`` (none when
    negative) for its Python seat, a row paused at a deal end starts its next deal; then its
    compiled seats (``kinds[row_pattern[i]]``) decide until a Python seat is to act (status
    WAITING, the seat in ``seats[i]``), the item ends (FINISHED) or, with ``pause``, a deal
    ends (DEAL_END). Each ended deal is added to statistics row ``stats[i]``. The rows go in
    ``n_blocks`` blocks on numba's threads.

    What the compiled seats' decisions cost is added to ``cost``, a cost record
    (cardsim.decision_cost_nb) with a row per agent, when given: the agent of seat ``s``
    under pattern ``p`` is ``seat_agents[p, s]``, and ``phase[i]`` (``first_phases`` of the
    row's item and pattern) says which of row i's decisions are timed."""
    n_agents = 1 if cost is None else cost.shape[0]
    if seat_agents is None:
        seat_agents = np.zeros(kinds.shape, dtype=np.int64)
    if phase is None:
        phase = np.zeros(S.shape[0], dtype=np.int64)
    block_cost = np.zeros((n_blocks, n_agents, COST_WIDTH), dtype=np.int64)
    run_workers(advance_rows_worker, game, policies, S, R, rng, row_pattern, kinds, params,
                actions, status, seats, stats, whole, pause, seat_agents, block_cost, phase,
                np.zeros(1, dtype=np.int64), n_blocks)
    if cost is not None:
        cost += block_cost.sum(axis=0)


@njit(cache=True, nogil=True)
def observe_rows_worker(game, S, R, rows, out, legal_out, counter, n_blocks):
    """A worker of ``observe_rows`` (cardsim.parallel_nb): takes blocks of the listed rows from
    ``counter`` until none is left."""
    b = next_block(counter)
    while b < n_blocks:
        lo, hi = row_block(b, rows.shape[0], n_blocks)
        for j in range(lo, hi):
            st = S[rows[j]]
            observe(game, st, R, turn(game, st), out[j])
            base, bits = legal(game, st, R)
            fill_legal(base, bits, legal_out[j])
        b = next_block(counter)


def observe_rows(game, S, R, rows, out, legal_out):
    """For each listed row, the observation of its seat to act (``out[j]``) and its legal
    actions (``legal_out[j]``, 1 or 0)."""
    run_workers(observe_rows_worker, game, S, R, rows, out, legal_out,
                np.zeros(1, dtype=np.int64), blocks_of_rows(rows.shape[0]))


@njit(cache=True)
def duplicate_results(game, S, R, whole, row_item, row_pattern, patterns, points, wins, deals,
                      labels, seat_pts, detail):
    """Add every finished row (item ``row_item[i]``, local to the result arrays, and pattern
    ``row_pattern[i]``) to the duplicate results, rows in order."""
    for i in range(S.shape[0]):
        add_pattern_result(game, S[i], R, whole, row_item[i], row_pattern[i], patterns, points,
                           wins, deals, labels, seat_pts, detail)


@njit(cache=True)
def act_rows(game, policies, S, R, kind, params, rng, rows):
    """The action compiled policy ``kind`` takes in each listed row, with that row's
    generator (as if it were seated at the table)."""
    out = np.empty(rows.shape[0], dtype=np.int64)
    for j in range(rows.shape[0]):
        out[j] = choose(policies, game, kind, params, S[rows[j]], R, rng, rows[j])
    return out


@njit(cache=True)
def act_states(game, policies, S, R, kind, params, rng):
    """The action compiled policy ``kind`` takes in every row of ``S``, all drawing from one
    generator ``rng[0]`` (rows in order)."""
    out = np.empty(S.shape[0], dtype=np.int64)
    for j in range(S.shape[0]):
        out[j] = choose(policies, game, kind, params, S[j], R, rng, 0)
    return out
