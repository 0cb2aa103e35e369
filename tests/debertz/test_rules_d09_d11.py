"""Known-answer tests for docs/rules/debertz.md D9 (scoring), D10 (next dealer), D11 (end of game).

Full hand-built deals are played where they stay short (2 players); splits among 3-4 sides
use ``score_round`` on a state built by ``from_deal`` whose trick tallies are set by hand.
Every expected value is worked out by hand from the rules text (comments show the sums).
"""

import numpy as np
import pytest

from cardsim.cards import DEBERTZ_DECK
from cardsim.debertz import engine_nb as E
from cardsim.debertz import layout as L
from cardsim.debertz.game import DebertzGame
from cardsim.debertz.record import deal_record
from cardsim.debertz.rules import DebertzRules
from debertz_deals import deal9, play

C = DEBERTZ_DECK.parse
H = 1


# --- helpers of this module (shared ones: debertz_deals.py) ----------------------------------
def _order(n, dealer, full_hands, turnup):
    hands = [h.split() for h in full_hands]
    order = [C(c) for h in hands for c in h[:6]] + [C(turnup)]
    for k in range(1, n + 1):
        order += [C(c) for c in hands[(dealer + k) % n][6:]]
    order += [c for c in range(32) if c not in order]
    assert sorted(order) == list(range(32))
    return order


def redeal(game, full_hands, turnup):
    """Start the next deal of ``game`` (as ``next_deal`` does: dealer = next_dealer,
    deal_no + 1, scores / byte counts / pot kept) with a hand-built deck instead of a shuffle."""
    st = game.state[0]
    assert game.phase() == "deal_end"
    st[L.DEALER] = st[L.NEXT_DEALER]
    st[L.DEAL_NO] += 1
    order = _order(game.rules.players, int(st[L.DEALER]), full_hands, turnup)
    E.deal_from_deck(st, game.R, np.array(order, dtype=np.int64))


GENERIC = ["AS KS QS AH KH QH", "AD KD QD AC KC QC", "JS TS 9S JH TH 9H", "JD TD 9D JC TC 9C"]


def scored(rules, dealer, bidder, won, last, tricks=None, **kw):
    """Score a round whose tricks are given as tallies: ``won`` card points per seat,
    ``tricks`` tricks per seat (default 1 where won > 0), ``last`` the seat of the last trick.
    No sequences, no bella."""
    n = rules.players
    g = DebertzGame.from_deal(rules, GENERIC[:n], "8D", dealer=dealer, **kw)
    st = g.state[0]
    st[L.BIDDER] = bidder
    st[L.TRUMP] = H
    st[L.MELD_WINNER] = -1
    st[L.BELLA_SEAT] = -1
    st[L.PHASE] = L.PH_PLAY
    st[L.TRICK_NO] = rules.tricks
    for s in range(n):
        st[L.WON_POINTS + s] = won[s]
        st[L.TRICKS_WON + s] = (tricks[s] if tricks is not None else int(won[s] > 0 or s == last))
    E.score_round(st, g.R, last)
    return g


# --- the 2-player deals (trump hearts) ------------------------------------------------------------
# BASE: seat 0 ends with 62, seat 1 with 42 (cards 94 + last trick 10 = 104).
BASE = ["7S 8S 7D 8D KD QD AC TC JH", "AS TS KS 9S AD TD 7C 8C 7H"]
BASE_PLAYS = ("7S AS TS 8S AD 7D TD 8D "  # T1-T4 seat 1: 11, 10, 11, 10  -> 42
              "7C AC JH 7H TC 8C "         # T5-T7 seat 0: 11, 20, 10
              "KD 9S QD KS")               # T8-T9 seat 0: 4, 7 + 10 last -> 62
