"""The Barbu rules config and the Python layer's input errors."""

import numpy as np
import pytest

from barbu_deals import deal_of, new_game
from cardsim.barbu import actions as A
from cardsim.barbu import layout as L
from cardsim.barbu.game import BarbuGame
from cardsim.barbu.rules import BarbuRules
from cardsim.errors import IllegalActionError, InvalidCardError, InvalidConfigError

SUITS = ("S2-SA", "H2-HA", "D2-DA", "C2-CA")


def test_defaults_and_pack():
    r = BarbuRules()
    of_rules_file = {"first_declarer": "random", "king_lead_rule": "king_only",
                     "king_must_discard": False, "trumps_must_ruff": True,
                     "trumps_must_overtrump": False}
    variants = {"doubles_owed": 2, "redoubles": True, "domino_start": "declarer"}
    assert {k: getattr(r, k) for k in BarbuRules.field_names()} == {**of_rules_file, **variants}
    # the variants beyond the rules file stay out of records, results and hashes at their
    # defaults
    assert r.to_dict() == of_rules_file
    assert r.rules_hash() == "77f4ac493435"  # what it was before the variants existed
    assert list(r.pack()) == [-1, 0, 0, 1, 0, 2, 1, -1]
    r2 = BarbuRules(first_declarer=3, king_lead_rule="no_hearts", king_must_discard=True,
                    trumps_must_ruff=False, trumps_must_overtrump=True, doubles_owed=0,
                    redoubles=False, domino_start="J")
    assert list(r2.pack()) == [3, 1, 1, 0, 1, 0, 0, 9]
    assert set(r2.to_dict()) == set(BarbuRules.field_names())
    assert r.rules_hash() != r2.rules_hash() and len(r.rules_hash()) == 12
    assert BarbuRules(doubles_owed=1).rules_hash() != r.rules_hash()


@pytest.mark.parametrize("name, value", [("first_declarer", 4), ("first_declarer", "any"),
                                         ("king_lead_rule", "hearts"),
                                         ("king_must_discard", 1), ("trumps_must_ruff", "yes"),
                                         ("trumps_must_overtrump", None),
                                         ("doubles_owed", 8), ("doubles_owed", "2"),
                                         ("redoubles", "no"), ("domino_start", "10"),
                                         ("domino_start", 9)])
def test_invalid_values_name_the_rule(name, value):
    with pytest.raises(InvalidConfigError, match=name):
        BarbuRules(**{name: value})


def test_unknown_rule_and_overrides():
    with pytest.raises(InvalidConfigError, match="unknown barbu rule 'trump_rule'"):
        BarbuRules.from_dict({"trump_rule": 1})
    r = BarbuRules.from_overrides(["first_declarer=2", "trumps_must_overtrump=true"])
    assert r.first_declarer == 2 and r.trumps_must_overtrump is True
    r = BarbuRules.from_overrides(["domino_start=7", "doubles_owed=3", "redoubles=off"])
    assert (r.domino_start, r.doubles_owed, r.redoubles) == ("7", 3, False)
    with pytest.raises(InvalidConfigError, match=r"domino_start.*allowed: \"declarer\", \"2\""):
        BarbuRules.from_overrides(["domino_start=10"])


def test_first_declarer():
    assert BarbuGame({"first_declarer": 3}, seed=5).declarer == 3
    firsts = {BarbuGame(seed=5, game_id=g).declarer for g in range(24)}
    assert len(firsts) > 1                       # B2: drawn per match from the seed
    assert BarbuGame(seed=5, game_id=7).declarer == BarbuGame(seed=5, game_id=7).declarer
    g = BarbuGame(seed=5, game_id=7)
    assert g.dealer == (g.declarer + 3) % 4 and g.phase() == "contract"
    assert [len(h) for h in g.hands()] == [13] * 4


