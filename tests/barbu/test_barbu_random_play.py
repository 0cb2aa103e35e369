"""The random-play loops (``simulate_nb.play_random_deal``: the doubling phase and the tricks
in loops of their own, hands held in locals) against the engine stepped decision by decision:
the same draws, the same final row, under every convention that changes which decisions are
legal."""

import numpy as np
import pytest
from numba import njit

from cardsim.barbu import actions as A
from cardsim.barbu import layout as L
from cardsim.barbu.engine_nb import legal_mask, next_deal, step
from cardsim.barbu.face_nb import init_item
from cardsim.barbu.rules import BarbuRules
from cardsim.barbu.simulate_nb import (
    init_hand_item,
    play_random_deal,
    play_tricks,
    random_action_ahead,
)
from cardsim.rng_nb import peek_scalar, stream

CONVENTIONS = [
    {},
    {"trumps_must_overtrump": True, "king_must_discard": True, "king_lead_rule": "no_hearts"},
    {"trumps_must_ruff": False},
]


@njit
def stepped(st, R, state, ahead):
    """Random actions by ``legal_mask`` and ``step`` until the deal ends: returns (new state,
    its next output, actions taken)."""
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


# conventions that change the contract choice and the doubling questions (B6)
DEAL_CONVENTIONS = CONVENTIONS + [
    {"doubles_owed": 0},
    {"doubles_owed": 7, "redoubles": False},
    {"doubles_owed": 3, "domino_start": "J", "first_declarer": 2},
    {"redoubles": False},
]


@njit
def whole_deal_both_ways(st, R, seed, item, whole):
    """Item ``item`` from its start: played by ``play_random_deal`` in ``st`` and stepped in a
    copy (``stepped``), with the same generator; in whole matches every deal of the match.
    Returns the copy and whether the generators and decision counts agree throughout."""
    init_item(st, R, seed, item, whole)
    by_step = st.copy()
    state = by_step_state = stream(seed, item, 7)
    while True:
        state, taken = play_random_deal(st, R, state)
        by_step_state, ahead, by_step_taken = stepped(by_step, R, by_step_state,
                                                      peek_scalar(by_step_state))
        if state != by_step_state or taken != by_step_taken:
            return by_step, False
        if not whole or st[L.PHASE] == L.PH_MATCH_OVER:
            return by_step, True
        next_deal(st, R)
        next_deal(by_step, R)


@pytest.mark.parametrize("conventions", DEAL_CONVENTIONS)
def test_random_deals_play_as_the_engine_steps(conventions):
    """Contract, trump, doubling, tricks and Domino of whole deals: the same draws, the same
    rows."""
    R = BarbuRules(**conventions).pack()
    st = np.zeros(L.STATE_WIDTH, dtype=np.int64)
    doubles = redoubles = 0
    contracts = set()
    for item in range(400):
        by_step, same_draws = whole_deal_both_ways(st, R, 17, item, False)
        assert same_draws
        assert np.array_equal(st, by_step)
        contracts.add(int(st[L.CONTRACT]))
        kinds = st[L.DOUBLES:L.DOUBLES + st[L.N_DOUBLES]] & 3
        doubles += int(np.sum(kinds == L.DOUBLE_KIND_DOUBLE))
        redoubles += int(np.sum(kinds == L.DOUBLE_KIND_REDOUBLE))
    assert contracts == set(range(A.NUM_CONTRACTS))  # the Domino's loop among them
    assert doubles > 100  # the doubling loop answered questions
    assert (redoubles > 10) == bool(R[L.R_REDOUBLES])


@pytest.mark.parametrize("conventions", DEAL_CONVENTIONS[:2] + DEAL_CONVENTIONS[-2:])
def test_random_matches_play_as_the_engine_steps(conventions):
    R = BarbuRules(**conventions).pack()
    st = np.zeros(L.STATE_WIDTH, dtype=np.int64)
    for item in range(4):
        by_step, same_draws = whole_deal_both_ways(st, R, 19, item, True)
        assert same_draws
        assert np.array_equal(st, by_step)
        assert st[L.PHASE] == L.PH_MATCH_OVER
