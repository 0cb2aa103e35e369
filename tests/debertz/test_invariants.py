"""D12 invariants over many random games, in every player count and several convention sets;
and reproducibility of the compiled random-play path whatever the blocking."""

import numpy as np
import pytest

from cardsim.debertz import engine_nb as E
from cardsim.debertz import layout as L
from cardsim.debertz import simulate_nb as SN
from cardsim.debertz.game import DebertzGame
from cardsim.debertz.rules import DebertzRules

FULL = (1 << 32) - 1

CONVENTION_SETS = [
    dict(players=2),
    dict(players=2, seven_swap=False, obligatory=False, declare="before_play", target=301),
    dict(players=3, overtrump_on_ruff=True, dealer_rotation="winner", no_trick_penalty=50),
    dict(players=3, end_mode="points", unplayed_bella_counts=True, bella_any_card=False),
    dict(players=4, turnup_to="dealer", first_lead="after_dealer", trump_meld_wins_tie=False),
    dict(players=4, teams=True),
    dict(players=4, teams=True, partner_exemption=True, overtrump_on_ruff=True,
         end_mode="points", target=301, debertz_trump_only=True, byte_penalty=0),
]


def check_partition(st, n):
    """D12: hands, stock, turn-up, tricks and dead cards partition the deck."""
    hands = [int(st[L.HANDS + s]) for s in range(n)]
    parts = hands + [int(st[L.PLAYED])]
    if st[L.PHASE] in (L.PH_BID1, L.PH_BID2):
        parts.append(1 << int(st[L.TURNUP]))
        for k in range(int(st[L.STOCK_POS]), 32):
            parts.append(1 << int(st[L.DECK + k]))
    elif n < 4:
        parts.append(int(st[L.DEAD]))
    union = 0
    for p in parts:
        assert union & p == 0, "a card is in two places"
        union |= p
    assert union == FULL


def check_trick_summary(st, n):
    """The engine's running trick summary (winning seat, its card's strength, points so far)
    agrees with the trick's cards (D2, D8)."""
    k = int(st[L.TRICK_LEN])
    if k == 0:
        assert st[L.TRICK_TOP] == -1 and st[L.TRICK_BEST] == -1 and st[L.TRICK_POINTS] == 0
        return
    cards = [int(c) for c in st[L.TRICK:L.TRICK + k]] + [0] * (4 - k)
    trump = int(st[L.TRUMP])
    w = E.winning_index(cards[0], cards[1], cards[2], cards[3], k, trump)
    assert st[L.TRICK_TOP] == (int(st[L.LEADER]) + w) % n
    assert st[L.TRICK_BEST] == E.card_strength(cards[w], trump)
    assert st[L.TRICK_POINTS] == E.mask_points(sum(1 << c for c in cards[:k]), trump)


