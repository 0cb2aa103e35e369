"""Compiled random-play loops over many Debertz games (the simulation fast path).

Each game ``g`` of a run is fixed by (seed, g): its deals come from the engine's seeded
streams and its random decisions from ``rng_nb.stream(seed, g, POLICY_KEY)``, so results are
the same for any block size and thread count (statistics are integer sums).
"""

from numba import njit

from cardsim import rng_nb, stream_keys
from cardsim.debertz import layout as L
from cardsim.debertz.engine_nb import (
    announces_bella,
    card_key,
    legal_in_trick,
    legal_mask,
    score_round,
    seat_after,
    start_trick,
    step,
    take_trick,
    tricks_per_round,
    voids_shown,
)
from cardsim.debertz.melds_nb import key_kind
from cardsim.debertz.tables import CARD_POINTS, CARD_STRENGTH
from cardsim.hands_nb import hand_of, hands_at, played, store_hands
from cardsim.jit import NO_REFCOUNT, ix

POLICY_KEY = stream_keys.POLICY

# Columns of the statistics array (one row per block, summed at the end).
S_DEALS = 0            # deals, void ones included
S_PLAYED = 1           # deals that reached scoring (played out or ended on points)
S_VOID = 2             # void deals (four sevens, all passed)
S_GAMES = 3            # games finished
S_BYTE = 4             # bytes
S_HANGING = 5          # hanging bytes
S_TERZ = 6             # played deals whose highest sequence is a terz
S_FIFTY = 7            # ... a fifty
S_DEBERTZ = 8          # deals ended by a debertz
S_BELLA = 9            # played deals with a bella held
S_DECISIONS = 10       # decisions taken
S_POINTS_END = 11      # games ended in mid-deal (end_mode points)
S_BIDDER_POINTS = 12   # sum of the bidder side's round points
S_RP = 13              # 4 columns: sum of round points per side
S_WINS = 17            # 4 columns: games won per side
NUM_STATS = 21


@njit(cache=True, **NO_REFCOUNT)
def record_deal_stats(st, R, stats):
    """Add the deal that just ended in ``st`` to a statistics row."""
    stats[S_DEALS] += 1
    end = st[L.END]
    if end == L.END_VOID:
        stats[S_VOID] += 1
    elif end == L.END_DEBERTZ:
        stats[S_DEBERTZ] += 1
    else:
        stats[S_PLAYED] += 1
        if st[L.BYTE] == L.BYTE_BYTE:
            stats[S_BYTE] += 1
        elif st[L.BYTE] == L.BYTE_HANGING:
            stats[S_HANGING] += 1
        mw = st[L.MELD_WINNER]
        if mw >= 0:
            kind = key_kind(st[L.BEST_MELD + mw])
            if kind == 1:
                stats[S_TERZ] += 1
            elif kind == 2:
                stats[S_FIFTY] += 1
        if st[L.BELLA_SEAT] >= 0:
            stats[S_BELLA] += 1
        if end == L.END_POINTS:
            stats[S_POINTS_END] += 1
        for side in range(R[L.R_SIDES]):
            stats[S_RP + side] += st[L.ROUND_POINTS + side]
        bidder = st[L.BIDDER]
        bside = bidder % 2 if R[L.R_TEAMS] else bidder
        stats[S_BIDDER_POINTS] += st[L.ROUND_POINTS + bside]
    if st[L.GAME_OVER]:
        stats[S_GAMES] += 1
        stats[S_WINS + st[L.WINNER]] += 1


