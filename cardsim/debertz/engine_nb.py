"""The Debertz engine: kernels over one game's state row (layout.py), docs/rules/debertz.md.

Every kernel takes ``st`` (one row of the batch, an int64 vector) and ``R`` (the packed rules),
so a batch loop, a search agent and the Python layer all run the same code. Kernels do not
check their input: ``cardsim.debertz.game`` validates actions before calling ``step``.
"""

import numpy as np
from numba import njit

from cardsim import rng_nb, stream_keys
from cardsim.debertz import actions as A
from cardsim.jit import NO_REFCOUNT, ix
from cardsim.debertz import layout as L
from cardsim.debertz.melds_nb import KIND_DEBERTZ, key_kind, meld_summary
from cardsim.debertz.tables import (CARD_POINTS, CARD_STRENGTH, LAST_TRICK_BONUS,
                                    PLAIN_POINTS_BYTE, PLAIN_STRENGTH, TRUMP_POINTS_BYTE,
                                    TRUMP_STRENGTH, TRUMPS_BEATING)

SEVENS = (1 << 0) | (1 << 8) | (1 << 16) | (1 << 24)  # the four sevens (rank 0 of each suit)
CARD_MASK_BITS = (1 << 32) - 1
BELLA_RANKS = (1 << 5) | (1 << 6)  # Q and K
GAME_STREAM_KEY = stream_keys.GAME  # game-level draws (first dealer)
SWAP_CHOICES = (1 << A.SWAP) | (1 << A.KEEP)  # D5: the holder of the 7 of trump's choice


# ---------------------------------------------------------------------------------------------
# small helpers
# ---------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def side_of(seat, teams):
    """Scoring side of a seat: its team (seat % 2) in team play, else the seat (D1).

    Hot-path helpers take scalars, not the state row: an inlined helper that takes an array
    makes numba emit reference-count calls on every decision."""
    if teams:
        return seat % 2
    return seat


@njit(cache=True, inline="always")
def seat_after(seat, k, n):
    """(seat + k) % n for 0 <= seat < n and 0 <= k <= n, without a division (n is a run-time
    value, so ``%`` would be a slow integer division on every call)."""
    s = seat + k
    return s - n if s >= n else s


@njit(cache=True, inline="always")
def tricks_per_round(players):
    """8 tricks with 4 players, 9 with 2 or 3 (D12)."""
    return 8 if players == 4 else 9


@njit(cache=True, inline="always")
def mask_points(mask, trump):
    """Card points (D2) of a card mask for the given trump suit."""
    total = 0
    for s in range(4):
        b = (mask >> (s * 8)) & 0xFF
        if s == trump:
            total += TRUMP_POINTS_BYTE[b]
        else:
            total += PLAIN_POINTS_BYTE[b]
    return total


@njit(cache=True, inline="always")
def card_rank_value(card, led, trump):
    """Strength of a card in a trick led with suit ``led``: trumps 16+, led suit 0-7, else -1."""
    s = card >> 3
    r = card & 7
    if s == trump:
        return 16 + TRUMP_STRENGTH[r]
    if s == led:
        return PLAIN_STRENGTH[r]
    return -1


@njit(cache=True, inline="always")
def card_key(card, trump):
    """Index of a card in tables.CARD_STRENGTH and CARD_POINTS: is_trump * 8 + rank."""
    return ix(((card >> 3) == trump) * 8 + (card & 7))


@njit(cache=True, inline="always")
def card_strength(card, trump):
    """Strength of a card of the led suit or of trumps (tables.CARD_STRENGTH)."""
    return CARD_STRENGTH[card_key(card, trump)]


@njit(cache=True, inline="always")
def winning_index(c0, c1, c2, c3, length, trump):
    """Position (0..length-1) of the card winning a trick of ``length`` cards c0.. (D8)."""
    led = c0 >> 3
    best = 0
    best_v = card_rank_value(c0, led, trump)
    if length > 1:
        v = card_rank_value(c1, led, trump)
        if v > best_v:
            best_v = v
            best = 1
    if length > 2:
        v = card_rank_value(c2, led, trump)
        if v > best_v:
            best_v = v
            best = 2
    if length > 3:
        v = card_rank_value(c3, led, trump)
        if v > best_v:
            best = 3
    return best