def test_illegal_action_lists_legal_ones():
    g = new_game(deal_of(*SUITS), 0, contracts_left=["no_king", "domino"])
    with pytest.raises(IllegalActionError, match="legal: no_king, domino"):
        g.step("no_tricks")
    with pytest.raises(IllegalActionError, match="unknown action"):
        g.step("bogus")
    g.step(A.CONTRACT + A.NO_KING)
    assert g.contract == "no_king"
    with pytest.raises(IllegalActionError, match="next_deal needs a finished deal"):
        g.next_deal()


def test_legal_array_matches_ids():
    g = new_game(deal_of(*SUITS), 0)
    arr = g.legal_array()
    assert arr.shape == (A.NUM_ACTIONS,) and list(np.flatnonzero(arr)) == g.legal_actions()
    assert A.ACTION_NAMES[A.PASS] == "pass" and A.ACTION_NAMES[A.TRUMP_SUIT + 1] == "trump_H"
    assert A.action_id("10h") == 13 + 8 and A.action_id("start_Q") == A.START_RANK + 10


@pytest.mark.parametrize("kwargs, match", [
    (dict(hands=[["2S"] * 13] * 4), "twice"),
    (dict(hands=[c[:-1] for c in [["2S"]]] * 4), "4 hands|13 cards"),
    (dict(declarer=4), "declarer"),
    (dict(contracts_left=["no_tricks", "no_tricks"]), "contracts_left"),
    (dict(contracts_left=["golf"]), "unknown contract"),
    (dict(deal=3, contracts_left=["no_tricks"]), "4 contracts are left"),
    (dict(deal=5, contracts_left=["no_tricks", "domino"], doubles_owed=[0, 2, 2, 3]),
     "doubles_owed"),
    (dict(deal=6, contracts_left=["domino"], doubles_owed=[0, 2, 0, 0]), "exceeds"),
    (dict(doubles_owed=[1, 0, 0, 0]), "declarer owes no doubles"),
    (dict(deal=28), "deal must be 0..27"),
    (dict(rules={"first_declarer": 1}, deal=0), "declarer 1"),
])
def test_from_deal_errors(kwargs, match):
    args = dict(hands=deal_of(*SUITS), declarer=0)
    args.update(kwargs)
    with pytest.raises((InvalidConfigError, InvalidCardError), match=match):
        BarbuGame.from_deal(args.pop("hands"), args.pop("declarer"), **args)


def test_from_deal_state_and_copy():
    g = new_game(deal_of(*SUITS), 2, deal=16, contracts_left=["trumps", "no_king", "domino",
                                                              "no_hearts", "no_tricks"],
                 scores=[10, -20, 30, -20], doubles_owed=[1, 2, 0, 2])
    assert g.deal_no == 16 and g.declarer == 2 and g.dealer == 1
    assert g.contracts_left[2] == ["no_tricks", "no_hearts", "no_king", "trumps", "domino"]
    # B2: with deal 16 in block 2, seats 0 and 1 were declarers before, seat 3 comes next
    assert g.contracts_left[0] == [] and g.contracts_left[1] == [] and len(g.contracts_left[3]) == 7
    assert g.scores == [10, -20, 30, -20] and g.doubles_owed == [1, 2, 0, 2]
    c = g.copy()
    c.step("trumps")
    assert g.phase() == "contract" and c.phase() == "trump"
    assert g.st.shape == (L.STATE_WIDTH,)


def test_match_end_tie_shares_win():
    # B2: ties share the win. Deal 27, declarer 3 leads clubs and wins every trick; seat 0
    # discards its spades, then the K of hearts at trick 13: seat 3 goes 30 - 20 = 10.
    hands = deal_of("S3-SA KH", "S2 H2-HQ AH", "D2-DA", "C2-CA")
    g = new_game(hands, 3, deal=27, contracts_left=["no_king"], scores=[10, 0, -10, 30],
                 doubles_owed=[0, 0, 0, 0])
    g.step("no_king")
    while g.phase() == "double":
        g.step("no_double")
    while g.phase() == "play":
        g.step(g.legal_actions()[0])
    assert g.is_match_over and g.phase() == "match_over"
    assert g.scores == [10, 0, -10, 10] and g.winners == [0, 3]
