"""The Debertz heuristic agent: legal moves, known right plays, strength against random play,
and information hygiene (its choice never depends on cards its seat cannot see)."""

import numpy as np
import pytest

from agents.base import EngineView
from agents.debertz import heuristic_nb as H
from agents.debertz.heuristic import DebertzHeuristic
from agents.registry import make_agent
from cardsim.cards import DEBERTZ_DECK
from cardsim.debertz import actions as A
from cardsim.debertz import layout as L
from cardsim.debertz import simulate_nb as SN
from cardsim.debertz.game import DebertzGame
from cardsim.debertz.rules import DebertzRules
from table_loops import duplicate, simulate_agents

C = DEBERTZ_DECK.parse
FULL = (1 << 32) - 1

CONVENTION_SETS = [
    dict(players=2),
    dict(players=2, seven_swap=False, obligatory=False, declare="before_play", target=301),
    dict(players=3),
    dict(players=3, overtrump_on_ruff=True, dealer_rotation="winner", no_trick_penalty=50,
         end_mode="points", bella_any_card=False),
    dict(players=4),
    dict(players=4, turnup_to="dealer", first_lead="after_dealer", obligatory=False),
    dict(players=4, teams=True),
    dict(players=4, teams=True, partner_exemption=True, overtrump_on_ruff=True,
         end_mode="points", target=301, debertz_trump_only=True),
]


def agent(**options):
    a = make_agent({"name": "heuristic", **options}, "debertz")
    a.reset(0)
    return a


def act(game, **options):
    return int(agent(**options).act(EngineView(game.state, game.R))[0])


def deal9(rules, full_hands, turnup, dealer=0):
    """2-3 players: each seat's 9 cards, the first 6 dealt first, the last 3 after bidding."""
    n = rules.players
    hands = [h.split() for h in full_hands]
    stock = []
    for k in range(1, n + 1):
        stock += hands[(dealer + k) % n][6:]
    return DebertzGame.from_deal(rules, [h[:6] for h in hands], turnup, stock, dealer=dealer)


def deal8(rules, full_hands, turnup, dealer=0):
    """4 players, turn-up to the bidder dealer+1: each seat's 8 cards (dealer+1 lists 7, the
    turn-up completes it); the first 6 are dealt first."""
    hands = [h.split() for h in full_hands]
    stock = []
    for k in range(1, 5):
        stock += hands[(dealer + k) % 4][6:]
    return DebertzGame.from_deal(rules, [h[:6] for h in hands], turnup, stock, dealer=dealer)


def play(game, moves):
    for m in moves.split():
        game.step(m)


# =================================================================================================
# the agent object
# =================================================================================================
def test_registry_options_and_label():
    a = make_agent("heuristic:aggression=0.8", "debertz")
    assert isinstance(a, DebertzHeuristic) and a.kind == 1
    assert a.label == "heuristic:aggression=0.8"
    assert a.params[0] == 0.8 and a.params[1] == 1.0 and a.params[2] == 1.0
    for opt in DebertzHeuristic.OPTIONS.values():
        assert opt.doc and opt.low <= opt.default <= opt.high


# =================================================================================================
# only legal moves
# =================================================================================================
@pytest.mark.parametrize("kw", CONVENTION_SETS)
def test_policy_choice_is_always_legal_python_stepping(kw):
    """Every raw choice (before the legality guard) of the heuristic is in the legal list, in
    every phase; the table mixes heuristic and random seats so that odd positions occur."""
    rules = DebertzRules(**kw)
    game = DebertzGame(rules, batch=12, seed=11)
    n = rules.players
    rnd = np.random.default_rng(3)
    params = DebertzHeuristic(game="debertz").params
    heur = agent()
    decisions = 0
    for i in range(game.batch):
        heuristic_seats = set(rnd.choice(n, size=rnd.integers(1, n + 1), replace=False))
        for _ in range(3):  # three deals per game
            while game.state[i, L.PHASE] < L.PH_DEAL_END:
                seat = game.turn(i)
                legal = game.legal_actions(i)
                raw = int(H.policy_choice(game.state[i], game.R, game.legal_bits(i), params))
                assert raw in legal, (kw, game.phase(i), raw, legal)
                a = int(heur.act(EngineView(game.state[i:i + 1], game.R))[0])
                assert a in legal
                if seat not in heuristic_seats:
                    a = int(rnd.choice(legal))
                game.step(a, i)
                decisions += 1
            if game.state[i, L.PHASE] == L.PH_GAME_OVER:
                break
            game.next_deal(i)
    assert decisions > 200