# ---------------------------------------------------------------------------------------------
# starting games and deals (D1, D3)
# ---------------------------------------------------------------------------------------------
@njit(cache=True, **NO_REFCOUNT)
def init_game(st, R, seed, game_id):
    """Reset ``st`` to the start of a game and deal its first deal."""
    # game-level fields here; deal_from_seed clears every per-deal field
    for f in range(L.SEED, L.DECK):
        st[f] = 0
    for f in range(L.SCORES, L.SCORES_BEFORE):
        st[f] = 0
    st[L.SEED] = seed
    st[L.GAME_ID] = game_id
    n = R[L.R_PLAYERS]
    if R[L.R_FIRST_DEALER] >= 0:
        st[L.DEALER] = R[L.R_FIRST_DEALER]
    else:  # D1: drawn from the game's seeded generator
        _, st[L.DEALER] = rng_nb.below_scalar(rng_nb.stream(seed, game_id, GAME_STREAM_KEY), n)
    st[L.WINNER] = -1
    deal_from_seed(st, R)


@njit(cache=True, **NO_REFCOUNT)
def deal_from_seed(st, R):
    """Deal the current deal (dealer and deal_no already set) from the seeded generator:
    the deck order comes from (seed, game, deal number) alone."""
    clear_deal(st)
    deck = st[L.DECK:L.DECK + 32]
    for c in range(32):
        deck[c] = c
    rng_nb.shuffle_cards(rng_nb.stream(st[L.SEED], st[L.GAME_ID], st[L.DEAL_NO]), deck)
    deal_current_deck(st, R)


@njit(cache=True, **NO_REFCOUNT)
def deal_from_deck(st, R, deck):
    """Deal from a given deck order (any permutation of the 32 cards)."""
    clear_deal(st)
    for k in range(32):
        st[L.DECK + k] = deck[k]
    deal_current_deck(st, R)


@njit(cache=True, inline="always")
def clear_deal(st):
    """Reset every per-deal field (scores, pot and byte counts are kept)."""
    for f in range(L.DECK, L.SCORES):
        st[f] = 0
    for f in range(L.SCORES_BEFORE, L.STATE_WIDTH):
        st[f] = 0
    st[L.TURNUP_RECEIVER] = -1
    st[L.TRUMP] = -1
    st[L.BIDDER] = -1
    st[L.SWAP_SEAT] = -1
    st[L.MELD_WINNER] = -1
    st[L.BELLA_SEAT] = -1
    st[L.WINNER] = -1
    st[L.NEXT_DEALER] = -1
    st[L.TRICK_TOP] = -1
    st[L.TRICK_BEST] = -1


@njit(cache=True, inline="always")
def deal_current_deck(st, R):
    """Deal the deck order held in the state: seat s gets deck[6s:6s+6], deck[6n] is the
    turn-up, the rest is the stock, dealt after bidding in order from the dealer (D3)."""
    n = R[L.R_PLAYERS]
    for s in range(4):
        st[L.SCORES_BEFORE + s] = st[L.SCORES + s]
        st[L.BYTE_COUNTS_BEFORE + s] = st[L.BYTE_COUNTS + s]
    st[L.POT_BEFORE] = st[L.POT]
    for s in range(n):
        m = 0
        for k in range(6):
            m |= 1 << st[L.DECK + 6 * s + k]
        st[L.DEALT + s] = m
        st[L.HANDS + s] = m
    st[L.TURNUP] = st[L.DECK + 6 * n]
    st[L.STOCK_POS] = 6 * n + 1
    # D3.2: four sevens in one hand void the deal; the same dealer deals again.
    for s in range(n):
        if (st[L.DEALT + s] & SEVENS) == SEVENS:
            st[L.VOID] = L.VOID_FOUR_SEVENS
            end_void(st, R, st[L.DEALER])
            return
    st[L.PHASE] = L.PH_BID1
    st[L.TURN] = seat_after(st[L.DEALER], 1, n)


