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
known cards are hard constraints: the hidden cards fall into classes by the set of holders
allowed to hold them, and the number of deals completing each partial assignment is counted
once per position by a small dynamic programme over (class, capacities left). Sampling then
walks the classes, splitting each among its holders with probability proportional to the
number of completions, so every deal satisfying the hard constraints is equally likely.
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
from numba import njit, prange

from cardsim.bits_nb import lowest_bit, popcount
from cardsim.debertz import layout as L
from cardsim.debertz.engine_nb import card_strength, settle_melds
from cardsim.debertz.melds_nb import list_runs, meld_summary, run_kind
from cardsim.debertz.tables import TRUMPS_BEATING
from cardsim.jit import WITH_REFCOUNT, ix
from cardsim.rng_nb import below, next_u64

# ---------------------------------------------------------------------------------------------
# The knowledge row: what seat ``me`` knows, prepared once per position (``knowledge``).
# ---------------------------------------------------------------------------------------------
KN_SEAT = 0          # the seat that samples
KN_HOLDERS = 1       # number of holders of hidden cards
KN_HOLDER = 2        # [4] seat of holder h, or -1 for the dead stock
KN_CAP = 6           # [4] hidden cards holder h gets from the pool
KN_KNOWN = 10        # [4] cards holder h is known to hold
KN_FORBID = 14       # [4] cards holder h is known not to hold
KN_POOL = 18         # the hidden cards to share out
KN_PREPLAY = 19      # 1 before the first lead: a deck order is sampled instead
KN_DECLARED = 20     # seats whose sequences are declared (bit per seat)
KN_SIGNATURE = 21    # [4] per seat: its declared sequences (run_signature)
KN_MELD_SHOWN = 25   # seat whose winning sequence is shown, -2 while none is shown
KN_BELLA_EVENT = 26  # index in the plays of the bella announcement, -1 if none yet
KN_PLAYED_BY = 27    # [4] per seat: the cards it played this deal
KN_CLASSES = 31      # number of classes of hidden cards
KN_CLASS_HOLDERS = 32  # [8] per class: allowed slots (bit per slot 0-2)
KN_CLASS_CARDS = 40  # [8] per class: its cards
KN_SLOT = 48         # [3] holder index of each slot of the counting programme, -1 unused
KN_TRUMP = 51       # the trump suit
KNOWLEDGE_WIDTH = 52

MAX_CAP = 32         # capacities are below this (rows of the counting table)
MAX_TRIES = 10000    # redraws before a position is declared inconsistent

FACTORIAL = np.array([float(np.prod(np.arange(1, k + 1, dtype=np.float64))) for k in range(33)])


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


@njit(cache=True, inline="always")
def holder_of(kn, seat):
    """Index of the holder that is ``seat``."""
    for k in range(kn[KN_HOLDERS]):
        if kn[KN_HOLDER + k] == seat:
            return k
    return -1


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


@njit(cache=True)
def prepare_classes(kn):
    """Group the pool by the holders allowed to hold each card, and fix the slots of the
    counting programme (at most three holders: the positions with card constraints)."""
    h = kn[KN_HOLDERS]
    for s in range(3):
        kn[KN_SLOT + s] = -1
    if kn[KN_PREPLAY]:  # before the first lead every holder may hold every hidden card
        kn[KN_CLASSES] = 1
        kn[KN_CLASS_CARDS] = kn[KN_POOL]
        kn[KN_CLASS_HOLDERS] = 15
        return
    # slots 0, 1 are counted; slot 2 takes what is left
    if h == 1:
        kn[KN_SLOT + 2] = 0
    elif h == 2:
        kn[KN_SLOT + 0] = 0
        kn[KN_SLOT + 2] = 1
    else:
        kn[KN_SLOT + 0] = 0
        kn[KN_SLOT + 1] = 1
        kn[KN_SLOT + 2] = 2
    m = 0
    pool = kn[KN_POOL]
    while pool != 0:
        c = lowest_bit(pool)
        pool &= pool - 1
        allowed = 0
        for s in range(3):
            k = kn[KN_SLOT + s]
            if k >= 0 and not (kn[KN_FORBID + k] >> c) & 1:
                allowed |= 1 << s
        j = 0
        while j < m and kn[KN_CLASS_HOLDERS + j] != allowed:
            j += 1
        if j == m:
            kn[KN_CLASS_HOLDERS + j] = allowed
            m += 1
        kn[KN_CLASS_CARDS + j] |= 1 << c
    kn[KN_CLASSES] = m


@njit(cache=True, **WITH_REFCOUNT)
def count_completions(kn, ways):
    """``ways[j, a, b]``: the number of ways to share classes j.. among the slots when slot 0
    still takes ``a`` cards and slot 1 ``b`` (slot 2 takes the rest). Returns the total."""
    m = kn[KN_CLASSES]
    caps = np.zeros(3, dtype=np.int64)
    for s in range(3):
        k = kn[KN_SLOT + s]
        caps[s] = kn[KN_CAP + k] if k >= 0 else 0
    if m == 0:
        return 1.0
    left = 0
    for j in range(m - 1, -1, -1):
        size = popcount(kn[KN_CLASS_CARDS + j])
        allowed = kn[KN_CLASS_HOLDERS + j]
        for a in range(caps[0] + 1):
            for b in range(caps[1] + 1):
                c = left + size - a - b  # what slot 2 still takes
                total = 0.0
                if 0 <= c <= caps[2]:
                    for x0 in range(min(a, size) + 1):
                        if x0 > 0 and not allowed & 1:
                            break
                        for x1 in range(min(b, size - x0) + 1):
                            if x1 > 0 and not allowed & 2:
                                break
                            x2 = size - x0 - x1
                            if x2 > c or (x2 > 0 and not allowed & 4):
                                continue
                            rest = 1.0 if j == m - 1 and a == x0 and b == x1 else (
                                ways[j + 1, a - x0, b - x1] if j < m - 1 else 0.0)
                            if rest > 0.0:
                                total += rest * FACTORIAL[size] / (
                                    FACTORIAL[x0] * FACTORIAL[x1] * FACTORIAL[x2])
                ways[j, a, b] = total
        left += size
    return ways[0, caps[0], caps[1]]


