"""The pimc and ismcts Debertz agents: legal in every phase, player count and a spread of
conventions, deterministic for a seed, seated at the compiled table."""

import numpy as np
import pytest

from agents.ismcts_nb import ismcts_action
from agents.pimc_nb import pimc_action
from agents.debertz import pimc_nb as P
from agents.registry import make_agent
from cardsim.debertz import engine_nb as E
from cardsim.debertz import layout as L
from cardsim.debertz.face_nb import GAME
from cardsim.debertz.rules import DebertzRules
from cardsim.table import Seating, Table

CONVENTIONS = [
    dict(players=2),
    dict(players=3, overtrump_on_ruff=True),
    dict(players=4),
    dict(players=4, teams=True, partner_exemption=True, turnup_to="dealer"),
    dict(players=2, declare="before_play", bella_any_card=False, obligatory=False),
    dict(players=3, seven_swap=False, first_lead="after_dealer"),
]
FAST = np.array([2, 3000, 0, 0, 0, 0, 0, 0], dtype=np.float64)  # 2 samples, 3000-node solves
FAST_MAXN = np.array([2, 3000, 0, 1, 0, 0, 0, 0], dtype=np.float64)  # the same, max-n
FAST_RECORDED = np.array([2, 3000, 0, 2, 0, 0, 0, 0], dtype=np.float64)  # max-n on records
FAST_TREE = np.array([60, 0.7, 1, 0, 0, 0, 0, 0], dtype=np.float64)  # 60 iterations


def pimc_decision(st, R, mask, params, rng, i):
    """The pimc driver (written for both games) with Debertz's legal set (base 0)."""
    return pimc_action(GAME, st, R, 0, mask, params, rng, i)


def tree_action(st, R, mask, params, rng, i):
    """The ismcts search (written for both games) with Debertz's legal set (base 0)."""
    return ismcts_action(GAME, st, R, 0, mask, params, rng, i)


POLICIES = {"pimc": (pimc_decision, FAST), "pimc-maxn": (pimc_decision, FAST_MAXN),
            "pimc-maxn-recorded": (pimc_decision, FAST_RECORDED),
            "ismcts": (tree_action, FAST_TREE)}


@pytest.mark.parametrize("policy", list(POLICIES))
@pytest.mark.parametrize("kw", CONVENTIONS, ids=str)
def test_every_decision_is_legal(kw, policy):
    action, params = POLICIES[policy]
    rules = DebertzRules(**kw)
    R = rules.pack()
    rng = np.array([np.uint64(3)], dtype=np.uint64)
    phases = set()
    for game in range(3):
        st = np.zeros(L.STATE_WIDTH, dtype=np.int64)
        E.init_game(st, R, 17, game)
        while st[L.PHASE] < L.PH_DEAL_END:
            mask = E.legal_mask(st, R)
            a = action(st, R, mask, params, rng, 0)
            assert mask >> a & 1, (kw, st[L.PHASE], a, bin(mask))
            phases.add(int(st[L.PHASE]))
            E.step(st, R, a)
    assert L.PH_PLAY in phases and L.PH_BID1 in phases


@pytest.mark.parametrize("spec,label", [("pimc:samples=2,nodes=3000", "pimc:nodes=3000,samples=2"),
                                        ("ismcts:iterations=50", "ismcts:iterations=50")])
def test_options_and_the_table(spec, label):
    agent = make_agent(spec, "debertz")
    assert agent.label == label
    with pytest.raises(Exception, match="samples"):
        make_agent("pimc:samples=0", "debertz")
    with pytest.raises(Exception, match="rollout"):
        make_agent("ismcts:rollout=0.5", "debertz")
    table = Table("debertz", DebertzRules(players=2))
    seating = Seating([agent, make_agent("heuristic", "debertz")], [[0, 1], [1, 0]])
    first = table.duplicate(seating, seed=3, first=0, n=4, whole=False)
    again = table.duplicate(seating, seed=3, first=0, n=4, whole=False, n_threads=2)
    assert np.array_equal(first[0], again[0])  # the same seed decides the same


