"""The random-play loop's tricks (``simulate_nb.play_tricks``, hands and trick held in
locals) against the engine stepped card by card: the same draws, the same final row, in every
table and under the conventions that change which cards are legal or what a card shows."""

import numpy as np
import pytest
from numba import njit

from cardsim import rng_nb
from cardsim.debertz import layout as L
from cardsim.debertz.engine_nb import legal_mask, step
from cardsim.debertz.face_nb import init_item
from cardsim.debertz.rules import DebertzRules
from cardsim.debertz.simulate_nb import play_tricks

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
