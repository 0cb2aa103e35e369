"""Known-answer tests for docs/rules/debertz.md D6 (melds), D7 (bella) and D8 (play of the tricks).

Every expected value is worked out by hand from the rules text (comments show the sums).
"""

import pytest

from cardsim.cards import DEBERTZ_DECK
from cardsim.debertz import engine_nb as E
from cardsim.debertz import layout as L
from cardsim.debertz.actions import action_name
from cardsim.debertz.game import DebertzGame
from cardsim.debertz.melds_nb import KIND_DEBERTZ, KIND_FIFTY, KIND_NONE, KIND_TERZ, meld_summary
from cardsim.debertz.record import deal_record
from cardsim.debertz.rules import DebertzRules
from debertz_deals import cards, deal9, legal_names, mask, play

C = DEBERTZ_DECK.parse
S, H, D, CL = 0, 1, 2, 3


# --- helpers of this module (shared ones: debertz_deals.py) ----------------------------------
# =================================================================================================
# D6 melds: meld_summary on single hands
# =================================================================================================
@pytest.mark.parametrize("hand,trump,points,kind", [
    ("7S 8S 9S", H, 20, KIND_TERZ),
    ("9S TS JS", H, 20, KIND_TERZ),            # natural order: 9 10 J
    ("TS JS QS", H, 20, KIND_TERZ),
    ("QS KS AS", H, 20, KIND_TERZ),
    ("7S 8S AS", H, 0, KIND_NONE),             # no wrap-around A-7
    ("7S 9S TS JD QD KC", H, 0, KIND_NONE),
    ("JS QS KS AS", H, 50, KIND_FIFTY),        # 4
    ("TS JS QS KS AS", H, 50, KIND_FIFTY),     # 5
    ("7S 8S 9S TS JS QS", H, 50, KIND_FIFTY),  # D6.1: a run of 6 is one fifty, not fifty + terz
    ("7S 8S 9S TS JS QS AH KH", H, 50, KIND_FIFTY),  # A K of trump: 2 cards, no meld
    ("7S 8S 9S 7H 8H 9H TH", H, 70, KIND_FIFTY),      # terz + fifty
    ("7S 8S 9S JD QD KD 7C 8C 9C", H, 60, KIND_TERZ),  # three terzes
    ("7S 8S 9S TS JS QS KS", H, 0, KIND_DEBERTZ),     # 7 cards: debertz (wins the game)
    ("7S 8S 9S TS JS QS KS AS", H, 0, KIND_DEBERTZ),  # 8 cards
])
def test_d6_runs_and_points(hand, trump, points, kind):
    _key, pts, k = meld_summary(mask(hand), trump, False, True)
    assert (pts, k) == (points, kind)


def test_d6_5_debertz_trump_only():
    plain7 = mask("7S 8S 9S TS JS QS KS")
    _, pts, kind = meld_summary(plain7, H, True, True)
    assert (pts, kind) == (50, KIND_FIFTY)      # a plain 7-run is then a fifty
    _, pts, kind = meld_summary(plain7, S, True, True)
    assert kind == KIND_DEBERTZ                 # the trump one still is a debertz
    _, pts, kind = meld_summary(mask("7S 8S 9S TS JS QS KS AS"), D, True, True)
    assert (pts, kind) == (50, KIND_FIFTY)


def key(hand, trump=H, twt=True):
    return meld_summary(mask(hand), trump, False, twt)[0]


def test_d6_2_kind_beats_top_card():
    assert key("7S 8S 9S TS") > key("QD KD AD")            # fifty top 10 > terz top A
    assert key("QD KD AD") > key("JC QC KC")               # terz: top A > top K
    assert key("JC QC KC") > key("9S TS JS")
    assert key("JS QS KS AS") > key("8D 9D TD JD QD KD")   # fifty: top A > top K, length ignored
    assert key("7S 8S 9S TS JS QS KS") > key("JD QD KD AD")  # debertz > fifty
    # the highest sequence of a hand is its key: fifty + terz hand vs a lone fifty
    assert key("7S 8S 9S 9D TD JD QD") == key("9D TD JD QD")