@pytest.mark.parametrize("policy", ["pimc", "ismcts"])
def test_hidden_cards_do_not_change_the_choice(policy):
    """The real hidden cards swapped for another deal consistent with what the seat knows:
    the same generator gives the same choice."""
    from cardsim.sample_nb import sample_rows
    from tests.search.debertz_positions import positions

    action, params = (pimc_decision, FAST) if policy == "pimc" else (tree_action, FAST_TREE)
    rules = DebertzRules(players=4, teams=True)
    R = rules.pack()
    for plays in (0, 5, 14):
        _, states = positions(rules, 6, plays, seed=31)
        for st in states:
            out = np.zeros((1, 1, L.STATE_WIDTH), dtype=np.int64)
            sample_rows(GAME, st[None], R, np.array([st[L.TURN]]), 1,
                        np.array([np.uint64(9)]), out)
            other = out[0, 0]
            # and what only the dealing knew: the deck order, the first six and extra cards
            other[L.DECK:L.DECK + 32] = other[L.DECK:L.DECK + 32][::-1]
            other[L.DEALT:L.DEALT + 4] = 0
            other[L.EXTRA:L.EXTRA + 4] = 0
            mask = E.legal_mask(st, R)
            a = action(st, R, mask, params, np.array([np.uint64(4)]), 0)
            b = action(other, R, mask, params, np.array([np.uint64(4)]), 0)
            assert a == b


def test_rollouts_set_the_deals_of_bidding_and_only_of_bidding():
    """``rollouts`` is the number of deals played out per bidding or swap decision (0: as many
    as ``samples``); card play is left to ``samples``."""
    rules = DebertzRules(players=3)
    R = rules.pack()
    by_samples = np.array([2, 3000, 0, 0, 0, 0, 0, 0], dtype=np.float64)
    same = by_samples.copy()
    same[P.P_ROLLOUTS] = 2
    more = by_samples.copy()
    more[P.P_ROLLOUTS] = 64
    changed = 0
    bids = 0
    for game in range(6):
        st = np.zeros(L.STATE_WIDTH, dtype=np.int64)
        E.init_game(st, R, 23, game)
        while st[L.PHASE] < L.PH_DEAL_END:
            mask = E.legal_mask(st, R)

            def act(params):
                return pimc_decision(st, R, mask, params, np.array([np.uint64(5)]), 0)
            a = act(by_samples)
            assert act(same) == a
            if st[L.PHASE] == L.PH_PLAY:
                assert act(more) == a
            elif mask & (mask - 1):
                bids += 1
                changed += act(more) != a
            E.step(st, R, a)
    assert bids > 0 and changed > 0, (bids, changed)


def test_opponent_samples_set_the_deals_of_the_bidders_opponents_only():
    """``opponent_samples`` is the number of deals a seat opposing the bidder draws and
    solves for a card (D4: not on the bidder's side); the bidder's side keeps ``samples``.
    The generator's state after a decision tells how many deals were drawn, in plain
    ``pimc`` and in the search over weighted deals (``pimc:net=``'s endgame) alike."""
    from agents.belief_pimc_nb import PLACES, belief_actions
    from cardsim.debertz.engine_nb import side_of

    rules = DebertzRules(players=4, teams=True)
    R = rules.pack()
    two = np.array([2, 3000, 0, 0, 0, 0, 0, 0], dtype=np.float64)
    five = two.copy()
    five[P.P_SAMPLES] = 5
    mixed = two.copy()
    mixed[P.P_OPPONENT_SAMPLES] = 5  # the bidder's side 2 deals, its opponents 5
    seen = {True: 0, False: 0}
    for game in range(4):
        st = np.zeros(L.STATE_WIDTH, dtype=np.int64)
        E.init_game(st, R, 29, game)
        while st[L.PHASE] < L.PH_DEAL_END:
            mask = E.legal_mask(st, R)
            if st[L.PHASE] == L.PH_PLAY and mask & (mask - 1):
                bidders = side_of(st[L.TURN], 1) == side_of(st[L.BIDDER], 1)
                like = two if bidders else five
                seen[bool(bidders)] += 1
                for kernel in ("pimc", "weighted"):
                    after = []
                    for params in (mixed, like, five if bidders else two):
                        rng = np.array([np.uint64(7)], dtype=np.uint64)
                        if kernel == "pimc":
                            a = pimc_decision(st, R, mask, params, rng, 0)
                        else:
                            a = belief_actions(GAME, st[None].copy(), R, np.array([0]), params,
                                               np.zeros((1, 64, PLACES)), 1, 0.0, rng)[0]
                        after.append((int(a), int(rng[0])))
                    assert after[0] == after[1], (kernel, bidders, after)
                    assert after[0][1] != after[2][1], (kernel, bidders, after)
            E.step(st, R, pimc_decision(st, R, mask, two, np.array([np.uint64(5)]), 0))
    assert seen[True] > 0 and seen[False] > 0, seen
    agent = make_agent("pimc:samples=2,opponent_samples=5", "debertz")
    assert agent.label == "pimc:opponent_samples=5,samples=2"
    with pytest.raises(Exception, match="opponent_samples"):
        make_agent("pimc:opponent_samples=-1", "debertz")
