"""Known-answer tests for docs/rules/debertz.md D1-D5: seats, card order and points, the deal,
bidding, the seven swap.

Every expected value below is worked out by hand from the rules text (the comments show the
sums); none is pasted from an engine run.
"""

import pytest

from cardsim.cards import DEBERTZ_DECK
from cardsim.debertz import engine_nb as E
from cardsim.debertz.actions import action_name
from cardsim.debertz.game import DebertzGame
from cardsim.debertz.record import deal_record
from cardsim.debertz.rules import DebertzRules
from debertz_deals import cards, deal9, legal_names, mask, play
from cardsim.errors import IllegalActionError, InvalidConfigError

C = DEBERTZ_DECK.parse
S, H, D, CL = 0, 1, 2, 3


# --- helpers of this module (shared ones: debertz_deals.py) ----------------------------------
# The 4-player deal of D2 / D3.3: dealer 3, so seat 0 speaks first; the turn-up 7H.
# After seat 0 plays, seat 0 (bidder, turn-up receiver) holds AS 7S KD 8D TC 9C + JH + 7H.
HANDS4 = ["AS 7S KD 8D TC 9C", "TS 8S AD 7D KC JC", "KS 9S TD JD AC 8C", "QS JS QD 9D QC 7C"]
TURNUP4 = "7H"
STOCK4 = ["JH", "9H", "8H", "AH", "QH", "TH", "KH"]
# Every seat then holds two cards of each suit, so every trick is followed:
PLAYS4 = ("JH 8H QH KH "   # T1 seat 0 leads: J wins        20+0+3+4   = 27 -> seat 0
          "7H 9H AH TH "   # T2 seat 0: 9H forced (beats 7) 0+14+11+10 = 35 -> seat 1
          "TS KS JS AS "   # T3 seat 1 leads: AS wins      10+4+2+11  = 27 -> seat 0
          "7S 8S 9S QS "   # T4 seat 0 leads: QS wins       0+0+0+3   =  3 -> seat 3
          "QD KD AD TD "   # T5 seat 3 leads: AD wins       3+4+11+10 = 28 -> seat 1
          "7D JD 9D 8D "   # T6 seat 1 leads: JD wins       0+2+0+0   =  2 -> seat 2
          "AC 7C 9C JC "   # T7 seat 2 leads: AC wins      11+0+0+2   = 13 -> seat 2
          "8C QC TC KC")   # T8 seat 2 leads: TC wins       0+3+10+4  = 17 -> seat 0 (+10 last)


# =================================================================================================
# D1 seats, teams, first dealer
# =================================================================================================
def test_d1_teams_need_four_players():
    with pytest.raises(InvalidConfigError):
        DebertzRules(players=3, teams=True)
    with pytest.raises(InvalidConfigError):
        DebertzRules(players=2, first_dealer=2)
    assert DebertzRules(players=4, teams=True).sides == 2
    assert DebertzRules(players=3).sides == 3


@pytest.mark.parametrize("players,first_dealer,first_speaker", [(2, 1, 0), (3, 2, 0), (4, 1, 2)])
def test_d1_first_dealer_seat_and_first_after_dealer(players, first_dealer, first_speaker):
    g = DebertzGame(DebertzRules(players=players, first_dealer=first_dealer), seed=5)
    # a seeded deal may be void by four sevens; then the same dealer deals again (D3.2)
    assert g.field("dealer") == first_dealer
    if g.phase() == "bid1":
        assert g.turn() == first_speaker


