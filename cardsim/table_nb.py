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

from typing import NamedTuple

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


# The loops' arguments travel as records (named tuples of arrays and numbers, which numba
# passes unboxed at no cost), grouped by what they mean.
class Items(NamedTuple):
    """Which items a loop plays and how each starts: items ``first .. first + count - 1`` of
    run ``seed``, whole games or single deals (``whole``); ``force``: Barbu's contract
    ``item % 7`` is imposed."""

    seed: int
    first: int
    count: int
    whole: bool
    force: bool


class Seats(NamedTuple):
    """Who decides in each seat under each seating pattern ``p``: the policy kind
    ``kinds[p, seat]``, its parameter row ``params[p, seat]`` and the agent (a row of the cost
    record, an entry of the results) ``agents[p, seat]``."""

    kinds: np.ndarray    # int64 (patterns, seats)
    params: np.ndarray   # float64 (patterns, seats, width)
    agents: np.ndarray   # int64 (patterns, seats)


class Results(NamedTuple):
    """Duplicate results per item ``k`` and agent ``a``: mean points per deal of the seats
    ``a`` held and its win share (each averaged over the patterns), deals played; with detail
    (arrays of ``count`` rows, else of none) the label of each item and pattern (Barbu: the
    contract) and every seat's points."""

    points: np.ndarray       # float64 (items, agents)
    wins: np.ndarray         # float64 (items, agents)
    deals: np.ndarray        # int64 (items,)
    labels: np.ndarray       # int64 (items or 0, patterns)
    seat_points: np.ndarray  # float64 (items or 0, patterns, 4)


class Clock(NamedTuple):
    """What compiled decisions cost (cardsim.decision_cost_nb): the cost record (a row per
    agent), each row's timing phase, the thread's timer."""

    cost: np.ndarray
    phase: np.ndarray
    timer: np.ndarray


class Rows(NamedTuple):
    """Games played row by row: state row ``S[i]``, generator ``rng[i]``, its item and seating
    pattern, its status (``WAITING``, ``DEAL_END``, ``FINISHED``) and the seat to act while
    waiting, the action its Python seat chose (none when negative), its statistics row and
    its timing phase."""

    S: np.ndarray
    rng: np.ndarray
    item: np.ndarray
    pattern: np.ndarray
    status: np.ndarray
    seats: np.ndarray
    actions: np.ndarray
    stats: np.ndarray
    phase: np.ndarray


def new_results(n_items: int, n_agents: int, n_patterns: int, detail: bool) -> Results:
    """Zeroed duplicate results; the label and seat-point arrays have rows only with
    ``detail``."""
    m = n_items if detail else 0
    return Results(np.zeros((n_items, n_agents)), np.zeros((n_items, n_agents)),
                   np.zeros(n_items, dtype=np.int64), np.zeros((m, n_patterns), dtype=np.int64),
                   np.zeros((m, n_patterns, 4)))


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
def timed_choice(policies, game, kind, params, st, R, rng, i, clock, agent):
    """``choose``, timed for ``agent`` of ``clock``'s cost record."""
    start = start_timing(clock.timer, agent)
    action = choose(policies, game, kind, params, st, R, rng, i)
    end_timing(clock.timer, clock.cost, agent, start)
    return action


@njit(cache=True, **NO_REFCOUNT)
def play_seats(game, policies, st, R, rng, i, seats, p, clock):
    """``play_compiled`` with the seats of pattern ``p`` that also keeps what the decisions
    cost: each decision of seat ``s`` is counted in row ``seats.agents[p, s]`` of the cost
    record, and timed there when ``clock.phase[i]`` says so (cardsim.decision_cost_nb). The
    timing draws nothing from ``rng``: the games are those ``play_compiled`` plays."""
    # Kept lean, as measured on a table of the heuristic and random play: the counts stay in
    # registers (a store into the record at every decision would make the compiled code
    # read the state row again after it: both are int64 arrays, which could overlap); the
    # seat is counted before the decision and a timed decision goes through a call of its
    # own (values kept alive across the inlined decision are spilled to memory).
    kinds = seats.kinds[p]
    params = seats.params[p]
    agents = seats.agents[p]
    taken = 0
    at = clock.phase[i]
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
            action = timed_choice(policies, game, kind, params[seat], st, R, rng, i, clock,
                                  agents[seat])
        else:
            if is_timed(at):  # the next decision is timed: this one takes a checkpoint's cost
                renew_checkpoint(clock.timer)
            action = choose(policies, game, kind, params[seat], st, R, rng, i)
        apply_action(game, st, R, action)
        taken += 1
    clock.phase[i] = at
    for s in range(agents.shape[0]):
        clock.cost[agents[s], DECISIONS] += (by_seat >> (s << 4)) & 0xFFFF
    return taken