@njit(cache=True, **NO_REFCOUNT)
def end_void(st, R, next_dealer):
    """A void deal (D3.2, D4): no score changes."""
    st[L.END] = L.END_VOID
    st[L.TURN] = -1
    st[L.NEXT_DEALER] = next_dealer
    st[L.PHASE] = L.PH_DEAL_END


@njit(cache=True, **NO_REFCOUNT)
def next_deal(st, R):
    """Start the next deal of a game whose last deal has ended (phase PH_DEAL_END)."""
    st[L.DEALER] = st[L.NEXT_DEALER]
    st[L.DEAL_NO] += 1
    deal_from_seed(st, R)


# ---------------------------------------------------------------------------------------------
# legal actions
# ---------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def legal_in_trick(hand, seat, led, trump, top, best, partner_exemption, overtrump_on_ruff):
    """Mask of the cards ``seat`` may play from ``hand`` into a started trick (D8): ``led`` is
    its suit, ``top`` the seat winning it so far with a card of strength ``best``
    (tables.CARD_STRENGTH). See ``legal_against``."""
    higher = TRUMPS_BEATING[ix(best)] << (trump * 8)  # every trump while no trump is in the trick
    partner_wins = partner_exemption & (((top ^ seat) & 1) == 0)
    return legal_against(hand, led, trump, higher, partner_wins, overtrump_on_ruff)


@njit(cache=True, inline="always")
def legal_against(hand, led, trump, higher, partner_wins, overtrump_on_ruff):
    """Mask of the cards that may be played from ``hand`` into a started trick (D8) led with
    ``led``, in which the trumps ``higher`` (a card mask) would beat the best card so far and
    ``partner_wins`` says that the player's partner holds it under the partner exemption.
    Every case is worked out and the answer selected: the hand is random, so branches on it
    would be mispredicted."""
    follow = hand & (0xFF << (led * 8))
    trumps = hand & (0xFF << (trump * 8))
    over_follow = follow & higher  # non-empty only on a trump lead: D8.3, overtrump if able
    when_following = over_follow if over_follow != 0 else follow  # D8.1
    over_ruff = trumps & higher & -overtrump_on_ruff  # D8.4
    when_ruffing = over_ruff if over_ruff != 0 else trumps  # D8.2
    free = (trumps == 0) | partner_wins  # D8.6, D8.5
    when_void = hand if free else when_ruffing
    return when_following if follow != 0 else when_void


def _trumps_beating_cards():
    """Entry ``trump * 32 + card``: the trumps (a card mask) that beat ``card`` once it is in
    a trick with trump suit ``trump``: those above it if it is a trump, else every trump. A
    trick's ``higher`` trumps (``legal_against``) are those that beat each card in it."""
    table = np.zeros(4 * 32, dtype=np.int64)
    for trump in range(4):
        for card in range(32):
            beating = TRUMPS_BEATING[16 + TRUMP_STRENGTH[card & 7]]
            table[trump * 32 + card] = int(beating if card >> 3 == trump else 0xFF) << (trump * 8)
    return table


TRUMPS_BEATING_CARD = _trumps_beating_cards()


@njit(cache=True, inline="always")
def legal_cards(hand, seat, c0, c1, c2, n_in_trick, leader, trump, partner_exemption,
                overtrump_on_ruff):
    """Mask of the cards ``seat`` may play from ``hand`` into a trick holding n_in_trick
    cards c0, c1, c2 led by ``leader`` (D8; four players when partner_exemption is set)."""
    if n_in_trick == 0:
        return hand
    led = c0 >> 3
    k = winning_index(c0, c1, c2, 0, n_in_trick, trump)
    c = c0 if k == 0 else (c1 if k == 1 else c2)
    return legal_in_trick(hand, seat, led, trump, (leader + k) % 4, card_strength(c, trump),
                          partner_exemption, overtrump_on_ruff)


