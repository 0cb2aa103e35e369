"""Barbu's pieces of perfect-information Monte Carlo (the ``pimc`` agent; its driver is
written once for both games in ``agents/pimc_nb.py``).

**Trick play.** The seat draws ``samples`` deals of the cards it cannot see, each uniform
among the deals consistent with what it knows (``cardsim.barbu.sample_nb``), solves each
with every hand open (``cardsim.barbu.solve_nb``: the value of every legal card for the
seat's deal score, with ``maxn`` each other seat playing for its own deal score, else the
three playing together against it) and plays the card with the best mean value. ``nodes`` > 0 bounds each root card's search and values what is left statically:
early in a deal four hands of 13 cards are far beyond an exact solve. Among cards of equal
mean value (common: against three opponents playing together many cards lose alike) the
heuristic's card is played. Max-n is the default: the paranoid model takes real opponents,
who each avoid penalties for themselves, for a team loading the seat with them.

Early in a deal the budgeted solves see little beyond their static count, and their best
card is often a guess no better than the heuristic's. With ``margin`` > 0 the best mean card
replaces the heuristic's only when its gain over it on the drawn deals beats ``margin``
standard errors of that mean gain (paired over the deals): late in the deal, where solves
are exact and agree, the search decides; early, a small noisy edge does not.

**Early tricks by play-outs.** While more than ``solve`` tricks are left (the current one
included), a card is valued instead by playing out: each legal card is tried on each of
``rollouts`` drawn deals and the deal played to its end by the heuristic in every seat, and
the card with the best mean deal score is played (the heuristic's card unless another beats
it by ``margin`` standard errors, as above). This is one step of policy improvement on the
heuristic that sees the whole deal, where a budgeted solve sees a trick or two and a static
count; a play-out costs far less than a solve, so many more deals are drawn. With 13 (every
trick solved) the agent is pure PIMC.

**Domino, the contract, trump, starting rank and doubling** are decided by simulation, not
by the heuristic's tables: for each of ``rollouts`` sampled deals (a play-out costs far less
than a solve, so many more than ``samples``) each legal option is tried and the deal played
out to its end by the heuristic in every seat; the option with the best mean deal
score (B7, settlements included) is taken. A double or redouble is taken only when its mean
gain exceeds one standard error (a bet on a difference of two scores is noisy, and a wrong
one costs that difference); ``doubling=0`` leaves doubling to the heuristic. Every option is
tried on the same deals, so their comparison is not blurred by the luck of the draw. The
contract choice spends a contract the declarer must otherwise play on a later hand (B2), so
a contract's value is its mean score on the sampled deals less its mean score on as many
fully random deals (what an average later hand would give it). Doubles still owed (B6.3) are
not weighed: the engine forces them once the chances left run out.

``ms`` stops drawing as it does for the driver's decisions (``agents/pimc_nb.py``).
"""

import numpy as np
from numba import njit

from agents.barbu.heuristic_nb import DEFAULT_PARAMS, SUIT_BITS, heuristic_action
from agents.barbu.pimc_options import OPTIONS
from agents.base import option_slot
from agents.pimc_nb import (P_MS, P_NODES, P_SAMPLES, add_gains, add_played_out,
                            best_of_preferring, new_playout_rows, pimc_action, sample_count)
from agents.clock_nb import now_ms
from cardsim.barbu import actions as A
from cardsim.barbu import layout as L
from cardsim.barbu import solve_nb as V
from cardsim.barbu.engine_nb import legal_mask
from cardsim.barbu.face_nb import GAME
from cardsim.bits_nb import lowest_bit
from cardsim.deal_split_nb import MAX_CARDS, shuffle_mask
from cardsim.game_nb import apply_action
from cardsim.jit import WITH_REFCOUNT, ix
from cardsim.sample_nb import sample_deal, sample_prepare

# the places of the options in the parameter vector (agents/barbu/pimc_options.py): this
# game's own here, ``P_SAMPLES``, ``P_NODES`` and ``P_MS`` (alike in every game) imported
P_DOUBLING = option_slot(OPTIONS, "doubling")
P_MAXN = option_slot(OPTIONS, "maxn")
P_ROLLOUTS = option_slot(OPTIONS, "rollouts")
P_MARGIN = option_slot(OPTIONS, "margin")
P_SOLVE = option_slot(OPTIONS, "solve")