def check_deal(game, rng):
    """Play the current deal at random, checking the invariants at every decision."""
    st = game.state[0]
    n = game.rules.players
    while st[L.PHASE] < L.PH_DEAL_END:
        check_partition(st, n)
        if st[L.PHASE] == L.PH_PLAY:
            check_trick_summary(st, n)
        legal = game.legal_actions()
        assert legal, "the legal set is empty for the player to act"
        if st[L.PHASE] == L.PH_PLAY and st[L.TRICK_LEN] == 0:
            sizes = {bin(int(st[L.HANDS + s])).count("1") for s in range(n)}
            assert sizes == {E.tricks_per_round(n) - int(st[L.TRICK_NO])}
        action = int(rng.choice(legal))
        actor = game.turn()
        game.step(action)
        if action < 32:  # a played card leaves its hand and is recorded as played
            assert not int(st[L.HANDS + actor]) >> action & 1
            assert int(st[L.PLAYED]) >> action & 1
    if st[L.END] != L.END_VOID:
        check_partition(st, n)
    if st[L.END] == L.END_PLAYED_OUT:
        trump = int(st[L.TRUMP])
        cards = sum(int(st[L.WON_POINTS + s]) for s in range(n))
        played = E.mask_points(int(st[L.PLAYED]), trump)
        assert int(st[L.TRICK_NO]) == E.tricks_per_round(n)
        assert cards == played  # D12: card points of all tricks = points of the cards played
        if n == 4:
            assert cards + 10 == 162
        extras = 0
        mw = int(st[L.MELD_WINNER])
        rules = game.rules
        if mw >= 0:
            side = rules.side_of(mw)
            if sum(int(st[L.TRICKS_WON + s]) for s in range(n) if rules.side_of(s) == side):
                extras += sum(int(st[L.SEQ_POINTS + s]) for s in range(n)
                              if rules.side_of(s) == side)
        b = int(st[L.BELLA_SEAT])
        if b >= 0:
            side = rules.side_of(b)
            if sum(int(st[L.TRICKS_WON + s]) for s in range(n) if rules.side_of(s) == side):
                extras += 20
        rp = st[L.ROUND_POINTS:L.ROUND_POINTS + rules.sides]
        assert int(rp.sum()) == cards + 10 + extras  # D9.1
        delta = st[L.SCORES:L.SCORES + 4] - st[L.SCORES_BEFORE:L.SCORES_BEFORE + 4]
        assert (delta == st[L.RECORDED:L.RECORDED + 4]).all()


@pytest.mark.parametrize("conventions", CONVENTION_SETS, ids=lambda c: ",".join(
    f"{k}={v}" for k, v in c.items()))
def test_invariants_over_random_games(conventions):
    rules = DebertzRules(**conventions)
    rng = np.random.default_rng(0)
    deals = 0
    for g in range(6):
        game = DebertzGame(rules, seed=11, first_game=g)
        while True:
            check_deal(game, rng)
            deals += 1
            if game.phase() == "game_over":
                break
            game.next_deal()
        assert 0 <= game.field("winner") < rules.sides
    assert deals >= 12


@pytest.mark.parametrize("conventions", CONVENTION_SETS[::2])
def test_compiled_results_do_not_depend_on_blocks(conventions):
    R = DebertzRules(**conventions).pack()
    a = SN.simulate_random(R, 3, 0, 60, True, 1)
    b = SN.simulate_random(R, 3, 0, 60, True, 7)
    c = SN.simulate_random(R, 3, 0, 30, True, 2) + SN.simulate_random(R, 3, 30, 30, True, 5)
    assert (a == b).all() and (a == c).all()
    assert a[SN.S_GAMES] == 60


def test_random_games_end_and_count_deals():
    R = DebertzRules(players=4, teams=True).pack()
    stats = SN.simulate_random(R, 1, 0, 500, False, 4)
    assert stats[SN.S_DEALS] == 500
    assert stats[SN.S_PLAYED] + stats[SN.S_VOID] + stats[SN.S_DEBERTZ] == 500
    # every played deal hands out 162 + melds + bella points between the sides (D12)
    assert stats[SN.S_RP] + stats[SN.S_RP + 1] >= 162 * stats[SN.S_PLAYED]


def test_shown_voids_are_true():
    """A suit a seat has shown it lacks (layout field voids) is never in its hand later."""
    for conventions in CONVENTION_SETS:
        rules = DebertzRules(**conventions)
        rng = np.random.default_rng(1)
        shown = 0
        for g in range(4):
            game = DebertzGame(rules, seed=2, first_game=g)
            st = game.state[0]
            while st[L.PHASE] < L.PH_DEAL_END:
                game.step(int(rng.choice(game.legal_actions())))
                for s in range(rules.players):
                    v = int(st[L.VOIDS + s])
                    shown += v != 0
                    for suit in range(4):
                        if v >> suit & 1:
                            assert int(st[L.HANDS + s]) >> (suit * 8) & 0xFF == 0
        assert shown > 0
