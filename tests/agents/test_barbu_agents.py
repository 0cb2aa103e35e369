"""Barbu agents: the compiled loops, the heuristic's legality, known positions, what it may
read (information hygiene) and its strength against random play (docs/rules/barbu.md)."""

import numpy as np
import pytest
from numba import njit
from table_loops import duplicate, play_deal, simulate_agents, start_items

from agents.barbu.heuristic import BarbuHeuristic
from agents.barbu.heuristic_nb import expected_score, planned_action
from agents.base import EngineView, RandomAgent
from agents.policies import HEURISTIC as HEURISTIC_POLICY
from agents.registry import make_agent
from cardsim import rng_nb
from cardsim.barbu import actions as A
from cardsim.barbu import layout as L
from cardsim.barbu import simulate_nb as SN
from cardsim.barbu.engine_nb import init_game, legal_mask, next_deal, step
from cardsim.barbu.game import BarbuGame
from cardsim.barbu.rules import BarbuRules
from cardsim.bits_nb import lowest_bit
from cardsim.cards import BARBU_DECK
from cardsim.errors import InvalidConfigError
from cardsim.policy_nb import RANDOM

HEURISTIC = HEURISTIC_POLICY.kind

CONVENTIONS = [
    dict(),
    dict(king_lead_rule="no_hearts", king_must_discard=True),
    dict(trumps_must_ruff=False, trumps_must_overtrump=True, first_declarer=2),
]
H = BarbuHeuristic(game="barbu").params
PATTERNS_1V3 = np.array([[0, 1, 1, 1], [1, 0, 1, 1], [1, 1, 0, 1], [1, 1, 1, 0]])


def ci95(x):
    x = np.asarray(x, dtype=np.float64)
    return x.mean(), 1.96 * x.std(ddof=1) / np.sqrt(len(x))


# ---------------------------------------------------------------------------------------------
# registry and the compiled loops
# ---------------------------------------------------------------------------------------------
def test_registry_makes_the_barbu_heuristic_with_options():
    agent = make_agent("heuristic:double_margin=2,doubles=0", "barbu")
    assert isinstance(agent, BarbuHeuristic) and agent.kind == HEURISTIC
    assert agent.params[:6].tolist() == [2.0, 8.0, 3.0, 6.0, 1.0, 0.0]
    assert agent.label == "heuristic:double_margin=2,doubles=0"
    with pytest.raises(InvalidConfigError, match="has no option 'depth'"):
        make_agent("heuristic:depth=2", "barbu")
    with pytest.raises(InvalidConfigError, match="out of range"):
        make_agent("heuristic:doubles=3", "barbu")


@pytest.mark.parametrize("kw", CONVENTIONS)
@pytest.mark.parametrize("whole", [True, False])
def test_random_agents_reproduce_the_engine_fast_path(kw, whole):
    R = BarbuRules(**kw).pack()
    n = 12 if whole else 300
    a = SN.simulate_random(R, 11, 5, n, whole, 4)
    b = simulate_agents("barbu", R, 11, 5, n, whole, 3, np.zeros(4, dtype=np.int64), np.zeros((4, 8)))
    assert (a == b).all()


def test_simulate_agents_is_independent_of_blocks_and_keeps_b8():
    R = BarbuRules().pack()
    kinds = np.array([HEURISTIC, RANDOM, HEURISTIC, RANDOM])
    params = np.stack([H, np.zeros(8), H, np.zeros(8)])
    a = simulate_agents("barbu", R, 4, 0, 6, True, 1, kinds, params)
    b = simulate_agents("barbu", R, 4, 0, 6, True, 4, kinds, params)
    assert (a == b).all()
    assert a[SN.S_MATCHES] == 6 and a[SN.S_DEALS] == 168 and a[SN.S_BAD] == 0


def test_batch_act_and_batch_play_deal_give_legal_play():
    R = BarbuRules().pack()
    S = np.zeros((40, L.STATE_WIDTH), dtype=np.int64)
    rng = np.zeros(40, dtype=np.uint64)
    # matches 0..39 of seed 3 as the table starts them (one seating pattern, not duplicate)
    start_items("barbu", S, R, rng, 3, np.arange(40), True)
    agent = make_agent("heuristic", "barbu")
    acts = agent.act(EngineView(S, R))
    for i in range(40):
        base, bits = legal_mask(S[i], R)
        assert (bits >> (acts[i] - base)) & 1
    kinds = np.array([HEURISTIC, RANDOM, HEURISTIC, HEURISTIC])
    decisions = play_deal("barbu", S, R, rng, kinds, np.stack([H] * 4))
    assert (S[:, L.PHASE] == L.PH_DEAL_END).all() and (decisions > 0).all()
    assert (S[:, L.DEAL_SCORES:L.DEAL_SCORES + 4].sum(axis=1)
            == np.array(A.CONTRACT_TOTALS)[S[:, L.CONTRACT]]).all()  # B8