# the heuristic with its default options plays the rollouts
ROLLOUT_PARAMS = DEFAULT_PARAMS
ALL_CARDS = (1 << 52) - 1


# --- this game's pieces of the driver written once for both games (agents.pimc_nb) ---------
@njit(cache=True, inline="always")
def special_action(st, R, base, bits, params, rng, i):
    """Trick play while more than ``solve`` tricks are left, by play-outs; doubling by
    play-outs or, with ``doubling=0``, as the heuristic; -1 for every other decision."""
    if plays_out_cards(st, R, params):
        return play_by_rollouts(st, R, base, bits, params, rng, i)
    if st[L.PHASE] == L.PH_DOUBLE:
        if params[P_DOUBLING] == 0:
            return heuristic_action(ROLLOUT_PARAMS, st, R, base, bits)
        return double_by_rollouts(st, R, base, bits, params, rng, i)
    return -1


@njit(cache=True, inline="always")
def weighed_special(st, R, params):
    """The decisions ``special_action`` takes by play-outs that a search over weighted deals
    (``pimc:beliefs=``, agents/belief_pimc_nb.py) values over its own deals instead: doubling
    by simulation. Returns the bit of the option kept unless another clearly gains (leaving
    the pair: bit 0), else -1."""
    if st[L.PHASE] == L.PH_DOUBLE and params[P_DOUBLING] != 0:
        return 0
    return -1


@njit(cache=True, inline="always")
def special_choice(total, squares, n, bits, h):
    """The option of a ``weighed_special`` decision from its play-outs' totals: the double
    or redouble only when its mean gain over leaving the pair (``h``) beats one standard
    error, as ``double_by_rollouts``."""
    return beyond_margin(total, squares, n, bits, h, 1.0)


@njit(cache=True, inline="always")
def solves(st, R):
    """Trick play is solved (Domino's card play is an option by play-outs)."""
    return st[L.PHASE] == L.PH_PLAY and st[L.CONTRACT] != A.DOMINO


@njit(cache=True, inline="always")
def search_options(st, R, base, bits):
    """The options a network's search (``search=``) weighs by its play-outs: Domino's
    starting rank (B5) among the ranks the declarer holds (under another the declarer
    opens by passing and the others' rows come first; the play-outs of 13 ranks cost the
    most of any decision left to the search), every legal option of other decisions."""
    if st[L.PHASE] != L.PH_START_RANK:
        return bits
    hand = st[ix(L.HANDS + st[L.TURN])]
    ranks = (hand | hand >> 13 | hand >> 26 | hand >> 39) & SUIT_BITS  # bit r: rank r held
    held = bits & (ranks << (A.START_RANK - base))
    return held if held != 0 else bits


@njit(cache=True, inline="always")
def tricks_left(st, R):
    """The tricks still to play, the current one included (13 in all)."""
    return 13 - st[L.TRICK_NO]


@njit(cache=True, inline="always")
def plays_out_cards(st, R, params):
    """Trick play with more than ``solve`` tricks left (the current one included) values
    each card by play-outs of drawn deals (``play_by_rollouts``)."""
    return solves(st, R) and tricks_left(st, R) > params[P_SOLVE]


@njit(cache=True, inline="always")
def network_plays_out(st, R, params):
    """Training's network play-outs (``playouts: network``, experiments/train/labels_nb.py)
    label the tricks that ``pimc`` plays out (``plays_out_cards``); the contract choice,
    Domino and the doubles keep the heuristic's (``playouts: network-all`` takes them too,
    the contract's baseline played out by the network as well)."""
    return plays_out_cards(st, R, params)


@njit(cache=True, inline="always")
def drawn_phase(st, R, params):
    """Which of training's ``drawn_phases`` (experiments/train/labels_nb.py ``DRAWN_PHASES``:
    0 play, 1 double, 2 trump, 3 start_rank) a decision is, among those ``pimc`` values by
    heuristic play-outs of drawn deals: the tricks before the last ``solve`` and Domino's
    cards, the doubles (unless ``doubling=0``), the trump suit, Domino's starting rank; -1
    for any other."""
    phase = st[L.PHASE]
    if plays_out_cards(st, R, params) or (phase == L.PH_PLAY and st[L.CONTRACT] == A.DOMINO):
        return 0
    if phase == L.PH_DOUBLE:
        return 1 if params[P_DOUBLING] != 0 else -1
    if phase == L.PH_TRUMP:
        return 2
    if phase == L.PH_START_RANK:
        return 3
    return -1


