"""Deals of the cards one seat cannot see, consistent with everything it knows (search agents).

A search agent at seat ``me`` replaces the hidden part of the state with a **sampled deal**:
the cards of the other seats (and, with 2-3 players, the dead stock) drawn uniformly among
the deals that agree with what ``me`` knows:

- its own cards, the cards played and who played them, the trick;
- suits shown void and trumps shown missing: a seat that did not follow lacks the led suit;
  one that neither followed nor trumped lacks trumps (unless the partner exemption, D8.5,
  let it); one that did not overtrump where D8.3 (or D8.4 with ``overtrump_on_ruff``)
  demanded it lacks every trump that would have beaten the trick;
- the turn-up and where it went (D3.3: the 4-player receiver; D5: the seven swap puts it in
  the swapper's hand and the 7 of trump out of play), the dead cards being the rest;
- sequences declared (D6.6: each declared meld's length; the winning meld's cards once
  shown; no seat holds a debertz, or the game would have ended, D6.5);
- the bella (D7): who announced it and with which card, and who played K or Q of trump
  without announcing.

**How (exact, not approximate).** "Seat ``s`` cannot hold card ``c``" constraints and the
known cards are hard constraints, drawn from exactly by the shared class-splitting core
(``cardsim.deal_split_nb``): every deal satisfying them is equally likely.
Declarations and the bella, which are not card-by-card constraints, are checked on the
drawn deal, which is redrawn when it contradicts them (rejection keeps the uniformity).

One approximation: the split of a hand into its first six cards and the cards received
after bidding is not sampled, so the four-sevens rule (D3.2) is checked only on the six
cards while bidding is still running.

Positions before the first lead (bidding, the seven swap) have no card-by-card constraints:
the hidden cards are shuffled into the other hands and the stock, whose order (the cards
still to be dealt, D3.3) is part of the sample.
"""

import numpy as np
from numba import njit

from cardsim.bits_nb import lowest_bit, popcount
from cardsim.deal_split_nb import (
    CORE_WIDTH,
    KN_CAP,
    KN_FORBID,
    KN_HOLDER,
    KN_HOLDERS,
    KN_KNOWN,
    KN_POOL,
    KN_SEAT,
    KN_UNCONSTRAINED,
    draw_hidden,
    holder_of,
    prepare_classes,
    shuffle_mask,
)
from cardsim.debertz import layout as L
from cardsim.debertz.engine_nb import card_strength, settle_melds
from cardsim.debertz.melds_nb import list_runs, meld_summary, run_kind
from cardsim.debertz.tables import TRUMPS_BEATING
from cardsim.jit import WITH_REFCOUNT, ix

# ---------------------------------------------------------------------------------------------
# The knowledge row: what seat ``me`` knows, prepared once per position (``knowledge``). The
# shared fields (holders, capacities, known and forbidden cards, the classes) are those of
# ``cardsim.deal_split_nb``; Debertz adds its own after them.
# ---------------------------------------------------------------------------------------------
KN_PREPLAY = KN_UNCONSTRAINED  # before the first lead: no card constraints, a deck order
KN_DECLARED = CORE_WIDTH       # seats whose sequences are declared (bit per seat)
KN_SIGNATURE = CORE_WIDTH + 1  # [4] per seat: its declared sequences (run_signature)
KN_MELD_SHOWN = CORE_WIDTH + 5  # seat whose winning sequence is shown, -2 while none is
KN_BELLA_EVENT = CORE_WIDTH + 6  # index in the plays of the bella announcement, -1 if none
KN_PLAYED_BY = CORE_WIDTH + 7  # [4] per seat: the cards it played this deal
KN_TRUMP = CORE_WIDTH + 11     # the trump suit
KNOWLEDGE_WIDTH = CORE_WIDTH + 12

MAX_TRIES = 10000    # redraws before a position is declared inconsistent


def _signature_table():
    """Per suit byte: its runs of 3+ cards, 4 bits per run length 3..8 (run_signature).
    Built from ``melds_nb.list_runs`` itself."""
    table = np.zeros(256, dtype=np.int64)
    runs = np.zeros((4, 3), dtype=np.int64)
    list_runs_py = getattr(list_runs, "py_func", list_runs)  # plain Python: no compiling here
    for b in range(256):
        for k in range(list_runs_py(b, runs)):
            table[b] += 1 << (4 * (runs[k, 2] - 3))
    return table


SUIT_SIGNATURE = _signature_table()
LONG_RUNS = 0xFF << 16  # the signature's counts of runs of 7 and 8 cards


