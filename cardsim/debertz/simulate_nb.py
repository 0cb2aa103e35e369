"""Compiled random-play loops over many Debertz games (the simulation fast path).

Each game ``g`` of a run is fixed by (seed, g): its deals come from the engine's seeded
streams and its random decisions from ``rng_nb.stream(seed, g, POLICY_KEY)``, so results are
the same for any block size and thread count (statistics are integer sums).
"""

from numba import njit

from cardsim import rng_nb, stream_keys
from cardsim.debertz import layout as L
from cardsim.debertz.engine_nb import (
    SWAP_CHOICES,
    TRUMPS_BEATING_CARD,
    answer_swap,
    bid,
    bids_allowed,
    card_key,
    legal_against,
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
    """Add the deal that just ended in ``st`` to a statistics row. Counted with selects, not
    branches: how a random deal ended (void, debertz, byte, which melds) is random."""
    stats[S_DEALS] += 1
    end = st[L.END]
    void = end == L.END_VOID
    debertz = end == L.END_DEBERTZ
    scored = (not void) & (not debertz)
    stats[S_VOID] += void
    stats[S_DEBERTZ] += debertz
    stats[S_PLAYED] += scored
    stats[S_BYTE] += scored & (st[L.BYTE] == L.BYTE_BYTE)
    stats[S_HANGING] += scored & (st[L.BYTE] == L.BYTE_HANGING)
    mw = st[L.MELD_WINNER]
    kind = key_kind(st[ix(L.BEST_MELD + max(mw, 0))]) if mw >= 0 else 0
    stats[S_TERZ] += scored & (kind == 1)
    stats[S_FIFTY] += scored & (kind == 2)
    stats[S_BELLA] += scored & (st[L.BELLA_SEAT] >= 0)
    stats[S_POINTS_END] += end == L.END_POINTS
    if scored:
        for side in range(R[L.R_SIDES]):
            stats[S_RP + side] += st[L.ROUND_POINTS + side]
        bidder = st[L.BIDDER]
        bside = bidder % 2 if R[L.R_TEAMS] else bidder
        stats[S_BIDDER_POINTS] += st[L.ROUND_POINTS + bside]
    if st[L.GAME_OVER]:
        stats[S_GAMES] += 1
        stats[S_WINS + st[L.WINNER]] += 1


@njit(cache=True, **NO_REFCOUNT)
def play_tricks(st, R, state):
    """``play_tricks_under`` the conventions of ``R``. The default ones (no partner exemption,
    no overtrumping on a ruff) get a copy of their own, compiled with them as constants: the
    legal set then loses their cases, which every card would otherwise work out. Called, not
    inlined, as is ``bid_at_random``: the copies would lengthen the compilation of every loop
    that inlines ``play_random_deal``."""
    partner_exemption = R[L.R_TEAMS] & R[L.R_PARTNER_EXEMPTION]
    overtrump_on_ruff = R[L.R_OVERTRUMP_ON_RUFF]
    if (partner_exemption == 0) & (overtrump_on_ruff == 0):
        return play_tricks_under(st, R, state, 0, 0)
    return play_tricks_under(st, R, state, partner_exemption, overtrump_on_ruff)


@njit(cache=True, inline="always")
def play_tricks_under(st, R, state, partner_exemption, overtrump_on_ruff):
    """Random legal cards from the start of a trick to the end of the round (end_mode
    "round"), from generator ``state`` held in a local: returns (new state, cards played).
    The same draws and the same final row as stepping card by card (the engine's
    ``legal_in_trick`` and ``play_card``, whose rules it calls), with the cards played, the
    trick and the voids shown held in locals (tests/debertz/test_random_play.py)."""
    n = R[L.R_PLAYERS]
    trump = st[L.TRUMP]
    gone = st[L.PLAYED]
    n_plays = st[L.N_PLAYS]
    leader = st[L.LEADER]
    trick_no = st[L.TRICK_NO]
    last = tricks_per_round(n)
    all_trumps = 0xFF << (trump * 8)
    beating_at = trump * 32  # this trump suit's part of TRUMPS_BEATING_CARD
    voids = 0  # the suits each seat shows it lacks, 4 bits a seat
    cards = 0
    while True:
        seat = leader
        led = 0
        top = -1
        best = -1
        points = 0
        higher = all_trumps  # the trumps that would beat every card played to the trick
        for k in range(n):
            # the row's hands are brought up to date at the end: a seat's hand is what it held
            # less the cards played since (one load, where picking a hand out of four locals
            # and taking the card out of it were a dozen instructions)
            hand = st[ix(L.HANDS + seat)] & ~gone
            partner_wins = partner_exemption & (((top ^ seat) & 1) == 0)
            allowed = hand if k == 0 else legal_against(hand, led, trump, higher, partner_wins,
                                                        overtrump_on_ruff)
            state, card = rng_nb.random_bit_scalar(allowed, state)
            # kept as a mask rather than worked out from the best card's strength: the next
            # legal set then waits for one lookup after the card is drawn, not two
            higher &= TRUMPS_BEATING_CARD[ix(beating_at + card)]
            suit = card >> 3
            led = suit if k == 0 else led
            voids |= voids_shown(seat, suit, led, trump, top, partner_exemption) << (4 * seat)
            st[ix(L.TRICK + k)] = card
            st[ix(L.PLAYS + n_plays)] = seat * 32 + card
            n_plays += 1
            key = card_key(card, trump)
            value = CARD_STRENGTH[key]  # loaded before the select, so that it stays a select
            strength = value if (suit == trump) | (suit == led) else -1
            top = seat if strength > best else top
            best = max(strength, best)
            points += CARD_POINTS[key]
            gone |= 1 << card
            seat = seat_after(seat, 1, n)
        cards += n
        take_trick(st, top, points, trick_no)
        trick_no += 1
        leader = top
        if trick_no == last:
            break
    for s in range(n):
        st[ix(L.HANDS + s)] &= ~gone
        st[ix(L.VOIDS + s)] |= (voids >> (4 * s)) & 15
    st[L.PLAYED] = gone
    # D7: the holder of K and Q of trump plays both before the round ends, and one of them
    # announces the bella (``announces_bella``: the first, or the second), whatever the order
    st[L.BELLA_SHOWN] |= st[L.BELLA_SEAT] >= 0
    st[L.N_PLAYS] = n_plays
    st[L.TRICK_NO] = trick_no
    start_trick(st, leader)
    score_round(st, R, leader)
    return state, cards


@njit(cache=True, **NO_REFCOUNT)
def bid_at_random(st, R, state):
    """Random bids from the current one until the bidding ends (trump chosen, or the deal
    void), then the seven swap if it is offered, from generator ``state`` held in a local:
    returns (new state, decisions taken). The engine's ``bids_allowed``, ``bid`` and
    ``answer_swap`` decide, without the step's dispatch on the phase
    (tests/debertz/test_random_play.py)."""
    turnup_suit = st[L.TURNUP] >> 3
    dealer = st[L.DEALER]
    obligatory = R[L.R_OBLIGATORY]
    taken = 0
    while st[L.PHASE] <= L.PH_BID2:
        allowed = bids_allowed(st[L.PHASE] == L.PH_BID2, turnup_suit, st[L.TURN] == dealer,
                               obligatory)
        state, action = rng_nb.random_bit_scalar(allowed, state)
        bid(st, R, action)
        taken += 1
    if st[L.PHASE] == L.PH_SWAP:  # D5: the seven swap, offered after a first-round bid
        state, action = rng_nb.random_bit_scalar(SWAP_CHOICES, state)
        answer_swap(st, R, action)
        taken += 1
    return state, taken


@njit(cache=True, inline="always")
def play_random_deal(st, R, state):
    """Random legal decisions until the current deal ends, from generator ``state`` held in a
    local (no memory traffic per decision). Returns (new state, decisions taken). The bids
    and the seven swap are made by ``bid_at_random``; under end_mode "round" the cards are
    played by ``play_tricks``."""
    taken = 0
    while st[L.PHASE] < L.PH_DEAL_END:
        if st[L.PHASE] <= L.PH_BID2:
            state, bids = bid_at_random(st, R, state)
            taken += bids
            continue
        if (st[L.PHASE] == L.PH_PLAY) & (st[L.TRICK_LEN] == 0) & (R[L.R_END_POINTS] == 0):
            state, cards = play_tricks(st, R, state)
            taken += cards
            continue
        state, action = rng_nb.random_bit_scalar(legal_mask(st, R), state)
        step(st, R, action)
        taken += 1
    return state, taken


def simulate_random(R, seed, first_game, n_items, whole_games, n_blocks):
    """Play items ``first_game .. first_game + n_items - 1`` (deals, each a fresh game, or
    whole games) with random decisions on the engine's fast path (``cardsim.random_play_nb``,
    written once for both games). Returns the statistics array summed over blocks (columns S_*)."""
    from cardsim.game_nb import GameTag
    from cardsim.random_play_nb import simulate_random as simulate

    return simulate(GameTag("debertz"), R, seed, first_game, n_items, bool(whole_games), NUM_STATS,
                    n_blocks)