@njit(cache=True)
def draw_hidden(kn, ways, rng, i, out, buf):
    """Share the pool among the holders (``out[h]``, known cards included): one uniform
    draw among the deals meeting the card-by-card constraints. ``buf``: 32 ints of scratch."""
    h = kn[KN_HOLDERS]
    for k in range(h):
        out[k] = kn[KN_KNOWN + k]
    if kn[KN_CLASSES] == 1 and kn[KN_CLASS_HOLDERS] == 15:  # before the first lead
        n = shuffle_mask(kn[KN_POOL], buf, rng, i)
        pos = 0
        for k in range(h):
            for _ in range(kn[KN_CAP + k]):
                out[k] |= 1 << buf[pos]
                pos += 1
        return
    a = kn[KN_CAP + kn[KN_SLOT]] if kn[KN_SLOT] >= 0 else 0
    b = kn[KN_CAP + kn[KN_SLOT + 1]] if kn[KN_SLOT + 1] >= 0 else 0
    m = kn[KN_CLASSES]
    for j in range(m):
        size = popcount(kn[KN_CLASS_CARDS + j])
        allowed = kn[KN_CLASS_HOLDERS + j]
        # the split (x0, x1, x2) of this class, with probability proportional to completions
        target = (next_u64(rng, i) >> np.uint64(11)) * (1.0 / 9007199254740992.0) * ways[j, a, b]
        x0 = 0
        x1 = 0
        chosen = False
        for y0 in range(min(a, size) + 1):
            if y0 > 0 and not allowed & 1:
                break
            for y1 in range(min(b, size - y0) + 1):
                if y1 > 0 and not allowed & 2:
                    break
                y2 = size - y0 - y1
                if y2 > 0 and not allowed & 4:
                    continue
                if j == m - 1:
                    rest = 1.0 if (a == y0 and b == y1) else 0.0
                else:
                    rest = ways[j + 1, a - y0, b - y1]
                if rest > 0.0:
                    w = rest * FACTORIAL[size] / (FACTORIAL[y0] * FACTORIAL[y1] * FACTORIAL[y2])
                    x0 = y0
                    x1 = y1
                    target -= w
                    if target < 0.0:
                        chosen = True
                        break
            if chosen:
                break
        n = shuffle_mask(kn[KN_CLASS_CARDS + j], buf, rng, i)
        for q in range(n):
            slot = 0 if q < x0 else (1 if q < x0 + x1 else 2)
            out[kn[KN_SLOT + slot]] |= 1 << buf[q]
        a -= x0
        b -= x1


@njit(cache=True, inline="always")
def shuffle_mask(mask, buf, rng, i):
    """The cards of ``mask`` into ``buf`` in uniformly random order; returns their number."""
    n = 0
    while mask != 0:
        buf[n] = lowest_bit(mask)
        mask &= mask - 1
        n += 1
    for k in range(n - 1, 0, -1):
        j = below(rng, i, k + 1)
        t = buf[k]
        buf[k] = buf[j]
        buf[j] = t
    return n


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


@njit(cache=True, **WITH_REFCOUNT)
def sample_deal(st, R, kn, ways, rng, i, out):
    """``draw_deal``, written as a whole state row ``out`` (write_deal)."""
    held = np.zeros(4, dtype=np.int64)
    buf = np.empty(32, dtype=np.int64)
    tries = draw_deal(st, R, kn, ways, rng, i, held, buf)
    if tries > 0:
        write_deal(st, R, kn, held, rng, i, out)
    return tries


@njit(cache=True, **WITH_REFCOUNT)
def prepare(st, R, me):
    """What seat ``me`` knows in ``st`` and its completion counts: ``(kn, ways)``, ready for
    ``sample_deal`` / ``draw_deal``."""
    kn = np.zeros(KNOWLEDGE_WIDTH, dtype=np.int64)
    ways = new_ways()
    knowledge(st, R, me, kn)
    count_completions(kn, ways)
    return kn, ways


@njit(cache=True, **WITH_REFCOUNT)
def new_ways():
    """The counting table ``count_completions`` fills."""
    return np.zeros((9, MAX_CAP, MAX_CAP), dtype=np.float64)


@njit(cache=True, parallel=True)
def sample_rows(states, R, seats, count, rng, out):
    """Batched sampling: for each row ``g`` of ``states``, ``count`` deals for seat
    ``seats[g]`` into ``out[g, k]`` (shape (N, count, STATE_WIDTH)), from generator
    ``rng[g]``. Returns the number of draws per row (-1 for an inconsistent position)."""
    tries = np.zeros(states.shape[0], dtype=np.int64)
    for g in prange(states.shape[0]):
        kn, ways = prepare(states[g], R, seats[g])
        for k in range(count):
            t = sample_deal(states[g], R, kn, ways, rng, g, out[g, k])
            if t < 0:
                tries[g] = -1
                break
            tries[g] += t
    return tries