# EQ: 43 each: seat 0 takes T1-T3 (11 each) and T9 (0 + 10 last); seat 1 takes
# T4-T6 (10 each), T7 (KS QS 7) and T8 (KD JD 6).
EQ = ["AS AD AC 8S 8D 8C QS JD 7H", "7S 7D 7C TS TD TC KS KD 9C"]
EQ_PLAYS = "AS 7S AD 7D AC 7C 8S TS TD 8D TC 8C KS QS KD JD 9C 7H"
# SWEEP: seat 0 takes all 9 tricks: 109 + 10 = 119; seat 1 (terz + bella, no trick) 0.
SWEEP = ["JH 9H AH AS TS AD TD AC KS", "KH QH 8H 7C 8C 9C 7S 8S 7D"]
SWEEP_PLAYS = "JH 8H 9H QH AH KH AS 7S TS 8S KS 7D AD 7C TD 8C AC 9C"
# BELLA: seat 0 holds KH QH; T1 s0 11, T2 s1 24, T3 s1 11, T4 s1 10, T5 s0 11, T6 s0 3 (QH),
# T7 s0 12, T8 s0 10, T9 s0 4 + 10.  Final: seat 0 51 + 10 + 20 = 81, seat 1 45.
BELLA = ["AS TS KS KH QH 7D 8D AC TC", "7S JS 9S JH AD TD 9D 7C 9C"]
BELLA_PLAYS = "AS 7S KH JH AD 7D TD 8D 7C AC QH 9D TS JS TC 9C KS 9S"
# MELD: seat 0 holds a fifty (AS KS QS JS) and a terz (JD TD 9D): 70 once it has a trick.
MELD = ["AS KS QS JS JD TD 9D AH QC", "7S 8S 9S 7C 8C 9C 7D 8D KC"]
MELD_PLAYS = "AS 7S KS 8S QS 9S JS 7D JD 8D TD 7C 9D 8C QC KC 9C AH"


def base_seat0_bids(rules, dealer=1, **kw):
    """BASE with seat 0 as bidder (and first to lead)."""
    g = deal9(rules, BASE, "AH", dealer=dealer, **kw)
    play(g, "play keep" if dealer == 1 else "pass play keep")  # seat 1 keeps its 7H
    return g


def base_seat1_bids(rules, **kw):
    """BASE with seat 1 (dealer) as bidder; rules must have first_lead after_dealer."""
    g = deal9(rules, BASE, "AH", dealer=1, **kw)
    play(g, "pass play keep")
    assert g.turn() == 0
    return g


# =================================================================================================
# D9.1 / D9.2 plain scoring and byte
# =================================================================================================
def test_d9_1_bidder_scores_more():
    g = base_seat0_bids(DebertzRules(players=2), scores=[100, 50])
    play(g, BASE_PLAYS)
    rec = deal_record(g)
    assert rec["trick_winners"] == [1, 1, 1, 1, 0, 0, 0, 0, 0]
    assert rec["round_points"] == [62, 42]
    assert rec["recorded"] == [62, 42] and rec["byte"] is None
    # D2 with 2 players: 10 + the points of the 18 cards played (48 + 46); dead cards excluded
    assert sum(rec["round_points"]) == 10 + 94
    assert rec["scores_after"] == [162, 92]
    assert rec["byte_counts_after"] == [0, 0]


def test_d9_2_byte_two_players():
    g = base_seat1_bids(DebertzRules(players=2, first_lead="after_dealer"))
    play(g, BASE_PLAYS)
    rec = deal_record(g)
    assert rec["bidder"] == 1 and rec["round_points"] == [62, 42]
    assert rec["byte"] == "byte"
    assert rec["recorded"] == [62 + 42, 0]
    assert rec["byte_counts_after"] == [0, 1]
    assert rec["scores_after"] == [104, 0]


@pytest.mark.parametrize("penalty,counts_before,seat1_recorded,counts_after", [
    (100, [0, 2], -100, [0, 3]),    # 3rd byte: -100
    (100, [0, 3], 0, [0, 4]),       # 4th: nothing
    (100, [0, 5], -100, [0, 6]),    # 6th: -100 again
    (0, [0, 2], 0, [0, 3]),         # disabled
    (50, [4, 2], -50, [4, 3]),
])
def test_d9_3_byte_penalty(penalty, counts_before, seat1_recorded, counts_after):
    rules = DebertzRules(players=2, first_lead="after_dealer", byte_penalty=penalty)
    g = base_seat1_bids(rules, byte_counts=counts_before, scores=[10, 20])
    play(g, BASE_PLAYS)
    rec = deal_record(g)
    assert rec["recorded"] == [104, seat1_recorded]
    assert rec["byte_counts_after"] == counts_after
    assert rec["scores_after"] == [114, 20 + seat1_recorded]


def test_d9_2_hanging_byte_goes_to_pot():
    g = deal9(DebertzRules(players=2), EQ, "AH", dealer=1, scores=[5, 6], byte_counts=[2, 0])
    play(g, "play keep")     # seat 0 bids and keeps its 7H
    play(g, EQ_PLAYS)
    rec = deal_record(g)
    assert rec["round_points"] == [43, 43]
    assert rec["byte"] == "hanging"
    assert rec["recorded"] == [0, 43]
    assert rec["pot_after"] == 43
    assert rec["byte_counts_after"] == [2, 0]   # D9.3: a hanging byte is not a byte
    assert rec["scores_after"] == [5, 49]


