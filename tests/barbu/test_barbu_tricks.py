"""Known answers for the trick contracts (B3, B4) on hand-built deals."""

import pytest

from barbu_deals import SUIT_PER_SEAT, cards, deal_of, new_game, no_doubles, play, play_lowest


def start(hands, contract, declarer=0, rules=None, trump=None):
    g = new_game(hands, declarer, rules)
    g.step(contract)
    if trump:
        g.step("trump_" + trump)
    no_doubles(g)
    return g


def test_contract_choice_and_first_lead():
    # B3.2: the declarer chooses among the contracts left; B3.4: the declarer leads.
    g = new_game(deal_of(*SUIT_PER_SEAT), 2, contracts_left=["no_hearts", "trumps"])
    assert g.phase() == "contract" and g.turn() == 2 and g.dealer == 1
    assert g.legal_action_names() == ["no_hearts", "trumps"]
    g.step("no_hearts")
    assert g.contracts_left[2] == ["trumps"]
    no_doubles(g)
    assert g.phase() == "play" and g.turn() == 2


def test_no_tricks_scores_minus_two_per_trick():
    # B4: one seat per suit: the declarer leads spades and takes all 13 tricks.
    g = start(deal_of(*SUIT_PER_SEAT), "no_tricks")
    play_lowest(g)
    assert g.trick_winners == [0] * 13
    assert g.contract_scores == [-26, 0, 0, 0]
    assert g.deal_scores == [-26, 0, 0, 0] and g.scores == [-26, 0, 0, 0]


def test_follow_suit():
    # B4: a player must follow the led suit if able.
    g = start(deal_of("S3-SA 2D", "S2 H2-HK", "AD QC C2-CJ AH", "QD AC KC D3-DJ KD"),
              "no_tricks")
    g.step("AS")
    assert g.legal_action_names() == ["2S"]


def test_no_queens_ends_after_fourth_queen():
    # B4, B8: the play stops after the trick holding the 4th queen.
    g = start(deal_of(*SUIT_PER_SEAT), "no_queens")
    play(g, "QS", "QH", "QD", "QC")
    assert g.is_deal_over and len(g.plays) == 4 and g.trick_winners == [0]
    assert g.contract_scores == [-24, 0, 0, 0]


def test_no_last_two():
    # B4: -10 for the 12th trick, -20 for the 13th.
    hands = deal_of("S3-SA 2D", "S2 H2-HK", "AD QC C2-CJ AH", "QD AC KC D3-DJ KD")
    g = start(hands, "no_last_two")
    play_lowest(g)
    assert len(g.trick_winners) == 13
    w12, w13 = g.trick_winners[11], g.trick_winners[12]
    expect = [0, 0, 0, 0]
    expect[w12] -= 10
    expect[w13] -= 20
    assert g.contract_scores == expect and sum(expect) == -30


NO_HEARTS_DEAL = ("S2-SK AH", "SA H2-HK", "D2-DA", "C2-CA")


def test_no_hearts_lead_rule_and_scores():
    # B4: hearts may not be led unless the leader holds only hearts; -2 a heart, -6 the A.
    g = start(deal_of(*NO_HEARTS_DEAL), "no_hearts")
    assert "AH" not in g.legal_action_names() and len(g.legal_actions()) == 12
    play(g, "2S", "AS", "2D", "2C")           # seat 1 wins with the A of spades
    assert g.turn() == 1
    assert g.legal_action_names() == g.hands()[1]  # only hearts left: any heart may be led
    play(g, "2H", "3D", "3C", "AH")           # seat 0 must follow with the A: 2H + AH = -8
    assert g.contract_scores == [-8, 0, 0, 0]
    play_lowest(g)
    assert g.contract_scores == [-30, 0, 0, 0]  # seat 0 wins the other 11, one heart each


KING_DEAL = ("S2-SQ 2H KH", "SK SA H3-HQ AH", "D2-DA", "C2-CA")


@pytest.mark.parametrize("rule, expect_2h", [("king_only", True), ("no_hearts", False)])
def test_no_king_lead_rule(rule, expect_2h):
    # B4 king_lead_rule: "king_only" bars only the K of hearts, "no_hearts" every heart.
    g = start(deal_of(*KING_DEAL), "no_king", rules={"king_lead_rule": rule})
    legal = g.legal_action_names()
    assert "KH" not in legal
    assert ("2H" in legal) == expect_2h
    assert len(legal) == 11 + expect_2h


def test_no_king_ends_after_the_king():
    # B4, B8: -20 for the trick with the K of hearts, and the play stops there.
    g = start(deal_of(*KING_DEAL), "no_king")
    play(g, "2H", "AH", "2D", "2C")          # seat 1 wins
    play(g, "3H", "3D", "3C")
    assert g.legal_action_names() == ["KH"]   # seat 0 must follow hearts with its only heart
    g.step("KH")
    assert g.is_deal_over and g.trick_winners == [1, 0]
    assert g.contract_scores == [-20, 0, 0, 0]
    assert len(g.hands()[0]) == 11              # the rest is not played


