"""Compiled kernels of the Barbu heuristic (strategy: agents/barbu/heuristic.py).

``heuristic_action(params, st, R, base, bits)`` returns a legal action for the seat to act in
state row ``st``, given the legal set ``(base, bits)`` (engine_nb.legal_mask). It reads only
what that seat knows: its own hand, the cards played (``PLAYED``, the trick, the plays log,
from which it reads the suits each seat has shown it lacks), the contract, trump and starting
rank, the doubles spoken, the Domino rows, scores, doubles owed and contracts left. Other
seats' hands (``HANDS``, ``DEALT``, ``DECK``) are never read.

Everything is scalar and bitmask logic: no array is allocated, so the kernels run inside
loops compiled without reference counting (cardsim/jit.py).
"""

import numpy as np
from numba import njit

from agents.barbu.heuristic import BarbuHeuristic
from agents.barbu.heuristic_options import OPTIONS
from agents.base import option_slot
from cardsim.barbu import actions as A
from cardsim.barbu import layout as L
from cardsim.bits_nb import best_bit, highest_bit, lowest_bit, popcount
from cardsim.jit import NO_REFCOUNT

# the heuristic with its default options (the search agents' play-outs)
DEFAULT_PARAMS = BarbuHeuristic("barbu").params

ALL_CARDS = (1 << 52) - 1
SUIT_BITS = (1 << 13) - 1
HEARTS_SUIT = 1
HEARTS = SUIT_BITS << 13
KING_HEARTS = 1 << (13 + 11)
ACE_HEARTS = 1 << (13 + 12)
QUEENS = (1 << 10) | (1 << 23) | (1 << 36) | (1 << 49)
RANK_BITS = 1 | (1 << 13) | (1 << 26) | (1 << 39)
EVERY_SUIT = (1 << 4) - 1  # a mask of suits 0-3 (what best_bit picks a suit from)
EVERY_RANK = SUIT_BITS  # a mask of ranks 0-12
QUEEN, KING, ACE = 10, 11, 12

# the agent's options' places in its parameter vector (agents/barbu/heuristic_options.py)
P_DOUBLE_MARGIN = option_slot(OPTIONS, "double_margin")
P_REDOUBLE_MARGIN = option_slot(OPTIONS, "redouble_margin")
P_DECLARER_EDGE = option_slot(OPTIONS, "declarer_edge")
P_OBLIGATION_PRESSURE = option_slot(OPTIONS, "obligation_pressure")
P_DOMINO_BLOCK = option_slot(OPTIONS, "domino_block")
P_DOUBLES = option_slot(OPTIONS, "doubles")
P_CHOICE_SPREAD = option_slot(OPTIONS, "choice_spread")