@njit(cache=True, inline="always")
def run_signature(hand):
    """The declared sequences of a hand as one integer: 4 bits per run length 3..8 counting
    its runs of that length (D6.6: others learn each declared meld's kind and length)."""
    return (SUIT_SIGNATURE[ix(hand & 0xFF)] + SUIT_SIGNATURE[ix((hand >> 8) & 0xFF)]
            + SUIT_SIGNATURE[ix((hand >> 16) & 0xFF)] + SUIT_SIGNATURE[ix((hand >> 24) & 0xFF)])


@njit(cache=True, **WITH_REFCOUNT)
def best_run_cards(hand, trump, debertz_trump_only, trump_wins_tie):
    """The cards of a hand's highest sequence (D6.2), the meld shown to all (D6.6)."""
    runs = np.zeros((4, 3), dtype=np.int64)
    best = 0
    cards = 0
    for k in range(list_runs(hand, runs)):
        suit, top, length = runs[k, 0], runs[k, 1], runs[k, 2]
        kind = run_kind(length, suit, trump, debertz_trump_only)
        tie = 1 if (trump_wins_tie and suit == trump) else 0
        key = ((kind << 5) | (top << 1) | tie) + 1
        if key > best:
            best = key
            cards = (((1 << length) - 1) << (top - length + 1)) << (suit * 8)
    return cards


@njit(cache=True)
def bella_event(st, R, seat):
    """Index in the deal's plays of the card with which ``seat`` announced the bella (D7),
    had it held K and Q of trump at the first lead; -1 if no announcement has happened."""
    if seat < 0:
        return -1
    trump = st[L.TRUMP]
    seen = 0
    for p in range(st[L.N_PLAYS]):
        who = st[L.PLAYS + p] >> 5
        card = st[L.PLAYS + p] & 31
        if who == seat and (card >> 3) == trump and ((card & 7) == 5 or (card & 7) == 6):
            seen += 1
            if seen == 1 and R[L.R_BELLA_ANY_CARD]:
                return p
            if seen == 2:
                return p
    return -1


@njit(cache=True)
def knowledge(st, R, me, kn):
    """Fill the knowledge row ``kn`` of seat ``me`` in position ``st``. Reads only what
    ``me`` may know. Returns False when the position has no hidden cards to sample."""
    for k in range(KNOWLEDGE_WIDTH):
        kn[k] = 0
    n = R[L.R_PLAYERS]
    trump = st[L.TRUMP]
    phase = st[L.PHASE]
    kn[KN_SEAT] = me
    kn[KN_TRUMP] = trump
    kn[KN_MELD_SHOWN] = -2
    kn[KN_BELLA_EVENT] = -1
    preplay = phase < L.PH_PLAY
    kn[KN_PREPLAY] = 1 if preplay else 0
    # holders: the other seats in order, then the dead stock (2-3 players, or any stock still
    # to be dealt during bidding)
    h = 0
    for s in range(n):
        if s != me:
            kn[KN_HOLDER + h] = s
            kn[KN_CAP + h] = popcount(st[L.HANDS + s])
            h += 1
    stock = 0
    if phase <= L.PH_BID2:
        stock = 32 - 6 * n
    elif n < 4:
        stock = popcount(st[L.DEAD])
    if stock > 0:
        kn[KN_HOLDER + h] = -1
        kn[KN_CAP + h] = stock
        h += 1
    kn[KN_HOLDERS] = h
    dead_slot = h - 1 if stock > 0 else -1
    turnup = 1 << st[L.TURNUP]
    # played cards, per seat
    played = st[L.PLAYED]
    for p in range(st[L.N_PLAYS]):
        kn[KN_PLAYED_BY + (st[L.PLAYS + p] >> 5)] |= 1 << (st[L.PLAYS + p] & 31)
    # where the turn-up is (D3.3, D5)
    if phase <= L.PH_BID2 or (n < 4 and st[L.SWAP_SEAT] < 0):
        if dead_slot >= 0:
            kn[KN_KNOWN + dead_slot] |= turnup
    elif n == 4:
        receiver = st[L.TURNUP_RECEIVER]
        if receiver != me and (played & turnup) == 0:
            kn[KN_KNOWN + holder_of(kn, receiver)] |= turnup
    else:
        swapper = st[L.SWAP_SEAT]
        kn[KN_KNOWN + dead_slot] |= 1 << (trump * 8)  # the 7 of trump went out of play
        if swapper != me and (played & turnup) == 0:
            kn[KN_KNOWN + holder_of(kn, swapper)] |= turnup
    if not preplay:
        play_constraints(st, R, me, kn)
    mine = st[L.HANDS + me]
    known = 0
    for k in range(h):
        kn[KN_KNOWN + k] &= ~played & ~mine
        kn[KN_CAP + k] -= popcount(kn[KN_KNOWN + k])
        known |= kn[KN_KNOWN + k]
    kn[KN_POOL] = ((1 << 32) - 1) & ~played & ~mine & ~known
    prepare_classes(kn)
    return kn[KN_POOL] != 0


