"""Known answers for doubling (B6) and deal scoring (B7)."""

import pytest

from barbu_deals import SUIT_PER_SEAT, deal_of, new_game, no_doubles, play
from cardsim.errors import IllegalActionError, InvalidConfigError

# B7 worked example (No Queens), A = seat 0 declarer, B C D = seats 1 2 3:
# contract scores A -6, B 0, C -6, D -12 with the scripted plays below.
B7_DEAL = ("S3-SA 2D", "S2 H2-HK", "AD QC C2-CJ AH", "QD AC KC D3-DJ KD")
B7_PLAYS = ("QS", "2S", "2C", "3D",      # A wins its own queen
            "2D", "2H", "AD", "QD",      # C wins the queen of diamonds
            "QC", "AC", "3S", "QH")      # D wins two queens: the 4th queen ends the deal


def answer(g, script):
    """Answer doubling questions from ``script``: {(speaker, target): action}; the default is
    no_double. Returns the list of questions asked."""
    asked = []
    while g.phase() == "double":
        q = g.asking
        asked.append(q)
        a = script.get(q, "no_double")
        if isinstance(a, list):   # one answer per time the pair is asked
            a = a.pop(0)
        g.step(a)
    return asked


def test_b7_worked_example_exactly():
    g = new_game(deal_of(*B7_DEAL), 0)
    g.step("no_queens")
    script = {(1, 2): "double", (1, 3): "double", (1, 0): "double",   # B doubles A, C and D
              (2, 0): "double",                                        # C doubles A
              (0, 2): "redouble"}                                      # A redoubles C
    asked = answer(g, script)
    # B6.1: B, C, D, then A last; each about the others from its left; the declarer is only
    # asked about its doublers; B6.2: nobody was doubled by a later speaker.
    assert asked == [(1, 2), (1, 3), (1, 0), (2, 3), (2, 0), (2, 1), (3, 0), (3, 1), (3, 2),
                     (0, 1), (0, 2)]
    assert g.doubles == [[1, 2, "double"], [1, 3, "double"], [1, 0, "double"],
                         [2, 0, "double"], [0, 2, "redouble"]]
    play(g, *B7_PLAYS)
    assert g.is_deal_over
    assert g.contract_scores == [-6, 0, -6, -12]
    assert g.settlements == [-6, 24, -6, -12]
    assert g.deal_scores == [-12, 24, -12, -24]
    assert g.scores == [-12, 24, -12, -24]


def test_redoubled_pair_counts_twice():
    # B7.2: the difference counts twice for a redoubled pair.
    g = new_game(deal_of(*B7_DEAL), 0)
    g.step("no_queens")
    answer(g, {(1, 0): "double", (0, 1): "redouble"})
    play(g, *B7_PLAYS)
    assert g.settlements == [-12, 12, 0, 0]
    assert g.deal_scores == [-18, 12, -6, -12]


def test_choices_offered():
    g = new_game(deal_of(*SUIT_PER_SEAT), 0)
    g.step("no_tricks")
    assert g.asking == (1, 2) and g.legal_action_names() == ["no_double", "double"]
    g.step("double")
    g.step("no_double")
    g.step("no_double")
    assert g.asking == (2, 3)
    g.step("no_double")
    g.step("no_double")
    assert g.asking == (2, 1)
    # B6.1: towards a player who doubled you: nothing or a redouble, never a second double
    assert g.legal_action_names() == ["no_double", "redouble"]
    with pytest.raises(IllegalActionError, match="legal: no_double, redouble"):
        g.step("double")


def test_redouble_round_b6_2():
    # B6.2: D (third speaker) doubles B (first speaker); B may redouble D in the second round.
    g = new_game(deal_of(*SUIT_PER_SEAT), 0)
    g.step("no_hearts")
    asked = answer(g, {(3, 1): "double", (1, 3): ["no_double", "redouble"]})
    assert asked[-1] == (1, 3)
    assert asked.count((1, 3)) == 2        # first as a double choice, then as the redouble
    assert g.doubles == [[3, 1, "double"], [1, 3, "redouble"]]
    assert g.phase() == "play" and g.turn() == 0


def test_redouble_round_asks_before_later_speakers():
    # B6.2 order: in the second round speakers go again from the declarer's left.
    g = new_game(deal_of(*SUIT_PER_SEAT), 0)
    g.step("no_tricks")
    asked = answer(g, {(3, 1): "double", (3, 2): "double", (0, 3): "no_double"})
    first_round = [(1, 2), (1, 3), (1, 0), (2, 3), (2, 0), (2, 1), (3, 0), (3, 1), (3, 2)]
    assert asked == first_round + [(1, 3), (2, 3)]


@pytest.mark.parametrize("contract", ["trumps", "domino"])
def test_positive_contracts_only_declarer_doubled(contract):
    # B6.1: in Trumps and Domino a non-declarer may double only the declarer.
    g = new_game(deal_of(*SUIT_PER_SEAT), 2)
    g.step(contract)
    g.step("trump_S" if contract == "trumps" else "start_7")
    asked = answer(g, {(3, 2): "double", (1, 2): "double", (2, 1): "redouble"})
    assert asked == [(3, 2), (0, 2), (1, 2), (2, 3), (2, 1)]
    assert g.doubles == [[3, 2, "double"], [1, 2, "double"], [2, 1, "redouble"]]