def test_d9_2_pot_paid_to_next_round_winner_over_two_deals():
    g = deal9(DebertzRules(players=2), EQ, "AH", dealer=1)
    play(g, "play keep")
    play(g, EQ_PLAYS)
    assert deal_record(g)["pot_after"] == 43 and g.field("next_dealer") == 0
    redeal(g, BASE, "AH")            # dealer 0: seat 1 passes, seat 0 bids, seat 1 keeps 7H
    play(g, "pass play keep")
    play(g, BASE_PLAYS)
    rec = deal_record(g)
    assert rec["deal"] == 1 and rec["pot_before"] == 43
    assert rec["round_points"] == [62, 42]
    assert rec["recorded"] == [62 + 43, 42]
    assert rec["pot_after"] == 0
    assert rec["scores_after"] == [105, 43 + 42]


def test_d9_2_pot_waits_on_a_tie_and_pots_add_up():
    g = deal9(DebertzRules(players=2), EQ, "AH", dealer=1)
    play(g, "play keep")
    play(g, EQ_PLAYS)
    redeal(g, EQ, "AH")              # dealer 0: another hanging byte, no round winner
    play(g, "pass play keep")
    play(g, EQ_PLAYS)
    rec = deal_record(g)
    assert rec["byte"] == "hanging" and rec["recorded"] == [0, 43]
    assert rec["pot_before"] == 43 and rec["pot_after"] == 86
    redeal(g, BASE, "AH")            # dealer 1
    play(g, "play keep")
    play(g, BASE_PLAYS)
    rec = deal_record(g)
    assert rec["recorded"] == [62 + 86, 42] and rec["pot_after"] == 0
    assert rec["scores_after"] == [148, 43 + 43 + 42]


def test_d9_2_pot_goes_to_the_top_opponent_after_a_byte():
    rules = DebertzRules(players=2, first_lead="after_dealer")
    g = base_seat1_bids(rules, pot=30)
    play(g, BASE_PLAYS)
    rec = deal_record(g)
    assert rec["byte"] == "byte"
    assert rec["recorded"] == [62 + 42 + 30, 0] and rec["pot_after"] == 0


@pytest.mark.parametrize("dealer,expected", [
    (0, [65, 0, 66]),   # order from dealer 0: seat 1 (bidder), seat 2 gets the odd point
    (2, [66, 0, 65]),   # order from dealer 2: seat 0 first
])
def test_d9_2_byte_split_between_tied_opponents(dealer, expected):
    # round points [50, 31, 50]: 31 = 15 + 15 + 1
    g = scored(DebertzRules(players=3), dealer, 1, [50, 21, 50], last=1, pot=20)
    rec = deal_record(g)
    assert rec["round_points"] == [50, 31, 50]
    assert rec["byte"] == "byte"
    assert rec["recorded"] == expected
    assert rec["byte_counts_after"] == [0, 1, 0]
    assert rec["pot_after"] == 20      # two opponents level at the top: no winner, pot waits


def test_d9_2_byte_split_three_ways_four_players():
    # bidder 0: 19 + 10 last = 29; opponents 30 each: 29 = 3 * 9 + 2; dealer 2: order 3, 0, 1, 2
    g = scored(DebertzRules(players=4), 2, 0, [19, 30, 30, 30], last=0)
    rec = deal_record(g)
    assert rec["round_points"] == [29, 30, 30, 30]
    assert rec["recorded"] == [0, 40, 39, 40]


def test_d9_2_byte_only_to_the_best_opponent():
    # bidder 1 has 40, seat 0 60, seat 2 45: only seat 0 gets the 40
    g = scored(DebertzRules(players=3), 0, 1, [50, 40, 45], last=0)
    rec = deal_record(g)
    assert rec["round_points"] == [60, 40, 45]
    assert rec["recorded"] == [100, 0, 45]


def test_d9_2_teams_byte_and_hanging():
    rules = DebertzRules(players=4, teams=True)
    # team 0 (bidder seat 2): 30 + 20 = 50; team 1: 40 + 40 + 10 last = 90
    g = scored(rules, 0, 2, [30, 40, 20, 40], last=1)
    rec = deal_record(g)
    assert rec["round_points"] == [50, 90]
    assert rec["recorded"] == [0, 140] and rec["byte_counts_after"] == [1, 0]
    # hanging: 71 + 10 = 81 each
    g = scored(rules, 0, 1, [41, 40, 30, 41], last=0)
    rec = deal_record(g)
    assert rec["round_points"] == [81, 81]
    assert rec["byte"] == "hanging" and rec["recorded"] == [81, 0] and rec["pot_after"] == 81