# ---------------------------------------------------------------------------------------------
# hand evaluation: expected contract score of a 13-card hand (contract choice and doubling)
# ---------------------------------------------------------------------------------------------
N_FEATURES = 12
# COEF[contract, role, feature] (role 0 = declarer, 1 = defender): a linear fit of the contract
# score (B4, B5) to the features below, on 560,000 seat-deals (140,000 hands-mode deals, seed
# 12345) played by this heuristic in every seat with the contract forced to deal % 7.
# MEAN[contract, role]: the mean contract score there.
COEF = np.array([
    # no_tricks: declarer, defender
    [-1.204, -1.973, -1.886, -1.543, -1.233, -0.760, 0.685, 3.114, 1.398, -0.215, -0.706, 0.388],
    [-1.352, -1.934, -1.768, -1.495, -1.198, -0.748, 0.674, 3.249, 1.531, -0.209, -0.654, 0.401],
    # no_queens: declarer, defender
    [-2.515, -1.839, -1.677, -1.500, -0.711, -0.520, 0.426, 3.704, 2.015, 0.192, -1.556, 0.081],
    [-2.034, -1.634, -1.543, -1.434, -0.681, -0.572, 0.368, 3.531, 1.790, 0.201, -1.582, 0.056],
    # no_last_two: declarer, defender
    [-20.048, 0.203, -0.403, -0.082, -0.572, -0.616, 1.216, 1.342, 0.899, 0.856, -0.560, 2.620],
    [-18.252, 0.358, -0.159, -0.158, -0.383, -0.512, 1.159, 1.041, 0.446, 0.501, -0.619, 2.686],
    # no_hearts: declarer, defender
    [-12.076, -2.887, -2.445, -2.061, -1.609, -1.388, 1.017, 0.018, 0.480, 1.275, 0.760, 0.942],
    [-11.552, -2.542, -2.051, -1.759, -1.535, -1.145, 0.998, 0.609, 0.197, 1.312, 0.651, 0.768],
    # no_king: declarer, defender
    [-0.754, -0.870, -1.115, -0.578, -0.407, -0.492, 0.266, 3.403, 2.023, -0.157, -12.467, 3.550],
    [-2.084, -0.464, -0.991, -0.449, -0.322, -0.418, 0.318, 2.951, 1.681, -0.011, -12.101, 3.479],
    # trumps: declarer, defender
    [-13.536, 4.903, 3.765, 1.723, 1.116, 0.579, -0.101, 6.328, 2.492, -0.497, 4.921, 1.386],
    [-5.196, 4.908, 3.303, 1.201, 0.528, 0.302, -0.080, 3.840, 1.691, -0.263, 3.475, 0.505],
    # domino: declarer, defender
    [55.317, 0.166, 1.305, 2.145, 1.885, 0.536, 1.608, -1.938, 2.203, 0.720, 1.162, -18.207],
    [54.733, -4.514, -2.900, -1.219, -0.457, 0.076, -2.172, -2.473, -0.052, 0.432, -1.860, -6.099],
]).reshape(7, 2, N_FEATURES)
MEAN = np.array([[-6.650, -6.450], [-6.432, -5.856], [-7.792, -7.403], [-8.522, -7.159],
                 [-5.305, -4.898], [22.989, 14.004], [18.220, 15.594]])
# SPREAD[contract]: standard deviation of the declarer's contract score in that sample.
SPREAD = np.array([4.75, 6.50, 12.70, 8.50, 8.83, 8.88, 19.47])


@njit(cache=True, inline="always")
def suit_len(hand, s):
    """Number of cards of suit ``s`` in ``hand``."""
    return popcount(hand & (SUIT_BITS << (13 * s)))


@njit(cache=True, inline="always")
def trump_suit_value(s, hand):
    """How good suit ``s`` of ``hand`` is as trumps: its length, then its top honours."""
    m = (hand >> (13 * s)) & SUIT_BITS
    return 3.0 * popcount(m) + 2.0 * ((m >> ACE) & 1) + 1.5 * ((m >> KING) & 1) \
        + 1.0 * ((m >> QUEEN) & 1) + 0.5 * ((m >> 9) & 1)


@njit(cache=True, **NO_REFCOUNT)
def best_trump(hand):
    """Trumps (B4): the suit with the most length and top honours."""
    return best_bit(EVERY_SUIT, trump_suit_value, hand)


@njit(cache=True, inline="always")
def rank_spread(hand, r):
    """How far the cards of ``hand`` lie from rank ``r``: the sum of their rank distances."""
    spread = 0
    for s in range(4):
        m = (hand >> (13 * s)) & SUIT_BITS
        while m != 0:
            k = lowest_bit(m)
            m &= m - 1
            spread += k - r if k > r else r - k
    return spread


@njit(cache=True, inline="always")
def start_rank_value(r, hand):
    """How well rank ``r`` suits ``hand`` as the Domino starting rank (``best_start_rank``)."""
    return 4.0 * popcount(hand & (RANK_BITS << r)) - rank_spread(hand, r)


@njit(cache=True, **NO_REFCOUNT)
def best_start_rank(hand):
    """Domino (B5): the rank whose four cards sit in the middle of the hand's own cards: many
    cards of that rank and the rest close to it (they come out soon after the row opens)."""
    return best_bit(EVERY_RANK, start_rank_value, hand)