def test_d6_2_equal_top_trump_wins_tie():
    assert key("JH QH KH", H, True) > key("JS QS KS", H, True)
    assert key("JH QH KH", H, False) == key("JS QS KS", H, False)
    assert key("JS QS KS", H, True) == key("JD QD KD", H, True)


# a terz top J in hearts for seat 0, in spades for seat 1; no other sequence, no 7H held
TIE_HANDS = ["JH TH 9H AD QD 8D AC QC 8C", "JS TS 9S KD 9D 7D KC 9C 7C"]


@pytest.mark.parametrize("twt,dealer,bids,winner", [
    (True, 0, "play", 0),             # trump terz beats the plain one
    (True, 1, "play", 0),
    (False, 0, "play", 1),            # no tie-break: first from the dealer (seat 1)
    (False, 1, "play", 0),            # first from dealer 1 is seat 0
    (True, 0, "pass pass name_S", 1),  # trump spades: now seat 1's terz is the trump one
])
def test_d6_2_meld_winner_in_a_deal(twt, dealer, bids, winner):
    rules = DebertzRules(players=2, trump_meld_wins_tie=twt)
    g = deal9(rules, TIE_HANDS, "AH", dealer=dealer)
    play(g, bids)
    assert g.phase() == "play"
    assert g.field("meld_winner") == winner
    assert list(g.field("seq_points")[:2]) == [20, 20]


def test_d6_2_full_tie_three_players_first_from_dealer():
    rules = DebertzRules(players=3, seven_swap=False)
    # plain terzes top J in S, D, C for seats 0, 1, 2; trump hearts; dealer 1: order 2, 0, 1
    g = deal9(rules, ["JS TS 9S AH 8H 7D KC 8C 7C", "JD TD 9D AS QS 8S KH 7H 7S",
                      "JC TC 9C AD QD 8D QH 9H KS"], "TH", dealer=1)
    g.step("play")
    assert g.field("meld_winner") == 2


# 2 players, trump hearts (turn-up 9H), dealer 1: seat 0 speaks first, bids and leads.
# seat 0: fifty AS KS QS JS (50) + terz JD TD 9D (20); seat 1: terzes 7S 8S 9S and 7C 8C 9C.
MELD_HANDS = ["AS KS QS JS JD TD 9D AH QC", "7S 8S 9S 7C 8C 9C 7D 8D KC"]
MELD_PLAYS = ("AS 7S KS 8S QS 9S JS 7D "   # T1-T4 seat 0: 11 + 4 + 3 + 2
              "JD 8D TD 7C 9D 8C "         # T5-T7 seat 0: 2 + 10 + 0
              "QC KC "                     # T8 seat 1 wins KC: 3 + 4 = 7
              "9C AH")                     # T9 seat 0 trumps: 11, + 10 last trick


def test_d6_3_only_the_highest_holder_scores_all_its_sequences():
    rules = DebertzRules(players=2)
    g = deal9(rules, MELD_HANDS, "9H", dealer=1)
    g.step("play")
    assert g.field("meld_winner") == 0
    assert list(g.field("seq_points")[:2]) == [70, 40]
    play(g, MELD_PLAYS)
    rec = deal_record(g)
    assert rec["meld_winner"] == 0
    # seat 0: cards 43 + last 10 + sequences 50 + 20 = 123; seat 1: cards 7, sequences unscored
    assert rec["round_points"] == [123, 7]
    assert rec["recorded"] == [123, 7]
    assert rec["melds"][0] == [
        {"kind": "fifty", "suit": "S", "top": "AS", "length": 4},
        {"kind": "terz", "suit": "D", "top": "JD", "length": 3},
    ]


# 2 players, trump hearts (turn-up 7H), dealer 1, seat 0 bids and takes every trick.
# seat 1 holds the only sequence (7C 8C 9C) and the bella (KH QH) but takes no trick.
SWEEP_HANDS = ["JH 9H AH AS TS AD TD AC KS", "KH QH 8H 7C 8C 9C 7S 8S 7D"]
SWEEP_PLAYS = ("JH 8H "   # T1 20
               "9H QH "   # T2 14 + 3 (seat 1 cannot beat 9H; bella announced with QH)
               "AH KH "   # T3 11 + 4
               "AS 7S TS 8S KS 7D "   # T4-T6: 11, 10, 4
               "AD 7C TD 8C AC 9C")   # T7-T9: 11, 10, 11 (+ 10 last trick)


