"""The random-play loops (``simulate_nb.play_random_deal``: the bidding and the tricks in
loops of their own, hands and trick held in locals) against the engine stepped decision by
decision: the same draws, the same final row, in every table and under the conventions that
change which bids or cards are legal or what a card shows."""

import numpy as np
import pytest
from numba import njit

from cardsim import rng_nb
from cardsim.debertz import layout as L
from cardsim.debertz.engine_nb import legal_mask, next_deal, step
from cardsim.debertz.face_nb import init_item
from cardsim.debertz.melds_nb import KIND_POINTS, key_kind, list_runs, meld_summary, run_kind
from cardsim.debertz.rules import DebertzRules
from cardsim.debertz.simulate_nb import play_random_deal, play_tricks

CONVENTIONS = [
    {"players": 2},
    {"players": 3, "overtrump_on_ruff": True},
    {"players": 4, "teams": True},
    {"players": 4, "teams": True, "partner_exemption": True, "overtrump_on_ruff": True,
     "bella_any_card": False, "declare": "before_play"},
    {"players": 4},
]


@njit
def stepped(st, R, state):
    """Random cards by ``legal_mask`` and ``step`` until the deal ends: returns (new state,
    cards played)."""
    cards = 0
    while st[L.PHASE] < L.PH_DEAL_END:
        state, action = rng_nb.random_bit_scalar(legal_mask(st, R), state)
        step(st, R, action)
        cards += 1
    return state, cards


@njit
def both_ways(st, R, seed, item):
    """Deal ``item`` to its first card (bids at random), then its tricks played by
    ``play_tricks`` in ``st`` and stepped in a copy: returns the copy and whether the
    generators and card counts agree (True for a deal that ends before its first card)."""
    init_item(st, R, seed, item, False)
    state = rng_nb.stream(seed, item, 5)
    while st[L.PHASE] < L.PH_PLAY:
        state, action = rng_nb.random_bit_scalar(legal_mask(st, R), state)
        step(st, R, action)
    by_step = st.copy()
    if st[L.PHASE] != L.PH_PLAY:
        return by_step, True
    return by_step, play_tricks(st, R, state) == stepped(by_step, R, state)


@pytest.mark.parametrize("conventions", CONVENTIONS)
def test_tricks_in_locals_play_as_the_engine_steps(conventions):
    R = DebertzRules(**conventions).pack()
    st = np.zeros(L.STATE_WIDTH, dtype=np.int64)
    played_out = bella = 0
    for item in range(300):
        by_step, same_draws = both_ways(st, R, 13, item)
        assert same_draws
        assert np.array_equal(st, by_step)
        played_out += int(st[L.TRICK_NO] > 0)
        bella += int(st[L.BELLA_SHOWN])
    assert played_out > 250 and bella > 10  # the loop ran, bellas among its cards


# conventions that change the bidding, the seven swap, the melds or the first lead
DEAL_CONVENTIONS = CONVENTIONS + [
    {"players": 2, "obligatory": False, "seven_swap": False},
    {"players": 3, "obligatory": False, "first_lead": "after_dealer", "first_dealer": 1},
    {"players": 4, "teams": True, "turnup_to": "dealer", "debertz_trump_only": True,
     "trump_meld_wins_tie": False},
    {"players": 4, "obligatory": False, "dealer_rotation": "winner"},
    {"players": 2, "end_mode": "points", "target": 151},
]


@njit
def whole_deals_both_ways(st, R, seed, item, whole):
    """Item ``item`` from its start: played by ``play_random_deal`` in ``st`` and stepped in a
    copy (``stepped``) with the same generator, every deal of the game when ``whole``. Returns
    the copy and whether the generators and decision counts agree throughout."""
    init_item(st, R, seed, item, whole)
    by_step = st.copy()
    state = by_step_state = rng_nb.stream(seed, item, 7)
    while True:
        state, taken = play_random_deal(st, R, state)
        by_step_state, by_step_taken = stepped(by_step, R, by_step_state)
        if state != by_step_state or taken != by_step_taken:
            return by_step, False
        if not whole or st[L.PHASE] == L.PH_GAME_OVER:
            return by_step, True
        next_deal(st, R)
        next_deal(by_step, R)


@pytest.mark.parametrize("conventions", DEAL_CONVENTIONS)
def test_random_deals_play_as_the_engine_steps(conventions):
    """Bidding, seven swap, melds and tricks of whole deals: the same draws, the same rows."""
    R = DebertzRules(**conventions).pack()
    st = np.zeros(L.STATE_WIDTH, dtype=np.int64)
    second_round = void = swaps = 0
    for item in range(300):
        by_step, same_draws = whole_deals_both_ways(st, R, 23, item, False)
        assert same_draws
        assert np.array_equal(st, by_step)
        second_round += int(st[L.N_BIDS] > R[L.R_PLAYERS])
        void += int(st[L.END] == L.END_VOID)
        swaps += int(st[L.SWAP_SEAT] >= 0)
    assert second_round > 10 and void > 0  # the bidding loop went round twice, and voided
    assert (swaps > 0) == (R[L.R_PLAYERS] < 4 and bool(R[L.R_SEVEN_SWAP]))


@pytest.mark.parametrize("conventions", DEAL_CONVENTIONS[:3] + DEAL_CONVENTIONS[-2:])
def test_random_games_play_as_the_engine_steps(conventions):
    R = DebertzRules(**conventions).pack()
    st = np.zeros(L.STATE_WIDTH, dtype=np.int64)
    for item in range(5):
        by_step, same_draws = whole_deals_both_ways(st, R, 29, item, True)
        assert same_draws
        assert np.array_equal(st, by_step)
        assert st[L.PHASE] == L.PH_GAME_OVER


def test_meld_summary_agrees_with_the_runs_of_each_suit():
    """The one-lookup-a-suit meld summary against the runs listed suit by suit (D6)."""
    rng = np.random.default_rng(3)
    runs = np.zeros((4, 3), dtype=np.int64)
    list_runs_py = getattr(list_runs, "py_func", list_runs)  # plain Python either way
    run_kind_py = getattr(run_kind, "py_func", run_kind)
    for _ in range(3000):
        hand = int(sum(1 << int(c) for c in rng.choice(32, size=int(rng.integers(6, 10)),
                                                       replace=False)))
        trump = int(rng.integers(4))
        for trump_only in (0, 1):
            for wins_tie in (0, 1):
                best = points = 0
                for k in range(list_runs_py(hand, runs)):
                    suit, top, length = (int(x) for x in runs[k])
                    kind = run_kind_py(length, suit, trump, trump_only)
                    points += int(KIND_POINTS[kind])
                    tie = wins_tie if suit == trump else 0
                    best = max(best, ((kind << 5) | (top << 1) | tie) + 1)
                key, pts, kind = meld_summary(hand, trump, trump_only, wins_tie)
                assert (key, pts, kind) == (best, points, key_kind(best))