@njit(cache=True, **NO_REFCOUNT)
def features(hand, contract, x):
    """Features of a hand for ``contract`` (x: trump suit in Trumps, starting rank in Domino).
    Returns a tuple of N_FEATURES floats; feature 0 is the constant 1."""
    n_a = popcount(hand & (RANK_BITS << ACE))
    n_k = popcount(hand & (RANK_BITS << KING))
    n_q = popcount(hand & (RANK_BITS << QUEEN))
    n_j = popcount(hand & (RANK_BITS << 9))
    n_mid = popcount(hand & (RANK_BITS << 8)) + 0.5 * popcount(hand & (RANK_BITS << 7))
    n_low = 0
    for r in range(4):
        n_low += popcount(hand & (RANK_BITS << r))
    voids = 0
    singles = 0
    longest = 0
    long_s = 0
    for s in range(4):
        n = suit_len(hand, s)
        if n == 0:
            voids += 1
        elif n == 1:
            singles += 1
        if n > longest:
            longest = n
            long_s = s
    f10 = 0.0
    f11 = 0.0
    if contract == A.NO_TRICKS:
        for s in range(4):  # suits without a low card to duck with, and high cards in long suits
            m = (hand >> (13 * s)) & SUIT_BITS
            if m != 0:
                if lowest_bit(m) >= 6:
                    f10 += 1.0
                if popcount(m) >= 5:
                    f11 += popcount(m >> 9)
    elif contract == A.NO_QUEENS:
        for s in range(4):  # queens with few guards; bare aces and kings catch queens
            m = (hand >> (13 * s)) & SUIT_BITS
            if (m >> QUEEN) & 1 and popcount(m & ((1 << QUEEN) - 1)) <= 2:
                f10 += 1.0
            if popcount(m) <= 2:
                f11 += popcount(m >> KING)
    elif contract == A.NO_LAST_TWO:
        f10 = popcount((hand >> (13 * long_s)) & SUIT_BITS & ~((1 << QUEEN) - 1))
        f11 = popcount(hand & RANK_BITS) + popcount(hand & (RANK_BITS << 1))
    elif contract == A.NO_HEARTS:
        h = (hand >> 13) & SUIT_BITS
        f10 = popcount(h >> 9) + 2.0 * ((h >> ACE) & 1)
        f11 = popcount(h)
    elif contract == A.NO_KING:
        h = (hand >> 13) & SUIT_BITS
        if (h >> KING) & 1:
            f10 = 1.0
            g = popcount(h & ((1 << 9) - 1))
            f11 = g if g < 4 else 4.0
        else:
            f11 = -1.0 * ((h >> ACE) & 1)
    elif contract == A.TRUMPS:
        t = (hand >> (13 * x)) & SUIT_BITS
        f10 = popcount(t)
        f11 = ((t >> ACE) & 1) + ((t >> KING) & 1) + ((t >> QUEEN) & 1)
    else:  # Domino
        f10 = popcount(hand & (RANK_BITS << x))
        f11 = rank_spread(hand, x) / 13.0
    return (1.0, float(n_a), float(n_k), float(n_q), float(n_j), float(n_mid), float(n_low),
            float(voids), float(singles), float(longest), float(f10), float(f11))


@njit(cache=True, **NO_REFCOUNT)
def expected_score(hand, contract, role, x):
    """Expected contract score of ``hand`` in ``contract`` (role 0 declarer, 1 defender)."""
    f = features(hand, contract, x)
    v = 0.0
    for k in range(N_FEATURES):
        v += COEF[contract, role, k] * f[k]
    return v


# ---------------------------------------------------------------------------------------------
# what the seat to act knows about the play
# ---------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def winning_card(st, trump):
    """The card now winning the current trick (B4): highest trump, else highest of the led
    suit (trump = -1 outside Trumps)."""
    best = st[L.TRICK]
    for k in range(1, st[L.TRICK_LEN]):
        c = st[L.TRICK + k]
        cs = c // 13
        bs = best // 13
        if (cs == bs and c > best) or (cs != bs and cs == trump):
            best = c
    return best


