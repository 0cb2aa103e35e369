"""The random-play loop's tricks (``simulate_nb.play_tricks``, hands held in locals) against
the engine stepped card by card: the same draws, the same final row, under every convention
that changes which cards are legal."""

import numpy as np
import pytest
from numba import njit

from cardsim.barbu import actions as A
from cardsim.barbu import layout as L
from cardsim.barbu.engine_nb import legal_mask, step
from cardsim.barbu.rules import BarbuRules
from cardsim.barbu.simulate_nb import init_hand_item, play_tricks, random_action_ahead
from cardsim.rng_nb import peek_scalar, stream

CONVENTIONS = [
    {},
    {"trumps_must_overtrump": True, "king_must_discard": True, "king_lead_rule": "no_hearts"},
    {"trumps_must_ruff": False},
]


@njit
def stepped(st, R, state, ahead):
    """Random actions by ``legal_mask`` and ``step`` until the deal ends: returns (new state, its next output, actions taken)."""
    taken = 0
    while st[L.PHASE] < L.PH_DEAL_END:
        base, bits = legal_mask(st, R)
        state, ahead, action = random_action_ahead(base, bits, state, ahead)
        step(st, R, action)
        taken += 1
    return state, ahead, taken


@njit
def both_ways(st, R, seed, item):
    """Deal ``item`` to its first card (contract, trump and doubles at random), then its
    tricks played by ``play_tricks`` in ``st`` and stepped in a copy: returns the copy and
    whether the generators and card counts agree."""
    init_hand_item(st, R, seed, item)
    state = stream(seed, item, 5)
    ahead = peek_scalar(state)
    while st[L.PHASE] != L.PH_PLAY:
        base, bits = legal_mask(st, R)
        state, ahead, action = random_action_ahead(base, bits, state, ahead)
        step(st, R, action)
    by_step = st.copy()
    if st[L.CONTRACT] == A.DOMINO:
        return by_step, True
    return by_step, play_tricks(st, R, state, ahead) == stepped(by_step, R, state, ahead)


@pytest.mark.parametrize("conventions", CONVENTIONS)
def test_tricks_in_locals_play_as_the_engine_steps(conventions):
    R = BarbuRules(**conventions).pack()
    st = np.zeros(L.STATE_WIDTH, dtype=np.int64)
    contracts = set()
    for item in range(280):
        by_step, same_draws = both_ways(st, R, 11, item)
        assert same_draws
        assert np.array_equal(st, by_step)
        contracts.add(int(st[L.CONTRACT]))
    assert contracts == set(range(A.NUM_CONTRACTS))  # every contract was played