@njit(cache=True, inline="always")
def bids_allowed(second_round, turnup_suit, dealer_speaks, obligatory):
    """Mask of the bids the speaker may make (D4): play or pass in the first round; in the
    second a suit other than the turn-up's, or pass."""
    if not second_round:
        return (1 << A.PASS) | (1 << A.PLAY)
    suits = (0xF << A.NAME_SUIT) & ~(1 << (A.NAME_SUIT + turnup_suit))
    # D4: with an obligation the dealer may not pass the second time round.
    return suits if obligatory and dealer_speaks else suits | (1 << A.PASS)


@njit(cache=True, inline="always")
def legal_mask(st, R):
    """Mask of legal action ids for the seat to act (0 when nobody is to act)."""
    ph = st[L.PHASE]
    if ph == L.PH_PLAY:
        hand = st[ix(L.HANDS + st[L.TURN])]
        if st[L.TRICK_LEN] == 0:
            return hand
        return legal_in_trick(hand, st[L.TURN], st[L.TRICK] >> 3, st[L.TRUMP], st[L.TRICK_TOP],
                              st[L.TRICK_BEST], R[L.R_TEAMS] and R[L.R_PARTNER_EXEMPTION],
                              R[L.R_OVERTRUMP_ON_RUFF])
    if ph == L.PH_BID1 or ph == L.PH_BID2:
        return bids_allowed(ph == L.PH_BID2, st[L.TURNUP] >> 3, st[L.TURN] == st[L.DEALER],
                            R[L.R_OBLIGATORY])
    if ph == L.PH_SWAP:
        return SWAP_CHOICES
    return 0


# ---------------------------------------------------------------------------------------------
# stepping
# ---------------------------------------------------------------------------------------------
@njit(cache=True, **NO_REFCOUNT)
def step(st, R, action):
    """Apply a legal ``action`` of the seat to act."""
    ph = st[L.PHASE]
    if ph == L.PH_PLAY:
        play_card(st, R, action)
    elif ph == L.PH_BID1 or ph == L.PH_BID2:
        bid(st, R, action)
    elif ph == L.PH_SWAP:
        answer_swap(st, R, action)


@njit(cache=True, inline="always")
def answer_swap(st, R, action):
    """D5: the holder of the 7 of trump swaps it for the turn-up or keeps it; then the play
    starts."""
    if action == A.SWAP:
        seat = st[L.TURN]
        seven = 1 << (st[L.TRUMP] * 8)
        up = 1 << st[L.TURNUP]
        st[L.HANDS + seat] = (st[L.HANDS + seat] & ~seven) | up
        st[L.DEAD] = (st[L.DEAD] & ~up) | seven
        st[L.SWAP_SEAT] = seat
    start_play(st, R)


@njit(cache=True, inline="always")
def bid(st, R, action):
    """D4: one bid of the seat to act."""
    n = R[L.R_PLAYERS]
    seat = st[L.TURN]
    st[L.BIDS + st[L.N_BIDS]] = action
    st[L.N_BIDS] += 1
    if action == A.PLAY:
        finish_bidding(st, R, seat, st[L.TURNUP] >> 3)
    elif action != A.PASS:
        finish_bidding(st, R, seat, action - A.NAME_SUIT)
    elif seat != st[L.DEALER]:
        st[L.TURN] = seat_after(seat, 1, n)
    elif st[L.PHASE] == L.PH_BID1:
        st[L.PHASE] = L.PH_BID2
        st[L.TURN] = seat_after(seat, 1, n)
    else:  # everybody passed twice without an obligation: void, next dealer (D4, D10)
        st[L.VOID] = L.VOID_ALL_PASSED
        end_void(st, R, seat_after(st[L.DEALER], 1, n))