@njit(cache=True, inline="always")
def by_solving(st, R, params):
    """Trick play with at most ``solve`` tricks left (the earlier ones go by play-outs)."""
    return solves(st, R) and tricks_left(st, R) <= params[P_SOLVE]


@njit(cache=True, inline="always")
def playout_value(deal, R, me, rng, i):
    """The seat ``me``'s deal score (B7, settlements included) once ``deal`` is played out by the
    heuristic in every seat; ``rng`` and ``i`` are not drawn from (the heuristic is
    deterministic)."""
    return rollout_score(deal, R, me)


@njit(cache=True, inline="always")
def baseline_deal(st, R, rng, i, out):
    """B2: the contract choice spends a contract the declarer must otherwise play on a later
    hand: each contract's play-out on a fully random deal (an average later hand, dealt into
    ``out``) is taken off its total. True at the contract choice, else False (no baseline,
    nothing drawn)."""
    if st[L.PHASE] != L.PH_CONTRACT:
        return False
    random_deal(st, rng, i, out, np.empty(MAX_CARDS, dtype=np.int64))
    return True


@njit(cache=True, inline="always")
def solver_table(st, R, params):
    """A transposition table for this decision's solves: 2**15 entries when each root card's search
    has a node budget (it fills little), else 2**18."""
    return V.solver_table(15 if int(params[P_NODES]) > 0 else 18)


@njit(cache=True, inline="always")
def solver_position(deal, R, me, pos):
    """The solver's position of drawn deal ``deal``, valued for seat ``me``
    (``solve_nb.position_of``)."""
    V.position_of(deal, R, me, pos)


@njit(cache=True, inline="always")
def solve_options(pos, params):
    """The agent's options on the solver's position: the node budget of each root card (``nodes``,
    0: exact) and the max-n model (``maxn``)."""
    pos[V.P_BUDGET] = int(params[P_NODES])
    pos[V.P_MAXN] = params[P_MAXN]


@njit(cache=True, inline="always")
def reference_card(st, R, base, bits):
    """The heuristic's card: the gains of the others are measured against it."""
    return heuristic_action(ROLLOUT_PARAMS, st, R, base, bits)


@njit(cache=True, inline="always")
def card_choice(total, squares, n, bits, h, params):
    """The card played from the solves' totals: ``beyond_margin`` with the ``margin`` option, ``h``
    being the heuristic's card."""
    return beyond_margin(total, squares, n, bits, h, params[P_MARGIN])


@njit(cache=True)
def beyond_margin(total, squares, n, mask, h, margin):
    """The card of ``mask`` with the best total value over ``n`` drawn deals, the
    heuristic's card ``h`` among equals; with ``margin`` > 0 ``h`` unless the best card's
    mean gain over it (``squares``: the sums of each card's squared gains over ``h``, paired
    by deal) beats ``margin`` standard errors."""
    # equal values are common (all cards lose the same against three opponents playing
    # together): the heuristic's card is taken among them
    best = best_of_preferring(total, mask, h)
    if margin > 0 and best != h:
        if n < 2:
            return h
        gain = (total[best] - total[h]) / n
        spread = max(squares[best] / n - gain * gain, 0.0)
        if gain <= margin * np.sqrt(spread / (n - 1)):
            return h
    return best