@pytest.mark.parametrize("kw", CONVENTION_SETS)
def test_compiled_self_play_whole_games(kw):
    """Heuristics in every seat through the compiled loop: whole games finish, deals are
    scored, and the run does not depend on the blocking."""
    R = DebertzRules(**kw).pack()
    n = int(R[L.R_PLAYERS])
    kinds = np.ones(n, dtype=np.int64)
    params = np.tile(DebertzHeuristic(game="debertz").params, (n, 1))
    a = simulate_agents("debertz", R, 5, 0, 60, True, 3, kinds, params)
    b = simulate_agents("debertz", R, 5, 0, 60, True, 1, kinds, params)
    assert (a == b).all()
    assert a[SN.S_GAMES] == 60
    assert a[SN.S_PLAYED] + a[SN.S_VOID] + a[SN.S_DEBERTZ] == a[SN.S_DEALS]
    assert a[SN.S_PLAYED] > 0


# =================================================================================================
# positions with one clearly right play
# =================================================================================================
def test_bids_play_with_jack_nine_ace_of_the_turnup_suit():
    rules = DebertzRules(players=2)
    game = DebertzGame.from_deal(rules, ["7S 8S 9D QD KC 7C", "JH 9H AH AS 7D 8C"], "KH")
    assert game.turn() == 1 and game.phase() == "bid1"
    assert act(game) == A.PLAY


def test_passes_with_junk():
    rules = DebertzRules(players=2)
    game = DebertzGame.from_deal(rules, ["JH 9H AH AS 7D 8C", "7S 8S 9D QD KC 7C"], "KH")
    assert act(game) == A.PASS
    # a bold setting still does not bid on nothing
    assert act(game, aggression=1.0) == A.PASS


def test_obliged_dealer_names_the_best_suit():
    """D4: everybody passed twice; the dealer must name a suit and names its strong one."""
    rules = DebertzRules(players=2)
    game = DebertzGame.from_deal(rules, ["JC 9C AC TC 8D 7H", "7S 8S 9D QD KD 8C"], "KH")
    play(game, "pass pass pass")
    assert game.phase() == "bid2" and game.turn() == 0
    assert A.PASS not in game.legal_actions()
    assert act(game) == A.NAME_SUIT + 3


def test_bids_in_round_two_with_a_strong_other_suit():
    rules = DebertzRules(players=2)
    game = DebertzGame.from_deal(rules, ["7S 8S 9D QD KD 8C", "JC 9C AC TC AS 7H"], "KH")
    play(game, "pass pass")
    assert game.phase() == "bid2" and game.turn() == 1
    assert act(game) == A.NAME_SUIT + 3


def test_swaps_the_seven_of_trump():
    """D5: the holder of the 7 of trump takes the turn-up (a king) for it."""
    rules = DebertzRules(players=2)
    game = deal9(rules, ["7S 8S 9D QD KC 7C AD TD 8D", "JH 9H AH AS 7H 8C 9C TC JC"], "KH")
    play(game, "play")
    assert game.phase() == "swap" and game.turn() == 1
    assert act(game) == A.SWAP
    assert act(game, swap=0) == A.KEEP


def test_last_player_wins_cheaply():
    rules = DebertzRules(players=2)
    game = deal9(rules, ["AS 9S 7C 8C TD JD 7S QS TC", "8S 7D 8D 9D QC KC JH 9H AH"], "KH")
    play(game, "play 8S")
    assert game.turn() == 0
    assert act(game) == C("9S")  # not the ace


def test_last_player_throws_low_on_a_lost_trick():
    rules = DebertzRules(players=2)
    game = deal9(rules, ["KS 7S 7C 8C TD JD QS 9C TC", "AS 7D 8D 9D QC KC JH 9H AH"], "KH")
    play(game, "play AS")
    assert game.turn() == 0
    assert act(game) == C("7S")