def test_d9_2_pot_to_unique_top_three_players():
    g = scored(DebertzRules(players=3), 0, 0, [50, 40, 30], last=0, pot=50)
    rec = deal_record(g)
    assert rec["round_points"] == [60, 40, 30]
    assert rec["recorded"] == [110, 40, 30] and rec["pot_after"] == 0


# =================================================================================================
# D9.4 no-trick penalty
# =================================================================================================
@pytest.mark.parametrize("penalty", [0, 50, 100])
def test_d9_4_no_trick_penalty(penalty):
    g = deal9(DebertzRules(players=2, no_trick_penalty=penalty), SWEEP, "7H", dealer=1)
    g.step("play")
    play(g, SWEEP_PLAYS)
    rec = deal_record(g)
    assert rec["round_points"] == [119, 0]
    assert rec["recorded"] == [119, -penalty]
    assert rec["scores_after"] == [119, -penalty]


def test_d9_3_d9_4_bidder_without_trick_byte_and_both_penalties():
    rules = DebertzRules(players=2, no_trick_penalty=100, first_lead="after_dealer")
    g = deal9(rules, SWEEP, "7H", dealer=1, byte_counts=[0, 2])
    play(g, "pass play")      # seat 1 (dealer) bids; seat 0 leads
    play(g, SWEEP_PLAYS)
    rec = deal_record(g)
    assert rec["byte"] == "byte"
    assert rec["recorded"] == [119, -200]   # 0, -100 third byte, -100 no trick
    assert rec["byte_counts_after"] == [0, 3]


# =================================================================================================
# D10 next dealer
# =================================================================================================
def test_d10_clockwise():
    g = scored(DebertzRules(players=3), 2, 0, [60, 40, 30], last=0)
    assert g.field("next_dealer") == 0
    g = scored(DebertzRules(players=4), 1, 1, [20, 60, 30, 30], last=1)
    assert g.field("next_dealer") == 2


def test_d10_winner_full_deal():
    # BASE with dealer 0: seat 0 records 62 > 42 and deals next (clockwise would be seat 1)
    g = base_seat0_bids(DebertzRules(players=2, dealer_rotation="winner"), dealer=0)
    play(g, BASE_PLAYS)
    assert g.field("next_dealer") == 0
    g.next_deal()
    assert g.field("dealer") == 0


@pytest.mark.parametrize("dealer,bidder,won,last,recorded,next_dealer", [
    (0, 2, [30, 40, 60], 2, [30, 40, 70], 2),   # no byte: seat 2 (clockwise: seat 1)
    (0, 1, [50, 30, 50], 0, [90, 0, 50], 0),    # byte: round points [60, 30, 50]
    (1, 0, [50, 50, 40], 2, [0, 50, 50], 2),    # hanging, all at 50: tie -> clockwise
])
def test_d10_winner_by_recorded_points(dealer, bidder, won, last, recorded, next_dealer):
    rules = DebertzRules(players=3, dealer_rotation="winner")
    g = scored(rules, dealer, bidder, won, last)
    assert deal_record(g)["recorded"] == recorded
    assert g.field("next_dealer") == next_dealer


def test_d10_winner_hanging_byte_uses_recorded_points():
    # bidder 0 and seat 1 level at 50, seat 2 40: recorded [0, 50, 40] -> seat 1 deals
    # (by round points seats 0 and 1 would tie); clockwise from dealer 1 would be seat 2
    g = scored(DebertzRules(players=3, dealer_rotation="winner"), 1, 0, [40, 50, 40], last=0)
    rec = deal_record(g)
    assert rec["round_points"] == [50, 50, 40] and rec["byte"] == "hanging"
    assert rec["recorded"] == [0, 50, 40]
    assert g.field("next_dealer") == 1


def test_d10_winner_tie_falls_back_to_clockwise():
    # bidder 1 has 30, seats 0 and 2 50 each: recorded [65, 0, 65] -> tie -> clockwise
    g = scored(DebertzRules(players=3, dealer_rotation="winner"), 0, 1, [40, 30, 50], last=0)
    rec = deal_record(g)
    assert rec["round_points"] == [50, 30, 50]
    assert rec["recorded"] == [65, 0, 65]
    assert g.field("next_dealer") == 1


