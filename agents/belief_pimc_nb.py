"""Perfect-information Monte Carlo over deals weighted by a network's card-location beliefs
(the compiled part of ``pimc:beliefs=NAME``, ``agents/belief_pimc.py``).

``pimc`` draws every deal consistent with what the seat knows as equally likely: a seat
that bid the turn-up's suit, or led a suit again and again, is dealt random cards all the
same. A belief network (``agents.neural.beliefs``) reads the seat's observation and gives,
for every card it cannot see, the chance of each place it may be (each other seat, the dead
stock), learnt from games of the players it will meet. Here the sampler draws ``draws`` x as
many deals as ``pimc`` uses, each still uniform among the consistent deals (the hard
constraints stay exact, ``cardsim.sample_nb``), weighs each by the product over its hidden
cards of the belief of where the deal puts them (to the power ``beta``: 0 gives plain
``pimc``'s uniform draws), and keeps ``pimc``'s number of deals by systematic resampling:
likely deals are solved or played out more often, unlikely ones seldom or never. What is
done with the kept deals is ``pimc``'s own (``agents/pimc_nb.py``): card play by solving,
each card's values summed with the deal's multiplicity, the game's ``card_choice``; bids,
the seven swap, Barbu's contract by play-outs. Barbu's doubling (``weighed_special``) and
its early tricks (``plays_out_cards``), valued by play-outs of drawn deals, draw their
deals by the beliefs as well: a declarer's contract says much about the hand it holds.

Beliefs are indexed by place relative to the seat to act: place 0 is the dead stock (a card
of no hand), place k the seat k places after it.
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from agents.listed_rows_nb import next_listed
from agents.pimc_nb import (
    add_gains,
    best_of,
    card_choice,
    drawn_phase,
    new_playout_rows,
    play_out_options,
    plays_out_cards,
    search_options,
    position_width,
    reference_card,
    rollout_count,
    solve_count,
    solve_options,
    special_choice,
    solver_position,
    solver_table,
    solves,
    tricks_left,
    special_action,
    weighed_special,
)
from agents.neural.forward_nb import (best_legal, contract_in_play, critic_row, forward_row,
                                      scratch)
from cardsim.bits_nb import lowest_bit, popcount
from cardsim.deal_split_nb import KN_HOLDER, KN_HOLDERS
from cardsim.game_nb import legal, num_seats, turn
from cardsim.jit import WITH_REFCOUNT
from cardsim.parallel_nb import run_workers
from cardsim.rng_nb import below
from cardsim.sample_nb import draw_deal, sample_prepare, scratch_size, write_drawn
from cardsim.solve_nb import solve_root
from cardsim.transposition_nb import TT_WIDTH, new_table

PLACES = 4          # belief places: 0 the dead stock, k = 1..3 the seat k after the one to act
UNIT = 1 << 30      # resolution of the resampling's uniform offset


class BeliefSearch(NamedTuple):
    """How ``pimc:beliefs=NAME`` searches: its options (``belief_search`` makes one)."""

    params: np.ndarray    # float64: the ``pimc`` option vector (agents.<game>.pimc OPTIONS)
    draws: int            # candidate deals drawn per deal kept
    beta: float           # the power of the beliefs in a deal's weight (0: uniform draws)
    ratio: bool           # beliefs over the sampler's own chances (``draw_weighted``)
    endgame: int          # ``endgame=K``: the last tricks the search takes (``in_endgame``)
    searched: np.ndarray  # bool: the decisions ``search=`` leaves to it (``searched_row``)
    table: np.ndarray     # card play's kept transposition table; no rows: one per position


def belief_search(params, draws=1, beta=0.0, ratio=False, endgame=0, searched=None,
                  table=None) -> BeliefSearch:
    """A ``BeliefSearch`` of these options, each of the type the kernels are compiled for
    (``searched`` None: no decision left to the search by its phase; ``table`` None: a
    table sized for each position)."""
    if searched is None:
        searched = np.zeros((1, 1), dtype=np.bool_)
    if table is None:
        table = np.zeros((0, TT_WIDTH), dtype=np.int64)
    return BeliefSearch(params, int(draws), float(beta), bool(ratio), int(endgame),
                        searched, table)


class SeatKnowledge(NamedTuple):
    """What a seat knows of the deal, as the sampler reads it (``sample_prepare``)."""

    seat: int
    kn: np.ndarray        # the knowledge row (cardsim.deal_split_nb)
    ways: np.ndarray      # its completion counts


class Candidates(NamedTuple):
    """Candidate deals drawn to be weighed and resampled, one entry each."""

    helds: np.ndarray     # int64 (m, 4): the cards of each hidden holder
    tries: np.ndarray     # int64 (m,): the draw count that dealt it (``write_drawn``)
    weights: np.ndarray   # float64 (m,): its weight, the largest 1
    counts: np.ndarray    # int64 (m,): how often it is kept


@njit(cache=True)
def new_candidates(m):
    """``Candidates`` for ``m`` deals, zeroed."""
    return Candidates(np.zeros((m, 4), dtype=np.int64), np.zeros(m, dtype=np.int64),
                      np.zeros(m, dtype=np.float64), np.zeros(m, dtype=np.int64))


@njit(cache=True)
def resample_counts(weights, m, kept, u, counts):
    """Systematic resampling: how many of ``kept`` draws fall on each of the first ``m``
    candidates, candidate k with probability ``weights[k] / sum`` (``u`` in [0, 1): the one
    uniform offset). Every candidate of weight w gets floor or ceil of ``kept * w / sum``,
    so the kept deals follow the weights with the least resampling noise."""
    total = 0.0
    for k in range(m):
        counts[k] = 0
        total += weights[k]
    acc = weights[0]
    k = 0
    for s in range(kept):
        target = (u + s) / kept * total
        while k < m - 1 and acc <= target:
            k += 1
            acc += weights[k]
        counts[k] += 1


@njit(cache=True, **WITH_REFCOUNT)
def draw_weighted(game, st, R, known, logp, search, rng, i, cand):
    """Draw ``len(cand.tries)`` consistent deals of the cards seat ``known.seat`` cannot see
    (their hidden hands into ``cand.helds``, draw counts into ``cand.tries``) and each one's
    weight (``cand.weights``): exp(``search.beta`` x the sum over its hidden cards of the log
    belief ``logp`` of where it puts each), scaled so that the largest is 1. With
    ``search.ratio`` each card's belief is divided by how often the draws themselves put the
    card there (``sampler_log_chances``): the draws already follow the hard constraints, so
    only what the beliefs add to them is weighed, not counted twice. Returns the number
    drawn (0 for an inconsistent position)."""
    me, kn, ways = known
    helds, weights = cand.helds, cand.weights
    beta, ratio = search.beta, search.ratio
    n = num_seats(game, R)
    m = draw_hidden(game, st, R, kn, ways, rng, i, helds, cand.tries)
    if m == 0:
        return 0
    score = logp
    if ratio:
        score = logp - sampler_log_chances(kn, helds, m, me, n)
    cards, places = hidden_buffers()
    for k in range(m):
        w = 0.0
        for j in range(hidden_places(kn, helds[k], me, n, cards, places)):
            w += score[cards[j], places[j]]
        weights[k] = beta * w
    top = weights[:m].max()
    for k in range(m):
        weights[k] = np.exp(weights[k] - top)
    return m


@njit(cache=True, **WITH_REFCOUNT)
def draw_hidden(game, st, R, kn, ways, rng, i, helds, tries):
    """Draw up to ``len(tries)`` consistent deals of the cards the seat of ``kn`` cannot see:
    each one's hidden hands into ``helds[k]`` and its draw count into ``tries[k]``
    (``write_drawn`` deals it again from them). Returns the number drawn (fewer only for an
    inconsistent position)."""
    held = np.zeros(4, dtype=np.int64)
    buf = np.empty(scratch_size(game), dtype=np.int64)
    m = 0
    for k in range(tries.shape[0]):
        held[:] = 0
        t = draw_deal(game, st, R, kn, ways, rng, i, held, buf)
        if t < 0:
            break
        helds[m, :] = held
        tries[m] = t
        m += 1
    return m


@njit(cache=True, inline="always")
def holder_place(seat, me, n):
    """The belief place of a hidden holder: 0 the dead stock (seat < 0), else the seat's
    distance after ``me``."""
    return 0 if seat < 0 else (seat - me + n) % n


@njit(cache=True, inline="always")
def hidden_buffers():
    """Room for ``hidden_places``: the cards and the places of one deal's hidden cards."""
    return np.empty(64, dtype=np.int64), np.empty(64, dtype=np.int64)


