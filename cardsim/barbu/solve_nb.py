"""Card play with every hand known: the value of each legal card in a Barbu trick contract
(docs/rules/barbu.md B4, B7).

Given all hands (a real position, or a deal drawn by ``sample_nb``), ``solve_root`` returns
for each legal card of the seat to act the value of the rest of the deal when every seat plays
perfectly from then on.

**The value (paranoid, zero-sum).** The value is the seat's deal score over the tricks still
to play (B7: its contract score, plus its settlements with the seats it doubled or was
doubled by); the seat maximises it and the three others together minimise it. Without
doubles this is the seat's own contract score, and since a contract's scores total a fixed
amount (B8), maximising it is maximising the seat's score less the others' mean: the search
is a two-sided zero-sum game. Doubled pairs weight the scores: with ``m`` = 1 (doubled) or
2 (redoubled) towards seat j, the seat's deal score gains ``m * (own - j's)``, so the value
is ``sum_s weight[s] * score[s]`` with ``weight[seat] = 1 + sum m`` and ``weight[j] = -m``.
Points already taken do not change the choice and are left out. Domino (B5) is not a trick
contract and is not solved here (the agents play it out by rollouts).

**The value (max-n).** With ``P_MAXN`` = 1 every other seat plays for its own deal score
instead (max-n), and the value is the seat's deal score at the outcome of that play: closer to
real opponents, who in the negative contracts duck for themselves rather than load one seat
(see the max-n section below).

**Search.** Alpha-beta over cards with MTD(f) zero-window tests; a transposition table
(``cardsim.transposition_nb``) at trick boundaries, keyed by the cards still held and the
leader (within one deal these fix the position: the trick number, the penalty cards left,
and so the early ends of No Queens and No King, B8); the table's best card first, then a
move order that ducks in the negative contracts and wins cheaply in Trumps; equal cards
merged (two cards of a suit in one hand with no live card between them and the same
penalty give the same result, so one is searched). A trick boundary where no penalty card
is left is worth 0 (this is also where No Queens and No King end, B4). A node budget turns
the solver into a heuristic one: once spent, trick boundaries are valued statically (the
points still to come shared out by each hand's high cards, or trumps in Trumps).
"""

import numpy as np
from numba import njit

from cardsim.barbu import actions as A
from cardsim.barbu import layout as L
from cardsim.barbu.engine_nb import (ACE_HEARTS, HEARTS, KING_HEARTS, QUEENS, SUIT_BITS,
                                     trick_points)
from cardsim.bits_nb import lowest_bit, popcount
from cardsim.game_nb import GameTag
from cardsim.jit import WITH_REFCOUNT, ix
from cardsim.maxn_nb import F_SAVED, F_SLOT, open_frame, probe_scores
from cardsim.solve_nb import solve_root as solve_cards
from cardsim.solve_row_nb import P_BUDGET, P_GEN, P_NODES, P_TRICK_LEN
# this game's pieces of the search that read only the fields every game's row shares
from cardsim.solve_row_nb import count_node, generation, restore_budget, trick_len  # noqa: F401
from cardsim.transposition_nb import INF, new_table

# the solver's position row; P_TRICK_LEN (8), P_NODES (25), P_BUDGET (26) and P_GEN (27) stand
# where every game's row has them (cardsim.solve_row_nb): here the nodes and the budget are
# those of the root card being valued
P_HANDS = 0          # [4] cards held
P_WEIGHT = 4         # [4] weight of each seat's contract score in the value (module doc)
P_LEADER = 9
P_TOP = 10           # seat winning the trick so far, -1 before
P_BEST = 11          # its card, -1 before
P_TRICKS_LEFT = 12   # tricks still to complete, the current one included
P_CONTRACT = 13
P_TRUMP = 14         # Trumps: the trump suit, else -1
P_HEARTS_BAR = 15    # hearts led only from a hand of hearts (No Hearts; No King "no_hearts")
P_KING_BAR = 16      # No King "king_only": the K of hearts led only as the last card
P_KING_DISCARD = 17  # No King: king_must_discard
P_MUST_RUFF = 18     # Trumps: trumps_must_ruff
P_OVERTRUMP = 19     # Trumps: trumps_must_overtrump
P_SEAT = 20          # the seat the values are for
P_UNUSED = 21        # [4] (free: moving the fields below up into them measured a tenth slower
                     # in max-n solves)
