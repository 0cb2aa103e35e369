"""The Debertz hidden-card sampler (cardsim.debertz.sample_nb): every sampled deal agrees with
what the seat knows (checked by replaying the real deal's actions on it), samples are uniform
among the consistent deals (exact enumeration, chi-square), and nothing the seat cannot see
changes what it samples."""

import itertools

import numpy as np
import pytest

from cardsim.debertz import layout as L
from cardsim.debertz.face_nb import GAME
from cardsim.debertz.rules import DebertzRules
from tests.search.debertz_positions import agrees_with, positions
from tests.search.sampler_checks import (assert_uniform_among, fewest_deals_above_a_handful,
                                         sampled_deals)

CONVENTIONS = [
    dict(players=2),
    dict(players=3),
    dict(players=4),
    dict(players=4, teams=True, partner_exemption=True),
    dict(players=4, teams=True, overtrump_on_ruff=True, turnup_to="dealer"),
    dict(players=2, declare="before_play", bella_any_card=False),
    dict(players=3, overtrump_on_ruff=True, seven_swap=False),
]


def sample(states, R, count, seed=7, seats=None):
    return sampled_deals(GAME, L, states, R, count, seed=seed, seats=seats)


@pytest.mark.parametrize("kw", CONVENTIONS, ids=lambda kw: ",".join(f"{k}={v}" for k, v in kw.items()))
def test_every_sampled_deal_agrees_with_what_the_seat_knows(kw):
    rules = DebertzRules(**kw)
    n = rules.players
    for plays in (0, n + 1, 3 * n, 5 * n - 1):
        R, states = positions(rules, 12, plays, seed=plays + 3)
        out, tries = sample(states, R, 6)
        assert (tries > 0).all()
        for st, deals in zip(states, out):
            me = st[L.TURN]
            for deal in deals:
                assert deal[L.HANDS + me] == st[L.HANDS + me]
                for s in range(n):  # D12: every hand keeps its size, cards partition the deck
                    assert bin(deal[L.HANDS + s]).count("1") == bin(st[L.HANDS + s]).count("1")
                every = deal[L.PLAYED] | deal[L.DEAD]
                for s in range(n):
                    assert every & deal[L.HANDS + s] == 0
                    every |= deal[L.HANDS + s]
                assert every == (1 << 32) - 1
                assert agrees_with(st, R, deal), (kw, plays)


def test_before_the_first_lead_the_deck_is_resampled():
    rules = DebertzRules(players=4, teams=True)
    R = rules.pack()
    from cardsim.debertz import engine_nb as E
    st = np.zeros(L.STATE_WIDTH, dtype=np.int64)
    E.init_game(st, R, 5, 0)
    assert st[L.PHASE] == L.PH_BID1
    out, _ = sample([st], R, 50)
    me = st[L.TURN]
    turnup = st[L.TURNUP]
    seen = set()
    for deal in out[0]:
        assert deal[L.HANDS + me] == st[L.HANDS + me]
        assert deal[L.DECK + 24] == turnup
        assert sorted(deal[L.DECK:L.DECK + 32]) == list(range(32))
        seen.add(tuple(deal[L.DECK + 25:L.DECK + 32]))
        E.step(deal, R, 33)  # play the turn-up suit: the stock is dealt from the new order
        assert deal[L.PHASE] in (L.PH_PLAY, L.PH_GAME_OVER)
    assert len(seen) > 40


def _consistent_deals(st, R):
    """Every deal of the hidden cards consistent with what the seat to act knows, by
    enumerating every way to share them out and replaying."""
    n = R[L.R_PLAYERS]
    me = st[L.TURN]
    holders = [s for s in range(n) if s != me] + ([-1] if n < 4 else [])
    sizes = [bin(st[L.HANDS + s]).count("1") if s >= 0 else bin(st[L.DEAD]).count("1")
             for s in holders]
    hidden = [c for c in range(32)
              if not (st[L.PLAYED] | st[L.HANDS + me]) >> c & 1]
    found = []
    for owner in itertools.product(range(len(holders)), repeat=len(hidden)):
        if [owner.count(k) for k in range(len(holders))] != sizes:
            continue
        deal = st.copy()
        for k, s in enumerate(holders):
            m = sum(1 << c for c, o in zip(hidden, owner) if o == k)
            if s >= 0:
                deal[L.HANDS + s] = m
            else:
                deal[L.DEAD] = m
        if agrees_with(st, R, deal):
            found.append(tuple(deal[L.HANDS:L.HANDS + 4]) + (deal[L.DEAD],))
    return found


@pytest.mark.parametrize("kw,plays", [(dict(players=4, teams=True), 21),
                                      (dict(players=4), 22),
                                      (dict(players=3, overtrump_on_ruff=True), 22)])
def test_samples_are_uniform_among_the_consistent_deals(kw, plays):
    rules = DebertzRules(**kw)
    R, states = positions(rules, 40, plays, seed=11)
    st, deals = fewest_deals_above_a_handful(states[:8], lambda st: _consistent_deals(st, R))
    count = 400 * len(deals)
    out, tries = sample([st], R, count)
    assert tries[0] > 0
    assert_uniform_among([tuple(deal[L.HANDS:L.HANDS + 4]) + (deal[L.DEAD],)
                          for deal in out[0]], deals)


@pytest.mark.parametrize("kw", CONVENTIONS[:5], ids=str)
def test_hidden_cards_do_not_change_what_is_sampled(kw):
    """Swap the real hidden cards for another consistent deal: the same generator draws the
    same deals (the sampler reads only what the seat may know)."""
    rules = DebertzRules(**kw)
    n = rules.players
    R, states = positions(rules, 10, 2 * n + 1, seed=23)
    out, _ = sample(states, R, 1, seed=99)
    other = [deal[0] for deal in out]
    a, _ = sample(states, R, 5, seed=5)
    b, _ = sample(other, R, 5, seed=5, seats=[st[L.TURN] for st in states])
    fields = np.r_[L.HANDS:L.HANDS + 4, L.DEAD, L.PLAY_HANDS:L.PLAY_HANDS + 4]
    assert (a[:, :, fields] == b[:, :, fields]).all()


def test_the_benchmark_draws_debertz_deals():
    """`python -m experiments.bench.search` times this loop: it must keep up with the
    sampler's entry points."""
    from experiments.bench.search import draw_many

    R, P = positions(DebertzRules(players=4, teams=True), 2, 8)
    draws = draw_many(np.array(P), R, 3, np.ones(1, dtype=np.uint64))
    assert draws >= 2 * 3