@njit(cache=True, **NO_REFCOUNT)
def finish_bidding(st, R, bidder, trump):
    """Trump is chosen: deal the extra cards (D3.3), offer the seven swap (D5) or start play."""
    n = R[L.R_PLAYERS]
    round1 = st[L.PHASE] == L.PH_BID1
    st[L.BIDDER] = bidder
    st[L.TRUMP] = trump
    pos = st[L.STOCK_POS]
    dealer = st[L.DEALER]
    receiver = -1
    if n == 4:
        receiver = dealer if R[L.R_TURNUP_TO_DEALER] else bidder
        st[L.TURNUP_RECEIVER] = receiver
    for k in range(1, n + 1):
        seat = seat_after(dealer, k, n)
        if n < 4:
            count = 3
        elif seat == receiver:
            count = 1
        else:
            count = 2
        m = 0
        for j in range(count):
            m |= 1 << st[L.DECK + pos + j]
        pos += count
        if seat == receiver:
            m |= 1 << st[L.TURNUP]
        st[L.EXTRA + seat] = m
        st[L.HANDS + seat] |= m
    st[L.STOCK_POS] = pos
    if n < 4:
        dead = 1 << st[L.TURNUP]
        for k in range(pos, 32):
            dead |= 1 << st[L.DECK + k]
        st[L.DEAD] = dead
        seven = 1 << (trump * 8)
        if R[L.R_SEVEN_SWAP] and round1:
            for s in range(n):
                if st[L.HANDS + s] & seven:
                    st[L.PHASE] = L.PH_SWAP
                    st[L.TURN] = s
                    return
    start_play(st, R)


@njit(cache=True, inline="always")
def settle_melds(st, R):
    """Play hands, sequences (D6) and the bella holder (D7) from the hands held at the first
    lead; returns the seat holding the highest sequence (-1 if none) and its key. Sampled
    deals (sample_nb) are settled by the same code."""
    n = R[L.R_PLAYERS]
    trump = st[L.TRUMP]
    dealer = st[L.DEALER]
    best_key = 0
    winner = -1
    bella = BELLA_RANKS << (trump * 8)
    bella_seat = -1
    for k in range(1, n + 1):  # in order from the dealer: the earlier wins a full tie (D6.2)
        seat = seat_after(dealer, k, n)
        hand = st[ix(L.PLAY_HANDS + seat)]
        key, pts, kind = meld_summary(hand, trump, R[L.R_DEBERTZ_TRUMP_ONLY],
                                      R[L.R_TRUMP_MELD_WINS_TIE])
        st[ix(L.BEST_MELD + seat)] = key
        st[ix(L.SEQ_POINTS + seat)] = pts
        # selects, not branches: who holds what is random (D6.2: a later equal key loses)
        winner = seat if key > best_key else winner
        best_key = max(key, best_key)
        bella_seat = seat if (hand & bella) == bella else bella_seat
    st[L.BELLA_SEAT] = bella_seat
    st[L.MELD_WINNER] = winner
    return winner, best_key


@njit(cache=True, **NO_REFCOUNT)
def start_play(st, R):
    """Melds (D6), bella (D7), a debertz ending the game (D6.5, D11), then the first lead."""
    n = R[L.R_PLAYERS]
    for s in range(n):
        st[ix(L.PLAY_HANDS + s)] = st[ix(L.HANDS + s)]
    winner, best_key = settle_melds(st, R)
    if winner >= 0 and key_kind(best_key) == KIND_DEBERTZ:
        # D6.5 / D11: shown before the lead, not played, nobody records, the holder wins.
        st[L.END] = L.END_DEBERTZ
        st[L.GAME_OVER] = 1
        st[L.WINNER] = side_of(winner, R[L.R_TEAMS])
        st[L.TURN] = -1
        st[L.NEXT_DEALER] = -1
        st[L.PHASE] = L.PH_GAME_OVER
        return
    lead = seat_after(st[L.DEALER], 1, n) if R[L.R_LEAD_AFTER_DEALER] else st[L.BIDDER]  # D8
    st[L.LEADER] = lead
    st[L.TURN] = lead
    st[L.PHASE] = L.PH_PLAY