def test_d6_4_d7_no_trick_no_sequence_no_bella():
    rules = DebertzRules(players=2)
    g = deal9(rules, SWEEP_HANDS, "7H", dealer=1)
    g.step("play")
    assert g.phase() == "play"
    assert g.field("meld_winner") == 1 and g.field("bella_seat") == 1
    play(g, SWEEP_PLAYS)
    rec = deal_record(g)
    assert rec["trick_winners"] == [0] * 9
    assert rec["bella"] == 1  # announced, but worthless without a trick
    # seat 0: 20+17+15+11+10+4+11+10+11 = 109 + 10 = 119; seat 1: 0
    assert rec["round_points"] == [119, 0]
    assert rec["recorded"] == [119, 0]


# --- D6.3 in team play: the winner's team scores both partners' sequences --------------------
# dealer 3, seat 0 plays (turn-up AH).  Final hands:
#   seat 0: AS KS QS JS 7H 9C + TH + AH   fifty top A (50)
#   seat 1: KD QD JD 7S 8S TC + JH QH     terz top K (20)
#   seat 2: TD 9D 8D 9S TS JC + KH AD     terz top 10 (20)
#   seat 3: AC KC QC 7C 8H 9H + 7D 8C     terz top A (20)
TEAM_MELD_HANDS = ["AS KS QS JS 7H 9C", "KD QD JD 7S 8S TC", "TD 9D 8D 9S TS JC",
                   "AC KC QC 7C 8H 9H"]
TEAM_MELD_STOCK = ["TH", "JH", "QH", "KH", "AD", "7D", "8C"]


def _team_meld_game():
    rules = DebertzRules(players=4, teams=True)
    g = DebertzGame.from_deal(rules, TEAM_MELD_HANDS, "AH", TEAM_MELD_STOCK, dealer=3)
    g.step("play")
    return g


def test_d6_3_team_melds():
    g = _team_meld_game()
    assert g.field("meld_winner") == 0
    assert list(g.field("seq_points")) == [50, 20, 20, 20]
    st, R = g.state[0], g.R
    # a trick taken by seat 2 alone is enough for team 0 (D6.4 per team)
    st[L.TRICKS_WON + 2] = 1
    st[L.TRICKS_WON + 1] = 1
    assert E.points_so_far(st, R, 0, True) == 70   # 50 (seat 0) + 20 (seat 2)
    assert E.points_so_far(st, R, 1, True) == 0    # team 1's terzes are not the highest
    st[L.TRICKS_WON + 2] = 0
    assert E.points_so_far(st, R, 0, True) == 0    # team 0 took no trick


# =================================================================================================
# D6.5 debertz
# =================================================================================================
DEB_HANDS = ["AS AH KH 8D 9D 7H 8C TD JD", "7S 8S 9S TS JS QS KS AD 9C"]


@pytest.mark.parametrize("teams", [False, True])
def test_d6_5_debertz_ends_the_game_before_the_lead(teams):
    players = 4 if teams else 2
    rules = DebertzRules(players=players, teams=teams)
    if teams:
        hands = ["AS AH KH 8D 9D 7C", "7S 8S 9S TS JS QS", "8C TD JD 9C QC 7D",
                 "AD 7H 8H 9H TH JH"]
        g = DebertzGame.from_deal(rules, hands, "AC", ["KS", "KD", "QD", "KC", "QH", "TC",
                                                     "JC"], dealer=0, scores=[100, 200])
        play(g, "pass pass pass play")   # seat 0 (dealer) bids; seat 1 gets KS: 7S..KS
        winner = 1
    else:
        g = deal9(rules, DEB_HANDS, "AC", dealer=0, scores=[100, 200])
        g.step("play")    # seat 1 bids clubs; its 7S..KS is a plain debertz
        winner = 1
    assert g.phase() == "game_over"
    rec = deal_record(g)
    assert rec["end"] == "debertz"
    assert rec["game_over"] is True and rec["winner"] == winner
    assert rec["round_points"] == [0, 0] and rec["recorded"] == [0, 0]
    assert rec["scores_after"] == [100, 200]
    assert rec["plays"] == []
    assert g.legal_actions() == []