@njit(cache=True)
def play_constraints(st, R, me, kn):
    """What the plays so far tell ``me`` (D8 voids and overtrumps, D6.6 melds, D7 bella)."""
    n = R[L.R_PLAYERS]
    trump = st[L.TRUMP]
    tmask = 0xFF << (trump * 8)
    exemption = R[L.R_TEAMS] and R[L.R_PARTNER_EXEMPTION]
    led = -1
    best = -1
    top = -1
    for p in range(st[L.N_PLAYS]):
        seat = st[L.PLAYS + p] >> 5
        card = st[L.PLAYS + p] & 31
        suit = card >> 3
        k = p % n
        if k == 0:
            led = suit
            best = card_strength(card, trump)
            top = seat
            continue
        f = holder_of(kn, seat)
        forbid = 0
        higher = TRUMPS_BEATING[ix(best)] << (trump * 8)
        strength = card_strength(card, trump) if (suit == trump or suit == led) else -1
        if suit != led:
            forbid |= 0xFF << (led * 8)                      # D8.1: cannot follow
            free = exemption and ((top ^ seat) & 1) == 0     # D8.5
            if suit == trump:
                if R[L.R_OVERTRUMP_ON_RUFF] and not free and strength < best:
                    forbid |= higher                         # D8.4: could not overtrump
            elif led != trump and not free:
                forbid |= tmask                              # D8.2: cannot trump
        elif led == trump and strength < best:
            forbid |= higher                                 # D8.3: could not overtrump
        if f >= 0:
            kn[KN_FORBID + f] |= forbid
        if strength > best:
            best = strength
            top = seat
    # sequences: declared with the seat's first card, or all before the first lead (D6.6)
    before_play = R[L.R_DECLARE_BEFORE_PLAY] != 0
    declared = 0
    for s in range(n):
        if before_play or kn[KN_PLAYED_BY + s] != 0:
            declared |= 1 << s
            kn[KN_SIGNATURE + s] = run_signature(st[L.PLAY_HANDS + s])
    kn[KN_DECLARED] = declared
    winner = st[L.MELD_WINNER]
    if before_play or st[L.TRICK_NO] >= 1:
        kn[KN_MELD_SHOWN] = winner
        if winner >= 0 and winner != me:
            shown = best_run_cards(st[L.PLAY_HANDS + winner], trump,
                                   R[L.R_DEBERTZ_TRUMP_ONLY], R[L.R_TRUMP_MELD_WINS_TIE])
            kn[KN_KNOWN + holder_of(kn, winner)] |= shown
    # bella (D7): announced with a known card; K or Q of trump played without announcing
    event = bella_event(st, R, st[L.BELLA_SEAT]) if st[L.BELLA_SHOWN] else -1
    kn[KN_BELLA_EVENT] = event
    any_card = R[L.R_BELLA_ANY_CARD] != 0
    for p in range(st[L.N_PLAYS]):
        seat = st[L.PLAYS + p] >> 5
        card = st[L.PLAYS + p] & 31
        r = card & 7
        if seat == me or (card >> 3) != trump or (r != 5 and r != 6):
            continue
        other = 1 << (trump * 8 + 11 - r)
        f = holder_of(kn, seat)
        if p == event:
            kn[KN_KNOWN + f] |= other
        elif any_card and (event < 0 or (st[L.PLAYS + event] >> 5) != seat):
            kn[KN_FORBID + f] |= other


@njit(cache=True, **WITH_REFCOUNT)
def write_deal(st, R, kn, held, rng, i, out):
    """``out``: position ``st`` with the hidden cards as in ``held`` (per holder). Before the
    first lead the deck order is rewritten (hands, turn-up, then the stock in random order);
    in play the hands, the dead cards and everything settled from the hands at the first
    lead (sequences, bella holder) are."""
    for k in range(st.shape[0]):
        out[k] = st[k]
    n = R[L.R_PLAYERS]
    h = kn[KN_HOLDERS]
    if kn[KN_PREPLAY] and st[L.PHASE] <= L.PH_BID2:
        pos = 0
        for s in range(n):
            k = holder_of(kn, s)
            hand = st[L.HANDS + s] if k < 0 else held[k]
            out[L.DEALT + s] = hand
            out[L.HANDS + s] = hand
            while hand != 0:
                out[L.DECK + pos] = lowest_bit(hand)
                hand &= hand - 1
                pos += 1
        out[L.DECK + pos] = st[L.TURNUP]
        buf = np.empty(32, dtype=np.int64)
        stock = held[h - 1] & ~(1 << st[L.TURNUP])
        count = shuffle_mask(stock, buf, rng, i)
        for q in range(count):
            out[L.DECK + pos + 1 + q] = buf[q]
        return
    for k in range(h):
        s = kn[KN_HOLDER + k]
        if s < 0:
            out[L.DEAD] = held[k]
        else:
            out[L.HANDS + s] = held[k]
    if not kn[KN_PREPLAY]:
        for s in range(n):
            out[L.PLAY_HANDS + s] = out[L.HANDS + s] | kn[KN_PLAYED_BY + s]
        settle_melds(out, R)