@njit(cache=True, inline="always")
def play_card(st, R, card):
    """D7, D8: the seat to act plays ``card``; completes tricks and the round."""
    n = R[L.R_PLAYERS]
    seat = st[L.TURN]
    bit = 1 << card
    trump = st[L.TRUMP]
    suit = card >> 3
    k = st[L.TRICK_LEN]
    first = st[L.TRICK]
    led = suit if k == 0 else first >> 3
    top = st[L.TRICK_TOP]
    best = st[L.TRICK_BEST]
    st[ix(L.VOIDS + seat)] |= voids_shown(seat, suit, led, trump, top,
                                          R[L.R_TEAMS] & R[L.R_PARTNER_EXEMPTION])
    st[ix(L.HANDS + seat)] &= ~bit
    st[L.PLAYED] |= bit
    st[ix(L.TRICK + k)] = card
    st[L.TRICK_LEN] = k + 1
    st[ix(L.PLAYS + st[L.N_PLAYS])] = seat * 32 + card
    st[L.N_PLAYS] += 1
    key = card_key(card, trump)
    value = CARD_STRENGTH[key]  # loaded before the select, so that it stays a select
    strength = value if (suit == trump) | (suit == led) else -1
    st[L.TRICK_TOP] = seat if strength > best else top
    st[L.TRICK_BEST] = max(strength, best)
    st[L.TRICK_POINTS] += CARD_POINTS[key]
    st[L.BELLA_SHOWN] |= announces_bella(seat, card, trump, st[L.BELLA_SEAT],
                                         st[ix(L.HANDS + seat)], R[L.R_BELLA_ANY_CARD])
    if k + 1 < n:
        st[L.TURN] = seat_after(seat, 1, n)
        return
    # the trick is complete (D8 last item)
    w = st[L.TRICK_TOP]
    take_trick(st, w, st[L.TRICK_POINTS], st[L.TRICK_NO])
    st[L.TRICK_NO] += 1
    start_trick(st, w)
    if st[L.TRICK_NO] == tricks_per_round(n):
        score_round(st, R, w)
    elif R[L.R_END_POINTS]:
        check_points_end(st, R, side_of(w, R[L.R_TEAMS]))


@njit(cache=True, inline="always")
def voids_shown(seat, suit, led, trump, top, partner_exemption):
    """D8, shown voids: the suits (a bit each) ``seat`` shows it lacks by playing a card of
    ``suit`` into a trick led with ``led`` and won so far by ``top``. A seat that does not
    follow lacks the led suit; if it does not trump either, it lacks trumps, unless its
    partner wins the trick and the partner exemption (D8.5) allowed it not to. Computed
    without branches: the card is random, so branches on it would be mispredicted."""
    off = suit != led
    partner_top = partner_exemption & (((top ^ seat) & 1) == 0)
    no_trumps = off & (suit != trump) & (led != trump) & (partner_top == 0)
    return (off << led) | (no_trumps << trump)


@njit(cache=True, inline="always")
def announces_bella(seat, card, trump, bella_seat, hand_after, any_card):
    """D7: whether ``seat`` announces the bella by playing ``card`` (``hand_after``: its hand
    without it): with the first (or only the second) of K, Q of trump played. Also worked out
    with selects: the holder's turn comes in no fixed pattern."""
    r = card & 7
    other = 1 << (trump * 8 + (11 - r))  # the other of K, Q when r is one of them
    return ((seat == bella_seat) & ((card >> 3) == trump) & ((r == 5) | (r == 6))
            & ((any_card != 0) | ((hand_after & other) == 0)))


@njit(cache=True, inline="always")
def start_trick(st, leader):
    """An empty trick, led by ``leader``."""
    st[L.TRICK_LEN] = 0
    st[L.TRICK_TOP] = -1
    st[L.TRICK_BEST] = -1
    st[L.TRICK_POINTS] = 0
    st[L.LEADER] = leader
    st[L.TURN] = leader