@njit(cache=True, inline="always")
def hidden_places(kn, held, me, n, cards, places):
    """The hidden cards of one drawn deal (``held``: the cards of each hidden holder of
    ``kn``) into ``cards`` and the belief place of each (``holder_place``) into ``places``,
    holder after holder, each holder's from its lowest; returns how many."""
    t = 0
    for h in range(kn[KN_HOLDERS]):
        hand = held[h]
        place = holder_place(kn[KN_HOLDER + h], me, n)
        while hand != 0:
            cards[t] = lowest_bit(hand)
            places[t] = place
            hand &= hand - 1
            t += 1
    return t


@njit(cache=True)
def sampler_log_chances(kn, helds, m, me, n):
    """Log of how often the ``m`` draws put each card in each place ((64, PLACES); a half
    draw added to every count, so no chance is 0): the chances the sampler itself gives,
    hard constraints included."""
    counts = np.full((64, PLACES), 0.5)
    cards, places = hidden_buffers()
    for k in range(m):
        for j in range(hidden_places(kn, helds[k], me, n, cards, places)):
            counts[cards[j], places[j]] += 1.0
    return np.log(counts / (m + 2.0))


@njit(cache=True, **WITH_REFCOUNT)
def sampler_chance_rows(game, states, R, draws, rng, out):
    """For each engine row of ``states`` (generator ``rng[g]`` for row g), the sampler's
    own log chances of each place for every card the seat to act cannot see, from
    ``draws`` consistent deals: ``out[g]`` ((64, PLACES), ``sampler_log_chances``). What a
    belief network learnt over the sampler (``prior: sampler``) adds its logits to."""
    n = num_seats(game, R)
    helds = np.zeros((draws, 4), dtype=np.int64)
    tries = np.zeros(draws, dtype=np.int64)
    for g in range(states.shape[0]):
        st = states[g]
        me = turn(game, st)
        kn, ways = sample_prepare(game, st, R, me)
        m = draw_hidden(game, st, R, kn, ways, rng, g, helds, tries)
        out[g] = sampler_log_chances(kn, helds, m, me, n)