def test_d6_5_debertz_trump_only_plain_run_is_a_fifty():
    rules = DebertzRules(players=2, debertz_trump_only=True)
    g = deal9(rules, DEB_HANDS, "AC", dealer=0)
    g.step("play")
    assert g.phase() == "play"
    assert g.field("seq_points")[1] == 50 and g.field("meld_winner") == 1


def test_d6_5_debertz_trump_only_trump_run_counts():
    rules = DebertzRules(players=2, debertz_trump_only=True)
    # turn-up QC; seat 1 names spades in round 2 (no seven swap then)
    hands = DEB_HANDS
    g = deal9(rules, hands, "QC", dealer=0)
    play(g, "pass pass name_S")
    assert g.phase() == "game_over"
    assert deal_record(g)["end"] == "debertz" and g.field("winner") == 1


def test_d6_5_two_debertz_higher_top_wins():
    rules = DebertzRules(players=2)
    hands = ["8H 9H TH JH QH KH AH 7D 8D", "7S 8S 9S TS JS QS KS AD KD"]
    g = deal9(rules, hands, "AC", dealer=0)
    play(g, "pass pass name_S")      # even with spades trump, top A (hearts) beats top K
    assert g.phase() == "game_over"
    assert g.field("winner") == 0 and g.field("meld_winner") == 0


# =================================================================================================
# D7 bella
# =================================================================================================
# 2 players, trump hearts (turn-up 8H), dealer 1: seat 0 bids and leads; seat 0 holds KH QH.
BELLA_HANDS = ["AS TS KS KH QH 7D 8D AC TC", "7S JS 9S JH AD TD 9D 7C 9C"]
BELLA_PLAYS = ["AS", "7S",    # T1 seat 0: 11
               "KH", "JH",    # T2 seat 1 must overtrump: 4 + 20 = 24
               "AD", "7D",    # T3 seat 1: 11
               "TD", "8D",    # T4 seat 1: 10
               "7C", "AC",    # T5 seat 0: 11
               "QH", "9D",    # T6 seat 0: 3 (seat 1 has no heart left)
               "TS", "JS",    # T7 seat 0: 12
               "TC", "9C",    # T8 seat 0: 10
               "KS", "9S"]    # T9 seat 0: 4, + 10 last trick


@pytest.mark.parametrize("any_card,shown_after", [(True, 3), (False, 11)])
def test_d7_bella_timing_and_points(any_card, shown_after):
    rules = DebertzRules(players=2, bella_any_card=any_card)
    g = deal9(rules, BELLA_HANDS, "8H", dealer=1)
    g.step("play")
    assert g.field("bella_seat") == 0 and g.field("meld_winner") == -1
    for k, c in enumerate(BELLA_PLAYS):
        g.step(c)
        # KH is the 3rd card played, QH the 11th
        assert g.field("bella_shown") == (1 if k + 1 >= shown_after else 0), (k, c)
    rec = deal_record(g)
    assert rec["bella"] == 0
    # seat 0: T1 11 + T5 11 + T6 3 + T7 12 + T8 10 + T9 4 = 51, + 10 last = 61, + bella 20 = 81
    # seat 1: T2 24 + T3 11 + T4 10 = 45.  Cards total 51 + 45 = 96.
    assert rec["round_points"] == [81, 45]
    assert rec["recorded"] == [81, 45] and rec["byte"] is None


def test_d7_bella_needs_no_sequence_and_beats_none():
    # seat 1 holds a terz, seat 0 the bella: seat 1 is the meld winner, seat 0 keeps its bella
    rules = DebertzRules(players=2)
    g = deal9(rules, ["AS TS KS KH QH 7D 8D AC TC", "7S 8S 9S JH AD TD 9D 7C 9C"], "8H",
              dealer=1)
    g.step("play")
    assert g.field("meld_winner") == 1 and g.field("bella_seat") == 0


# =================================================================================================
# D8 play of the tricks: legal_cards on given tricks (trump hearts unless said)
# =================================================================================================
def legal(hand, trick="", trump=H, leader=0, seat=None, pe=False, oor=False):
    t = [C(c) for c in trick.split()]
    n = len(t)
    t += [0] * (3 - n)
    if seat is None:
        seat = (leader + n) % 4
    m = E.legal_cards(mask(hand), seat, t[0], t[1], t[2], n, leader, trump, pe, oor)
    return sorted(DEBERTZ_DECK.format_mask(int(m)))


