"""The Barbu hidden-card sampler (cardsim.barbu.sample_nb): every sampled deal agrees with what
the seat knows (the real plays replayed legally on it: voids, ruffs, overtrumps, leads, Domino
passes), samples are uniform among the consistent deals (exact enumeration, chi-square), and
nothing the seat cannot see changes what it samples."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from cardsim.barbu import actions as A
from cardsim.barbu import layout as L
from cardsim.barbu.face_nb import GAME
from cardsim.barbu.rules import BarbuRules
from cardsim.sample_nb import sample_rows
from tests.search.barbu_positions import (barbu_positions, consistent_deals, dealt_of,
                                          replays_on, sample)
from tests.search.sampler_checks import assert_uniform_among, fewest_deals_above_a_handful

CONVENTIONS = [
    dict(),
    dict(king_lead_rule="no_hearts", king_must_discard=True),
    dict(trumps_must_overtrump=True, trumps_must_ruff=False),
]


@pytest.mark.parametrize("kw", CONVENTIONS, ids=str)
@pytest.mark.parametrize("contract", range(A.NUM_CONTRACTS), ids=A.CONTRACT_NAMES)
def test_every_sampled_deal_agrees_with_what_the_seat_knows(kw, contract):
    """B4, B5: no sample contradicts a void, a ruff or overtrump duty, a lead bar, a Domino
    pass or a played card."""
    rules = BarbuRules(**kw)
    for plays in (0, 9, 22, 35):
        R, states = barbu_positions(rules, 6, contract, plays, seed=plays + 3)
        out, tries = sample(states, R, 5)
        assert (tries == 5).all()
        for st, deals in zip(states, out):
            me = st[L.TURN]
            for deal in deals:
                assert deal[L.HANDS + me] == st[L.HANDS + me]
                every = int(deal[L.PLAYED])
                for s in range(4):  # sizes kept, the cards partition the deck
                    assert bin(deal[L.HANDS + s]).count("1") == bin(st[L.HANDS + s]).count("1")
                    assert every & int(deal[L.HANDS + s]) == 0
                    every |= int(deal[L.HANDS + s])
                    assert sorted(deal[L.DECK + 13 * s:L.DECK + 13 * s + 13]) == \
                        [c for c in range(52) if deal[L.DEALT + s] >> c & 1]
                assert every == (1 << 52) - 1
                assert replays_on(st, R, dealt_of(st, deal[L.HANDS:L.HANDS + 4])), (kw, plays)


@pytest.mark.parametrize("kw,contract,plays", [
    (dict(), A.NO_TRICKS, 44),
    (dict(trumps_must_overtrump=True), A.TRUMPS, 45),
    (dict(king_lead_rule="no_hearts"), A.NO_HEARTS, 44),
    (dict(), A.DOMINO, 46),
])
def test_samples_are_uniform_among_the_consistent_deals(kw, contract, plays):
    rules = BarbuRules(**kw)
    R, states = barbu_positions(rules, 40, contract, plays, seed=11)

    def listed_deals(st):  # None where too many cards are hidden to list every deal
        me = st[L.TURN]
        hidden = 52 - bin(int(st[L.PLAYED]) | int(st[L.HANDS + me])).count("1")
        return None if hidden > 8 else consistent_deals(st, R, me)

    st, deals = fewest_deals_above_a_handful(states, listed_deals)
    count = 300 * len(deals)
    out, _ = sample([st], R, count)
    assert_uniform_among([tuple(int(h) for h in deal[L.HANDS:L.HANDS + 4])
                          for deal in out[0]], deals)


@pytest.mark.parametrize("contract", [A.NO_QUEENS, A.TRUMPS, A.DOMINO], ids=str)
def test_hidden_cards_do_not_change_what_is_sampled(contract):
    """Swap the real hidden cards for another consistent deal: the same generator draws the
    same deals (the sampler reads only what the seat may know)."""
    rules = BarbuRules(trumps_must_overtrump=True)
    R, states = barbu_positions(rules, 8, contract, 17, seed=23)
    out, _ = sample(states, R, 1, seed=99)
    other = [deal[0] for deal in out]
    a, _ = sample(states, R, 5, seed=5)
    b, _ = sample(other, R, 5, seed=5, seats=[st[L.TURN] for st in states])
    fields = np.r_[L.HANDS:L.HANDS + 4, L.DEALT:L.DEALT + 4, L.DECK:L.DECK + 52]
    assert (a[:, :, fields] == b[:, :, fields]).all()


PARITY_SCRIPT = """
import json, numpy as np
from cardsim.barbu.face_nb import GAME
from cardsim.sample_nb import sample_rows
states = np.array(json.loads(%r), dtype=np.int64)
R = np.array(json.loads(%r), dtype=np.int64)
out = np.zeros((len(states), 3, states.shape[1]), dtype=np.int64)
rng = np.arange(1, len(states) + 1, dtype=np.uint64)
sample_rows(GAME, states, R, states[:, %d].copy(), 3, rng, out)
print(json.dumps(out[:, :, %d:%d].tolist()))
"""


def test_compiled_and_pure_python_draw_the_same_deals():
    rules = BarbuRules()
    states = []
    for contract, plays in ((A.NO_HEARTS, 0), (A.TRUMPS, 13), (A.DOMINO, 20)):
        R, found = barbu_positions(rules, 1, contract, plays, seed=5)
        states += found
    states = np.array(states)
    out = np.zeros((len(states), 3, L.STATE_WIDTH), dtype=np.int64)
    sample_rows(GAME, states, R, states[:, L.TURN].copy(), 3,
                np.arange(1, len(states) + 1, dtype=np.uint64), out)
    script = PARITY_SCRIPT % (json.dumps(states.tolist()), json.dumps(R.tolist()), L.TURN,
                              L.HANDS, L.HANDS + 4)
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    run = subprocess.run([sys.executable, "-W", "ignore::RuntimeWarning", "-c", script],
                         env=env, capture_output=True, text=True, check=True)
    assert json.loads(run.stdout) == out[:, :, L.HANDS:L.HANDS + 4].tolist()


def test_the_benchmark_draws_barbu_deals():
    """`python -m experiments.bench.search` times this loop: it must keep up with the
    sampler's entry points."""
    from experiments.bench.search import barbu_draw_many

    R, P = barbu_positions(BarbuRules(), 2, A.NO_HEARTS, 16, seed=3)
    draws = barbu_draw_many(np.array(P), R, 3, np.ones(1, dtype=np.uint64))
    assert draws >= 2 * 3