@njit(cache=True, **WITH_REFCOUNT)
def kept_deals(game, st, R, known, logp, search, kept, rng, i, cand):
    """Draw ``len(cand.tries)`` (``search.draws`` x ``kept``) candidate deals, weigh them by
    the beliefs and resample ``kept`` of them: ``cand.counts[k]`` is how often candidate k
    is kept. Returns the number of candidates (0: an inconsistent position)."""
    m = draw_weighted(game, st, R, known, logp, search, rng, i, cand)
    if m > 0:
        u = (below(rng, i, UNIT) + 0.5) / UNIT
        resample_counts(cand.weights, m, kept, u, cand.counts)
    return m


@njit(cache=True, **WITH_REFCOUNT)
def belief_action(game, st, R, base, bits, search, logp, ref, rng, i):
    """The action of ``pimc`` (options ``search.params``) in ``st`` with its deals drawn as
    the beliefs ``logp`` ((cards, PLACES) log chances, for the seat to act) weigh them; in
    card play the gains are measured against action ``ref`` (a network's card) where it is
    >= 0, else against the game's ``reference_card``. Card play's solves use the
    transposition table ``search.table`` (``endgame_table``: kept from decision to decision)
    or, where it has no rows, one the game sizes for the position (``solver_table``)."""
    params, draws, tt = search.params, search.draws, search.table
    if popcount(bits) == 1:
        return base + lowest_bit(bits)
    # Barbu's doubling and early tricks: options played out on the kept deals, their gains
    # measured against a reference option
    special_ref = weighed_special(game, st, R, params)
    by_playouts = special_ref >= 0 or plays_out_cards(game, st, R, params)
    if not by_playouts:
        special = special_action(game, st, R, base, bits, params, rng, i)
        if special >= 0:
            return special
    me = turn(game, st)
    card_play = by_playouts or solves(game, st, R)
    if card_play and not by_playouts:
        kept = solve_count(game, st, R, me, params)
    else:
        kept = rollout_count(game, params)
        if special_ref >= 0:
            kept = max(2, kept)  # a mean gain and its standard error
    cand = new_candidates(draws * kept)
    helds, tries, counts = cand.helds, cand.tries, cand.counts
    kn, ways = sample_prepare(game, st, R, me)
    m = kept_deals(game, st, R, SeatKnowledge(me, kn, ways), logp, search, kept, rng, i, cand)
    playout_rows = new_playout_rows(game)
    deal = playout_rows.deal
    total = np.zeros(64, dtype=np.float64)
    held = np.zeros(4, dtype=np.int64)
    if card_play:
        pos = np.zeros(position_width(game), dtype=np.int64)
        values = np.zeros(64, dtype=np.float64)
        solved = np.zeros(64, dtype=np.int64)
        squares = np.zeros(64, dtype=np.float64)
        if tt.shape[0] == 0:
            tt = solver_table(game, st, R, params)
        if special_ref >= 0:
            h = special_ref
        elif ref >= 0:
            h = ref - base
        else:
            h = reference_card(game, st, R, base, bits)
        n = 0
        for k in range(m):
            if counts[k] == 0:
                continue
            held[:] = helds[k]
            write_drawn(game, st, R, kn, held, tries[k], rng, i, deal)
            if by_playouts:  # each option tried and the deal played out, as pimc does
                values[:] = 0.0
                play_out_options(game, st, R, base, bits, me, playout_rows, values, rng, i)
            else:
                solver_position(game, deal, R, me, pos)
                solve_options(game, pos, params)
                solve_root(game, pos, tt, solved)
                values[:] = solved
            n += counts[k]
            add_gains(values, bits, h, counts[k], total, squares)
        if special_ref >= 0:
            return base + special_choice(game, total, squares, n, bits, h)
        return base + card_choice(game, total, squares, n, bits, h, params)
    part = np.zeros(64, dtype=np.float64)
    for k in range(m):
        if counts[k] == 0:
            continue
        held[:] = helds[k]
        write_drawn(game, st, R, kn, held, tries[k], rng, i, deal)
        part[:] = 0.0
        play_out_options(game, st, R, base, bits, me, playout_rows, part, rng, i)
        total += counts[k] * part
    return base + best_of(total, bits)