def test_duplicate_play_shares_cards_and_forces_contracts():
    R = BarbuRules().pack()
    kinds = np.array([HEURISTIC, RANDOM])
    params = np.stack([H, np.zeros(8)])
    pts, wins, deals, con, seat = duplicate("barbu", R, 2, 0, 70, False, PATTERNS_1V3, kinds,
                                               params, 3, force=True, detail=True)
    assert (con == (np.arange(70) % 7)[:, None]).all() and (deals == 4).all()
    heur = seat[:, np.arange(4), np.arange(4)]  # pattern p has the heuristic in seat p
    assert np.allclose(heur.mean(axis=1), pts[:, 0])
    assert (wins == 0).all()
    # one heuristic and three random seats: the four patterns' scores add up to the B8 total
    tot = 4 * (pts[:, 0] + 3 * pts[:, 1])
    assert np.allclose(tot, 4 * np.array(A.CONTRACT_TOTALS)[np.arange(70) % 7])
    again = duplicate("barbu", R, 2, 0, 70, False, PATTERNS_1V3, kinds, params, 1, force=True)
    assert np.allclose(pts, again[0])
    p3, w3, d3 = duplicate("barbu", R, 2, 0, 3, True, PATTERNS_1V3, kinds, params, 2)[:3]
    assert (d3 == 4 * 28).all() and np.allclose(p3[:, 0] + 3 * p3[:, 1], 0)  # zero-sum (B8)
    assert (w3[:, 0] + 3 * w3[:, 1] >= 1 - 1e-9).all()  # somebody wins every match (B2)


