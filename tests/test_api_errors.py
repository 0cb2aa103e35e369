"""Typed errors from the Python API: rules with unknown conventions, seats and game indices
out of range, and hand records that are not records all raise cardsim's typed exceptions
naming what was wrong (never a bare TypeError, IndexError or AttributeError)."""

import pytest

from cardsim.errors import HandRecordError, InvalidConfigError


def test_rules_with_unknown_conventions():
    from cardsim.barbu.rules import BarbuRules
    from cardsim.debertz.rules import DebertzRules

    with pytest.raises(InvalidConfigError, match="unknown debertz rule 'colour'"):
        DebertzRules(colour="red")
    with pytest.raises(InvalidConfigError, match="unknown barbu rule 'players'"):
        BarbuRules(players=3)
    with pytest.raises(InvalidConfigError, match="positional"):
        BarbuRules(*range(9))


@pytest.mark.parametrize("call", [
    lambda d, b: d.hand(7), lambda d, b: d.hand(-1), lambda d, b: d.legal_actions(5),
    lambda d, b: b.hand(7), lambda d, b: b.legal_actions(5), lambda d, b: b.step("pass", 1),
    lambda d, b: b.phase(True),
])
def test_out_of_range_seats_and_games(call):
    from cardsim.barbu.game import BarbuGame
    from cardsim.debertz.game import DebertzGame

    with pytest.raises(InvalidConfigError, match="out of range"):
        call(DebertzGame(seed=1), BarbuGame(seed=1))


@pytest.fixture(scope="module")
def records():
    """One finished deal of each game, as a hand record."""
    from cardsim.barbu.game import BarbuGame
    from cardsim.debertz.game import DebertzGame

    out = {}
    for name, game in (("debertz", DebertzGame(seed=4)), ("barbu", BarbuGame(seed=4))):
        while game.legal_actions():
            game.step(game.legal_actions()[0])
        out[name] = game.record()
    return out


def _replay(game):
    from cardsim.barbu import record as barbu_record
    from cardsim.debertz import record as debertz_record

    return {"debertz": debertz_record, "barbu": barbu_record}[game].replay


@pytest.mark.parametrize("game", ["debertz", "barbu"])
@pytest.mark.parametrize("damage, words", [
    (lambda r: [r], "JSON object"),
    (lambda r: None, "JSON object"),
    (lambda r: {k: v for k, v in r.items() if k != "dealer"}, "'dealer'"),
    (lambda r: {k: v for k, v in r.items() if k != "hands"}, "'hands'"),
    (lambda r: {**r, "dealer": 1.5}, "'dealer'"),
    (lambda r: {**r, "seed": "one"}, "'seed'"),
    (lambda r: {**r, "plays": 3}, "'plays'"),
    (lambda r: {**r, "format": "other/1"}, "'format'"),
])
def test_replay_of_what_is_not_a_record(records, game, damage, words):
    assert _replay(game)(records[game])  # the record itself replays
    with pytest.raises(HandRecordError, match=words):
        _replay(game)(damage(records[game]))
