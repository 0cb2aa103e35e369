"""Agent specs, option errors, and the compiled agent loops (Debertz)."""

import numpy as np
import pytest

from agents.base import EngineView, RandomAgent
from agents.registry import make_agent, parse_spec
from cardsim.debertz import simulate_nb as SN
from cardsim.debertz.game import DebertzGame
from cardsim.debertz.rules import DebertzRules
from cardsim.errors import InvalidConfigError
from table_loops import duplicate, simulate_agents


def test_specs_parse_strings_and_mappings():
    assert parse_spec("heuristic:aggression=0.7,depth=2") == (
        "heuristic", {"aggression": 0.7, "depth": 2})
    assert parse_spec({"name": "random"}) == ("random", {})
    assert make_agent("random", "debertz").label == "random"


@pytest.mark.parametrize("spec, words", [
    ("nobody", "unknown debertz agent 'nobody'"),
    ("random:speed=3", "has no option 'speed'"),
    ("random:speed", "key=value"),
    ({"kind": "random"}, "needs a 'name'"),
    ("", "must be a name"),
])
def test_bad_specs_are_clear_errors(spec, words):
    with pytest.raises(InvalidConfigError, match=words):
        make_agent(spec, "debertz")


def test_unknown_game():
    with pytest.raises(InvalidConfigError, match="unknown game 'chess'"):
        make_agent("random", "chess")


@pytest.mark.parametrize("kw", [dict(), dict(players=3), dict(players=4, teams=True)])
def test_random_agents_reproduce_the_engine_fast_path(kw):
    R = DebertzRules(**kw).pack()
    n = int(R[0])
    a = SN.simulate_random(R, 3, 0, 40, True, 4)
    b = simulate_agents("debertz", R, 3, 0, 40, True, 3, np.zeros(n, dtype=np.int64),
                          np.zeros((n, 8)))
    assert (a == b).all()


def test_compiled_agent_act_returns_legal_actions():
    game = DebertzGame(DebertzRules(players=3), batch=30, seed=5)
    agent = RandomAgent(game="debertz")
    agent.reset(1)
    actions = agent.act(EngineView(game.state, game.R))
    for i, a in enumerate(actions):
        assert a in game.legal_actions(i)


def test_duplicate_patterns_share_deals():
    """Random against random on duplicate deals: equal on average, and the two patterns of a
    2-player deal see the same cards (so points of both agents add up per deal)."""
    R = DebertzRules(players=2).pack()
    pat = np.array([[0, 1], [1, 0]])
    pts, wins, deals = duplicate("debertz", R, 1, 0, 400, False, pat,
                                 np.zeros(2, dtype=np.int64), np.zeros((2, 8)), 4)[:3]
    assert deals.sum() == 800
    diff = pts[:, 0] - pts[:, 1]
    assert abs(diff.mean()) < 4 * diff.std() / np.sqrt(len(diff))
    pts2, _, _ = duplicate("debertz", R, 1, 0, 400, False, pat,
                           np.zeros(2, dtype=np.int64), np.zeros((2, 8)), 1)[:3]
    assert np.allclose(pts, pts2)
