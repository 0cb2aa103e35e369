"""The pimc and ismcts Barbu agents: legal in every contract and phase (contract choice,
trump, starting rank, doubling, trick play, Domino passes), deterministic for a seed, seated
at the compiled table, blind to the cards their seat cannot see."""

import numpy as np
import pytest

from agents.barbu import pimc_nb as P
from agents.ismcts_nb import ismcts_action
from agents.pimc_nb import pimc_action
from agents.registry import make_agent
from cardsim.barbu import actions as A
from cardsim.barbu import engine_nb as E
from cardsim.barbu import layout as L
from cardsim.barbu.face_nb import GAME
from cardsim.barbu.rules import BarbuRules
from cardsim.sample_nb import sample_deal, sample_prepare, sample_rows
from cardsim.table import Seating, Table
from tests.search.barbu_positions import barbu_positions

# 2 samples, 300-node max-n, every trick solved
FAST = np.array([2, 300, 0, 1, 1, 0, 0, 13], dtype=np.float64)
FAST_PARANOID = np.array([2, 300, 0, 1, 0, 0, 0, 13], dtype=np.float64)
# trick play by 6 play-outs per card until 5 tricks are left, then solved
FAST_PLAYOUTS = np.array([2, 300, 0, 1, 1, 6, 1, 5], dtype=np.float64)
FAST_TREE = np.array([40, 0.7, 1, 0, 0, 0, 0, 0], dtype=np.float64)  # 40 iterations


def pimc_decision(st, R, base, bits, params, rng, i):
    """The pimc driver, written for both games, in Barbu."""
    return pimc_action(GAME, st, R, base, bits, params, rng, i)


def tree_action(st, R, base, bits, params, rng, i):
    """The ismcts search, written for both games, in Barbu."""
    return ismcts_action(GAME, st, R, base, bits, params, rng, i)


def decisions(rules, contracts, count, plays, seed):
    """``count`` positions after ``plays`` plays of each contract of ``contracts``: the
    contract, the packed rules, the position and its legal actions (base, bits)."""
    for contract in contracts:
        R, states = barbu_positions(rules, count, contract, plays, seed=seed)
        for st in states:
            base, bits = E.legal_mask(st, R)
            yield contract, R, st, base, bits


POLICIES = {"pimc": (pimc_decision, FAST), "pimc-paranoid": (pimc_decision, FAST_PARANOID),
            "pimc-playouts": (pimc_decision, FAST_PLAYOUTS),
            "ismcts": (tree_action, FAST_TREE)}


@pytest.mark.parametrize("policy", sorted(POLICIES))
@pytest.mark.parametrize("kw", [dict(), dict(king_lead_rule="no_hearts", king_must_discard=True,
                                             trumps_must_overtrump=True)], ids=str)
def test_every_decision_is_legal(kw, policy):
    """One deal of every contract, the agent in every seat: each action is in the legal set;
    the declarer's contract choice, trump, starting rank and the doubling are its own."""
    action, params = POLICIES[policy]
    R = BarbuRules(first_declarer=0, **kw).pack()
    rng = np.array([np.uint64(3)], dtype=np.uint64)
    st = np.zeros(L.STATE_WIDTH, dtype=np.int64)
    E.init_game(st, R, 17, 0)
    phases = set()
    contracts = set()
    passes = 0
    for _ in range(A.NUM_CONTRACTS):
        while st[L.PHASE] < L.PH_DEAL_END:
            base, bits = E.legal_mask(st, R)
            a = action(st, R, base, bits, params, rng, 0)
            assert E.is_legal(st, R, a), (kw, st[L.PHASE], a, base, bin(bits))
            phases.add(int(st[L.PHASE]))
            passes += a == A.PASS
            E.step(st, R, a)
        contracts.add(int(st[L.CONTRACT]))
        E.next_deal(st, R)
    assert contracts == set(range(A.NUM_CONTRACTS))  # B2: the declarer's seven deals
    assert phases == {L.PH_CONTRACT, L.PH_TRUMP, L.PH_START_RANK, L.PH_DOUBLE, L.PH_PLAY}
    assert passes > 0


@pytest.mark.parametrize("spec,label", [("pimc:samples=2,nodes=300", "pimc:nodes=300,samples=2"),
                                        ("ismcts:iterations=30", "ismcts:iterations=30")])
def test_options_and_the_table(spec, label):
    agent = make_agent(spec, "barbu")
    assert agent.label == label
    assert "barbu" in type(agent).games
    with pytest.raises(Exception, match="samples"):
        make_agent("pimc:samples=0", "barbu")
    with pytest.raises(Exception, match="rollout"):
        make_agent("ismcts:rollout=0.5", "barbu")
    table = Table("barbu", BarbuRules())
    seating = Seating([agent, make_agent("heuristic", "barbu")],
                      [[0, 1, 1, 1], [1, 0, 1, 1], [1, 1, 0, 1], [1, 1, 1, 0]])
    first = table.duplicate(seating, seed=3, first=0, n=2, whole=False, force=True)
    again = table.duplicate(seating, seed=3, first=0, n=2, whole=False, force=True, n_threads=2)
    assert np.array_equal(first[0], again[0])  # the same seed decides the same