# ---------------------------------------------------------------------------------------------
# legality: the heuristic's own choice (before the policy's safety net) is always legal
# ---------------------------------------------------------------------------------------------
@njit(cache=True)
def illegal_choices(R, seed, n_matches, params):
    """Matches with a random mix of heuristic and random seats; counts heuristic choices
    outside the legal set, and the heuristic decisions checked."""
    st = np.zeros(L.STATE_WIDTH, dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    bad = 0
    checked = 0
    for g in range(n_matches):
        rng[0] = rng_nb.stream(seed, g, 99)
        heur = rng_nb.below(rng, 0, 15) + 1  # seats of the heuristic, never none
        init_game(st, R, seed, g)
        while True:
            while st[L.PHASE] < L.PH_DEAL_END:
                base, bits = legal_mask(st, R)
                if (heur >> st[L.TURN]) & 1:
                    a = planned_action(params, st, R, base, bits)
                    k = a - base
                    checked += 1
                    if k < 0 or k > 62 or ((bits >> k) & 1) == 0:
                        bad += 1
                        a = base + lowest_bit(bits)
                else:
                    a = SN.random_action(base, bits, rng, 0)
                step(st, R, a)
            if st[L.PHASE] == L.PH_MATCH_OVER:
                break
            next_deal(st, R)
    return bad, checked


@pytest.mark.parametrize("kw", CONVENTIONS)
def test_heuristic_only_plays_legal_moves(kw):
    R = BarbuRules(**kw).pack()
    for params in (H, BarbuHeuristic(game="barbu", options=dict(
            double_margin=-30, redouble_margin=-30, domino_block=0)).params):
        bad, checked = illegal_choices(R, 21, 80, params)
        assert checked > 80 * 28 * 20 and bad == 0


# ---------------------------------------------------------------------------------------------
# hand-built positions with one clearly right play
# ---------------------------------------------------------------------------------------------
def hands_of(*texts):
    hands = [BARBU_DECK.parse_list(t) for t in texts]
    assert sorted(c for h in hands for c in h) == list(range(52))
    return hands


def heuristic_choice(game, **options):
    agent = BarbuHeuristic(game="barbu", options=options)
    return A.ACTION_NAMES[int(agent.act(EngineView(game.state, game.R))[0])]


def start(hands, contract, declarer=0, rules=None, extra=()):
    g = BarbuGame.from_deal(hands, declarer, rules=rules)
    g.step(contract)
    for a in extra:
        g.step(a)
    while g.phase() == "double":
        g.step("no_double" if "no_double" in g.legal_action_names() else "double")
    return g


QUEEN_DEAL = hands_of("AS JS 2S 3S 2H 3H 4H 5H 6H 7H 8H 9H TH",
                      "QS 5S JH QH KH AH 2D 3D 4D 5D 6D 7D 8D",
                      "KS 4S 6S 7S 8S 9S TS 9D TD JD QD KD AD",
                      "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC")


def test_no_queens_drops_the_queen_under_the_ace():
    g = start(QUEEN_DEAL, "no_queens")
    g.step("AS")
    assert heuristic_choice(g) == "QS"


def test_no_queens_ducks_under_the_trick_with_the_low_card():
    g = start(QUEEN_DEAL, "no_queens")
    g.step("JS")
    assert heuristic_choice(g) == "5S"


# Seat 1 is void in spades; the cards other than its hand and seat 3's are the same.
VOID_DISCARDS = {
    "no_king": ("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC KH",
                "QS 5S JH QH AC AH 2D 3D 4D 5D 6D 7D 8D", "KH"),
    "no_hearts": ("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC AC AH",
                  "QS 5S JH QH KC KH 2D 3D 4D 5D 6D 7D 8D", "AH"),
}


@pytest.mark.parametrize("contract", sorted(VOID_DISCARDS))
def test_void_hand_discards_the_most_costly_heart(contract):
    """no_king: the king of hearts when void; no_hearts: the ace of hearts first."""
    second, fourth, discard = VOID_DISCARDS[contract]
    g = start(hands_of("AS JS 2S 3S 2H 3H 4H 5H 6H 7H 8H 9H TH", second,
                       "KS 4S 6S 7S 8S 9S TS 9D TD JD QD KD AD", fourth), contract)
    g.step("2S")
    assert heuristic_choice(g) == discard


def test_domino_opens_the_row_that_frees_its_own_cards():
    g = start(hands_of("7S 8S 9S TS JS 7H 2D 3D 4D 2C 3C 4C 5C",
                       "2S 3S 4S 5S 6S QS KS AS 2H 3H 4H 5H 6H",
                       "8H 9H TH JH QH KH AH 5D 6D 7D 8D 9D TD",
                       "JD QD KD AD 6C 7C 8C 9C TC JC QC KC AC"), "domino",
              extra=("start_7",))
    assert g.turn() == 0 and set(g.legal_action_names()) == {"7S", "7H"}
    assert heuristic_choice(g) == "7S"


def test_trumps_last_hand_wins_as_cheaply_as_possible_and_ruffs_low():
    deal = hands_of("5S 6S 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH",
                    "9S 7S 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD",
                    "QS 8S TS JS KH AH KD AD 2C 3C 4C 5C 6C",
                    "AS KS 3S 2S 4S 7C 8C 9C TC JC QC KC AC")
    g = start(deal, "trumps", extra=("trump_C",))
    g.step("5S")
    g.step("9S")
    g.step("QS")
    assert heuristic_choice(g) == "KS"
    g = start(deal, "trumps", extra=("trump_C",))
    g.step("2H")
    g.step("2D")   # seat 1: no hearts and no trumps
    g.step("KH")
    assert heuristic_choice(g) == "7C"  # seat 3 is void in hearts: ruff with the lowest trump


def test_contract_choice_and_doubling_follow_the_hand():
    clubs = hands_of("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
                     "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
                     "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
                     "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD")
    g = BarbuGame.from_deal(clubs, 0)
    assert heuristic_choice(g) == "trumps"
    g.step("trumps")
    assert heuristic_choice(g) == "trump_C"
    # No Tricks: the lowest cards double everybody; the top cards double nobody
    low = hands_of("2S 3S 4S 2H 3H 4H 2D 3D 4D 2C 3C 4C 5C",
                   "AS KS QS AH KH QH AD KD QD AC KC QC JC",
                   "5S 6S 7S 8S 5H 6H 7H 8H 5D 6D 7D 8D 6C",
                   "9S TS JS 9H TH JH 9D TD JD 7C 8C 9C TC")
    g = BarbuGame.from_deal(low, 3)
    g.step("no_tricks")
    assert g.asking == (0, 1)
    assert heuristic_choice(g) == "double"
    assert expected_score(g.state[0, L.HANDS + 0], A.NO_TRICKS, 1, -1) > -2
    g.step("double")
    g.step("double")                       # seat 0 towards seat 2
    assert heuristic_choice(g) == "double"  # and towards the declarer
    g.step("double")
    assert g.asking[0] == 1
    assert heuristic_choice(g) == "no_double"


# ---------------------------------------------------------------------------------------------
# information hygiene: hidden cards never change the heuristic's choice
# ---------------------------------------------------------------------------------------------
def sample_positions(n_deals, rules, seed):
    """Positions of every phase from random play, as state rows."""
    rs = np.random.default_rng(seed)
    out = []
    g = BarbuGame(rules, seed=seed)
    for _ in range(n_deals):
        while not g.is_deal_over:
            out.append(g.state[0].copy())
            legal = g.legal_actions()
            g.step(legal[rs.integers(len(legal))])
        if g.is_match_over:
            break
        g.next_deal()
    return out


def reshuffle_hidden(st, rs):
    """The same position with the other seats' unseen cards exchanged within suits (so every
    seat keeps its suit lengths and shown voids): hands, dealt hands and deck change."""
    st = st.copy()
    me = st[L.TURN]
    others = [s for s in range(4) if s != me]
    for suit in range(4):
        pool, owners = [], []
        for s in others:
            for c in range(13 * suit, 13 * suit + 13):
                if (st[L.HANDS + s] >> c) & 1:
                    pool.append(c)
                    owners.append(s)
        perm = rs.permutation(pool)
        for s in others:
            st[L.HANDS + s] &= ~(((1 << 13) - 1) << (13 * suit))
        new_deck = {}
        for c, s in zip(perm, owners):
            st[L.HANDS + s] |= 1 << int(c)
        for old, new in zip(pool, perm):
            new_deck[old] = int(new)
        for k in range(52):
            c = int(st[L.DECK + k])
            if c in new_deck:
                st[L.DECK + k] = new_deck[c]
    for s in others:  # dealt = cards held now + cards this seat played
        mine_played = 0
        for k in range(st[L.N_PLAYS]):
            e = int(st[L.PLAYS + k])
            if e >> L.PLAY_SEAT_SHIFT == s and (e & 63) < 52:
                mine_played |= 1 << (e & 63)
        st[L.DEALT + s] = st[L.HANDS + s] | mine_played
    return st


@pytest.mark.parametrize("kw", CONVENTIONS[:2])
def test_hidden_cards_never_change_the_heuristic(kw):
    rules = BarbuRules(**kw)
    R = rules.pack()
    rs = np.random.default_rng(5)
    states = np.array(sample_positions(28, rules, 8))
    agent = BarbuHeuristic(game="barbu")
    base = agent.act(EngineView(states, R))
    changed = 0
    for _ in range(3):
        other = np.array([reshuffle_hidden(s, rs) for s in states])
        changed += int((other[:, L.HANDS:L.HANDS + 4] != states[:, L.HANDS:L.HANDS + 4]).any())
        assert (agent.act(EngineView(other, R)) == base).all()
    assert changed and len(states) > 1000


# ---------------------------------------------------------------------------------------------
# strength: paired differences on duplicate deals, heuristic against random
# ---------------------------------------------------------------------------------------------
def test_heuristic_beats_random_per_deal_and_per_match():
    R = BarbuRules().pack()
    kinds = np.array([HEURISTIC, RANDOM])
    params = np.stack([H, np.zeros(8)])
    pts, _, _ = duplicate("barbu", R, 1, 0, 700, False, PATTERNS_1V3, kinds, params, 4)[:3]
    diff, half = ci95(pts[:, 0] - pts[:, 1])
    assert diff - half > 0
    pts, wins, _ = duplicate("barbu", R, 1, 0, 12, True, PATTERNS_1V3, kinds, params, 4)[:3]
    diff, half = ci95(28 * (pts[:, 0] - pts[:, 1]))
    assert diff - half > 0 and wins[:, 0].mean() > 0.5


def test_random_agent_class_still_plays_barbu():
    g = BarbuGame(seed=3)
    agent = RandomAgent(game="barbu")
    agent.reset(4)
    a = int(agent.act(EngineView(g.state, g.R))[0])
    assert a in g.legal_actions()