def test_d1_team_sides():
    r = DebertzRules(players=4, teams=True)
    assert [r.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    r = DebertzRules(players=4)
    assert [r.side_of(s) for s in range(4)] == [0, 1, 2, 3]


# =================================================================================================
# D2 card order and points
# =================================================================================================
@pytest.mark.parametrize("trick,trump,winner", [
    # trump order J 9 A 10 K Q 8 7
    ("9H JH", H, 1), ("AH 9H", H, 1), ("TH AH", H, 1), ("KH TH", H, 1), ("QH KH", H, 1),
    ("8H QH", H, 1), ("7H 8H", H, 1), ("JH 9H", H, 0),
    # plain order A 10 K Q J 9 8 7
    ("TS AS", H, 1), ("KS TS", H, 1), ("QS KS", H, 1), ("JS QS", H, 1), ("9S JS", H, 1),
    ("8S 9S", H, 1), ("7S 8S", H, 1), ("AS TS", H, 0),
    # any trump beats the led plain suit; an off-suit card never wins
    ("AS 7H", H, 1), ("7S AD", H, 0), ("7S AD 8S", H, 2), ("AS 7H JH", H, 2),
    ("AS 7H 8H 9C", H, 2), ("7D 8D JD 9H", S, 2), ("7D 8D JD 9H", H, 3),
    ("JD 9D", D, 0), ("9S JS TS AS", S, 1),
])
def test_d2_trick_winner(trick, trump, winner):
    cs = [C(c) for c in trick.split()] + [0, 0, 0]
    assert E.winning_index(cs[0], cs[1], cs[2], cs[3], len(trick.split()), trump) == winner


def test_d2_card_points():
    # trump: J20 9:14 A11 T10 K4 Q3 8:0 7:0 = 62; plain: A11 T10 K4 Q3 J2 = 30
    assert E.mask_points(mask("7H 8H 9H TH JH QH KH AH"), H) == 62
    assert E.mask_points(mask("7S 8S 9S TS JS QS KS AS"), H) == 30
    assert E.mask_points(mask("JH 9H"), H) == 34
    assert E.mask_points(mask("JS 9S"), H) == 2
    assert E.mask_points(mask("JS 9S"), S) == 34
    assert E.mask_points((1 << 32) - 1, D) == 62 + 3 * 30  # 152, +10 last trick = 162


def _four_player_game(**kw):
    rules = DebertzRules(players=4, **kw)
    g = DebertzGame.from_deal(rules, HANDS4, TURNUP4, STOCK4, dealer=3)
    g.step("play")
    return g


def test_d2_d9_four_players_total_162():
    g = _four_player_game()
    play(g, PLAYS4)
    rec = deal_record(g)
    assert rec["trick_winners"] == [0, 1, 0, 3, 1, 2, 2, 0]
    # seat 0: 27 + 27 + 17 + 10 = 81; seat 1: 35 + 28 = 63; seat 2: 2 + 13 = 15; seat 3: 3
    assert rec["round_points"] == [81, 63, 15, 3]
    assert sum(rec["round_points"]) == 162
    assert rec["byte"] is None and rec["recorded"] == [81, 63, 15, 3]
    assert rec["scores_after"] == [81, 63, 15, 3]
    assert rec["melds"] == [[], [], [], []] and rec["bella"] is None
    assert rec["end"] == "played_out"
    assert g.field("next_dealer") == 0  # D10 clockwise from dealer 3


def test_d2_d9_four_players_teams_total_162():
    g = _four_player_game(teams=True)
    play(g, PLAYS4)
    rec = deal_record(g)
    # team 0 = seats 0+2: 81 + 15; team 1 = seats 1+3: 63 + 3
    assert rec["round_points"] == [96, 66]
    assert rec["recorded"] == [96, 66] and rec["byte"] is None


# =================================================================================================
# D3 the deal
# =================================================================================================
def test_d3_four_sevens_voids_and_same_dealer_deals_again():
    rules = DebertzRules(players=2)
    g = DebertzGame.from_deal(rules, ["7S 7H 7D 7C AS KS", "8S 8H 8D 8C AH KH"], "JD",
                              dealer=1, scores=[120, 40], byte_counts=[1, 0], pot=17)
    assert g.phase() == "deal_end"
    assert g.legal_actions() == []
    rec = deal_record(g)
    assert rec["void"] == "four_sevens"
    assert rec["bids"] == []
    assert rec["end"] == "void"
    assert rec["scores_after"] == [120, 40]
    assert rec["byte_counts_after"] == [1, 0] and rec["pot_after"] == 17
    assert "round_points" not in rec
    assert g.field("next_dealer") == 1  # the same dealer deals again
    g.next_deal()
    assert g.field("dealer") == 1 and g.field("deal_no") == 1
    assert list(g.field("scores")[:2]) == [120, 40]


def test_d3_four_sevens_any_seat_three_players():
    rules = DebertzRules(players=3)
    g = DebertzGame.from_deal(rules, ["AS KS QS AH KH QH", "AD KD QD AC KC QC",
                                     "7S 7H 7D 7C 8S 8H"], "JD", dealer=0)
    assert deal_record(g)["void"] == "four_sevens"
    assert g.field("next_dealer") == 0


def test_d3_four_sevens_counts_only_the_first_six_cards():
    # seat 0 holds three sevens in its first 6 cards and gets 7C among the extra cards
    rules = DebertzRules(players=2, seven_swap=False)
    g = deal9(rules, ["7S 7H 7D AS KS QS 7C 8C 9C", "8S 8H 8D AH KH QH AD KD QD"], "JD",
              dealer=1)
    assert g.phase() == "bid1"
    g.step("play")
    assert g.phase() == "play"
    assert cards(" ".join(g.hand(0))) == cards("7S 7H 7D AS KS QS 7C 8C 9C")


def test_d3_two_players_extra_cards_and_dead_stock():
    rules = DebertzRules(players=2, seven_swap=False)
    # dealer 0: seat 1 is dealt its 3 extra cards first, then seat 0
    g = DebertzGame.from_deal(rules, ["AS KS QS AH KH QH", "AD KD QD AC KC QC"], "JD",
                              ["7S", "8S", "9S", "7H", "8H", "9H"], dealer=0)
    assert g.turn() == 1
    g.step("play")
    assert g.field("trump") == D and g.field("bidder") == 1
    assert cards(" ".join(g.hand(1))) == cards("AD KD QD AC KC QC 7S 8S 9S")
    assert cards(" ".join(g.hand(0))) == cards("AS KS QS AH KH QH 7H 8H 9H")
    # the turn-up and the 13 cards left are dead
    dead = g.field("dead")
    assert bin(dead).count("1") == 14 and dead >> C("JD") & 1


def test_d3_three_players_extra_cards_and_dead_stock():
    rules = DebertzRules(players=3, seven_swap=False)
    g = DebertzGame.from_deal(rules, ["AS KS QS JS TS 9S", "AH KH QH JH TH 9H",
                                     "AD KD QD JD TD 9D"], "AC",
                              ["7S", "8S", "7H", "8H", "7D", "8D", "KC", "QC", "JC"], dealer=2)
    # dealer 2: seat 0 first (7S 8S 7H), seat 1 (8H 7D 8D), seat 2 (KC QC JC)
    g.step("play")
    assert cards(" ".join(g.hand(0))) == cards("AS KS QS JS TS 9S 7S 8S 7H")
    assert cards(" ".join(g.hand(1))) == cards("AH KH QH JH TH 9H 8H 7D 8D")
    assert cards(" ".join(g.hand(2))) == cards("AD KD QD JD TD 9D KC QC JC")
    assert bin(g.field("dead")).count("1") == 5  # turn-up + 4 stock cards


@pytest.mark.parametrize("turnup_to,bids,receiver,extra", [
    # stock JH 9H 8H AH QH TH KH is dealt from seat 0 (dealer 3 + 1)
    ("bidder", "pass play", 1,
     ["JH 9H", "8H 7H", "AH QH", "TH KH"]),            # bidder 1 takes 1 card + the turn-up
    ("bidder", "play", 0,
     ["JH 7H", "9H 8H", "AH QH", "TH KH"]),
    ("dealer", "play", 3,
     ["JH 9H", "8H AH", "QH TH", "KH 7H"]),            # the dealer takes 1 card + the turn-up
    ("dealer", "pass pass pass pass name_S", 3,         # round 2: seat 0 names spades
     ["JH 9H", "8H AH", "QH TH", "KH 7H"]),
    ("bidder", "pass pass pass pass pass name_C", 1,   # round 2: seat 1 names clubs
     ["JH 9H", "8H 7H", "AH QH", "TH KH"]),
])
def test_d3_four_players_turnup_receiver(turnup_to, bids, receiver, extra):
    rules = DebertzRules(players=4, turnup_to=turnup_to)
    g = DebertzGame.from_deal(rules, HANDS4, TURNUP4, STOCK4, dealer=3)
    play(g, bids)
    assert g.field("turnup_receiver") == receiver
    for s in range(4):
        assert cards(" ".join(DEBERTZ_DECK.format_mask(g.field("extra")[s]))) == cards(extra[s])
        assert cards(" ".join(g.hand(s))) == cards(HANDS4[s] + " " + extra[s])
        assert len(g.hand(s)) == 8
    assert g.field("dead") == 0  # all 32 cards used
    assert g.phase() == "play"


# =================================================================================================
# D4 bidding
# =================================================================================================
HANDS3 = ["AS KS QS AH KH QH", "AD KD QD AC KC QC", "JS TS 9S JH TH 9H"]


def three_player_deal(bids="", **rules):
    """The 3-player deal of HANDS3 (dealer 1, turn-up 8D) under ``rules``, after ``bids``."""
    g = DebertzGame.from_deal(DebertzRules(players=3, **rules), HANDS3, "8D", dealer=1)
    play(g, bids)
    return g


def test_d4_round1_first_player_plays():
    g = three_player_deal(seven_swap=False)
    assert g.phase() == "bid1" and g.turn() == 2
    assert legal_names(g) == ["pass", "play"]
    g.step("pass")
    assert g.turn() == 0
    g.step("play")
    assert g.field("bidder") == 0 and g.field("trump") == D
    assert g.phase() == "play" and g.turn() == 0  # D8: the bidder leads
    assert deal_record_bids(g) == [[2, "pass"], [0, "play"]]


def deal_record_bids(g):
    dealer = g.field("dealer")
    n = g.rules.players
    return [[(dealer + 1 + k) % n, action_name(int(g.field("bids")[k]))]
            for k in range(g.field("n_bids"))]


def test_d4_round1_dealer_may_play_last():
    g = three_player_deal("pass pass", seven_swap=False)
    assert g.phase() == "bid1" and g.turn() == 1
    g.step("play")
    assert g.field("bidder") == 1 and g.field("trump") == D


def test_d4_round2_names_a_suit_other_than_turnup():
    g = three_player_deal("pass pass pass")
    assert g.phase() == "bid2" and g.turn() == 2
    assert legal_names(g) == ["name_C", "name_H", "name_S", "pass"]
    with pytest.raises(IllegalActionError):
        g.step("name_D")
    with pytest.raises(IllegalActionError):
        g.step("play")
    g.step("pass")
    g.step("name_H")
    assert g.field("bidder") == 0 and g.field("trump") == H
    assert g.phase() == "play" and g.turn() == 0


def test_d4_obligatory_dealer_cannot_pass_in_round2():
    g = three_player_deal("pass pass pass pass pass")  # obligatory = true by default
    assert g.phase() == "bid2" and g.turn() == 1
    assert legal_names(g) == ["name_C", "name_H", "name_S"]
    with pytest.raises(IllegalActionError):
        g.step("pass")
    g.step("name_C")
    assert g.field("bidder") == 1 and g.field("trump") == CL


def test_d4_obligatory_only_binds_the_dealer():
    g = three_player_deal("pass pass pass")
    assert "pass" in legal_names(g)  # seat 2 in round 2
    g.step("pass")
    assert "pass" in legal_names(g)  # seat 0 in round 2


@pytest.mark.parametrize("players,dealer", [(2, 1), (3, 2), (4, 3), (4, 0)])
def test_d4_all_passed_without_obligation_is_void(players, dealer):
    rules = DebertzRules(players=players, obligatory=False)
    hands = ["AS KS QS AH KH QH", "AD KD QD AC KC QC", "JS TS 9S JH TH 9H",
             "JD TD 9D JC TC 9C"][:players]
    g = DebertzGame.from_deal(rules, hands, "8D", dealer=dealer,
                              scores=[10 * (s + 1) for s in range(players)])
    play(g, ["pass"] * players)
    assert g.phase() == "bid2"
    assert "pass" in legal_names(g)
    play(g, ["pass"] * (players - 1))
    assert g.turn() == dealer and "pass" in legal_names(g)
    g.step("pass")
    assert g.phase() == "deal_end"
    rec = deal_record(g)
    assert rec["void"] == "all_passed" and rec["end"] == "void"
    assert rec["bids"] == [[(dealer + 1 + k) % players, "pass"] for k in range(2 * players)]
    assert rec["scores_after"] == [10 * (s + 1) for s in range(players)]
    assert rec["pot_after"] == 0
    assert g.field("next_dealer") == (dealer + 1) % players
    g.next_deal()
    assert g.field("dealer") == (dealer + 1) % players


def test_d4_all_passed_void_falls_back_to_clockwise_with_winner_rotation():
    rules = DebertzRules(players=3, obligatory=False, dealer_rotation="winner")
    g = DebertzGame.from_deal(rules, HANDS3, "8D", dealer=2)
    play(g, ["pass"] * 6)
    assert deal_record(g)["void"] == "all_passed"
    assert g.field("next_dealer") == 0


# =================================================================================================
# D5 the seven swap
# =================================================================================================
# seat 1 holds 7H; turn-up AH.  Dealer 0: seat 1 speaks first.
SWAP_HANDS = ["AS KS QS AD KD QD 8C 9C TC", "7H 8H 9H JS TS 9S JD TD 9D"]


def test_d5_swap_offered_for_round1_trump_two_players():
    rules = DebertzRules(players=2)
    g = deal9(rules, SWAP_HANDS, "AH", dealer=0)
    g.step("play")
    assert g.phase() == "swap" and g.turn() == 1
    assert legal_names(g) == ["keep", "swap"]
    g.step("swap")
    assert cards(" ".join(g.hand(1))) == cards("AH 8H 9H JS TS 9S JD TD 9D")
    assert g.field("dead") >> C("7H") & 1 and not g.field("dead") >> C("AH") & 1
    assert g.field("swap_seat") == 1
    assert g.phase() == "play" and g.turn() == 1  # then the first lead (the bidder)
    # play_hands (hands at the first lead) hold the turn-up: 9H 8H + AH is no sequence
    assert g.field("play_hands")[1] >> C("AH") & 1


def test_d5_keep():
    rules = DebertzRules(players=2)
    g = deal9(rules, SWAP_HANDS, "AH", dealer=0)
    play(g, "pass play")  # seat 0 is the bidder; seat 1 still holds the 7 of trump
    assert g.phase() == "swap" and g.turn() == 1
    g.step("keep")
    assert cards(" ".join(g.hand(1))) == cards(SWAP_HANDS[1])
    assert g.field("swap_seat") == -1
    assert g.phase() == "play" and g.turn() == 0


@pytest.mark.parametrize("decision,seq", [("swap", 20), ("keep", 0)])
def test_d5_swap_happens_before_declarations(decision, seq):
    # seat 1: 7H 9H TH is no sequence; swapping 7H for the turn-up 8H makes 8H 9H TH a terz
    rules = DebertzRules(players=2)
    g = deal9(rules, ["KS JS 9S KD JD 9D KC 9C 7C", "7H 9H TH AS QS 8S AD QD 8D"], "8H",
              dealer=0)
    play(g, ["play", decision])
    assert g.field("seq_points")[1] == seq
    assert g.field("meld_winner") == (1 if seq else -1)


def three_players_after_the_first_bid(seat0, seat2, turnup):
    """A 3-player deal (dealer 2) of seat 0's and seat 2's nine cards and the turn-up, seat 1
    holding spades, diamonds and clubs from 9 to the jack; seat 0 has bid play."""
    g = deal9(DebertzRules(players=3), [seat0, "JS TS 9S JD TD 9D KC QC JC", seat2], turnup,
              dealer=2)
    g.step("play")
    return g


def test_d5_seven_arriving_with_the_extra_cards_is_offered():
    # seat 0 gets 7H among its 3 extra cards
    g = three_players_after_the_first_bid("AS KS QS AD KD QD 7H 8C 9C",
                                          "8S 7S 8D 7D AC TC 9H 8H KH", "AH")
    assert g.phase() == "swap" and g.turn() == 0
    g.step("swap")
    assert "AH" in g.hand(0) and "7H" not in g.hand(0)


def test_d5_no_swap_for_round2_trump():
    rules = DebertzRules(players=2)
    g = deal9(rules, SWAP_HANDS, "AC", dealer=0)  # turn-up suit clubs
    play(g, "pass pass name_H")  # seat 1 names hearts in round 2 and holds 7H
    assert g.field("trump") == H
    assert g.phase() == "play" and g.turn() == 1


def test_d5_no_swap_option_when_disabled():
    rules = DebertzRules(players=2, seven_swap=False)
    g = deal9(rules, SWAP_HANDS, "AH", dealer=0)
    g.step("play")
    assert g.phase() == "play"
    assert "swap" not in legal_names(g)
    assert cards(" ".join(g.hand(1))) == cards(SWAP_HANDS[1])


def test_d5_no_swap_with_four_players():
    rules = DebertzRules(players=4)
    hands = ["7H AS KS QS AD KD", "JS TS 9S JD TD 9D", "8S 7S 8D 7D AC TC", "KC QC JC 9C 8C 7C"]
    g = DebertzGame.from_deal(rules, hands, "AH", dealer=3)
    g.step("play")  # seat 0 holds 7H and takes the turn-up AH
    assert g.phase() == "play"
    assert "7H" in g.hand(0) and "AH" in g.hand(0)


def test_d5_no_swap_when_the_turnup_is_the_seven_of_trump():
    g = three_players_after_the_first_bid("AS KS QS AD KD QD 8H 8C 9C",
                                          "8S 7S 8D 7D AC TC 9H AH KH", "7H")
    assert g.phase() == "play" and g.turn() == 0