@njit(cache=True, inline="always")
def take_trick(st, winner, points, trick_no):
    """``winner`` takes trick number ``trick_no`` (from 0), worth ``points`` card points."""
    st[ix(L.WON_POINTS + winner)] += points
    st[ix(L.TRICKS_WON + winner)] += 1
    st[ix(L.TRICK_WINNERS + trick_no)] = winner


# ---------------------------------------------------------------------------------------------
# scoring (D9, D10, D11)
# ---------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def side_tricks(st, R, side):
    """Tricks taken by a side."""
    t = 0
    for s in range(R[L.R_PLAYERS]):
        if side_of(s, R[L.R_TEAMS]) == side:
            t += st[L.TRICKS_WON + s]
    return t


@njit(cache=True, inline="always")
def points_so_far(st, R, side, bella_unshown_counts):
    """Cards of a side's tricks, plus its sequences and bella once it has a trick (D9.1, D11)."""
    n = R[L.R_PLAYERS]
    pts = 0
    for s in range(n):
        if side_of(s, R[L.R_TEAMS]) == side:
            pts += st[L.WON_POINTS + s]
    if side_tricks(st, R, side) == 0:
        return pts  # D6.4, D7: sequences and bella need a trick
    mw = st[L.MELD_WINNER]
    # D6.3: the side of the highest sequence scores all its sequences
    if mw >= 0 and side_of(mw, R[L.R_TEAMS]) == side:
        for s in range(n):
            if side_of(s, R[L.R_TEAMS]) == side:
                pts += st[L.SEQ_POINTS + s]
    b = st[L.BELLA_SEAT]
    shown = st[L.BELLA_SHOWN] or bella_unshown_counts
    if b >= 0 and side_of(b, R[L.R_TEAMS]) == side and shown:
        pts += 20
    return pts


@njit(cache=True, inline="always")
def side_in_order(st, R, j):
    """The j-th side in order from the dealer (D1): dealer+1's side first.

    Sides are seats, or teams seat % 2; either way the j-th is (dealer + 1 + j) % sides."""
    return (st[L.DEALER] + 1 + j) % R[L.R_SIDES]


@njit(cache=True, **NO_REFCOUNT)
def score_round(st, R, last_winner):
    """D9: round points, byte / hanging byte / pot, penalties; then D10 and D11."""
    nsides = R[L.R_SIDES]
    RP = L.ROUND_POINTS
    REC = L.RECORDED
    for side in range(nsides):
        st[RP + side] = points_so_far(st, R, side, True)  # played out: bella was announced
    st[RP + side_of(last_winner, R[L.R_TEAMS])] += LAST_TRICK_BONUS
    for side in range(nsides):
        st[REC + side] = st[RP + side]
    bside = side_of(st[L.BIDDER], R[L.R_TEAMS])
    bidder_points = st[RP + bside]
    top_opp = -1
    n_top = 0
    for side in range(nsides):
        if side != bside:
            if st[RP + side] > top_opp:
                top_opp = st[RP + side]
                n_top = 1
            elif st[RP + side] == top_opp:
                n_top += 1
    byte = L.BYTE_NONE
    if top_opp > bidder_points:  # D9.2 byte: the bidder's points go to the best opponent(s)
        byte = L.BYTE_BYTE
        st[REC + bside] = 0
        share = bidder_points // n_top
        rest = bidder_points - share * n_top
        for j in range(nsides):
            side = side_in_order(st, R, j)
            if side != bside and st[RP + side] == top_opp:
                st[REC + side] += share
                if rest > 0:  # the remainder, one point each in order from the dealer
                    st[REC + side] += 1
                    rest -= 1
        st[L.BYTE_COUNTS + bside] += 1
        if R[L.R_BYTE_PENALTY] > 0 and st[L.BYTE_COUNTS + bside] % 3 == 0:  # D9.3
            st[REC + bside] -= R[L.R_BYTE_PENALTY]
    elif top_opp == bidder_points:  # hanging byte: the bidder's points wait in the pot
        byte = L.BYTE_HANGING
        st[REC + bside] = 0
    # D9.2: an earlier pot goes to this round's unique top scorer, if there is one.
    top = -1
    n_at_top = 0
    top_side = -1
    for side in range(nsides):
        if st[RP + side] > top:
            top = st[RP + side]
            n_at_top = 1
            top_side = side
        elif st[RP + side] == top:
            n_at_top += 1
    if n_at_top == 1 and st[L.POT] > 0:
        st[REC + top_side] += st[L.POT]
        st[L.POT] = 0
    if byte == L.BYTE_HANGING:
        st[L.POT] += bidder_points
    if R[L.R_NO_TRICK_PENALTY] > 0:  # D9.4
        for side in range(nsides):
            if side_tricks(st, R, side) == 0:
                st[REC + side] -= R[L.R_NO_TRICK_PENALTY]
    for side in range(nsides):
        st[L.SCORES + side] += st[REC + side]
    st[L.BYTE] = byte
    st[L.END] = L.END_PLAYED_OUT
    st[L.TURN] = -1
    st[L.NEXT_DEALER] = choose_next_dealer(st, R)
    check_round_end(st, R, bside)


