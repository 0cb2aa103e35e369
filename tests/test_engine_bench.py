"""``cardsim bench``: the engine timed against its play-only yardstick (cardsim.reference_nb)."""

import pytest

from cardsim import games
from cardsim.reference_nb import alternate, reference_deals


@pytest.mark.parametrize("game, players, teams, tricks", [("debertz", 2, False, 9),
                                                          ("debertz", 3, False, 9),
                                                          ("debertz", 4, True, 8),
                                                          ("barbu", 4, False, 13)])
def test_reference_deals_play_every_trick_whatever_the_blocks(game, players, teams, tricks):
    won = reference_deals(game, players, teams, 0, 3000, 1)
    assert reference_deals(game, players, teams, 0, 3000, 7) == won
    assert reference_deals(game, players, teams, 0, 1000, 1) + \
        reference_deals(game, players, teams, 1000, 2000, 3) == won
    share = won / (3000 * tricks)  # of the tricks, seat 0 (or its side) wins its fair part
    assert share == pytest.approx((2 if teams else 1) / players, abs=0.03)
    assert reference_deals(game, players, teams, 0, 3000, 1, seed=1) != won


def test_alternate_plays_every_deal_once_in_rounds():
    calls = []
    engine_s, reference_s = alternate(lambda f, n: calls.append(("e", f, n)),
                                      lambda f, n: calls.append(("r", f, n)), 10, rounds=4)
    assert calls == [("e", 0, 3), ("r", 0, 3), ("e", 3, 3), ("r", 3, 3), ("e", 6, 3),
                     ("r", 6, 3), ("e", 9, 1), ("r", 9, 1)]
    assert engine_s >= 0 and reference_s >= 0


@pytest.mark.parametrize("game", ["debertz", "barbu"])
def test_bench_reports_the_engine_against_its_reference(game):
    g = games.get(game)
    out = g.bench(g.make_rules(), hands=2000, threads=1)
    assert out["hands"] == 2000 and out["game"] == game
    assert out["hands_per_s"] > 0 and out["reference_hands_per_s"] > 0
    assert out["engine_vs_reference"] == pytest.approx(
        out["hands_per_s"] / out["reference_hands_per_s"], rel=0.01)