def test_throws_points_onto_partners_sure_trick():
    """2v2: the partner's ace of the led suit cannot be beaten (nobody has shown a void), so
    the ten goes onto it even with a player still to come."""
    rules = DebertzRules(players=4, teams=True)
    # seat 1 bids and leads; seat 3 is its partner
    game = deal8(rules, ["JC 9C 7D 8D QD KD 8H",
                         "AS JH 9H AH 7C 8C 9D",
                         "7S JS QS 8S KC AC TC QC",
                         "TS 9S TD AD JD 7H QH KH"], "TH")
    play(game, "play AS 7S")
    assert game.turn() == 3
    assert act(game) == C("TS")


def test_leads_a_master_card():
    rules = DebertzRules(players=2)
    game = deal9(rules, ["KS 9S TD JD AC JC 7S QS TC", "AS 8S 7D 8D 9C 7C QD KD 8C"], "KH")
    play(game, "play")
    assert game.turn() == 1 and game.phase() == "play"
    assert act(game) == C("AS")


def test_bidder_draws_trumps_with_the_master_trump():
    rules = DebertzRules(players=2)
    game = deal9(rules, ["KS 9S TD JD AC JC 7S QS TC", "JH 9H AS 8S 7D 8D 9C QD KD"], "KH")
    play(game, "play")
    assert act(game) == C("JH")


def test_keeps_the_sure_winner_for_the_last_trick():
    """Two cards left: the master trump will take the last trick (+10, D2), so the other card
    is led first."""
    rules = DebertzRules(players=2)
    game = deal9(rules, ["KS 9S TD JD AC JC 7S QS TC", "JH 9H AS 8S 7D 8D 9C QD KD"], "KH")
    play(game, "play")
    st = game.state[0]
    me, opp = 1, 0
    st[L.HANDS + me] = DEBERTZ_DECK.mask_of(["JH", "7S"])
    st[L.HANDS + opp] = DEBERTZ_DECK.mask_of(["8S", "9H"])
    st[L.PLAYED] = FULL & ~st[L.HANDS + me] & ~st[L.HANDS + opp] & ~st[L.DEAD]
    st[L.TRICK_NO] = 7
    st[L.TURN] = st[L.LEADER] = me
    assert act(game) == C("7S")
    st[L.TRICK_NO] = 6  # with more cards in hand the trump is drawn at once
    st[L.HANDS + me] |= DEBERTZ_DECK.mask_of(["8C"])
    assert act(game) == C("JH")


# =================================================================================================
# strength: duplicate deals against random play
# =================================================================================================
def duplicate_vs_random(kw, n_games, seed=2):
    R = DebertzRules(**kw).pack()
    n = int(R[L.R_PLAYERS])
    if kw.get("teams"):
        pat = np.array([[0, 1, 0, 1], [1, 0, 1, 0]])
    else:  # one heuristic seat, rotated round the table
        pat = np.array([[0 if s == p else 1 for s in range(n)] for p in range(n)])
    params = np.zeros((2, 8))
    params[0] = DebertzHeuristic(game="debertz").params
    pts, _, deals = duplicate("debertz", R, seed, 0, n_games, False, pat,
                              np.array([1, 0], dtype=np.int64), params, 2)[:3]
    diff = pts[:, 0] - pts[:, 1]
    return diff.mean(), 1.96 * diff.std(ddof=1) / np.sqrt(n_games)


@pytest.mark.parametrize("kw", [dict(players=2), dict(players=3), dict(players=4, teams=True)])
def test_heuristic_beats_random_on_duplicate_deals(kw):
    mean, ci = duplicate_vs_random(kw, 3000)
    assert mean - ci > 0, (kw, mean, ci)


# =================================================================================================
# information hygiene
# =================================================================================================
HIDDEN_PER_SEAT = ("dealt", "extra", "play_hands", "seq_points", "best_meld")