# ---------------------------------------------------------------------------------------------
# simulation: every seat compiled, statistics summed per block
# ---------------------------------------------------------------------------------------------
@njit(cache=True, **NO_REFCOUNT)
def simulate_block(game, policies, st, R, rng, row, items, lo, hi, seats):
    """Items ``items.first + lo .. items.first + hi - 1`` with the seats of pattern 0, their
    statistics added to ``row``."""
    kinds = seats.kinds[0]
    params = seats.params[0]
    for k in range(lo, hi):
        item = items.first + k
        rng[0] = policy_stream(game, items.seed, item, items.whole)
        init_item(game, st, R, items.seed, item, items.whole)
        while True:
            count_decisions(game, row, play_compiled(game, policies, st, R, rng, 0, kinds,
                                                     params))
            record_deal(game, st, R, row, items.whole)
            if item_over(game, st, items.whole):
                break
            next_deal(game, st, R)


@njit(cache=True, nogil=True)
def simulate_worker(game, policies, R, items, seats, stats, counter):
    """A worker of ``simulate`` (cardsim.parallel_nb): blocks from ``counter`` until none is
    left, block b's statistics into ``stats[b]``."""
    n_blocks, n_stats = stats.shape
    st = worker_row(state_width(game))
    row = worker_row(n_stats)
    rng = np.zeros(1, dtype=np.uint64)
    local_rules = R.copy()  # each worker reads its own copies
    local_seats = Seats(seats.kinds.copy(), seats.params.copy(), seats.agents)
    b = next_block(counter)
    while b < n_blocks:
        row[:] = 0
        lo, hi = row_block(b, items.count, n_blocks)
        simulate_block(game, policies, st, local_rules, rng, row, items, lo, hi, local_seats)
        for j in range(n_stats):
            stats[b, j] = row[j]
        b = next_block(counter)


def simulate(game, policies, R, items: Items, seats: Seats, n_stats, n_blocks):
    """Play ``items`` with the seats of pattern 0 of ``seats``, in ``n_blocks`` blocks on
    numba's threads. Returns the game's statistics (``n_stats`` columns) summed over
    blocks."""
    stats = np.zeros((n_blocks, n_stats), dtype=np.int64)
    run_workers(simulate_worker, game, policies, R, items, seats, stats,
                np.zeros(1, dtype=np.int64))
    return stats.sum(axis=0)


# ---------------------------------------------------------------------------------------------
# duplicate play: every item once per seating pattern
# ---------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def add_pattern_result(game, st, R, whole, k, p, patterns, results):
    """Add the finished item ``k`` under pattern ``p`` (``patterns[p, seat]`` = agent) to
    ``results``: per agent its mean points per deal over the seats it held and its win
    share, each averaged over the patterns; the deals played; where ``results`` keeps
    detail, the item's label (Barbu: the contract played) and every seat's points."""
    n = num_seats(game, R)
    n_pat = patterns.shape[0]
    results.deals[k] += deals_played(game, st, whole)
    if results.labels.shape[0] > 0:
        results.labels[k, p] = item_label(game, st, whole)
        for s in range(n):
            results.seat_points[k, p, s] = seat_points(game, st, R, s, whole)
    for a in range(results.points.shape[1]):
        seats = 0
        total = 0.0
        won = 0
        for s in range(n):
            if patterns[p, s] == a:
                seats += 1
                total += seat_points(game, st, R, s, whole)
                won += seat_won(game, st, R, s, whole)
        if seats > 0:
            results.points[k, a] += total / seats / n_pat
            results.wins[k, a] += won / seats / n_pat


