"""Compiled random-play loops over many Debertz games (the simulation fast path).

Each game ``g`` of a run is fixed by (seed, g): its deals come from the engine's seeded
streams and its random decisions from ``rng_nb.stream(seed, g, POLICY_KEY)``, so results are
the same for any block size and thread count (statistics are integer sums).
"""

from numba import njit

from cardsim import rng_nb, stream_keys
from cardsim.debertz import layout as L
from cardsim.debertz.engine_nb import legal_mask, step
from cardsim.debertz.melds_nb import key_kind
from cardsim.jit import NO_REFCOUNT

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
def play_random_deal(st, R, state):
    """Random legal decisions until the current deal ends, from generator ``state`` held in a
    local (no memory traffic per decision). Returns (new state, decisions taken)."""
    taken = 0
    while st[L.PHASE] < L.PH_DEAL_END:
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