@pytest.mark.parametrize("hand,trick,expected", [
    # leading: anything
    ("7S KS JH AD", "", "7S KS JH AD"),
    # D8.1 follow the led suit (no need to beat it)
    ("7S KS JH AD", "AS", "7S KS"),
    ("7S KS JH AD", "AS 9H", "7S KS"),          # a ruff in the trick changes nothing
    # D8.2 cannot follow: must trump (any trump, even under a trump already played)
    ("JH 7H AD 8C", "AS", "7H JH"),
    ("JH 7H AD 8C", "AS 9H", "7H JH"),
    # D8.6 neither: any card
    ("AD 8C", "AS", "8C AD"),
    ("AD 8C", "AS 9H", "8C AD"),
    # D8.3 trump lead: a higher trump than the highest so far if able
    ("JH AH 7H AS", "9H", "JH"),
    ("9H TH KH 7S", "AH", "9H"),
    ("KH 8H", "QH", "KH"),
    ("QH 7H AS", "KH", "7H QH"),                # unable to overtrump: any trump
    ("AH JH KH", "8H 9H", "JH"),                # must beat the 9, not only the 8
    ("AH TH KH", "8H 9H", "AH KH TH"),
    ("AS KD", "JH", "AS KD"),                   # no trump at all: any card
    ("9S TS", "7S JS", "9S TS"),                # plain lead: following need not beat
])
def test_d8_following(hand, trick, expected):
    assert legal(hand, trick) == cards(expected)


@pytest.mark.parametrize("hand,trick,oor,expected", [
    ("JH 7H AH AD", "AS 9H", False, "7H AH JH"),
    ("JH 7H AH AD", "AS 9H", True, "JH"),          # D8.4: overtrump the ruff
    ("7H AH AD", "AS 9H", True, "7H AH"),          # unable: any trump
    ("KS JH", "AS 9H", True, "KS"),                # following first (rule 1)
    ("JH 7H AD", "AS", True, "7H JH"),             # no trump in the trick yet: any trump
    ("9H 8H AD", "AS 7S 8H", True, "9H"),          # beat the highest trump so far
    ("AD 8C", "AS 9H", True, "8C AD"),
])
def test_d8_4_overtrump_on_ruff(hand, trick, oor, expected):
    assert legal(hand, trick, oor=oor) == cards(expected)


@pytest.mark.parametrize("hand,trick,leader,pe,oor,expected", [
    # seat 2's partner seat 0 led AS and is winning: with the exemption any card
    ("JH 7H AD", "AS 7S", 0, True, False, "7H JH AD"),
    ("JH 7H AD", "AS 7S", 0, False, False, "7H JH"),
    # partner seat 0 led but seat 1 is winning: must trump
    ("JH 7H AD", "7S AS", 0, True, False, "7H JH"),
    # rule 1 unchanged: follow suit
    ("KS JH AD", "AS 7S", 0, True, False, "KS"),
    # rule 3 unchanged: partner leads trump, must overtrump if able
    ("9H 7H AS", "8H 7S", 0, True, False, "9H"),
    ("9H AH KS", "JH 7S", 0, True, False, "9H AH"),
    # partner (seat 2) ruffed and wins; seat 0 is 4th to a trick led by seat 1
    ("JH 8D", "AS 7H 8S", 1, True, True, "8D JH"),
    ("JH 8D", "AS 7H 8S", 1, False, True, "JH"),
    # opponent seat 2 ruffed and wins; seat 3 (partner of leader seat 1) is not exempt...
    ("JH 8H 8D", "AS 7H", 1, True, True, "JH 8H"),
    # ... unless its partner still wins: seat 1 led AS, seat 2 discarded
    ("JH 8H 8D", "AS 9D", 1, True, True, "8D 8H JH"),
])
def test_d8_5_partner_exemption(hand, trick, leader, pe, oor, expected):
    assert legal(hand, trick, leader=leader, pe=pe, oor=oor) == cards(expected)