@njit(cache=True, inline="always")
def start_item(game, st, R, rng, i, items, item, pattern, duplicate):
    """Row ``st`` starts item ``item`` of ``items`` and ``rng[i]`` gets its stream
    (``pattern``'s under duplicate play)."""
    if duplicate:
        rng[i] = duplicate_stream(game, items.seed, item, pattern)
    else:
        rng[i] = policy_stream(game, items.seed, item, items.whole)
    init_item(game, st, R, items.seed, item, items.whole)
    if items.force:
        force_contract(game, st, R, item)


@njit(cache=True, **NO_REFCOUNT)
def duplicate_item(game, policies, st, R, rng, items, k, seats, results, clock):
    """Item ``items.first + k`` played once per seating pattern, into ``results``; what each
    agent's decisions cost is added to ``clock``'s record."""
    item = items.first + k
    for p in range(seats.agents.shape[0]):
        start_item(game, st, R, rng, 0, items, item, p, True)
        clock.phase[0] = first_phase(item, p)
        while True:
            play_seats(game, policies, st, R, rng, 0, seats, p, clock)
            if item_over(game, st, items.whole):
                break
            next_deal(game, st, R)
        add_pattern_result(game, st, R, items.whole, k, p, seats.agents, results)


@njit(cache=True, nogil=True)
def duplicate_worker(game, policies, R, items, seats, results, cost, counter):
    """A worker of ``duplicate`` (cardsim.parallel_nb): blocks from ``counter`` until none is
    left, block b's cost record into ``cost[b]``."""
    n_blocks = cost.shape[0]
    st = worker_row(state_width(game))
    rng = np.zeros(1, dtype=np.uint64)
    phase = np.zeros(1, dtype=np.int64)
    timer = new_timer(cost.shape[1])
    local_rules = R.copy()
    local_seats = Seats(seats.kinds.copy(), seats.params.copy(), seats.agents)
    b = next_block(counter)
    while b < n_blocks:
        lo, hi = row_block(b, items.count, n_blocks)
        clock = Clock(cost[b], phase, timer)
        for k in range(lo, hi):
            duplicate_item(game, policies, st, local_rules, rng, items, k, local_seats,
                           results, clock)
        b = next_block(counter)


def duplicate(game, policies, R, items: Items, seats: Seats, n_agents, detail, n_blocks,
              cost=None):
    """Duplicate play of ``items``: each once per seating pattern of ``seats`` (all agents
    compiled; ``n_agents`` agents), in ``n_blocks`` blocks on numba's threads. Returns the
    ``Results`` (with
    detail when ``detail``); what each agent's decisions cost is added to ``cost``, a cost
    record (cardsim.decision_cost_nb) with a row per agent, when given."""
    results = new_results(items.count, n_agents, seats.agents.shape[0], detail)
    block_cost = np.zeros((n_blocks, n_agents, COST_WIDTH), dtype=np.int64)
    run_workers(duplicate_worker, game, policies, R, items, seats, results, block_cost,
                np.zeros(1, dtype=np.int64))
    if cost is not None:
        cost += block_cost.sum(axis=0)
    return results


# ---------------------------------------------------------------------------------------------
# row by row: games that wait for Python agents
# ---------------------------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def start_rows_worker(game, R, rows, items, duplicate, counter, n_blocks):
    """A worker of ``start_rows`` (cardsim.parallel_nb): takes blocks of rows from ``counter``
    until none is left and starts each row's item."""
    b = next_block(counter)
    while b < n_blocks:
        lo, hi = row_block(b, rows.S.shape[0], n_blocks)
        for i in range(lo, hi):
            start_item(game, rows.S[i], R, rows.rng, i, items, rows.item[i], rows.pattern[i],
                       duplicate)
        b = next_block(counter)