@njit(cache=True, **WITH_REFCOUNT)
def play_by_rollouts(st, R, base, mask, params, rng, i):
    """Trick play by simulation: each legal card tried on ``rollouts`` drawn deals, every
    deal played out by the heuristic in every seat; the card with the best mean deal score
    (the heuristic's card unless another beats it by ``margin`` standard errors). Early in
    a deal this one-step improvement on the heuristic sees the whole deal, which a budgeted
    solve does not."""
    me = st[L.TURN]
    samples = rollout_count(params)
    rows = new_playout_rows(GAME)
    total = np.zeros(64, dtype=np.float64)
    squares = np.zeros(64, dtype=np.float64)
    score = np.zeros(64, dtype=np.float64)
    h = heuristic_action(ROLLOUT_PARAMS, st, R, base, mask) - base
    kn, ways = sample_prepare(V.BARBU, st, R, me)
    start = now_ms() if params[P_MS] > 0 else 0.0
    n = 0
    for k in range(samples):
        sample_deal(V.BARBU, st, R, kn, ways, rng, i, rows.deal)
        score[:] = 0.0  # this deal's results alone
        add_played_out(GAME, R, base, mask, me, rows, score, 1.0, rng, i)
        n += 1
        add_gains(score, mask, h, 1, total, squares)
        if params[P_MS] > 0 and now_ms() - start >= params[P_MS]:
            break
    return base + beyond_margin(total, squares, n, mask, h, params[P_MARGIN])


@njit(cache=True, inline="always")
def solve_count(st, R, me, params):
    """Deals drawn and solved for a card: ``samples``."""
    return sample_count(params)


@njit(cache=True)
def rollout_count(params):
    """Deals drawn for a decision by simulation: ``rollouts``, else ``samples``."""
    if params[P_ROLLOUTS] > 0:
        return int(params[P_ROLLOUTS])
    return sample_count(params)


@njit(cache=True)
def rollout_score(deal, R, seat):
    """Play ``deal`` to the end of its deal with the heuristic in every seat; ``seat``'s deal
    score (B7)."""
    while deal[L.PHASE] < L.PH_DEAL_END:
        base, bits = legal_mask(deal, R)
        apply_action(GAME, deal, R, heuristic_action(ROLLOUT_PARAMS, deal, R, base, bits))
    return finished_value(deal, R, seat)


@njit(cache=True, inline="always")
def finished_value(deal, R, me):
    """``playout_value``'s measure of a deal already played out: seat ``me``'s deal score
    (B7, settlements included)."""
    return deal[ix(L.DEAL_SCORES + me)]


@njit(cache=True)
def random_deal(st, rng, i, out, buf):
    """``out``: ``st`` with all 52 cards dealt afresh (an average hand for every seat)."""
    out[:] = st
    shuffle_mask(ALL_CARDS, buf, rng, i)
    for s in range(4):
        hand = 0
        for k in range(13):
            hand |= 1 << buf[13 * s + k]
        out[ix(L.HANDS + s)] = hand
        out[ix(L.DEALT + s)] = hand


@njit(cache=True, **WITH_REFCOUNT)
def double_by_rollouts(st, R, base, bits, params, rng, i):
    """B6: leave the pair (NO_DOUBLE, bit 0) unless the double or redouble (the other bit)
    gains on the sampled deals by more than one standard error of the mean gain: a bet on
    a difference of two scores is noisy, and a wrong bet costs that difference."""
    me = st[L.TURN]
    samples = max(2, rollout_count(params))
    other = lowest_bit(bits & ~1)
    deal = np.empty(L.STATE_WIDTH, dtype=np.int64)
    trial = np.empty(L.STATE_WIDTH, dtype=np.int64)
    kn, ways = sample_prepare(V.BARBU, st, R, me)
    start = now_ms() if params[P_MS] > 0 else 0.0
    n = 0
    total = 0.0
    squares = 0.0
    for k in range(samples):
        sample_deal(V.BARBU, st, R, kn, ways, rng, i, deal)
        trial[:] = deal
        apply_action(GAME, trial, R, base + other)
        gain = rollout_score(trial, R, me)
        trial[:] = deal
        apply_action(GAME, trial, R, base)
        gain -= rollout_score(trial, R, me)
        n += 1
        total += gain
        squares += gain * gain
        if params[P_MS] > 0 and now_ms() - start >= params[P_MS] and n >= 2:
            break
    mean = total / n
    spread = max(squares / n - mean * mean, 0.0)
    return base + (other if mean > np.sqrt(spread / (n - 1)) else 0)


@njit(cache=True, inline="always")
def policy_action(game, params, st, R, base, bits, rng, i):
    """The pimc agent's decision at the table (the ``CompiledPolicy`` signature of
    cardsim.policy_nb)."""
    return pimc_action(GAME, st, R, base, bits, params, rng, i)