@njit(cache=True, inline="always")
def play_tricks(st, R, state):
    """Random legal cards from the start of a trick to the end of the round (end_mode
    "round"), from generator ``state`` held in a local: returns (new state, cards played).
    The same draws and the same final row as stepping card by card (the engine's
    ``legal_in_trick`` and ``play_card``, whose rules it calls), with the hands and the trick
    held in locals (tests/debertz/test_random_play.py)."""
    n = R[L.R_PLAYERS]
    trump = st[L.TRUMP]
    partner_exemption = R[L.R_TEAMS] & R[L.R_PARTNER_EXEMPTION]
    overtrump_on_ruff = R[L.R_OVERTRUMP_ON_RUFF]
    bella_seat = st[L.BELLA_SEAT]
    any_card = R[L.R_BELLA_ANY_CARD]
    h0, h1, h2, h3 = hands_at(st, L.HANDS)
    gone = st[L.PLAYED]
    bella = st[L.BELLA_SHOWN]
    n_plays = st[L.N_PLAYS]
    leader = st[L.LEADER]
    trick_no = st[L.TRICK_NO]
    last = tricks_per_round(n)
    cards = 0
    while True:
        seat = leader
        led = 0
        top = -1
        best = -1
        points = 0
        for k in range(n):
            hand = hand_of(h0, h1, h2, h3, seat)
            allowed = hand if k == 0 else legal_in_trick(hand, seat, led, trump, top, best,
                                                         partner_exemption, overtrump_on_ruff)
            state, card = rng_nb.random_bit_scalar(allowed, state)
            suit = card >> 3
            led = suit if k == 0 else led
            st[ix(L.VOIDS + seat)] |= voids_shown(seat, suit, led, trump, top,
                                                  partner_exemption)
            h0, h1, h2, h3 = played(h0, h1, h2, h3, seat, card)
            st[ix(L.TRICK + k)] = card
            st[ix(L.PLAYS + n_plays)] = seat * 32 + card
            n_plays += 1
            key = card_key(card, trump)
            value = CARD_STRENGTH[key]  # loaded before the select, so that it stays a select
            strength = value if (suit == trump) | (suit == led) else -1
            top = seat if strength > best else top
            best = max(strength, best)
            points += CARD_POINTS[key]
            bella |= announces_bella(seat, card, trump, bella_seat,
                                     hand_of(h0, h1, h2, h3, seat), any_card)
            gone |= 1 << card
            seat = seat_after(seat, 1, n)
        cards += n
        take_trick(st, top, points, trick_no)
        trick_no += 1
        leader = top
        if trick_no == last:
            break
    store_hands(st, L.HANDS, h0, h1, h2, h3)
    st[L.PLAYED] = gone
    st[L.BELLA_SHOWN] = bella
    st[L.N_PLAYS] = n_plays
    st[L.TRICK_NO] = trick_no
    start_trick(st, leader)
    score_round(st, R, leader)
    return state, cards


@njit(cache=True, inline="always")
def play_random_deal(st, R, state):
    """Random legal decisions until the current deal ends, from generator ``state`` held in a
    local (no memory traffic per decision). Returns (new state, decisions taken). Under
    end_mode "round" the cards are played by ``play_tricks``."""
    taken = 0
    while st[L.PHASE] < L.PH_DEAL_END:
        if (st[L.PHASE] == L.PH_PLAY) & (st[L.TRICK_LEN] == 0) & (R[L.R_END_POINTS] == 0):
            state, cards = play_tricks(st, R, state)
            taken += cards
            continue
        state, action = rng_nb.random_bit_scalar(legal_mask(st, R), state)
        step(st, R, action)
        taken += 1
    return state, taken


def simulate_random(R, seed, first_game, n_items, whole_games, n_blocks):
    """Play items ``first_game .. first_game + n_items - 1`` (deals, each a fresh game, or whole games)
    with random decisions on the engine's fast path (``cardsim.random_play_nb``, written once
    for both games). Returns the statistics array summed over blocks (columns S_*)."""
    from cardsim.game_nb import GameTag
    from cardsim.random_play_nb import simulate_random as simulate

    return simulate(GameTag("debertz"), R, seed, first_game, n_items, bool(whole_games), NUM_STATS,
                    n_blocks)