@njit(cache=True, inline="always")
def in_endgame(game, st, R, endgame):
    """Whether ``st`` is card play by solving with at most ``endgame`` tricks left, the
    current one included: what ``pimc:net=NAME,endgame=K`` leaves to the search."""
    return solves(game, st, R) and tricks_left(game, st, R) <= endgame


def endgame_table(endgame: int) -> np.ndarray:
    """The transposition table of ``endgame=K``'s solves, made once and kept by the agent:
    2**(10 + K) slots (at most 2**17), as Debertz sizes one for K tricks left. Its small
    solves would otherwise spend most of their time making a table for each decision (Barbu
    makes one of 2**15 slots or more); a kept table reads no entry of an earlier solve."""
    return new_table(10 + min(int(endgame), 7))


@njit(cache=True, inline="always")
def searched_row(game, st, R, params, endgame, searched):
    """Whether ``pimc:net=NAME,endgame=K`` leaves the decision of ``st`` to the search: card
    play by solving in the last ``endgame`` tricks (``in_endgame``), or a decision valued by
    play-outs of drawn deals whose contract and phase (``drawn_phase``) ``searched`` marks
    (``searched[contract + 1, phase + 1]``, the options ``search=`` and ``search_in=``)."""
    if in_endgame(game, st, R, endgame):
        return True
    return searched[contract_in_play(game, st) + 1, drawn_phase(game, st, R, params) + 1]


@njit(cache=True)
def searched_rows(game, states, R, rows, params, endgame, searched):
    """``searched_row`` of each row ``rows[j]`` of ``states``: bool (n,), the rows whose
    decision the search takes (where a belief network's forward is worth its cost)."""
    out = np.zeros(rows.shape[0], dtype=np.bool_)
    for j in range(rows.shape[0]):
        out[j] = searched_row(game, states[rows[j]], R, params, endgame, searched)
    return out


@njit(cache=True, inline="always")
def endgame_row(game, st, R, ref, logp, search, rng, g):
    """Row ``g``'s action under ``endgame=K``: ``ref`` (the network's), or ``belief_action``'s
    (card play measured against ``ref``) over the game's ``search_options`` where the search
    takes the decision (``searched_row``)."""
    if not searched_row(game, st, R, search.params, search.endgame, search.searched):
        return ref
    base, bits = legal(game, st, R)
    bits = search_options(game, st, R, base, bits)
    return belief_action(game, st, R, base, bits, search, logp, ref, rng, g)


