"""Search labels for training: the open-hand solver's value of every legal card.

At a card-play decision of a batch row, the deal the row holds is solved with every hand open
(``cardsim.solve_nb.solve_root`` through the ``pimc`` agent's pieces of each game,
``agents/<game>/pimc_nb.py``): the value of each legal card when every seat plays perfectly
from then on, for the side of the seat to act (its points less the others' over the cards
still to be won, with the solver options of a ``pimc`` parameter row: node budget, max-n).

``samples`` = 0 labels a position with its **actual deal**, which the network never sees:
over the positions self-play reaches with a given observation, the mean label of a card is
its double-dummy value averaged over the deals that really occur there, so a network that
regresses on these labels learns what ``pimc`` estimates, but weighted by where the hidden
cards really are (``pimc`` draws every consistent deal as equally likely). ``samples`` = k > 0
labels it instead with the mean over k deals drawn as ``pimc`` draws them (only what the seat
knows): the expectation of that label is exactly ``pimc``'s value of the card.

The decisions ``pimc`` takes by play-outs instead (bidding, the seven swap, Barbu's contract,
doubling, Domino and its tricks before the last ``solve``: where each game's ``by_solving``
is false) are labelled with ``rollouts`` > 0 as ``pimc`` values them: each option applied and
the deal played to its end by the heuristic in every seat, ``rollouts`` times (on the actual
deal, or on drawn deals with ``samples`` > 0), the game's measure of the result less its
baseline (``agents/<game>/pimc_nb.py``: ``playout_value``, ``option_baseline``). With
``rollouts`` = 0 they get no label, nor does a decision with a single legal action.

Decisions that ``pimc`` values by play-outs can be labelled by play-outs of the **network**
instead (``network`` given: its packed weights, ``agents.neural.forward_nb``), those of the
game's ``network_plays_out``: Barbu's tricks before its last ``solve``, Debertz's bids and
seven swap. Each legal option is applied to the actual deal and the deal played to its end
by the network's greedy choice in every seat, the game's measure of the result
(``finished_value``). The heuristic's play-outs value an option as if everyone went on
playing as the heuristic, which the network already beats; the network's value it as the
network would go on, so regressing on them is one step of policy iteration over the network
rather than over the heuristic, and every option of a decision is compared on the same deal
and continuation. The network's play is deterministic, so one play-out of the actual deal is
its value (``samples`` must be 0).

In the contracts of ``drawn_contracts`` (Barbu) the decisions of ``drawn_phases`` that
``pimc`` values by play-outs are labelled as it values them instead (the game's
``drawn_phase``): ``drawn_rollouts`` heuristic play-outs of each option, each of a deal
drawn from what the seat knows (``pimc``'s sampler). By default only the card play (the
tricks before those solved, Domino's cards): one play-out of the actual deal is a sample of
a card's value whose noise, where the cards differ by a few points (No Tricks, Trumps),
drowns the difference; the mean of many drawn deals is close to what ``pimc`` acts on, at
the price of ``pimc``'s uniform draws. The doubles, the trump suit and Domino's starting
rank keep their labels unless named: valued on drawn deals, a double lost a point a deal
in Trumps.

With a **prior** (``prior_margin`` >= 0) the play-outs are the network's over the heuristic,
as the ``neural`` agent plays with ``prior=heuristic,margin=M``: at each decision the
heuristic's action (default options, as the searches' play-outs take it) unless the
network's best beats it by more than M points. The labels then value an option as that
agent would go on, one step of policy iteration over it.
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from agents.ismcts_nb import rollout_action
from agents.listed_rows_nb import next_listed
from agents.neural.forward_nb import (Network, Scratch, contract_in_play, greedy_legal,
                                      over_prior, scratch)
from agents.pimc_nb import (
    PlayoutRows,
    baseline_deal,
    by_solving,
    drawn_phase,
    drawn_playouts,
    finished_value,
    new_playout_rows,
    phase_table,
    play_out_options,
    network_plays_out,
    position_width,
    solve_options,
    solver_position,
    solver_table,
)
from cardsim.bits_nb import lowest_bit, popcount
from cardsim.game_nb import apply_action, deal_over, legal, observe, turn
from cardsim.jit import WITH_REFCOUNT
from cardsim.parallel_nb import run_workers
from cardsim.sample_nb import sample_deal, sample_prepare
from cardsim.solve_nb import solve_root


class LabelOptions(NamedTuple):
    """How ``solver_labels`` labels its rows (its arguments, as the kernels read them)."""

    params: np.ndarray   # float64: a ``pimc`` option vector, whose solver options solves take
    samples: int         # deals drawn per label, 0: the actual deal
    rollouts: int        # heuristic play-outs per option of a decision not solved, 0: none
    scale: float         # labels are ``scale`` x points
    every: bool          # the network plays out every decision not solved
    margin: float        # >= 0: its play-outs keep the heuristic's action within this margin
    drawn: np.ndarray    # bool: decisions valued by play-outs of drawn deals (``phase_table``)
    drawn_rollouts: int  # ... that many play-outs each


class LabelWork(NamedTuple):
    """A worker's work arrays."""

    pos: np.ndarray      # int64: the solver's position
    values: np.ndarray   # int64 (64,): a solve's value of each card
    total: np.ndarray    # float64 (64,): each option's summed results
    rows: PlayoutRows    # the deal played out and the copy each option is applied to