@pytest.mark.parametrize("policy", sorted(POLICIES))
def test_hidden_cards_do_not_change_the_choice(policy):
    """The real hidden cards swapped for another deal consistent with what the seat knows:
    the same generator gives the same choice."""
    action, params = POLICIES[policy]
    rules = BarbuRules()
    for contract, plays in ((A.NO_HEARTS, 5), (A.TRUMPS, 22), (A.DOMINO, 9)):
        R, states = barbu_positions(rules, 3, contract, plays, seed=31)
        for st in states:
            out = np.zeros((1, 1, L.STATE_WIDTH), dtype=np.int64)
            sample_rows(GAME, st[None], R, np.array([st[L.TURN]]), 1,
                        np.array([np.uint64(9)]), out)
            other = out[0, 0]
            base, bits = E.legal_mask(st, R)
            a = action(st, R, base, bits, params, np.array([np.uint64(4)]), 0)
            b = action(other, R, base, bits, params, np.array([np.uint64(4)]), 0)
            assert a == b


def test_margin_keeps_the_heuristic_card_without_evidence():
    """``margin`` > 0: the solved best card replaces the heuristic's only for a gain beyond
    that many standard errors; one drawn deal gives no error estimate, so trick play is the
    heuristic's. Without a margin the same deal moves the agent off it somewhere."""
    from agents.barbu.heuristic_nb import heuristic_action

    rules = BarbuRules()
    one = np.array([1, 300, 0, 1, 1, 0, 0, 13], dtype=np.float64)
    kept = one.copy()
    kept[P.P_MARGIN] = 1
    off = 0
    contracts = (A.NO_TRICKS, A.NO_QUEENS, A.TRUMPS)
    for _, R, st, base, bits in decisions(rules, contracts, 6, 4, seed=7):
        h = base + heuristic_action(P.ROLLOUT_PARAMS, st, R, base, bits)
        assert pimc_decision(st, R, base, bits, kept, np.array([np.uint64(4)]), 0) == h
        off += pimc_decision(st, R, base, bits, one, np.array([np.uint64(4)]), 0) != h
    assert off > 0


def test_rollouts_set_the_deals_of_decisions_by_simulation():
    """``rollouts`` = ``samples`` decides as ``rollouts`` = 0; more rollouts change some
    decision by simulation (contract, trump, starting rank, doubles, Domino)."""
    R = BarbuRules(first_declarer=0).pack()
    by_samples = FAST.copy()
    same = FAST.copy()
    same[P.P_ROLLOUTS] = FAST[P.P_SAMPLES]
    more = FAST.copy()
    more[P.P_ROLLOUTS] = 48
    st = np.zeros(L.STATE_WIDTH, dtype=np.int64)
    E.init_game(st, R, 19, 0)
    changed = 0
    for _ in range(3):
        while st[L.PHASE] < L.PH_DEAL_END:
            base, bits = E.legal_mask(st, R)

            def act(params):
                return pimc_decision(st, R, base, bits, params, np.array([np.uint64(6)]), 0)
            a = act(by_samples)
            assert act(same) == a
            simulated = st[L.PHASE] != L.PH_PLAY or st[L.CONTRACT] == A.DOMINO
            if simulated and bits & (bits - 1):
                changed += act(more) != a
            E.step(st, R, a)
        E.next_deal(st, R)
    assert changed > 0


def test_early_tricks_by_play_outs():
    """With more than ``solve`` tricks left a card is valued by play-outs: each legal card
    tried on the same drawn deals, each deal played out by the heuristic in every seat; the
    card with the best mean deal score of the seat to act (``margin`` 0), recomputed here
    from the same draws. With one play-out and a margin the heuristic's card is kept."""
    from agents.barbu.heuristic_nb import heuristic_action

    rules = BarbuRules()
    params = np.array([2, 300, 0, 1, 1, 5, 0, 6], dtype=np.float64)
    single = params.copy()
    single[P.P_ROLLOUTS] = 1
    single[P.P_MARGIN] = 1
    moved = 0
    contracts = (A.NO_TRICKS, A.NO_HEARTS, A.TRUMPS)
    for contract, R, st, base, bits in decisions(rules, contracts, 4, 9, seed=5):
        chosen = pimc_decision(st, R, base, bits, params, np.array([np.uint64(8)]), 0)
        rng = np.array([np.uint64(8)])
        kn, ways = sample_prepare(GAME, st, R, st[L.TURN])
        totals = {}
        deal = np.empty(L.STATE_WIDTH, dtype=np.int64)
        for _ in range(5):
            sample_deal(GAME, st, R, kn, ways, rng, 0, deal)
            for c in (c for c in range(52) if bits >> c & 1):
                trial = deal.copy()
                E.step(trial, R, base + c)
                totals[c] = totals.get(c, 0) + P.rollout_score(trial, R, st[L.TURN])
        best = max(totals.values())
        h = heuristic_action(P.ROLLOUT_PARAMS, st, R, base, bits) - base
        expect = h if totals[h] == best else min(c for c in totals if totals[c] == best)
        assert chosen == base + expect, (contract, totals, h)
        moved += expect != h
        kept = pimc_decision(st, R, base, bits, single, np.array([np.uint64(8)]), 0)
        assert kept == base + h
    assert moved > 0