P_WEIGHT_MIN = 28    # the smallest of the four weights
P_WEIGHT_MAX = 29    # the largest
P_TRICKS = 30        # [4 * 14] cards of each trick by tricks left: a completed trick's cards
                     # stay in place while deeper tricks are searched
P_TOTAL_NODES = 86   # nodes searched for every root card
P_MAXN = 87          # 1: the others each play for their own deal score (max-n), 0: paranoid
P_UTILITY = 88       # [4 * 4] row p: the weight of each seat's contract score in p's deal score
P_UTILITY_MIN = 104  # [4] the smallest weight of each row
P_UTILITY_MAX = 108  # [4] the largest
POSITION_WIDTH = 112

BARBU = GameTag("barbu")  # picks this module's pieces in cardsim.maxn_nb.search_maxn
TT_BITS = 18         # default table: 2**18 entries (10 MB)
HIGH_RANKS = 0b1111100000000  # T J Q K A of a suit: who holds them takes tricks
HIGH_CARDS = HIGH_RANKS | (HIGH_RANKS << 13) | (HIGH_RANKS << 26) | (HIGH_RANKS << 39)


@njit(cache=True)
def position_of(st, R, seat, pos):
    """Fill ``pos`` from engine state ``st`` (PH_PLAY of a trick contract, its hands as they
    are) for the values of ``seat``."""
    for k in range(POSITION_WIDTH):
        pos[k] = 0
    for s in range(4):
        pos[P_HANDS + s] = st[ix(L.HANDS + s)]
    tlen = st[L.TRICK_LEN]
    left = 13 - st[L.TRICK_NO]
    pos[P_TRICK_LEN] = tlen
    pos[P_LEADER] = st[L.LEADER]
    pos[P_TOP] = -1
    pos[P_BEST] = -1
    pos[P_TRICKS_LEFT] = left
    c = st[L.CONTRACT]
    pos[P_CONTRACT] = c
    pos[P_TRUMP] = st[L.TRUMP]
    for k in range(tlen):
        pos[P_TRICKS + 4 * left + k] = st[ix(L.TRICK + k)]
        update_top(pos, (st[L.LEADER] + k) & 3, st[ix(L.TRICK + k)], st[L.TRICK] // 13)
    hearts_bar = c == A.NO_HEARTS or (c == A.NO_KING and R[L.R_KING_LEAD_NO_HEARTS])
    pos[P_HEARTS_BAR] = 1 if hearts_bar else 0
    pos[P_KING_BAR] = 1 if (c == A.NO_KING and not R[L.R_KING_LEAD_NO_HEARTS]) else 0
    pos[P_KING_DISCARD] = 1 if (c == A.NO_KING and R[L.R_KING_MUST_DISCARD]) else 0
    pos[P_MUST_RUFF] = R[L.R_TRUMPS_MUST_RUFF]
    pos[P_OVERTRUMP] = R[L.R_TRUMPS_MUST_OVERTRUMP]
    pos[P_SEAT] = seat
    weights_of(st, seat, pos)
    utilities_of(st, pos)
    return pos


@njit(cache=True)
def weights_of(st, seat, pos):
    """B7.2: a doubled pair settles the difference of its contract scores (twice when
    redoubled), so each seat's contract score counts with a weight in ``seat``'s deal score."""
    for s in range(4):
        pos[P_WEIGHT + s] = 0
    pos[P_WEIGHT + seat] = 1
    for j in range(4):
        if j != seat:
            m = st[ix(L.BETS + 4 * seat + j)] + st[ix(L.BETS + 4 * j + seat)]
            pos[P_WEIGHT + seat] += m
            pos[P_WEIGHT + j] = -m
    pos[P_WEIGHT_MIN] = min(min(pos[P_WEIGHT], pos[P_WEIGHT + 1]),
                            min(pos[P_WEIGHT + 2], pos[P_WEIGHT + 3]))
    pos[P_WEIGHT_MAX] = max(max(pos[P_WEIGHT], pos[P_WEIGHT + 1]),
                            max(pos[P_WEIGHT + 2], pos[P_WEIGHT + 3]))


@njit(cache=True)
def utilities_of(st, pos):
    """Every seat's row of weights (``weights_of``), what max-n needs: each seat plays for
    its own deal score."""
    row = np.zeros(POSITION_WIDTH, dtype=np.int64)
    for p in range(4):
        weights_of(st, p, row)
        lo = INF
        hi = -INF
        for j in range(4):
            w = row[P_WEIGHT + j]
            pos[P_UTILITY + 4 * p + j] = w
            lo = min(lo, w)
            hi = max(hi, w)
        pos[P_UTILITY_MIN + p] = lo
        pos[P_UTILITY_MAX + p] = hi


@njit(cache=True, inline="always")
def trick_at(pos):
    """Index in ``pos`` of the current trick's first card."""
    return P_TRICKS + 4 * pos[P_TRICKS_LEFT]


@njit(cache=True, inline="always")
def to_act(pos):
    """The seat to play the next card: the leader's left-hand neighbours in turn, one per card
    already in the trick."""
    return (pos[P_LEADER] + pos[P_TRICK_LEN]) & 3


@njit(cache=True, inline="always")
def beats(card, best, trump):
    """Whether ``card`` beats the trick's best card so far (B4: the highest trump, else the
    highest card of the led suit; the best card is always of the led suit or a trump)."""
    s = card // 13
    b = best // 13
    return (s == b and card > best) or (s == trump and b != trump)


@njit(cache=True, inline="always")
def update_top(pos, seat, card, led):
    """Record ``card``, played by ``seat``, as the trick's best so far when it beats it (or is the
    first card); ``led`` is the led suit (unused: ``beats`` reads it from the best card)."""
    if pos[P_BEST] < 0 or beats(card, pos[P_BEST], pos[P_TRUMP]):
        pos[P_BEST] = card
        pos[P_TOP] = seat


@njit(cache=True)
def legal_of(pos, seat):
    """Legal cards of ``seat`` (B4), as ``engine_nb.legal_cards``."""
    hand = pos[P_HANDS + seat]
    if pos[P_TRICK_LEN] == 0:
        if pos[P_HEARTS_BAR]:
            plain = hand & ~HEARTS
            return plain if plain != 0 else hand
        if pos[P_KING_BAR]:
            others = hand & ~KING_HEARTS
            return others if others != 0 else hand
        return hand
    led = pos[trick_at(pos)] // 13
    trump = pos[P_TRUMP]
    follow = hand & (SUIT_BITS << (13 * led))
    if follow != 0:
        if led == trump and pos[P_OVERTRUMP]:
            higher = follow & ~((2 << pos[P_BEST]) - 1)  # the best card is a trump here
            return higher if higher != 0 else follow
        return follow
    if pos[P_KING_DISCARD] and (hand & KING_HEARTS) != 0:
        return KING_HEARTS
    if trump >= 0 and pos[P_MUST_RUFF]:
        trumps = hand & (SUIT_BITS << (13 * trump))
        return trumps if trumps != 0 else hand
    return hand


@njit(cache=True, inline="always")
def penalty_of(contract, card):
    """The card's own cost when taken (B4), what tells equal cards apart."""
    bit = 1 << card
    if contract == A.NO_QUEENS:
        return 6 if (bit & QUEENS) != 0 else 0
    if contract == A.NO_HEARTS:
        return 6 if bit == ACE_HEARTS else (2 if (bit & HEARTS) != 0 else 0)
    if contract == A.NO_KING:
        return 20 if bit == KING_HEARTS else 0
    return 0


@njit(cache=True, inline="always")
def points_left(contract, held, tricks_left):
    """Everything the rest of the deal still scores (B4), from trick boundary on."""
    if contract == A.NO_TRICKS:
        return -2 * tricks_left
    if contract == A.NO_QUEENS:
        return -6 * popcount(held & QUEENS)
    if contract == A.NO_LAST_TWO:
        return -20 - (10 if tricks_left >= 2 else 0)
    if contract == A.NO_HEARTS:
        return -2 * popcount(held & HEARTS) - (4 if (held & ACE_HEARTS) != 0 else 0)
    if contract == A.NO_KING:
        return -20 if (held & KING_HEARTS) != 0 else 0
    return 5 * tricks_left


@njit(cache=True)
def distinct_cards(pos, cards):
    """``cards`` less the cards equal to a higher one kept: same suit and penalty, no live
    card of the suit between them. They lead to the same result."""
    contract = pos[P_CONTRACT]
    live = pos[P_HANDS] | pos[P_HANDS + 1] | pos[P_HANDS + 2] | pos[P_HANDS + 3]
    for k in range(pos[P_TRICK_LEN]):
        live |= 1 << pos[trick_at(pos) + k]
    keep = 0
    for suit in range(4):
        mine = (cards >> (13 * suit)) & SUIT_BITS
        if mine & (mine - 1) == 0:  # none or one card: nothing to merge
            keep |= mine << (13 * suit)
            continue
        suit_live = (live >> (13 * suit)) & SUIT_BITS
        prev = -1  # penalty of the last live card seen, when ours and kept; else -1
        for r in range(12, -1, -1):
            if not (suit_live >> r) & 1:
                continue
            if (mine >> r) & 1:
                pen = penalty_of(contract, 13 * suit + r)
                if pen != prev:
                    keep |= 1 << (13 * suit + r)
                prev = pen
            else:
                prev = -1
    return keep


@njit(cache=True)
def static_value(pos):
    """Budget spent: the points still to come, shared out by each hand's prospects of
    taking tricks (its high cards; in Trumps its trumps first)."""
    held = pos[P_HANDS] | pos[P_HANDS + 1] | pos[P_HANDS + 2] | pos[P_HANDS + 3]
    left = points_left(pos[P_CONTRACT], held, pos[P_TRICKS_LEFT])
    trump = pos[P_TRUMP]
    tmask = (SUIT_BITS << (13 * trump)) if trump >= 0 else 0
    total = 0.0
    weighted = 0.0
    for s in range(4):
        h = pos[P_HANDS + s]
        strength = 1.0 + popcount(h & HIGH_CARDS) + 2.0 * popcount(h & tmask)
        total += strength
        weighted += pos[P_WEIGHT + s] * strength
    return np.int64(np.round(left * weighted / total))


@njit(cache=True)
def last_trick_taken(pos):
    """The last trick, where every seat has one card left and nothing is chosen: its winner
    and its cards."""
    leader = pos[P_LEADER]
    led = lowest_bit(pos[P_HANDS + leader])
    best = led
    top = leader
    tmask = 1 << led
    trump = pos[P_TRUMP]
    for k in range(1, 4):
        seat = (leader + k) & 3
        card = lowest_bit(pos[P_HANDS + seat])
        tmask |= 1 << card
        if beats(card, best, trump):
            best = card
            top = seat
    return top, tmask


@njit(cache=True)
def last_trick(pos):
    """The value of the last trick."""
    top, tmask = last_trick_taken(pos)
    return pos[P_WEIGHT + top] * trick_points(pos[P_CONTRACT], tmask, 1)


# --- this game's pieces of the search written once for both games (cardsim.solve_nb), besides
# those of every game's row (count_node, trick_len, generation, restore_budget: solve_row_nb)
@njit(cache=True, inline="always")
def position_width():
    """Length of this game's position row (``POSITION_WIDTH``), what a caller allocates for
    ``pos``."""
    return POSITION_WIDTH


@njit(cache=True, inline="always")
def held_cards(pos):
    """Every card still held by the four seats, as one card mask (bit = suit * 13 + rank)."""
    return pos[P_HANDS] | pos[P_HANDS + 1] | pos[P_HANDS + 2] | pos[P_HANDS + 3]


@njit(cache=True, inline="always")
def table_key(pos):
    """The transposition key of a trick boundary: the cards still out and the leader."""
    return held_cards(pos) | (pos[P_LEADER] << 52)


@njit(cache=True, inline="always")
def settle_boundary(pos, alpha, beta):
    """A trick boundary valued at once: the deal's end, nothing left to score, the last
    trick (nothing is chosen), a bound outside the window, or with the budget spent the
    static count."""
    if pos[P_TRICKS_LEFT] == 0:
        return True, 0
    left = points_left(pos[P_CONTRACT], held_cards(pos), pos[P_TRICKS_LEFT])
    if left == 0:
        return True, 0  # B4: nothing left to score (No Queens and No King end here)
    if pos[P_TRICKS_LEFT] == 1:
        return True, last_trick(pos)
    # every trick's points have the sign of what is left and go to one seat: the value
    # lies between the smallest and the largest weight times what is left
    lowest = pos[P_WEIGHT_MIN] * left if left > 0 else pos[P_WEIGHT_MAX] * left
    highest = pos[P_WEIGHT_MAX] * left if left > 0 else pos[P_WEIGHT_MIN] * left
    if lowest >= beta:
        return True, lowest
    if highest <= alpha:
        return True, highest
    if pos[P_BUDGET] > 0 and pos[P_NODES] > pos[P_BUDGET]:
        return True, static_value(pos)
    return False, 0


@njit(cache=True, inline="always")
def settle_node(pos, alpha, beta):
    """Nothing more to settle within a trick; no killer leads."""
    return False, 0, -1


@njit(cache=True, inline="always")
def maximises(pos, seat):
    """Whether ``seat`` maximises the value: only the seat the values are for; the three others
    minimise it together (paranoid)."""
    return seat == pos[P_SEAT]


@njit(cache=True, inline="always")
def moves_of(pos, seat):
    """The cards ``seat`` may play that are worth searching: its legal cards (B4) with equal ones
    merged (``distinct_cards``)."""
    return distinct_cards(pos, legal_of(pos, seat))


@njit(cache=True, inline="always")
def wide_with_budget(pos):
    """A budgeted solve searches one wide window."""
    return pos[P_BUDGET] > 0


@njit(cache=True)
def order_pick(pos, moves, seat):
    """The next card to try, likely best first. Negative contracts: the leader its lowest
    card; a follower the highest card that stays under the trick's best, else (forced to win)
    its lowest; a discard the costliest card, then the highest. Trumps: the leader its
    highest card; a follower the cheapest card that takes the trick, else its lowest."""
    trump = pos[P_TRUMP]
    positive = pos[P_CONTRACT] == A.TRUMPS
    tlen = pos[P_TRICK_LEN]
    led = pos[trick_at(pos)] // 13 if tlen > 0 else -1
    best_card = -1
    best_score = -INF
    m = moves
    while m != 0:
        c = lowest_bit(m)
        m &= m - 1
        rank = c % 13
        if tlen == 0:
            score = rank if positive else -rank
        else:
            wins = beats(c, pos[P_BEST], trump)
            if positive:
                score = (1000 - rank - 20 * ((c // 13) == trump)) if wins else -rank
            elif c // 13 != led:
                score = 1000 + 20 * penalty_of(pos[P_CONTRACT], c) + rank
            else:
                score = -rank if wins else 500 + rank
        if score > best_score:
            best_score = score
            best_card = c
    return best_card


@njit(cache=True, inline="always")
def apply_card(pos, seat, card):
    """Play ``card`` for ``seat``. Returns what ``undo_card`` needs and the value the card
    settled: the completed trick's points (B4) weighted for the winner, else 0."""
    tlen = pos[P_TRICK_LEN]
    at = trick_at(pos)
    saved = (pos[P_TOP], pos[P_BEST], pos[P_LEADER])
    pos[P_HANDS + seat] &= ~(1 << card)
    pos[at + tlen] = card
    if tlen == 0 or beats(card, pos[P_BEST], pos[P_TRUMP]):
        pos[P_BEST] = card
        pos[P_TOP] = seat
    if tlen < 3:
        pos[P_TRICK_LEN] = tlen + 1
        return saved, 0
    winner = pos[P_TOP]
    tmask = (1 << pos[at]) | (1 << pos[at + 1]) | (1 << pos[at + 2]) | (1 << card)
    gained = pos[P_WEIGHT + winner] * trick_points(pos[P_CONTRACT], tmask, pos[P_TRICKS_LEFT])
    pos[P_TRICK_LEN] = 0
    pos[P_TOP] = -1
    pos[P_BEST] = -1
    pos[P_LEADER] = winner
    pos[P_TRICKS_LEFT] -= 1
    return saved, gained


@njit(cache=True, inline="always")
def undo_card(pos, seat, card, saved):
    """Take back ``apply_card(pos, seat, card)``."""
    if pos[P_TRICK_LEN] == 0:  # the card completed a trick
        pos[P_TRICKS_LEFT] += 1
        pos[P_TRICK_LEN] = 3
    else:
        pos[P_TRICK_LEN] -= 1
    pos[P_TOP], pos[P_BEST], pos[P_LEADER] = saved
    pos[P_HANDS + seat] |= 1 << card


# --- max-n: every seat plays for its own deal score ----------------------------------------
# The paranoid search above has the three others play together against the seat. Real
# opponents in Barbu each play for themselves: in the negative contracts each ducks to keep
# its own penalties down rather than to load the seat with them, and the paranoid value
# mistakes many safe cards for lost ones. ``P_MAXN`` = 1 solves instead for the scores every
# seat takes when each seat to act plays the card best for its own deal score (max-n,
# ``cardsim.maxn_nb``). Ties go to the card tried first (the move order's natural card).
# No window prunes max-n, but a seat that reaches the best it could get stops looking
# (in a negative contract: taking nothing more), which is most of the gain in these games.


@njit(cache=True, inline="always")
def utility(pos, seat, scores, d):
    """``seat``'s deal score from the contract scores ``scores[d]`` (B7.2 weights)."""
    u = 0
    for j in range(4):
        u += pos[P_UTILITY + 4 * seat + j] * scores[d, j]
    return u


@njit(cache=True)
def static_scores(pos, scores, d):
    """Budget spent: ``static_value``'s shares of the points still to come, seat by seat."""
    held = pos[P_HANDS] | pos[P_HANDS + 1] | pos[P_HANDS + 2] | pos[P_HANDS + 3]
    left = points_left(pos[P_CONTRACT], held, pos[P_TRICKS_LEFT])
    trump = pos[P_TRUMP]
    tmask = (SUIT_BITS << (13 * trump)) if trump >= 0 else 0
    total = 0.0
    for s in range(4):
        h = pos[P_HANDS + s]
        total += 1.0 + popcount(h & HIGH_CARDS) + 2.0 * popcount(h & tmask)
    for s in range(4):
        h = pos[P_HANDS + s]
        strength = 1.0 + popcount(h & HIGH_CARDS) + 2.0 * popcount(h & tmask)
        scores[d, s] = np.int64(np.round(left * strength / total))


@njit(cache=True, inline="always")
def play_scored(pos, seat, card):
    """``apply_card`` for max-n: returns what ``undo_card`` needs, the winner of the trick
    the card completed (-1 if none) and that trick's points (B4)."""
    at = trick_at(pos)
    tricks_left = pos[P_TRICKS_LEFT]
    completes = pos[P_TRICK_LEN] == 3
    saved, gained = apply_card(pos, seat, card)
    if not completes:
        return saved, -1, 0
    tmask = (1 << pos[at]) | (1 << pos[at + 1]) | (1 << pos[at + 2]) | (1 << pos[at + 3])
    return saved, pos[P_LEADER], trick_points(pos[P_CONTRACT], tmask, tricks_left)


@njit(cache=True, inline="always")
def open_node(pos, tt, scores, frames, d):
    """Start the max-n node at depth ``d``: True when its scores are settled at once
    (``scores[d]`` set: the deal's end, nothing left to score, the last trick, the budget
    spent, or the table), else False with its frame ready for its cards."""
    pos[P_NODES] += 1
    for j in range(4):
        scores[d, j] = 0
    tlen = pos[P_TRICK_LEN]
    held = pos[P_HANDS] | pos[P_HANDS + 1] | pos[P_HANDS + 2] | pos[P_HANDS + 3]
    frames[d, F_SLOT] = -1
    if tlen == 0:
        if pos[P_TRICKS_LEFT] == 0:
            return True
        if points_left(pos[P_CONTRACT], held, pos[P_TRICKS_LEFT]) == 0:
            return True  # B4: nothing left to score (No Queens and No King end here)
        if pos[P_TRICKS_LEFT] == 1:
            top, tmask = last_trick_taken(pos)
            scores[d, top] = trick_points(pos[P_CONTRACT], tmask, 1)
            return True
        if pos[P_BUDGET] > 0 and pos[P_NODES] > pos[P_BUDGET]:
            static_scores(pos, scores, d)
            return True
        if probe_scores(tt, held | (pos[P_LEADER] << 52), pos[P_GEN], scores, frames, d):
            return True
    seat = to_act(pos)
    # the most the seat can still get: every point to come, weighted its best way
    trick_cards = 0
    for k in range(tlen):
        trick_cards |= 1 << pos[trick_at(pos) + k]
    come = points_left(pos[P_CONTRACT], held | trick_cards, pos[P_TRICKS_LEFT])
    ceiling = come * (pos[P_UTILITY_MAX + seat] if come > 0 else pos[P_UTILITY_MIN + seat])
    return open_frame(frames, d, seat, distinct_cards(pos, legal_of(pos, seat)), ceiling)


@njit(cache=True, inline="always")
def undo_from_frame(pos, seat, card, frames, d):
    """``undo_card`` with what ``play_scored`` saved in the search frame."""
    undo_card(pos, seat, card, (frames[d, F_SAVED], frames[d, F_SAVED + 1],
                                frames[d, F_SAVED + 2]))


@njit(cache=True, inline="always")
def pairs_sum_below_zero(pos):
    """No shallow pruning (cardsim.maxn_nb): a seat's value weighs the contract scores by
    its doubles, and two seats' values need not add up to zero or less."""
    return False


@njit(cache=True, inline="always")
def seat_utility(pos, seat, scores, d):
    """``seat``'s deal score from the contract scores ``scores[d]``, what max-n has each seat
    maximise (``utility``)."""
    return utility(pos, seat, scores, d)


@njit(cache=True, inline="always")
def maxn_root_value(pos, scores, winner, points):
    """The seat's deal score under max-n once ``search_maxn`` has run, after a root card
    whose trick (if it completed one) went to ``winner`` for ``points``."""
    if winner >= 0:
        scores[0, winner] += points
    return utility(pos, pos[P_SEAT], scores, 0)


@njit(cache=True, inline="always")
def unplay_scored(pos, winner, points):
    """Nothing to take back beyond ``undo_card``."""


@njit(cache=True, inline="always")
def start_solve(pos, gen):
    """Start a new solve: its transposition table generation ``gen``, and no nodes counted yet."""
    pos[P_GEN] = gen
    pos[P_TOTAL_NODES] = 0


@njit(cache=True, inline="always")
def solves_maxn(pos):
    """Whether this solve is max-n (``P_MAXN`` = 1) rather than paranoid."""
    return pos[P_MAXN] != 0


@njit(cache=True, inline="always")
def share_budget(pos, cards):
    """The budget is each root card's own."""
    return pos[P_BUDGET]


@njit(cache=True, inline="always")
def begin_card(pos, maxn):
    """Each root card's search has the whole budget."""
    pos[P_NODES] = 0
    return 0


@njit(cache=True, inline="always")
def end_card(pos, maxn, token):
    """Add the root card's nodes to the solve's total (``P_TOTAL_NODES``); ``maxn`` and ``token``
    are not needed here."""
    pos[P_TOTAL_NODES] += pos[P_NODES]


@njit(cache=True, inline="always")
def value_merged(pos, legal, searched, values):
    """A merged card takes the value of the nearest searched card above it in its suit."""
    m = legal & ~searched
    while m != 0:
        c = lowest_bit(m)
        m &= m - 1
        above = searched & (SUIT_BITS << (13 * (c // 13))) & ~((2 << c) - 1)
        values[c] = values[lowest_bit(above)]


@njit(cache=True, **WITH_REFCOUNT)
def solve_root(pos, tt, values):
    """``values[c]``: the value (module docstring) of each legal card ``c`` of the seat to
    act, exact unless the node budget ``pos[P_BUDGET]`` of a card's search runs out; other
    entries are left as they are. Returns the legal cards' mask. Equal cards get the value of
    the one searched (cardsim.solve_nb)."""
    return solve_cards(BARBU, pos, tt, values)


@njit(cache=True, **WITH_REFCOUNT)
def solver_table(bits=TT_BITS):
    """A transposition table for ``solve_root``, reusable across solves of any deals."""
    return new_table(bits)