class NetworkPlay(NamedTuple):
    """The network playing deals out, with its work arrays (one worker's)."""

    network: Network     # its packed weights
    margin: float        # >= 0: over the heuristic with this margin (``over_prior``)
    obs: np.ndarray      # float32: the observation of the seat to act
    forward: Scratch     # its forward's work arrays


@njit(cache=True, **WITH_REFCOUNT)
def solved_totals(game, st, R, me, bits, params, samples, rng, g, work):
    """Each legal card's solver value summed over the actual deal (``samples`` = 0) or
    ``samples`` drawn deals, into ``work.total``; returns the number of deals."""
    pos, values, total, deal = work.pos, work.values, work.total, work.rows.deal
    tt = solver_table(game, st, R, params)
    if samples == 0:
        solver_position(game, st, R, me, pos)
        solve_options(game, pos, params)
        solve_root(game, pos, tt, values)
        add_values(values, bits, total)
        return 1
    kn, ways = sample_prepare(game, st, R, me)
    n = 0
    for k in range(samples):
        if sample_deal(game, st, R, kn, ways, rng, g, deal) < 0:
            break
        solver_position(game, deal, R, me, pos)
        solve_options(game, pos, params)
        solve_root(game, pos, tt, values)
        add_values(values, bits, total)
        n += 1
    return n


@njit(cache=True)
def add_values(values, bits, total):
    """Add the solver's value ``values[c]`` of each legal card ``c`` of ``bits`` to
    ``total[c]``."""
    m = bits
    while m != 0:
        c = lowest_bit(m)
        m &= m - 1
        total[c] += values[c]


@njit(cache=True, **WITH_REFCOUNT)
def played_out_totals(game, st, R, base, bits, samples, rollouts, rng, g, work):
    """Each legal option's play-out result (the deal played to its end by the heuristic in
    every seat, the game's measure as ``pimc`` takes it for the seat to act, less the game's
    baseline) summed into ``work.total`` over ``rollouts`` play-outs of the actual deal
    (``samples`` = 0) or of as many drawn deals, as ``pimc`` draws them
    (``drawn_playouts``); returns the number of play-outs."""
    if samples > 0:
        return drawn_playouts(game, st, R, base, bits, rollouts, 0.0, rng, g, work.total)
    me = turn(game, st)
    rows = work.rows
    for k in range(rollouts):
        rows.deal[:] = st
        play_out_options(game, st, R, base, bits, me, rows, work.total, rng, g)
    return rollouts