def redeal_hidden(st, R, rnd):
    """A copy of state ``st`` in which everything the seat to act cannot know is drawn anew:
    the other seats' hands (same sizes, respecting the voids they showed and the turn-up's
    known place), the dead cards and stock, the deck order, the others' melds; None if no
    consistent re-deal was found."""
    n = int(R[L.R_PLAYERS])
    me = int(st[L.TURN])
    ph = int(st[L.PHASE])
    new = st.copy()
    trump = int(st[L.TRUMP])
    up = 1 << int(st[L.TURNUP])
    others = [s for s in range(n) if s != me]
    pinned = {s: 0 for s in others}   # cards known to stay with a seat
    known_out = up if ph in (L.PH_BID1, L.PH_BID2) else 0  # the turn-up is face up
    if ph >= L.PH_SWAP:
        if n == 4:
            rec = int(st[L.TURNUP_RECEIVER])
            if rec != me and st[L.HANDS + rec] & up:
                pinned[rec] = up
        elif st[L.SWAP_SEAT] >= 0:
            sw = int(st[L.SWAP_SEAT])
            known_out = 1 << (trump * 8)  # the swapped 7 is dead, seen by all
            if sw != me and st[L.HANDS + sw] & up:
                pinned[sw] = up
        else:
            known_out = up
    hidden = 0
    for s in others:
        hidden |= int(st[L.HANDS + s])
    if ph in (L.PH_BID1, L.PH_BID2):
        for k in range(int(st[L.STOCK_POS]), 32):
            hidden |= 1 << int(st[L.DECK + k])
    elif n < 4:
        hidden |= int(st[L.DEAD])
    hidden &= ~known_out
    for s in others:
        hidden &= ~pinned[s]
    counts = {s: bin(int(st[L.HANDS + s]) & ~pinned[s]).count("1") for s in others}
    pool = [c for c in range(32) if hidden >> c & 1]
    for _ in range(200):
        rnd.shuffle(pool)
        hands = {s: pinned[s] for s in others}
        rest = list(pool)
        ok = True
        for s in others:
            voids = int(st[L.VOIDS + s])
            fit = [c for c in rest if not (voids >> (c >> 3)) & 1]
            if len(fit) < counts[s]:
                ok = False
                break
            take = fit[:counts[s]]
            for c in take:
                hands[s] |= 1 << c
                rest.remove(c)
        if ok:
            break
    else:
        return None
    leftover = 0
    for c in rest:
        leftover |= 1 << c
    for s in others:
        new[L.HANDS + s] = hands[s]
    if ph in (L.PH_BID1, L.PH_BID2):
        for k, c in enumerate(rest):
            new[L.DECK + int(st[L.STOCK_POS]) + k] = c
    elif n < 4:
        new[L.DEAD] = leftover | known_out
    # fields the seat must never read: scramble them
    deck_front = rnd.permutation(32)
    for k in range(int(st[L.STOCK_POS]) if ph >= L.PH_SWAP else 6 * n):
        new[L.DECK + k] = deck_front[k]
    for name in HIDDEN_PER_SEAT:
        off = L.OFFSETS[name][0]
        for s in others:
            new[off + s] = rnd.integers(0, 1 << 20)
    new[L.MELD_WINNER] = rnd.integers(-1, n)
    if not st[L.BELLA_SHOWN]:
        new[L.BELLA_SEAT] = rnd.integers(-1, n)
    return new


@pytest.mark.parametrize("kw", [dict(players=2), dict(players=3), dict(players=4),
                                dict(players=4, teams=True, partner_exemption=True)])
def test_choice_ignores_hidden_cards(kw):
    """For random mid-deal states, re-dealing every hidden card (consistently with what the
    seat to act knows) and scrambling the fields it may not read never changes its action."""
    rules = DebertzRules(**kw)
    R = rules.pack()
    rnd = np.random.default_rng(17)
    game = DebertzGame(rules, batch=150, seed=23)
    originals, changed = [], []
    for i in range(game.batch):
        stop = int(rnd.integers(0, 40))
        steps = 0
        while game.state[i, L.PHASE] < L.PH_DEAL_END and steps < stop:
            game.step(int(rnd.choice(game.legal_actions(i))), i)
            steps += 1
        if game.state[i, L.PHASE] >= L.PH_DEAL_END:
            continue
        for _ in range(4):
            new = redeal_hidden(game.state[i], R, rnd)
            if new is not None:
                originals.append(game.state[i].copy())
                changed.append(new)
    assert len(originals) > 300
    heur = agent()
    a = heur.act(EngineView(np.array(originals), R))
    b = heur.act(EngineView(np.array(changed), R))
    n_changed = sum((x != y).any() for x, y in zip(originals, changed))
    assert n_changed > 0.9 * len(originals)
    bad = np.flatnonzero(a != b)
    assert len(bad) == 0, [(int(a[k]), int(b[k]), int(originals[k][L.PHASE])) for k in bad[:5]]