@njit(cache=True, inline="always")
def choose_next_dealer(st, R):
    """D10: clockwise, or the side with the unique most recorded points (its member first in
    order from the dealer in team play); ties fall back to clockwise."""
    n = R[L.R_PLAYERS]
    clockwise = seat_after(st[L.DEALER], 1, n)
    if not R[L.R_ROTATE_TO_WINNER]:
        return clockwise
    best = 0
    count = 0
    best_side = -1
    for side in range(R[L.R_SIDES]):
        v = st[L.RECORDED + side]
        if count == 0 or v > best:
            best = v
            best_side = side
            count = 1
        elif v == best:
            count += 1
    if count != 1:
        return clockwise
    for j in range(1, n + 1):
        seat = seat_after(st[L.DEALER], j, n)
        if side_of(seat, R[L.R_TEAMS]) == best_side:
            return seat
    return clockwise


@njit(cache=True, inline="always")
def check_round_end(st, R, bside):
    """D11 "round" rule: once someone reached the target, the highest total wins; ties go to
    the bidder's side, else to the side first in order from the dealer."""
    nsides = R[L.R_SIDES]
    reached = False
    best = 0
    for side in range(nsides):
        v = st[L.SCORES + side]
        if v >= R[L.R_TARGET]:
            reached = True
        if side == 0 or v > best:
            best = v
    if not reached:
        st[L.PHASE] = L.PH_DEAL_END
        return
    winner = bside
    if st[L.SCORES + bside] != best:
        for j in range(nsides):
            side = side_in_order(st, R, j)
            if st[L.SCORES + side] == best:
                winner = side
                break
    finish_game(st, winner)


@njit(cache=True, inline="always")
def finish_game(st, winner):
    """D11: end the game, won by side ``winner``: nobody is to act and there is no next dealer."""
    st[L.GAME_OVER] = 1
    st[L.WINNER] = winner
    st[L.TURN] = -1
    st[L.NEXT_DEALER] = -1
    st[L.PHASE] = L.PH_GAME_OVER


@njit(cache=True, **NO_REFCOUNT)
def check_points_end(st, R, side):
    """D11 "points" rule, after ``side`` took a trick that is not the last one."""
    if st[L.SCORES + side] + points_so_far(st, R, side, False) < R[L.R_TARGET]:
        return
    unshown = R[L.R_UNPLAYED_BELLA_COUNTS] != 0
    for s in range(R[L.R_SIDES]):
        pts = points_so_far(st, R, s, unshown)
        st[L.ROUND_POINTS + s] = pts
        st[L.RECORDED + s] = pts
        st[L.SCORES + s] += pts
    st[L.END] = L.END_POINTS
    finish_game(st, side)


# ---------------------------------------------------------------------------------------------
# copying
# ---------------------------------------------------------------------------------------------
@njit(cache=True, **NO_REFCOUNT)
def copy_state(src, dst):
    """Copy one game state row into another (search agents branch this way)."""
    for k in range(src.shape[0]):
        dst[k] = src[k]