@njit(cache=True, **WITH_REFCOUNT)
def network_playout(game, deal, R, me, play, rng, i):
    """``deal`` played to the end of its deal by the network (``play``) choosing greedily
    in every seat from what that seat observes, or with ``play.margin`` >= 0 (the network's
    units) keeping the heuristic's action unless the network's best beats it by more
    (generator ``rng[i]``); the game's measure of the result for seat ``me``."""
    weights, biases, widths = play.network
    obs = play.obs
    x, nz, h = play.forward
    while not deal_over(game, deal):
        base, bits = legal(game, deal, R)
        if popcount(bits) == 1:
            action = base + lowest_bit(bits)
        else:
            observe(game, deal, R, turn(game, deal), obs)
            action = greedy_legal(obs, base, bits, weights, biases, widths, x, nz, h)
            if play.margin >= 0.0:
                action = over_prior(h, action, rollout_action(game, deal, R, base, bits, rng,
                                                              i), play.margin)
        apply_action(game, deal, R, action)
    return finished_value(game, deal, R, me)


@njit(cache=True, **WITH_REFCOUNT)
def network_totals(game, st, R, base, bits, play, baselines, rng, g, work):
    """Each legal option of ``bits`` applied to the actual deal ``st`` and played out by the
    network (``network_playout``), its result for the seat to act into ``work.total``;
    where the game measures an option against a baseline deal (``baseline_deal``: Barbu's
    contract on an average hand), less its mean result over ``baselines`` such deals, each
    played out by the network too (over the heuristic with ``play.margin`` >= 0)."""
    me = turn(game, st)
    deal = work.rows.deal
    deal[:] = st
    network_options(game, R, base, bits, me, play, 1.0, rng, g, work)
    for k in range(baselines):
        if not baseline_deal(game, st, R, rng, g, deal):
            break
        network_options(game, R, base, bits, me, play, -1.0 / baselines, rng, g, work)


@njit(cache=True, **WITH_REFCOUNT)
def network_options(game, R, base, bits, me, play, weight, rng, i, work):
    """``weight`` x the network's play-out result of each option of ``bits`` applied to a
    copy of ``work.rows.deal``, into ``work.total``."""
    deal, trial, total = work.rows.deal, work.rows.trial, work.total
    m = bits
    while m != 0:
        b = lowest_bit(m)
        m &= m - 1
        trial[:] = deal
        apply_action(game, trial, R, base + b)
        total[b] += weight * network_playout(game, trial, R, me, play, rng, i)


@njit(cache=True, nogil=True, **WITH_REFCOUNT)
def label_rows_worker(game, states, R, rows, rng, labels, how, network, counter):
    """A worker of ``solver_labels`` (cardsim.parallel_nb): takes blocks of the listed rows from
    ``counter`` (``next_listed``) until none is left and writes each row's labels (rows with
    fewer than two legal actions, or none to label, are left NaN). ``network.widths`` empty:
    no network play-outs; else the network plays out the game's ``network_plays_out``
    decisions, or with ``how.every`` each decision not solved. Where
    ``how.drawn[c + 1, k + 1]`` for the contract ``c`` in play and the decision's
    ``drawn_phase`` ``k``, it gets ``how.drawn_rollouts`` heuristic play-outs of drawn deals
    instead."""
    params, samples, rollouts = how.params, how.samples, how.rollouts
    by_network = network.widths.shape[0] > 0
    widths = network.widths
    if not by_network:
        widths = np.ones(1, dtype=np.int64)  # scratch of one value, never used
    play = NetworkPlay(network, how.margin, np.zeros(widths[0], dtype=np.float32),
                       scratch(widths))
    work = LabelWork(np.zeros(position_width(game), dtype=np.int64),
                     np.zeros(64, dtype=np.int64), np.zeros(64, dtype=np.float64),
                     new_playout_rows(game))
    total = work.total
    lo, hi = next_listed(counter, rows.shape[0])
    while lo >= 0:
        for j in range(lo, hi):
            g = rows[j]
            st = states[g]
            base, bits = legal(game, st, R)
            if popcount(bits) < 2:
                continue
            me = turn(game, st)
            total[:] = 0.0
            if by_solving(game, st, R, params):
                n = solved_totals(game, st, R, me, bits, params, samples, rng, g, work)
            elif how.drawn[contract_in_play(game, st) + 1,
                           drawn_phase(game, st, R, params) + 1]:
                n = played_out_totals(game, st, R, base, bits, 1, how.drawn_rollouts, rng, g,
                                      work)
            elif by_network and (how.every or network_plays_out(game, st, R, params)):
                network_totals(game, st, R, base, bits, play, max(1, rollouts), rng, g, work)
                n = 1
            elif rollouts > 0:
                n = played_out_totals(game, st, R, base, bits, samples, rollouts, rng, g,
                                      work)
            else:
                continue
            if n == 0:
                continue
            m = bits
            while m != 0:
                c = lowest_bit(m)
                m &= m - 1
                labels[g, base + c] = total[c] * how.scale / n
        lo, hi = next_listed(counter, rows.shape[0])