@pytest.mark.parametrize("dealer,next_dealer", [(1, 2), (2, 0), (3, 0), (0, 2)])
def test_d10_winner_teams_first_member_from_dealer(dealer, next_dealer):
    # team 0 (seats 0, 2) records more
    rules = DebertzRules(players=4, teams=True, dealer_rotation="winner")
    g = scored(rules, dealer, 0, [50, 20, 40, 20], last=0)
    assert deal_record(g)["recorded"] == [100, 40]
    assert g.field("next_dealer") == next_dealer


def test_d10_four_sevens_same_dealer_with_winner_rotation():
    rules = DebertzRules(players=3, dealer_rotation="winner")
    g = DebertzGame.from_deal(rules, ["7S 7H 7D 7C AS KS", GENERIC[1], GENERIC[2]], "8D",
                              dealer=2)
    assert g.field("next_dealer") == 2


# =================================================================================================
# D11 end of the game
# =================================================================================================
@pytest.mark.parametrize("scores,game_over,winner", [
    ([0, 0], False, None),
    ([400, 400], False, None),        # 462, 442: nobody at 501
    ([450, 480], True, 1),            # 512, 522: the higher total wins, not the bidder
    ([460, 480], True, 0),            # 522, 522: tie -> the bidder
    ([439, 0], True, 0),              # 501 exactly
])
def test_d11_round_mode(scores, game_over, winner):
    g = base_seat0_bids(DebertzRules(players=2), scores=scores)
    play(g, BASE_PLAYS)
    rec = deal_record(g)
    assert rec["scores_after"] == [scores[0] + 62, scores[1] + 42]
    assert rec["game_over"] is game_over and rec["winner"] == winner
    assert g.phase() == ("game_over" if game_over else "deal_end")


@pytest.mark.parametrize("dealer,winner", [(0, 1), (1, 2)])
def test_d11_round_mode_tie_between_non_bidders(dealer, winner):
    # round points [50, 30, 30]: no byte; totals [50, 110, 110] with target 100
    rules = DebertzRules(players=3, target=100)
    g = scored(rules, dealer, 0, [40, 30, 30], last=0, scores=[0, 80, 80])
    rec = deal_record(g)
    assert rec["recorded"] == [50, 30, 30]
    assert rec["scores_after"] == [50, 110, 110]
    assert rec["winner"] == winner


def test_d11_points_mode_ends_mid_deal():
    rules = DebertzRules(players=2, end_mode="points")
    g = base_seat0_bids(rules, scores=[480, 470], pot=25, byte_counts=[1, 1])
    play(g, BASE_PLAYS.split()[:6])    # seat 1 takes T1-T3: 470 + 11 + 10 + 11 = 502
    assert g.phase() == "game_over"
    rec = deal_record(g)
    assert rec["end"] == "points" and rec["winner"] == 1
    assert rec["round_points"] == [0, 32] and rec["recorded"] == [0, 32]
    assert rec["scores_after"] == [480, 502]
    assert rec["byte"] is None and rec["pot_after"] == 25
    assert rec["byte_counts_after"] == [1, 1]
    assert g.legal_actions() == []


def test_d11_points_mode_not_yet():
    rules = DebertzRules(players=2, end_mode="points")
    g = base_seat0_bids(rules, scores=[480, 470])
    play(g, BASE_PLAYS.split()[:4])    # seat 1: 470 + 11 + 10 = 491 < 501
    assert g.phase() == "play" and g.field("game_over") == 0


def test_d11_points_mode_last_trick_scores_the_round():
    # seat 0: 440 + 11, +20, +10, +4 = 485 before T9; T9 is the last trick: full scoring
    rules = DebertzRules(players=2, end_mode="points")
    g = base_seat0_bids(rules, scores=[440, 0])
    play(g, BASE_PLAYS)
    rec = deal_record(g)
    assert rec["end"] == "played_out"
    assert rec["recorded"] == [62, 42] and rec["scores_after"] == [502, 42]
    assert rec["winner"] == 0


def test_d11_points_mode_counts_sequences_once_a_trick_is_taken():
    # MELD: seat 0 takes T1 (AS 7S: 11) and has 70 in sequences: 20 + 11 + 70 = 101
    rules = DebertzRules(players=2, end_mode="points", target=100)
    g = deal9(rules, MELD, "9H", dealer=1, scores=[20, 0])
    g.step("play")
    play(g, "AS 7S")
    rec = deal_record(g)
    assert rec["end"] == "points" and rec["winner"] == 0
    assert rec["recorded"] == [81, 0] and rec["scores_after"] == [101, 0]