@njit(cache=True, inline="always")
def sequences_agree(R, kn, held):
    """Whether drawn holdings agree with the declared sequences (D6.6) and hold no debertz
    (D6.5: it would have ended the game before the first lead). Checked on the holdings
    before a state row is written: most redraws are decided here."""
    if kn[KN_PREPLAY]:
        return True
    for k in range(kn[KN_HOLDERS]):
        s = kn[KN_HOLDER + k]
        if s < 0:
            continue
        sig = run_signature(held[k] | kn[KN_PLAYED_BY + s])
        if (kn[KN_DECLARED] >> s) & 1:
            if sig != kn[KN_SIGNATURE + s]:
                return False
        elif sig & LONG_RUNS:
            # a 7-8 card run is a debertz unless debertz_trump_only and it is plain (D6.5)
            hand = held[k] | kn[KN_PLAYED_BY + s]
            for suit in range(4):
                if SUIT_SIGNATURE[ix((hand >> (suit * 8)) & 0xFF)] & LONG_RUNS:
                    if not R[L.R_DEBERTZ_TRUMP_ONLY] or suit == kn[KN_TRUMP]:
                        return False
    return True


@njit(cache=True)
def deal_agrees(st, R, kn, held):
    """Whether drawn holdings agree with the rest of what is known: the shown meld (D6.6) and
    the bella announcement (D7) in play; before bidding ends, no four sevens among a seat's
    first six cards (D3.2)."""
    n = R[L.R_PLAYERS]
    me = kn[KN_SEAT]
    if kn[KN_PREPLAY]:
        if st[L.PHASE] <= L.PH_BID2:
            sevens = (1 << 0) | (1 << 8) | (1 << 16) | (1 << 24)
            for k in range(kn[KN_HOLDERS]):
                if kn[KN_HOLDER + k] >= 0 and (held[k] & sevens) == sevens:
                    return False
        return True
    trump = kn[KN_TRUMP]
    bella = (3 << 5) << (trump * 8)
    winner = -1
    best_key = 0
    bella_seat = -1
    dealer = st[L.DEALER]
    for j in range(1, n + 1):  # in order from the dealer, as settle_melds
        s = (dealer + j) % n
        if s == me:
            hand = st[L.PLAY_HANDS + me]
        else:
            hand = held[holder_of(kn, s)] | kn[KN_PLAYED_BY + s]
        key, _, _ = meld_summary(hand, trump, R[L.R_DEBERTZ_TRUMP_ONLY],
                                 R[L.R_TRUMP_MELD_WINS_TIE])
        if key > best_key:
            best_key = key
            winner = s
        if (hand & bella) == bella:
            bella_seat = s
    if kn[KN_MELD_SHOWN] != -2 and winner != kn[KN_MELD_SHOWN]:
        return False
    return bella_event(st, R, bella_seat) == kn[KN_BELLA_EVENT]


@njit(cache=True)
def draw_deal(st, R, kn, ways, rng, i, held, buf):
    """Draw the hidden cards of position ``st`` (knowledge ``kn``, ``ways`` counted by
    ``count_completions``) into ``held`` (per holder, as ``kn``'s holders), from generator
    ``rng[i]``: uniform among the deals agreeing with everything ``kn``'s seat knows.
    ``buf``: 32 ints of scratch. Returns the number of draws it took, or -1 when none agrees
    within MAX_TRIES (an inconsistent position)."""
    for tries in range(1, MAX_TRIES + 1):
        draw_hidden(kn, ways, rng, i, held, buf)
        if sequences_agree(R, kn, held) and deal_agrees(st, R, kn, held):
            return tries
    return -1


# --- the pieces of the entry points written once for both games (cardsim.sample_nb) -------
@njit(cache=True, inline="always")
def knowledge_width():
    """Length of Debertz's knowledge row (``KNOWLEDGE_WIDTH``)."""
    return KNOWLEDGE_WIDTH


@njit(cache=True, inline="always")
def scratch_size():
    """Length of ``draw_deal``'s scratch buffer: one entry per card of the 32-card deck."""
    return 32


@njit(cache=True, inline="always")
def write_drawn(st, R, kn, held, tries, rng, i, out):
    """The deal ``draw_deal`` drew (``tries`` draws) as a whole state row ``out``."""
    if tries > 0:
        write_deal(st, R, kn, held, rng, i, out)