def solver_labels(tag, states, R, rows, params, samples, scale, rng, num_actions,
                  rollouts=0, *, network=None, every=False, prior_margin=-1.0,
                  drawn_contracts=(), drawn_rollouts=0, drawn_phases=("play",)):
    """Labels of the batch rows ``rows`` of ``states`` (engine state rows of game ``tag``):
    a float32 array (len(states), num_actions), ``scale`` x each legal card's solver value
    (mean over ``samples`` drawn deals, or the actual deal for 0), with ``rollouts`` > 0
    every other decision's options valued by that many heuristic play-outs, and NaN wherever
    there is no label. ``params``: a ``pimc`` parameter row (its solver options are used);
    ``rng``: one generator state per row of ``states`` (``cardsim.rng_nb``), drawn from
    only when ``samples`` > 0; ``network``: the packed weights (``weights, biases,
    widths``, agents.neural.forward_nb.pack_weights) of a network of the game's
    observations and actions whose play-outs label the game's ``network_plays_out``
    decisions (with ``samples`` 0), or with ``every`` each decision not solved (a baseline
    over ``rollouts`` deals where the game has one), or None; ``prior_margin`` >= 0 (points)
    plays those play-outs by the network over the heuristic with that margin;
    ``drawn_contracts`` (Barbu's contract names) with ``drawn_rollouts`` > 0 label the
    decisions of ``drawn_phases`` (``agents.pimc_nb.DRAWN_PHASES``; card play not solved by
    default) in those contracts as ``pimc`` values them, by that many heuristic play-outs
    each of a deal drawn from what the seat knows. The rows are shared among numba's
    threads; the labels do not depend on how."""
    labels = np.full((states.shape[0], num_actions), np.nan, dtype=np.float32)
    drawn = phase_table(tag, drawn_contracts, drawn_phases) & (drawn_rollouts > 0)
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    if network is None:
        network = Network(np.zeros(0, np.float32), np.zeros(0, np.float32),
                          np.zeros(0, np.int64))
    elif samples:
        raise ValueError("network play-outs label on the actual deal: samples must be 0")
    elif network[2][0] > tag.observer.OBS_SIZE or network[2][-1] != num_actions:
        raise ValueError(f"the network maps {network[2][0]} observation values to "
                         f"{network[2][-1]} actions; this game has "
                         f"{tag.observer.OBS_SIZE} and {num_actions}")
    if rows.size:
        how = LabelOptions(params, int(samples), int(rollouts), float(scale), bool(every),
                           float(prior_margin) * float(scale) if prior_margin >= 0 else -1.0,
                           drawn, int(drawn_rollouts))
        run_workers(label_rows_worker, tag, states, R, rows, rng, labels, how,
                    Network(*network), np.zeros(1, dtype=np.int64))
    return labels