def assert_ends_by_points(g, plays, n_plays, winner, recorded):
    """Card play from the start (``plays``, in order, while the deal lasts) ends the deal by
    points after ``n_plays`` cards, won by seat or team ``winner`` with ``recorded`` written
    down; the deal's record."""
    g.step("play")
    cards = plays.split()
    k = 0
    while g.phase() == "play":
        g.step(cards[k])
        k += 1
    assert k == n_plays
    rec = deal_record(g)
    assert rec["end"] == "points" and rec["winner"] == winner
    assert rec["recorded"] == recorded
    return rec


@pytest.mark.parametrize("any_card,n_plays,recorded", [
    (True, 10, [42, 45]),    # bella shown with KH (T2): after T5 70 + 22 + 20 = 112
    (False, 12, [45, 45]),   # shown with QH (T6): after T5 92; after T6 70 + 25 + 20 = 115
])
def test_d11_points_mode_announced_bella_counts(any_card, n_plays, recorded):
    rules = DebertzRules(players=2, end_mode="points", target=100, bella_any_card=any_card)
    g = deal9(rules, BELLA, "8H", dealer=1, scores=[70, 0])
    assert_ends_by_points(g, BELLA_PLAYS, n_plays, 0, recorded)


@pytest.mark.parametrize("unplayed,seat0", [(False, 11), (True, 31)])
def test_d11_points_mode_unplayed_bella(unplayed, seat0):
    # bella announced only with the second card (QH in T6); seat 1 reaches 100 after T3:
    # 70 + 24 + 11 = 105.  Seat 0 has T1 (11) and an unannounced bella.
    rules = DebertzRules(players=2, end_mode="points", target=100, bella_any_card=False,
                         unplayed_bella_counts=unplayed)
    g = deal9(rules, BELLA, "8H", dealer=1, scores=[0, 70])
    g.step("play")
    play(g, BELLA_PLAYS.split()[:6])
    rec = deal_record(g)
    assert rec["end"] == "points" and rec["winner"] == 1
    assert rec["recorded"] == [seat0, 35]
    assert rec["bella"] is None


def test_d11_full_bella_deal_round_mode():
    g = deal9(DebertzRules(players=2), BELLA, "8H", dealer=1)
    g.step("play")
    play(g, BELLA_PLAYS)
    assert deal_record(g)["round_points"] == [81, 45]


def test_d11_debertz_wins_whatever_the_scores():
    rules = DebertzRules(players=2, target=301)
    hands = ["AS AH KH 8D 9D 7H 8C TD JD", "7S 8S 9S TS JS QS KS AD 9C"]
    g = deal9(rules, hands, "AC", dealer=0, scores=[300, -50], pot=40)
    g.step("play")
    rec = deal_record(g)
    assert rec["end"] == "debertz" and rec["winner"] == 1
    assert rec["recorded"] == [0, 0] and rec["scores_after"] == [300, -50]
    assert rec["pot_after"] == 40


# The 4-player deal of test_rules_d01_d05 (D2): dealer 3, seat 0 bids hearts (turn-up 7H).
HANDS4 = ["AS 7S KD 8D TC 9C", "TS 8S AD 7D KC JC", "KS 9S TD JD AC 8C", "QS JS QD 9D QC 7C"]
STOCK4 = ["JH", "9H", "8H", "AH", "QH", "TH", "KH"]
# T1 seat 0 takes JH 8H QH KH (27); T2 seat 1 takes 7H 9H AH TH (35)
PLAYS4_T1_T2 = "JH 8H QH KH 7H 9H AH TH"


@pytest.mark.parametrize("scores,n_plays,recorded,winner", [
    ([480, 0], 4, [27, 0], 0),       # team 0 (seat 0): 480 + 27 = 507 after T1
    ([0, 470], 8, [27, 35], 1),      # team 1 (seat 1): 470 + 35 = 505 after T2
])
def test_d11_points_mode_teams(scores, n_plays, recorded, winner):
    rules = DebertzRules(players=4, teams=True, end_mode="points")
    g = DebertzGame.from_deal(rules, HANDS4, "7H", STOCK4, dealer=3, scores=scores)
    rec = assert_ends_by_points(g, PLAYS4_T1_T2, n_plays, winner, recorded)
    assert rec["scores_after"] == [scores[0] + recorded[0], scores[1] + recorded[1]]