@pytest.mark.parametrize("rule", ["king_only", "no_hearts"])
def test_king_may_be_led_as_last_card(rule):
    # B4: the K of hearts may be led when it is the leader's only card.
    g = start(deal_of("S3-SA KH", "S2 H2-HQ AH", "D2-DA", "C2-CA"), "no_king",
              rules={"king_lead_rule": rule})
    for trick in range(12):
        assert "KH" not in g.legal_action_names()
        play_trick = [g.legal_actions()[0]]
        g.step(play_trick[0])
        for _ in range(3):
            g.step(g.legal_actions()[0])
    assert g.turn() == 0 and g.legal_action_names() == ["KH"]
    play_lowest(g)  # seat 1 follows with the A of hearts and takes the king
    assert g.contract_scores == [0, -20, 0, 0] and len(g.trick_winners) == 13


@pytest.mark.parametrize("must_discard", [False, True])
def test_king_must_discard(must_discard):
    # B4 king_must_discard: a player void in the led suit who holds the K of hearts plays it.
    hands = deal_of("S2-SA", "H2-HQ AH 2D", "KH D3-DA", "C2-CA")
    g = start(hands, "no_king", rules={"king_must_discard": must_discard})
    play(g, "2S", "2D")
    legal = g.legal_action_names()
    if must_discard:
        assert legal == ["KH"]
        play(g, "KH", "2C")
        assert g.is_deal_over and g.contract_scores == [-20, 0, 0, 0]
    else:
        assert len(legal) == 13


TRUMPS_DEAL = ("S2-S8 5H D2-D6", "3H 9H C2-CQ", "S9-SA D7-DK", "AD KC AC 2H 4H H6-H8 HT-HA")


@pytest.mark.parametrize("must_ruff", [True, False])
def test_trumps_must_ruff(must_ruff):
    # B4: a player void in the led suit must trump if able (trumps_must_ruff).
    g = start(deal_of(*TRUMPS_DEAL), "trumps", rules={"trumps_must_ruff": must_ruff},
              trump="H")
    g.step("2S")
    legal = g.legal_action_names()
    assert legal == (["3H", "9H"] if must_ruff else g.hands()[1])
    play(g, "3H", "AS", "2H")
    # B4: the highest trump wins, not the highest spade.
    assert g.trick_winners == [1] and g.contract_scores == [0, 5, 0, 0]


@pytest.mark.parametrize("overtrump", [False, True])
def test_trumps_must_overtrump(overtrump):
    # B4: on a trump lead, a higher trump than the highest so far if able (trumps_must_overtrump).
    g = start(deal_of(*TRUMPS_DEAL), "trumps", rules={"trumps_must_overtrump": overtrump},
              trump="H")
    play(g, "2S", "3H", "AS", "2H")
    g.step("9H")                      # seat 1 leads a trump
    assert g.legal_action_names() == g.hands()[2]  # seat 2 has no trump: anything
    g.step("7D")
    legal = g.legal_action_names()
    hearts = [c for c in g.hands()[3] if c[1] == "H"]
    assert legal == ([c for c in hearts if c[0] in "TJQKA"] if overtrump else hearts)
    g.step("AH")
    assert g.legal_action_names() == ["5H"]   # cannot overtrump: still follows suit


def test_trumps_scores_five_per_trick():
    g = start(deal_of(*TRUMPS_DEAL), "trumps", trump="S")
    play_lowest(g)
    assert sum(g.contract_scores) == 65 and len(g.trick_winners) == 13
    assert g.contract_scores == [5 * g.trick_winners.count(s) for s in range(4)]


@pytest.mark.parametrize("contract, trump, points, takes, takes_ace", [
    ("no_hearts", None, -2, {"AD"}, set()),  # the heart costs its taker 2
    ("trumps", "C", 5, {"AD", "QC"} | set(cards("C2-CJ")), {"AC", "KC"})])  # ruffs take it
def test_the_observation_spells_out_the_trick_so_far(contract, trump, points, takes,
                                                     takes_ace):
    """The appended trick pieces (B4): who takes the trick so far, what its cards would score
    the taker in the contract, which cards of the observer's hand would take it."""
    import numpy as np

    from cardsim.barbu import observe_nb as BO
    from cardsim.cards import BARBU_DECK

    g = start(deal_of("S3-SA 2D", "S2 H2-HK", "AD QC C2-CJ AH", "QD AC KC D3-DJ KD"),
              contract, trump=trump)
    out = np.zeros(BO.OBS_SIZE, np.float32)
    BO.observe(g.st, g.R, 0, out)
    assert not BO.observation_pieces(out)["trick_top"].any()  # before the lead
    play(g, "2D", "KH")  # seat 1 has no diamond
    BO.observe(g.st, g.R, 2, out)
    p = BO.observation_pieces(out)
    assert p["trick_top"].tolist() == [0, 0, 1, 0]  # seat 0, two places after the observer
    assert p["trick_points"][0] == pytest.approx(points / 20)
    assert {BARBU_DECK.format(int(c)) for c in np.flatnonzero(p["takes_trick"])} == takes
    play(g, "AD")  # seat 2 overtakes
    BO.observe(g.st, g.R, 3, out)
    p = BO.observation_pieces(out)
    assert p["trick_top"].tolist() == [0, 0, 0, 1]  # seat 2, just before the observer
    assert {BARBU_DECK.format(int(c)) for c in np.flatnonzero(p["takes_trick"])} == takes_ace
