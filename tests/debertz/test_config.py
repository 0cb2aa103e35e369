"""DebertzRules: defaults of debertz.md, clear errors, stable hash; the Python layer's errors."""

import pytest

from cardsim.debertz.game import DebertzGame
from cardsim.debertz.rules import DebertzRules
from cardsim.errors import IllegalActionError, InvalidConfigError


def test_documented_defaults():
    r = DebertzRules()
    assert (r.players, r.teams, r.first_dealer, r.target, r.end_mode) == (2, False, "random", 501, "round")
    assert r.obligatory and r.seven_swap and r.trump_meld_wins_tie and r.bella_any_card
    assert not (r.debertz_trump_only or r.unplayed_bella_counts or r.overtrump_on_ruff
                or r.partner_exemption)
    assert (r.turnup_to, r.declare, r.first_lead, r.dealer_rotation) == (
        "bidder", "first_trick", "bidder", "clockwise")
    assert (r.byte_penalty, r.no_trick_penalty) == (100, 0)


@pytest.mark.parametrize("kw, words", [
    (dict(players=5), ["players", "5", "2, 3, 4"]),
    (dict(teams=True), ["teams", "players = 4"]),
    (dict(players=3, teams=True), ["teams"]),
    (dict(end_mode="sudden"), ["end_mode", "sudden", '"round", "points"']),
    (dict(no_trick_penalty=30), ["no_trick_penalty", "30", "0, 50, 100"]),
    (dict(target=0), ["target", "positive"]),
    (dict(first_dealer=3), ["first_dealer", "0..1"]),
    (dict(obligatory=1), ["obligatory", "true, false"]),
    (dict(byte_penalty=-1), ["byte_penalty", "non-negative"]),
])
def test_invalid_values_name_field_value_and_allowed(kw, words):
    with pytest.raises(InvalidConfigError) as e:
        DebertzRules(**kw)
    for w in words:
        assert w in str(e.value)


def test_unknown_rule_names_are_errors():
    with pytest.raises(InvalidConfigError, match="unknown debertz rule 'trumps'.*players"):
        DebertzRules.from_dict({"trumps": 1})
    with pytest.raises(InvalidConfigError, match="NAME=VALUE"):
        DebertzRules.from_overrides(["target"])


def test_overrides_parse_types():
    r = DebertzRules.from_overrides(["players=4", "teams=true", "target=301",
                                     "end_mode=points", "first_dealer=2"])
    assert (r.players, r.teams, r.target, r.end_mode, r.first_dealer) == (4, True, 301, "points", 2)


def test_rules_hash_is_stable_and_distinguishes_variants():
    assert DebertzRules().rules_hash() == DebertzRules().rules_hash()
    assert DebertzRules().rules_hash() != DebertzRules(target=301).rules_hash()
    assert len(DebertzRules().rules_hash()) == 12


def test_illegal_action_lists_the_legal_ones():
    game = DebertzGame(DebertzRules(first_dealer=0), seed=1)
    assert game.phase() == "bid1" and game.turn() == 1
    with pytest.raises(IllegalActionError, match="legal actions: pass, play"):
        game.step("swap")
    with pytest.raises(IllegalActionError, match="unknown Debertz action"):
        game.step("jump")
    with pytest.raises(IllegalActionError, match="deal_end"):
        game.next_deal()


def test_from_deal_rejects_bad_deals():
    rules = DebertzRules()
    hands = ["7S 8S 9S TS JS QS", "7H 8H 9H TH JH QH"]
    with pytest.raises(InvalidConfigError, match="2 hands"):
        DebertzGame.from_deal(rules, hands[:1], "KS")
    with pytest.raises(Exception, match="twice"):
        DebertzGame.from_deal(rules, hands, "QS")
    with pytest.raises(InvalidConfigError, match="6 cards"):
        DebertzGame.from_deal(rules, ["7S 8S", hands[1]], "KS")