def start_rows(game, R, rows: Rows, items: Items, duplicate):
    """Row i of ``rows`` starts item ``rows.item[i]`` of run ``items.seed`` (pattern
    ``rows.pattern[i]``'s stream under duplicate play) with its generator in
    ``rows.rng[i]``."""
    run_workers(start_rows_worker, game, R, rows, items, duplicate,
                np.zeros(1, dtype=np.int64), blocks_of_rows(rows.S.shape[0]))


@njit(cache=True, **NO_REFCOUNT)
def advance_range(game, policies, R, rows, seats, whole, pause, clock, lo, hi):
    """``advance_rows`` for rows ``lo .. hi-1``, on one thread."""
    for i in range(lo, hi):
        st = rows.S[i]
        status = rows.status
        if status[i] == FINISHED:
            continue
        if status[i] == DEAL_END:
            if item_over(game, st, whole):
                status[i] = FINISHED
                continue
            next_deal(game, st, R)
        elif rows.actions[i] >= 0:
            apply_action(game, st, R, rows.actions[i])
            count_decisions(game, rows.stats[i], 1)
        p = rows.pattern[i]
        while True:
            count_decisions(game, rows.stats[i], play_seats(game, policies, st, R, rows.rng, i,
                                                            seats, p, clock))
            if not deal_over(game, st):
                status[i] = WAITING
                rows.seats[i] = turn(game, st)
                break
            record_deal(game, st, R, rows.stats[i], whole)
            if pause:
                status[i] = DEAL_END
                break
            if item_over(game, st, whole):
                status[i] = FINISHED
                break
            next_deal(game, st, R)


@njit(cache=True, nogil=True)
def advance_rows_worker(game, policies, R, rows, seats, whole, pause, cost, counter, n_blocks):
    """A worker of ``advance_rows`` (cardsim.parallel_nb): takes blocks of rows from ``counter``
    until none is left, with its own copy of the rules row; block b's cost record into
    ``cost[b]``."""
    local_rules = R.copy()
    timer = new_timer(cost.shape[1])
    b = next_block(counter)
    while b < n_blocks:
        lo, hi = row_block(b, rows.S.shape[0], n_blocks)
        advance_range(game, policies, local_rules, rows, seats, whole, pause,
                      Clock(cost[b], rows.phase, timer), lo, hi)
        b = next_block(counter)


def advance_rows(game, policies, R, rows: Rows, seats: Seats, whole, pause, n_blocks,
                 cost=None):
    """Every unfinished row goes on: a waiting row first plays ``rows.actions[i]`` (none when
    negative) for its Python seat, a row paused at a deal end starts its next deal; then its
    compiled seats (those of pattern ``rows.pattern[i]``) decide until a Python seat is to
    act (status WAITING, the seat in ``rows.seats[i]``), the item ends (FINISHED) or, with
    ``pause``, a deal ends (DEAL_END). Each ended deal is added to statistics row
    ``rows.stats[i]``. The rows go in ``n_blocks`` blocks on numba's threads.

    What the compiled seats' decisions cost is added to ``cost``, a cost record
    (cardsim.decision_cost_nb) with a row per agent (``seats.agents[p, s]``), when given;
    ``rows.phase[i]`` (``first_phases`` of the row's item and pattern) says which of row i's
    decisions are timed."""
    n_agents = int(seats.agents.max()) + 1 if cost is None else cost.shape[0]
    block_cost = np.zeros((n_blocks, n_agents, COST_WIDTH), dtype=np.int64)
    run_workers(advance_rows_worker, game, policies, R, rows, seats, whole, pause, block_cost,
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
def duplicate_results(game, S, R, whole, row_item, row_pattern, patterns, results):
    """Add every finished row (item ``row_item[i]``, local to ``results``, and pattern
    ``row_pattern[i]`` of ``patterns``) to the duplicate results, rows in order."""
    for i in range(S.shape[0]):
        add_pattern_result(game, S[i], R, whole, row_item[i], row_pattern[i], patterns,
                           results)


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
