"""Debertz positions for the search tests, and an independent check of sampled deals: a deal
is rebuilt as a deck and the real deal's actions are replayed on it through the engine."""

import numpy as np

from cardsim.debertz import actions as A
from cardsim.debertz import engine_nb as E
from cardsim.debertz import layout as L
from cardsim.debertz.melds_nb import list_runs
from experiments.bench.search import positions  # noqa: F401  (the tests' positions)


def _cards(mask):
    return [c for c in range(32) if mask >> c & 1]


def _dealt_first(hand):
    """A hand's cards with the sevens last, so that its first six never hold four sevens."""
    return sorted(_cards(hand), key=lambda c: (c & 7) == 0)


def deck_of(st, R, play_hands, dead):
    """A deck order dealing ``play_hands`` (the hands at the first lead) of position ``st``."""
    n = R[L.R_PLAYERS]
    dealer = st[L.DEALER]
    turnup = int(st[L.TURNUP])
    trump = int(st[L.TRUMP])
    hands = list(play_hands)
    swapper = st[L.SWAP_SEAT]
    if swapper >= 0:  # before the swap the swapper held the 7 of trump, not the turn-up
        hands[swapper] = (hands[swapper] & ~(1 << turnup)) | (1 << (trump * 8))
    receiver = st[L.TURNUP_RECEIVER] if n == 4 else -1
    first, extra = [], []
    for s in range(n):
        cards = [c for c in _dealt_first(hands[s]) if not (s == receiver and c == turnup)]
        first.append(cards[:6])
        extra.append(cards[6:])
    deck = [c for s in range(n) for c in first[s]] + [turnup]
    for k in range(1, n + 1):
        deck += extra[(dealer + k) % n]
    used = set(deck)
    deck += [c for c in range(32) if c not in used]
    if sorted(deck) != list(range(32)):
        return None  # the turn-up is somewhere it cannot be
    return np.array(deck, dtype=np.int64)


def public_trace(st, R, play_hands, dead):
    """Replay ``st``'s deal on the deal ``play_hands``: None if an action is illegal there,
    else what every seat saw: the phases, when the bella was announced, each declared
    seat's sequence lengths and the shown meld's owner."""
    n = R[L.R_PLAYERS]
    row = st.copy()
    deck = deck_of(st, R, play_hands, dead)
    if deck is None:
        return None
    E.deal_from_deck(row, R, deck)
    trace = []
    for b in range(st[L.N_BIDS]):
        if row[L.PHASE] not in (L.PH_BID1, L.PH_BID2):
            return None
        E.step(row, R, st[L.BIDS + b])
    if row[L.PHASE] == L.PH_SWAP:
        E.step(row, R, A.SWAP if st[L.SWAP_SEAT] >= 0 else A.KEEP)
    elif st[L.SWAP_SEAT] >= 0:
        return None
    before_play = bool(R[L.R_DECLARE_BEFORE_PLAY])
    runs = np.zeros((4, 3), dtype=np.int64)
    played_any = set()
    for p in range(st[L.N_PLAYS]):
        seat, card = divmod(int(st[L.PLAYS + p]), 32)
        if row[L.PHASE] != L.PH_PLAY or row[L.TURN] != seat or not E.legal_mask(row, R) >> card & 1:
            return None
        E.step(row, R, card)
        played_any.add(seat)
        trace.append(("bella", p, int(row[L.BELLA_SHOWN])))
    for s in range(n):
        if before_play or s in played_any:
            k = list_runs(row[L.PLAY_HANDS + s], runs)
            trace.append(("runs", s, tuple(sorted(int(runs[j, 2]) for j in range(k)))))
    if before_play or row[L.TRICK_NO] >= 1:
        winner = int(row[L.MELD_WINNER])
        trace.append(("shown", winner, _highest_run(row[L.PLAY_HANDS + winner], R, row[L.TRUMP])
                      if winner >= 0 else ()))
    return trace


def _highest_run(hand, R, trump):
    """The cards of a hand's highest sequence (D6.2: kind, then top card, then trump)."""
    runs = np.zeros((4, 3), dtype=np.int64)
    best = None
    for k in range(list_runs(hand, runs)):
        suit, top, length = (int(x) for x in runs[k])
        debertz = length >= 7 and not (R[L.R_DEBERTZ_TRUMP_ONLY] and suit != trump)
        kind = 3 if debertz else (2 if length >= 4 else 1)
        key = (kind, top, bool(R[L.R_TRUMP_MELD_WINS_TIE]) and suit == trump)
        if best is None or key > best[0]:
            best = (key, tuple(suit * 8 + r for r in range(top - length + 1, top + 1)))
    return best[1]


def play_hands_of(st, R, hands):
    """Hands at the first lead from the current ``hands`` and the cards played."""
    out = list(int(h) for h in hands[:R[L.R_PLAYERS]])
    for p in range(st[L.N_PLAYS]):
        seat, card = divmod(int(st[L.PLAYS + p]), 32)
        out[seat] |= 1 << card
    return out


def agrees_with(st, R, deal_row):
    """Whether a sampled deal (a state row) is consistent with the real position ``st``."""
    real = public_trace(st, R, play_hands_of(st, R, st[L.HANDS:L.HANDS + 4]), st[L.DEAD])
    cand = public_trace(st, R, play_hands_of(st, R, deal_row[L.HANDS:L.HANDS + 4]),
                        deal_row[L.DEAD])
    return cand is not None and cand == real