@njit(cache=True, **WITH_REFCOUNT)
def endgame_actions(game, states, R, rows, refs, logp, search, rng):
    """``endgame_row`` of each row ``rows[j]`` of ``states`` with reference action
    ``refs[j]`` and beliefs ``logp[j]``: int64 (n,). One thread, rows in order, so that
    the kept table ``search.table`` is never shared."""
    out = np.zeros(rows.shape[0], dtype=np.int64)
    for j in range(rows.shape[0]):
        out[j] = endgame_row(game, states[rows[j]], R, refs[j], logp[j], search, rng, rows[j])
    return out


@njit(cache=True, **WITH_REFCOUNT)
def network_endgame_actions(game, states, R, rows, obs, legal_masks, network, search, rng):
    """``endgame_actions`` with each row's reference the network's action
    (``greedy_actions``'s choice for ``obs[j]`` under ``legal_masks[j]``), in one call: the
    same actions, without the Python between the network and the search that would cost a
    single game more than its small solves. The draws are uniform: ``search`` of one draw
    per deal kept, beta 0, no ratio."""
    weights, biases, widths = network
    x, nz, h = scratch(widths)
    logp = np.zeros((64, PLACES), dtype=np.float64)
    out = np.zeros(rows.shape[0], dtype=np.int64)
    for j in range(rows.shape[0]):
        forward_row(obs[j], weights, biases, widths, x, nz, h)
        out[j] = endgame_row(game, states[rows[j]], R, best_legal(h, legal_masks[j]), logp,
                             search, rng, rows[j])
    return out


@njit(cache=True, **WITH_REFCOUNT)
def critic_endgame_actions(game, prior, states, R, rng, rows, obs, legal_masks, critic,
                           search):
    """``network_endgame_actions`` where the network is the critic of a compiled prior
    (``net_prior=``): each row's reference is ``greedy_over_prior``'s action (the prior's
    arguments as there), one call for the batch. Each row draws from its own generator, the
    prior first and then the search, as the two calls of the Python path do."""
    work = scratch(critic.widths)
    logp = np.zeros((64, PLACES), dtype=np.float64)
    out = np.zeros(rows.shape[0], dtype=np.int64)
    for j in range(rows.shape[0]):
        g = rows[j]
        ref = critic_row(game, prior, states, R, rng, g, obs[j], legal_masks[j], critic, work)
        out[j] = endgame_row(game, states[g], R, ref, logp, search, rng, g)
    return out


@njit(cache=True, nogil=True, **WITH_REFCOUNT)
def belief_rows_worker(game, states, R, rows, refs, logp, search, rng, actions, counter):
    """One thread's share of ``belief_actions``: blocks of rows from the shared counter
    (``next_listed``), each row's action into ``actions``."""
    lo, hi = next_listed(counter, rows.shape[0])
    while lo >= 0:
        for j in range(lo, hi):
            st = states[rows[j]]
            base, bits = legal(game, st, R)
            actions[j] = belief_action(game, st, R, base, bits, search, logp[j], refs[j], rng,
                                       rows[j])
        lo, hi = next_listed(counter, rows.shape[0])


def belief_actions(tag, states, R, rows, params, logp, draws, beta, rng, *, ratio=False,
                   refs=None):
    """The actions of the rows ``rows`` of ``states`` (engine rows of game ``tag``, packed
    rules ``R``; generators ``rng[rows]``) for ``pimc`` options ``params``, each row's deals
    weighted by its beliefs ``logp[j]`` ((len(rows), 64, PLACES) log chances; ``ratio``:
    over the sampler's own chances, ``draw_weighted``). The rows are
    shared among numba's threads; the actions do not depend on how. ``refs``: each row's
    reference action for card play (a network's greedy action; -1 or None: the game's
    ``reference_card``)."""
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    refs = (np.full(rows.size, -1, dtype=np.int64) if refs is None
            else np.ascontiguousarray(refs, dtype=np.int64))
    actions = np.zeros(rows.size, dtype=np.int64)
    if rows.size:
        # a table sized for each position: the threads share no table
        search = belief_search(params, draws, beta, ratio)
        run_workers(belief_rows_worker, tag, states, R, rows, refs,
                    np.ascontiguousarray(logp, dtype=np.float64), search, rng, actions,
                    np.zeros(1, dtype=np.int64))
    return actions