# 4 players, dealer 3, seat 0 bids hearts and leads AS; seat 1 follows 7S; seat 2 has no spade.
PE_HANDS = ["AS KD 8D TC 9C 8S", "7S AD 7D KC JC QD", "JH AH TD JD AC 8C",
            "QS JS 9D QC 7C KS"]
PE_STOCK = ["9S", "TS", "9H", "8H", "QH", "TH", "KH"]


@pytest.mark.parametrize("teams,pe,expected", [
    (True, True, "8C 8H AC AH JD JH QH TD"),   # partner seat 0 wins: free choice
    (True, False, "8H AH JH QH"),
    (False, True, "8H AH JH QH"),              # no teams: the convention has no effect
])
def test_d8_5_partner_exemption_in_a_game(teams, pe, expected):
    rules = DebertzRules(players=4, teams=teams, partner_exemption=pe)
    g = DebertzGame.from_deal(rules, PE_HANDS, "7H", PE_STOCK, dealer=3)
    g.step("play")  # seat 0 takes 9S + 7H
    assert g.turn() == 0
    play(g, "AS 7S")
    assert g.turn() == 2
    assert legal_names(g) == cards(expected)


@pytest.mark.parametrize("first_lead,bids,leader", [
    ("bidder", "pass play", 0),          # dealer 0: seat 1 passes, seat 0 bids
    ("after_dealer", "pass play", 1),
    ("bidder", "play", 1),
    ("after_dealer", "play", 1),
])
def test_d8_first_lead(first_lead, bids, leader):
    rules = DebertzRules(players=2, first_lead=first_lead, seven_swap=False)
    g = deal9(rules, TIE_HANDS, "AH", dealer=0)   # dealer 0: seat 1 speaks first
    play(g, bids)
    assert g.phase() == "play" and g.turn() == leader


def test_d8_trick_winner_leads_next():
    rules = DebertzRules(players=2)
    g = deal9(rules, BELLA_HANDS, "8H", dealer=1)
    g.step("play")
    play(g, "AS 7S")
    assert g.turn() == 0
    play(g, "KH")
    assert legal_names(g) == ["JH"]   # D8.1/D8.3: JH is seat 1's only trump and beats KH
    g.step("JH")
    assert g.turn() == 1 and list(g.field("trick_winners")[:2]) == [0, 1]


def test_d6_1_bella_cards_may_be_part_of_a_sequence():
    # seat 0: AH KH QH is a terz in trump and also the bella
    rules = DebertzRules(players=2)
    g = deal9(rules, ["AH KH QH 7S 9S JD 8D 7C 9C", "AS KS TS JC KD 8C TC 8H 9H"], "JH",
              dealer=1)
    g.step("play")
    assert g.field("seq_points")[0] == 20 and g.field("meld_winner") == 0
    assert g.field("bella_seat") == 0


@pytest.mark.parametrize("declare", ["first_trick", "before_play"])
def test_d6_6_d11_debertz_shown_before_the_lead_whatever_declare(declare):
    rules = DebertzRules(players=2, declare=declare)
    g = deal9(rules, DEB_HANDS, "AC", dealer=0)
    g.step("play")
    assert g.phase() == "game_over" and deal_record(g)["end"] == "debertz"


def test_d8_illegal_card_is_refused():
    from cardsim.errors import IllegalActionError
    rules = DebertzRules(players=2)
    g = deal9(rules, BELLA_HANDS, "8H", dealer=1)
    g.step("play")
    g.step("AS")
    with pytest.raises(IllegalActionError):
        g.step("JH")          # seat 1 holds spades: must follow (D8.1)
    with pytest.raises(IllegalActionError):
        g.step("AD")
    g.step("JS")              # following need not beat: JS is legal too
    assert g.turn() == 0


@pytest.mark.parametrize("decision,bella_seat", [("swap", 1), ("keep", -1)])
def test_d5_d7_swap_can_complete_the_bella(decision, bella_seat):
    # seat 1 holds 7H and QH; the turn-up is KH: swapping gives it K and Q of trump
    rules = DebertzRules(players=2)
    g = deal9(rules, ["AS TS KS 8H 9D 7D AC TC 8C", "7H QH 9S JS AD TD 8D 7C 9C"], "KH",
              dealer=0)
    play(g, ["play", decision])
    assert g.field("bella_seat") == bella_seat