@njit(cache=True, **NO_REFCOUNT)
def shown_voids(st):
    """Mask of bit 4 * seat + suit: the seat has failed to follow that suit this deal (the
    plays log of a trick contract: entries 4t..4t+3 are trick t, led card first)."""
    v = 0
    n = st[L.N_PLAYS]
    led = 0
    for j in range(n):
        e = st[L.PLAYS + j]
        card = e & 63
        if j % 4 == 0:
            led = card // 13
        elif card // 13 != led:
            v |= 1 << (4 * (e >> L.PLAY_SEAT_SHIFT) + led)
    return v


@njit(cache=True, inline="always")
def above(card):
    """Mask of the cards of ``card``'s suit ranked above it."""
    return (SUIT_BITS << (13 * (card // 13))) & ~((2 << card) - 1)


@njit(cache=True, inline="always")
def penalty_cards(contract):
    """Cards that cost points when taken (B4)."""
    if contract == A.NO_QUEENS:
        return QUEENS
    if contract == A.NO_HEARTS:
        return HEARTS
    if contract == A.NO_KING:
        return KING_HEARTS
    return 0


@njit(cache=True, inline="always")
def card_penalty(contract, card):
    """Points a card costs its taker (B4), as a positive number."""
    if contract == A.NO_QUEENS:
        return 6 if card % 13 == QUEEN else 0
    if contract == A.NO_HEARTS:
        if card // 13 == HEARTS_SUIT:
            return 6 if card % 13 == ACE else 2
        return 0
    if contract == A.NO_KING:
        return 20 if card == 13 + KING else 0
    return 0


@njit(cache=True, inline="always")
def trick_cost(st, contract):
    """Points the current trick costs its taker so far: cards in it, and what the trick
    itself costs (B4: No Tricks 2, No Last Two 10 and 20 for the last two)."""
    cost = 0
    for k in range(st[L.TRICK_LEN]):
        cost += card_penalty(contract, st[L.TRICK + k])
    if contract == A.NO_TRICKS:
        cost += 2
    elif contract == A.NO_LAST_TWO:
        n = st[L.TRICK_NO]
        if n == 11:
            cost += 10
        elif n == 12:
            cost += 20
    return cost


@njit(cache=True, inline="always")
def rank_then_shortness(c, hand):
    """The rank of card ``c``, then how short its suit is in ``hand``."""
    return (c % 13) * 16 + 15 - suit_len(hand, c // 13)


@njit(cache=True, inline="always")
def highest_rank_card(m, hand):
    """The highest-ranked card of m; ties go to the suit where the hand is shortest."""
    return best_bit(m, rank_then_shortness, hand)


# ---------------------------------------------------------------------------------------------
# negative contracts (B4): No Tricks, No Queens, No Last Two, No Hearts, No King
# ---------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def discard_value(c, known):
    """How gladly card ``c`` is shed (``discard_card``); ``known``: the contract, the hand, the
    cards the seat cannot see and the contract's penalty cards."""
    contract, hand, unknown, pen = known
    s = c // 13
    r = c % 13
    n = suit_len(hand, s)
    v = card_penalty(contract, c) * 256 + r * 8
    if n <= 2:
        v += (3 - n) * 30  # a void to shed on (measured +0.2 a deal vs a tie-break)
    # a high card is worst where a penalty card of its suit is still out to be caught
    if (pen & unknown & (SUIT_BITS << (13 * s))) != 0 and r >= QUEEN:
        v += 6
    return v


@njit(cache=True, **NO_REFCOUNT)
def discard_card(st, contract, hand, legal, unknown):
    """Void in the led suit: shed the costliest card first (K of hearts, a queen, the A of
    hearts, hearts), then high cards, preferring short suits (they become voids) and suits
    whose penalty card is still out."""
    return best_bit(legal, discard_value, (contract, hand, unknown, penalty_cards(contract)))


@njit(cache=True, **NO_REFCOUNT)
def lead_negative(st, contract, hand, legal, unknown):
    """Lead the low card of the suit in which somebody else most likely wins the trick; fish
    for penalty cards still out (a low heart under an outstanding K of hearts, a low card
    under an outstanding queen); keep off suits with a shown void (a discard lands on us);
    lead from short suits to make voids when holding penalty cards."""
    voids = shown_voids(st)
    me = st[L.TURN]
    own_pen = hand & penalty_cards(contract)
    best = -1
    best_v = -1e9
    for s in range(4):
        m = legal & (SUIT_BITS << (13 * s))
        if m == 0:
            continue
        low = lowest_bit(m)
        unk = unknown & (SUIT_BITS << (13 * s))
        higher = popcount(unk & above(low))
        n = popcount(hand & (SUIT_BITS << (13 * s)))
        if higher == 0:
            v = -40.0 - (low % 13)
            if unk == 0:
                v += 20.0  # nobody can follow: the trick holds only discards... still ours
        else:
            v = 2.0 * (higher if higher < 6 else 6) - 0.3 * (low % 13)
        for o in range(1, 4):
            if (voids >> (4 * ((me + o) % 4) + s)) & 1:
                v -= 3.0
        q = 13 * s + QUEEN
        if contract == A.NO_QUEENS:
            if (hand >> q) & 1:
                v -= 4.0 if low == q else 2.0
            elif (unknown >> q) & 1:
                v += 3.0 if low < q else -8.0
        elif contract == A.NO_KING:
            k = 13 + KING
            if s == HEARTS_SUIT:
                if (unknown >> k) & 1 and low < k:
                    v += 5.0
                if (hand >> k) & 1:
                    v -= 6.0
            elif (hand >> k) & 1:
                v += 4.0 - n  # make a void to discard the K of hearts on
        elif contract == A.NO_HEARTS or contract == A.NO_QUEENS:
            if own_pen != 0 and s != HEARTS_SUIT:
                v += 0.5 * (4 - n) if n < 4 else 0.0
        elif contract == A.NO_TRICKS:
            v += 0.3 * (4 - n) if n < 4 else 0.0
        if v > best_v:
            best_v = v
            best = low
    return best


@njit(cache=True, **NO_REFCOUNT)
def negative_card(params, st, R, bits):
    """A card in a negative trick contract (B4)."""
    contract = st[L.CONTRACT]
    me = st[L.TURN]
    hand = st[L.HANDS + me]
    unknown = ALL_CARDS & ~hand & ~st[L.PLAYED]
    k = st[L.TRICK_LEN]
    if contract == A.NO_LAST_TWO and st[L.TRICK_NO] < 10:
        # No Last Two: only the last two tricks count; get rid of the high cards before them
        # (switching to careful play at the 10th trick measured best: 9th -0.5, 11th -0.8)
        return highest_rank_card(bits, hand)
    if k == 0:
        return lead_negative(st, contract, hand, bits, unknown)
    led = st[L.TRICK] // 13
    if (bits & (SUIT_BITS << (13 * led))) == 0:
        return discard_card(st, contract, hand, bits, unknown)
    win = winning_card(st, -1)
    under = bits & ((1 << win) - 1)
    pen = penalty_cards(contract)
    last = k == 3
    cost = trick_cost(st, contract)
    if under != 0:
        if last and cost == 0 and contract != A.NO_LAST_TWO:
            # a clean last-hand trick costs nothing: win it with a high card (shed it); not
            # just before the last two tricks of No Last Two (the lead there is a liability)
            over = bits & ~under & ~pen
            if over != 0:
                return highest_bit(over)
        return highest_bit(under)  # duck as high as possible (drops a queen or K under a higher)
    # every card wins the trick so far
    clean = bits & ~pen
    if last:
        if clean != 0:
            return highest_bit(clean)
        return lowest_penalty_card(contract, bits)
    if contract == A.NO_TRICKS or contract == A.NO_LAST_TWO:
        return lowest_bit(bits)  # a later player may go over (+0.14 a deal vs high when few can)
    if clean != 0:
        if contract == A.NO_HEARTS:
            return highest_bit(clean)  # hearts will land on this trick anyway: shed the high card
        return lowest_bit(clean)  # a later player may still go over (and take the queen/king)
    return lowest_penalty_card(contract, bits)


@njit(cache=True, inline="always")
def lowest_rank_card(m):
    """The card of mask ``m`` with the lowest rank, whatever its suit (the lowest suit among
    equals); -1 for an empty mask."""
    if m == 0:
        return -1
    ranks = (m | (m >> 13) | (m >> 26) | (m >> 39)) & SUIT_BITS  # the ranks held, any suit
    return lowest_bit(m & (RANK_BITS << lowest_bit(ranks)))


@njit(cache=True, inline="always")
def cheapness(c, contract):
    """How little card ``c`` costs in ``contract``, then how high it is."""
    return c % 13 - card_penalty(contract, c) * 16


@njit(cache=True, inline="always")
def lowest_penalty_card(contract, m):
    """Of cards that all cost points, the cheapest (then the highest rank)."""
    return best_bit(m, cheapness, contract)


# ---------------------------------------------------------------------------------------------
# Trumps (B4)
# ---------------------------------------------------------------------------------------------
@njit(cache=True, **NO_REFCOUNT)
def trumps_card(params, st, R, bits):
    """Take tricks: cash masters, draw trumps when long in them, ruff, second hand low, win
    as cheaply as possible in last hand, discard the lowest card."""
    me = st[L.TURN]
    hand = st[L.HANDS + me]
    trump = st[L.TRUMP]
    tsuit = SUIT_BITS << (13 * trump)
    unknown = ALL_CARDS & ~hand & ~st[L.PLAYED]
    k = st[L.TRICK_LEN]
    if k == 0:
        return lead_trumps(st, hand, bits, trump, unknown)
    led = st[L.TRICK] // 13
    lsuit = SUIT_BITS << (13 * led)
    win = winning_card(st, trump)
    last = k == 3
    if (bits & lsuit) != 0:  # following suit
        if led != trump and win // 13 == trump:
            return lowest_bit(bits)  # ruffed already: nothing of ours wins
        over = bits & above(win)
        if over == 0:
            return lowest_bit(bits)
        if last:
            return lowest_bit(over)
        unk = unknown & lsuit
        masters = over if unk == 0 else over & above(highest_bit(unk))
        if masters != 0:
            return lowest_bit(masters)
        return lowest_bit(bits)
    trumps = bits & tsuit
    if trumps != 0:
        if win // 13 == trump:
            over = trumps & above(win)
            if over != 0:
                return lowest_bit(over)
            side = bits & ~tsuit
            if side != 0:
                return short_suit_discard(hand, side)
            return lowest_bit(trumps)
        return lowest_bit(trumps)  # ruff low
    return lowest_rank_card(bits)  # the lowest card (+0.3 a deal vs the short suit's)


@njit(cache=True, inline="always")
def shortness_then_lowness(c, hand):
    """How short the suit of card ``c`` is in ``hand``, then how low ``c`` is."""
    return -(suit_len(hand, c // 13) * 16 + c % 13)


@njit(cache=True, inline="always")
def short_suit_discard(hand, m):
    """The lowest card of the shortest suit in m (a void to ruff with later)."""
    return best_bit(m, shortness_then_lowness, hand)


@njit(cache=True, **NO_REFCOUNT)
def lead_trumps(st, hand, legal, trump, unknown):
    """The lead in Trumps (B4). Draw trumps with the master trump while holding at least a third as
    many trumps as are still out; else lead a side suit's master that no opponent shown void in it
    could ruff, else the lowest card of a short side suit (one or two cards, to ruff it later)
    while holding trumps, else the lowest card of the longest side suit; with only trumps left, the
    highest trump, or the lowest when an opponent holds a higher one. ``unknown`` is the mask of
    cards the seat cannot see."""
    tsuit = SUIT_BITS << (13 * trump)
    mine_t = hand & tsuit
    unk_t = unknown & tsuit
    if mine_t != 0:
        top = highest_bit(mine_t)
        if unk_t == 0 or top > highest_bit(unk_t):
            if unk_t != 0 and 3 * popcount(mine_t) >= popcount(unk_t):
                return top  # draw trumps with a master
    voids = shown_voids(st)
    me = st[L.TURN]
    best = -1
    best_v = -1e9
    for s in range(4):
        if s == trump:
            continue
        m = legal & (SUIT_BITS << (13 * s))
        if m == 0:
            continue
        unk = unknown & (SUIT_BITS << (13 * s))
        top = highest_bit(m)
        ruff_risk = False
        if unk_t != 0:
            for o in range(1, 4):
                if (voids >> (4 * ((me + o) % 4) + s)) & 1:
                    ruff_risk = True
        if unk != 0 and top > highest_bit(unk) and not ruff_risk:
            v = 100.0 + top % 13  # a master
            c = top
        else:
            n = popcount(m)
            c = lowest_bit(m)
            if mine_t != 0 and n <= 2:
                v = 50.0 - n  # shorten a side suit to ruff it later
            else:
                v = 10.0 + n - 0.1 * (c % 13)
        if v > best_v:
            best_v = v
            best = c
    if best >= 0:
        return best
    if mine_t != 0:
        return lowest_bit(mine_t) if (unk_t != 0 and highest_bit(mine_t) < highest_bit(unk_t)) \
            else highest_bit(mine_t)
    return lowest_bit(legal)


# ---------------------------------------------------------------------------------------------
# Domino (B5)
# ---------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def domino_value(c, known):
    """How good playing card ``c`` is (``domino_card``); ``known``: the state row, the hand,
    the cards the seat cannot see and the weight ``domino_block``."""
    st, hand, unknown, block = known
    s = c // 13
    r = c % 13
    suit = SUIT_BITS << (13 * s)
    if st[L.ROW_LO + s] < 0:
        beyond = suit & ~(1 << c)  # opening a row frees both directions
    elif r > st[L.ROW_HI + s]:
        beyond = above(c)
    else:
        beyond = suit & ((1 << c) - 1)
    mine = popcount(hand & beyond)
    theirs = popcount(unknown & beyond)
    v = 4.0 * mine - block * theirs
    nxt_up = c + 1 if r < 12 else -1
    nxt_dn = c - 1 if r > 0 else -1
    if (nxt_up >= 0 and (hand >> nxt_up) & 1 and (beyond >> nxt_up) & 1) or \
            (nxt_dn >= 0 and (hand >> nxt_dn) & 1 and (beyond >> nxt_dn) & 1):
        v += 2.0  # our next card becomes playable at once
    return v


@njit(cache=True, **NO_REFCOUNT)
def domino_card(params, st, bits):
    """Play the card that frees the most of our own cards and the fewest of the others'
    (block their runs, open our own); pass only when nothing is playable (B5)."""
    if bits == 1 << A.PASS:
        return A.PASS
    hand = st[L.HANDS + st[L.TURN]]
    unknown = ALL_CARDS & ~hand & ~st[L.PLAYED]
    return best_bit(bits, domino_value, (st, hand, unknown, params[P_DOMINO_BLOCK]))


# ---------------------------------------------------------------------------------------------
# contract, trump suit, starting rank (B3.2) and doubling (B6)
# ---------------------------------------------------------------------------------------------
@njit(cache=True, **NO_REFCOUNT)
def contract_x(hand, contract, R):
    """The choice a contract asks for besides itself, as the heuristic would make it: the trump
    suit in Trumps, the starting rank in Domino (the fixed one under convention
    ``domino_start``), else -1."""
    if contract == A.TRUMPS:
        return best_trump(hand)
    if contract == A.DOMINO:
        return best_start_rank(hand) if R[L.R_DOMINO_START] < 0 else R[L.R_DOMINO_START]
    return -1


@njit(cache=True, inline="always")
def contract_gain(c, known):
    """What declaring contract ``c`` gains over an average hand, divided by the contract's
    spread to the power ``alpha`` (``choose_contract``); ``known``: (hand, R, alpha)."""
    hand, R, alpha = known
    return (expected_score(hand, c, 0, contract_x(hand, c, R)) - MEAN[c, 0]) / SPREAD[c] ** alpha


@njit(cache=True, **NO_REFCOUNT)
def choose_contract(params, st, R, bits):
    """B3.2: the contract left in which this hand does best compared with an average hand
    (each contract is played once, so spend it where the hand suits it most). The gain is
    divided by the contract's spread to the power ``choice_spread`` (0: points, 1: standard
    deviations)."""
    hand = st[L.HANDS + st[L.TURN]]
    return best_bit(bits, contract_gain, (hand, R, params[P_CHOICE_SPREAD]))


@njit(cache=True, **NO_REFCOUNT)
def double_decision(params, st, bits):
    """B6: double (or redouble) when our expected contract score beats the target's by a
    margin; the target's is the mean of its role, the declarer's raised by what choosing the
    contract is worth. Doubles owed to the declarer (B6.3) lower the margin towards him as the
    chances to pay them run out (a forced double is the only legal action already)."""
    if params[P_DOUBLES] < 0.5:
        return A.NO_DOUBLE
    me = st[L.TURN]
    decl = st[L.DECLARER]
    target = (me + 1 + st[L.DBL_TARGET]) % 4
    contract = st[L.CONTRACT]
    x = st[L.TRUMP] if contract == A.TRUMPS else st[L.START_RANK]
    mine = expected_score(st[L.HANDS + me], contract, 1 if me != decl else 0, x)
    theirs = MEAN[contract, 1 if target != decl else 0]
    if target == decl:
        theirs += params[P_DECLARER_EDGE]
    adv = mine - theirs
    if (bits >> 2) & 1:  # redouble a player who doubled us
        return A.REDOUBLE if adv > params[P_REDOUBLE_MARGIN] else A.NO_DOUBLE
    margin = params[P_DOUBLE_MARGIN]
    if target == decl:
        owed = st[L.OWED + me]
        if owed > 0:
            chances = L.DEALS_PER_DECLARER - st[L.DEAL_NO] % L.DEALS_PER_DECLARER
            margin -= params[P_OBLIGATION_PRESSURE] * owed / chances
    return A.DOUBLE if adv > margin else A.NO_DOUBLE


# ---------------------------------------------------------------------------------------------
# the policy
# ---------------------------------------------------------------------------------------------
@njit(cache=True, **NO_REFCOUNT)
def planned_action(params, st, R, base, bits):
    """The heuristic's own choice (legal by construction; tests check it unguarded)."""
    if popcount(bits) == 1:
        return base + lowest_bit(bits)
    ph = st[L.PHASE]
    if ph == L.PH_PLAY:
        c = st[L.CONTRACT]
        if c == A.DOMINO:
            a = domino_card(params, st, bits)
        elif c == A.TRUMPS:
            a = trumps_card(params, st, R, bits)
        else:
            a = negative_card(params, st, R, bits)
    elif ph == L.PH_DOUBLE:
        a = double_decision(params, st, bits)
    elif ph == L.PH_CONTRACT:
        a = A.CONTRACT + choose_contract(params, st, R, bits)
    elif ph == L.PH_TRUMP:
        a = A.TRUMP_SUIT + best_trump(st[L.HANDS + st[L.TURN]])
    else:
        a = A.START_RANK + best_start_rank(st[L.HANDS + st[L.TURN]])
    return a


@njit(cache=True, **NO_REFCOUNT)
def heuristic_action(params, st, R, base, bits):
    """The heuristic's action for the seat to act; ``(base, bits)`` is its legal set."""
    a = planned_action(params, st, R, base, bits)
    k = a - base
    if k < 0 or k > 62 or ((bits >> k) & 1) == 0:
        return base + lowest_bit(bits)  # never reached by design; keeps the policy legal
    return a


@njit(cache=True, inline="always")
def policy_action(game, params, st, R, base, bits, rng, i):
    """The heuristic's decision at the table (the ``CompiledPolicy`` signature of
    cardsim.policy_nb): legal set ``(base, bits)``, generator ``rng[i]``."""
    return heuristic_action(params, st, R, base, bits)


@njit(cache=True, inline="always")
def rollout_action(st, R, base, bits, rng, i):
    """The heuristic's decision with its default options, as the search agents' play-outs
    take it."""
    return heuristic_action(DEFAULT_PARAMS, st, R, base, bits)