def test_forced_double_b6_3():
    # B6.3: deal 5 of the declarer's 7 (two chances left): a seat owing 2 must double now.
    g = new_game(deal_of(*SUIT_PER_SEAT), 0, deal=5, contracts_left=["no_tricks", "domino"],
                 doubles_owed=[0, 2, 1, 0])
    g.step("no_tricks")
    assert g.asking == (1, 2) and g.legal_action_names() == ["no_double", "double"]
    g.step("no_double")
    g.step("no_double")
    assert g.asking == (1, 0)
    assert g.legal_action_names() == ["double"]            # the only choice towards him
    with pytest.raises(IllegalActionError, match="legal: double"):
        g.step("no_double")
    g.step("double")
    assert g.doubles_owed == [0, 1, 1, 0]
    g.step("no_double")        # (2, 3)
    assert g.asking == (2, 0)
    assert g.legal_action_names() == ["no_double", "double"]  # owes 1 of 2 chances: free
    g.step("no_double")
    no_doubles(g)
    assert g.doubles_owed_before == [0, 2, 1, 0]


def test_forced_double_last_deal():
    g = new_game(deal_of(*SUIT_PER_SEAT), 0, deal=6, contracts_left=["no_king"],
                 doubles_owed=[0, 1, 1, 1])
    g.step("no_king")
    forced = []
    while g.phase() == "double":
        speaker, target = g.asking
        if target == 0:
            forced.append(g.legal_action_names())
            g.step("double")
        else:
            g.step("no_double")
    assert forced == [["double"]] * 3
    assert g.doubles_owed == [0, 0, 0, 0]


def test_doubles_owed_reset_per_declarer():
    # B6.3: each declarer's 7 deals start with two doubles owed by each other player.
    from cardsim.barbu.game import BarbuGame
    g = BarbuGame({"first_declarer": 1}, seed=1)
    assert g.declarer == 1 and g.doubles_owed == [2, 0, 2, 2]


# --- the variants beyond the rules file (docs/rules/barbu.md, "Variants") --------------------
def test_redoubles_off_no_redouble_and_no_second_round():
    # redoubles=false: a doubled player is never asked about its doubler, in either round
    # (B6.1-B6.2), and the pair keeps its one bet.
    g = new_game(deal_of(*B7_DEAL), 0, rules={"redoubles": False})
    g.step("no_queens")
    script = {(1, 2): "double", (1, 3): "double", (1, 0): "double", (2, 0): "double"}
    asked = answer(g, script)
    # (2, 1), (3, 1) and every question to the declarer (0, ...) are never asked
    assert asked == [(1, 2), (1, 3), (1, 0), (2, 3), (2, 0), (3, 0), (3, 2)]
    assert g.doubles == [[1, 2, "double"], [1, 3, "double"], [1, 0, "double"],
                         [2, 0, "double"]]
    play(g, *B7_PLAYS)
    # contract scores A -6, B 0, C -6, D -12; the B7 example without A's redouble of C
    assert g.contract_scores == [-6, 0, -6, -12]
    assert g.settlements == [-6, 24, -6, -12]


def test_redoubles_on_is_the_rules_file_game():
    g = new_game(deal_of(*SUIT_PER_SEAT), 0, rules={"redoubles": True})
    g.step("no_tricks")
    g.step("double")                                    # (1, 2)
    answer(g, {(2, 1): "redouble"})
    assert g.doubles == [[1, 2, "double"], [2, 1, "redouble"]]


@pytest.mark.parametrize("owed", [0, 1, 3])
def test_doubles_owed_at_each_declarer_start(owed):
    # doubles_owed: each declarer's 7 deals start with that many doubles owed by every
    # other player (B6.3; the rules file's game: two).
    from cardsim.barbu.game import BarbuGame
    g = BarbuGame({"first_declarer": 1, "doubles_owed": owed}, seed=1)
    assert g.doubles_owed == [owed, 0, owed, owed]


def test_no_doubles_owed_nothing_forced_on_the_last_deal():
    g = new_game(deal_of(*SUIT_PER_SEAT), 0, rules={"doubles_owed": 0}, deal=6,
                 contracts_left=["no_king"])
    assert g.doubles_owed == [0, 0, 0, 0]
    g.step("no_king")
    while g.phase() == "double":
        assert "no_double" in g.legal_action_names()
        g.step("no_double")
    assert g.doubles == []


def test_three_owed_forced_from_the_fifth_deal():
    # doubles_owed=3: with three chances left (deal 4 of 0..6) a seat owing 3 must double now.
    g = new_game(deal_of(*SUIT_PER_SEAT), 0, rules={"doubles_owed": 3}, deal=4,
                 contracts_left=["no_tricks", "domino", "trumps"], doubles_owed=[0, 3, 2, 0])
    g.step("no_tricks")
    g.step("no_double")
    g.step("no_double")
    assert g.asking == (1, 0) and g.legal_action_names() == ["double"]
    g.step("double")
    assert g.doubles_owed == [0, 2, 2, 0]
    with pytest.raises(InvalidConfigError, match=r"doubles_owed\[1\] = 3 is outside 0\.\.2"):
        new_game(deal_of(*SUIT_PER_SEAT), 0, deal=4, contracts_left=["no_tricks", "domino",
                 "trumps"], doubles_owed=[0, 3, 2, 0])  # the rules file's game owes two
