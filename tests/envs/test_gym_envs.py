"""Gymnasium environments: conformance, seeding, rewards, opponents, illegal actions."""

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from cardsim.cards import BARBU_DECK, DEBERTZ_DECK
from cardsim.envs.wrappers import IllegalActionPenalty
from cardsim.errors import IllegalActionError, InvalidConfigError

from envs_helpers import play_random, random_episode_reward

CONFIGS = [
    ("cardsim/Debertz-v0", {}),
    ("cardsim/Debertz-v0", {"players": 3, "declare": "before_play", "observation_mode": "vector"}),
    ("cardsim/Debertz-v0", {"players": 4, "teams": True, "control": "side",
                            "partner_exemption": True}),
    ("cardsim/Debertz-v0", {"players": 4, "episode": "game", "target": 101,
                            "end_mode": "points", "seat": "random"}),
    ("cardsim/Barbu-v0", {}),
    ("cardsim/Barbu-v0", {"episode": "game", "king_lead_rule": "no_hearts", "seat": 2,
                          "observation_mode": "vector"}),
]


@pytest.mark.parametrize("env_id,kwargs", CONFIGS)
def test_check_env(env_id, kwargs):
    # the raw env passes Gymnasium's own checker (which steps an action sampled before a
    # seeded reset: LegalDiscrete), and still refuses an illegal action of the caller
    env = gym.make(env_id, **kwargs).unwrapped
    check_env(env)
    check_env(IllegalActionPenalty(gym.make(env_id, **kwargs).unwrapped), skip_render_check=True)
    env.reset(seed=3)
    with pytest.raises(IllegalActionError, match="not legal"):
        env.step(int(np.flatnonzero(~env.action_masks())[0]))


@pytest.mark.parametrize("env_id,kwargs", CONFIGS)
def test_same_seed_same_episodes(env_id, kwargs):
    a = play_random(gym.make(env_id, **kwargs).unwrapped, 150, seed=5)
    b = play_random(gym.make(env_id, **kwargs).unwrapped, 150, seed=5)
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert x[0] == y[0] and x[1] == y[1] and x[2] == y[2]
        assert np.array_equal(x[3], y[3])
    c = play_random(gym.make(env_id, **kwargs).unwrapped, 150, seed=6)
    assert any(not np.array_equal(x[3], y[3]) for x, y in zip(a, c))


@pytest.mark.parametrize("env_id", ["cardsim/Debertz-v0", "cardsim/Barbu-v0"])
def test_observation_dict_holds_each_piece_once(env_id):
    env = gym.make(env_id).unwrapped
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    spec = env.kit.observer.SPEC
    assert list(obs) == [p.name for p in spec.pieces]  # no "vector", no "action_mask"
    vec = gym.make(env_id, observation_mode="vector").unwrapped.reset(seed=0)[0]
    assert np.array_equal(np.concatenate(list(obs.values())), vec)
    assert info["action_mask"].dtype == bool
    assert np.array_equal(env.action_masks(), info["action_mask"])
    assert spec.size == sum(p.size for p in spec.pieces)
    # the mask as a network input only when asked for, with the dtype of info's
    env = gym.make(env_id, mask_in_observation=True).unwrapped
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    assert obs["action_mask"].dtype == info["action_mask"].dtype == bool
    assert np.array_equal(obs["action_mask"], info["action_mask"])
    with pytest.raises(InvalidConfigError, match="mask_in_observation"):
        gym.make(env_id, mask_in_observation=True, observation_mode="vector")


@pytest.mark.parametrize("env_id", ["cardsim/Debertz-v0", "cardsim/Barbu-v0"])
def test_render_and_seat_at_the_end_of_an_episode(env_id):
    env = gym.make(env_id, render_mode="ansi", seat=1).unwrapped
    obs, info = env.reset(seed=2)
    text = env.render()
    deck = DEBERTZ_DECK if "Debertz" in env_id else BARBU_DECK
    hand = " ".join(deck.format_mask(int(env.state[env.kit.layout.HANDS + info["seat"]])))
    assert f"hand of seat {info['seat']}: {hand}\n" in text and "trick:" in text
    assert ("trump:" in text or "contract:" in text) and "scores" in text
    term = False
    while not term:
        obs, r, term, _, info = env.step(env.action_space.sample())
    assert env.kit.turn(env.state) == -1 and info["seat"] == 1  # the learner's seat
    assert "hand of seat 1" in env.render()


@pytest.mark.parametrize("env_id", ["cardsim/Debertz-v0", "cardsim/Barbu-v0"])
def test_illegal_action_raises_and_wrapper_penalises(env_id):
    env = gym.make(env_id).unwrapped
    env.reset(seed=1)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    with pytest.raises(IllegalActionError, match="not legal"):
        env.step(illegal)
    wrapped = IllegalActionPenalty(gym.make(env_id).unwrapped, penalty=-3.0)
    wrapped.reset(seed=1)
    obs, r, term, trunc, info = wrapped.step(illegal)
    assert (r, term, info["illegal_action"]) == (-3.0, True, True)


def test_episode_deal_rewards_are_recorded_points():
    """Deal episodes: the reward of an episode is the learner side's recorded points."""
    from cardsim.debertz import layout as L
    env = gym.make("cardsim/Debertz-v0", reward_scale=1.0).unwrapped
    rng = np.random.default_rng(3)
    env.reset(seed=3)
    for _ in range(20):
        total = random_episode_reward(env, rng)
        st = env.state
        expected = 0 if st[L.END] == L.END_VOID else st[L.RECORDED + env.seat]
        assert total == expected
        env.reset()


def test_game_episode_reward_sums_to_final_score():
    from cardsim.barbu import layout as L
    env = gym.make("cardsim/Barbu-v0", episode="game", reward_scale=1.0, seat=1).unwrapped
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    total = random_episode_reward(env, rng)
    assert env.state[L.PHASE] == L.PH_MATCH_OVER
    assert total == env.state[L.SCORES + 1]


class FirstLegal:
    """A Python agent on observation vectors: always the lowest legal action."""

    def __init__(self):
        self.calls = 0
        self.seen_shape = None

    def reset(self, seed):
        self.seed = seed

    def act(self, observations, legal_masks):
        self.calls += 1
        self.seen_shape = observations.shape
        return legal_masks.argmax(axis=1)


def test_python_and_compiled_opponents():
    agent = FirstLegal()
    env = gym.make("cardsim/Barbu-v0", opponents=agent).unwrapped
    play_random(env, 60)
    assert agent.calls > 0 and agent.seen_shape == (1, env.kit.observer.OBS_SIZE)
    from agents.registry import make_agent
    compiled = make_agent("random", "debertz")
    env = gym.make("cardsim/Debertz-v0", players=3, opponents=[None, compiled, agent]).unwrapped
    play_random(env, 60)


class WrappedHeuristic:
    """A Python opponent asking the compiled heuristic's act."""

    def __init__(self, game):
        from agents.registry import make_agent
        self.inner = make_agent("heuristic", game)
        self.calls = 0

    def act(self, observations, legal_masks):
        self.calls += 1
        return self.inner.act(observations, legal_masks)


def trajectory(env, steps):
    """Observations and rewards of the learner under the first-legal policy."""
    out = []
    obs, info = env.reset(seed=4)
    for _ in range(steps):
        obs, reward, term, _, info = env.step(int(info["action_mask"].argmax()))
        out.append((obs.copy(), reward))
        if term:
            obs, info = env.reset()
    return out


@pytest.mark.parametrize("game, kw", [("debertz", dict(players=2)),
                                      ("debertz", dict(players=4, teams=True)),
                                      ("barbu", dict())])
def test_compiled_opponents_by_spec_object_or_python_wrapper_play_alike(game, kw):
    """opponents="heuristic" steps the heuristic inside the compiled step; the agent object
    does the same, and a Python agent calling the heuristic's act sees the same games."""
    from agents.registry import make_agent
    env_id = f"cardsim/{game.capitalize()}-v0"
    by_spec = gym.make(env_id, opponents="heuristic", observation_mode="vector", **kw).unwrapped
    assert by_spec._seat_kinds()[1][1] == make_agent("heuristic", game).kind
    by_object = gym.make(env_id, opponents=make_agent("heuristic", game),
                         observation_mode="vector", **kw).unwrapped
    wrapper = WrappedHeuristic(game)
    by_python = gym.make(env_id, opponents=wrapper, observation_mode="vector", **kw).unwrapped
    a, b, c = (trajectory(e, 300) for e in (by_spec, by_object, by_python))
    assert wrapper.calls > 100
    for (oa, ra), (ob, rb), (oc, rc) in zip(a, b, c):
        assert np.array_equal(oa, ob) and np.array_equal(oa, oc) and ra == rb == rc
    random_env = gym.make(env_id, observation_mode="vector", **kw).unwrapped
    assert any(not np.array_equal(x[0], y[0]) for x, y in zip(a, trajectory(random_env, 300)))


def test_unknown_opponent_spec_is_a_clear_error():
    with pytest.raises(InvalidConfigError, match="unknown barbu agent 'genius'"):
        gym.make("cardsim/Barbu-v0", opponents="genius")
    with pytest.raises(InvalidConfigError, match="unknown debertz agent"):
        gym.make("cardsim/Debertz-v0", opponents=[None, "nobody"])


def test_bad_arguments_are_clear():
    with pytest.raises(InvalidConfigError, match="players"):
        gym.make("cardsim/Debertz-v0", players=5)
    with pytest.raises(InvalidConfigError, match="episode"):
        gym.make("cardsim/Barbu-v0", episode="match")
    with pytest.raises(InvalidConfigError, match="seat"):
        gym.make("cardsim/Debertz-v0", seat=2)


@pytest.mark.parametrize("env_id", ["cardsim/Debertz-v0", "cardsim/Barbu-v0"])
def test_reset_in_mid_episode_starts_a_proper_game(env_id):
    env = gym.make(env_id).unwrapped
    L = env.kit.layout
    env.reset(seed=2)
    for k in range(5):
        for _ in range(3):
            env.step(env.action_space.sample())
        env.reset()
        assert 0 <= env.state[L.DEALER] < env.n_players
        assert env.state[L.TURN] == env.seat
    play_random(env, 100)


@pytest.mark.parametrize("owed", [2, 5])
def test_barbu_owed_doubles_piece_stays_in_its_space(owed):
    # B6.3: "owed" is each seat's doubles still owed over those owed at a declarer's start
    # (two under the rules file), so the doubles_owed variant keeps it inside the Box.
    env = gym.make("cardsim/Barbu-v0", episode="game", doubles_owed=owed).unwrapped
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    assert sorted(obs["owed"].tolist()) == [0.0, 1.0, 1.0, 1.0]
    for _ in range(60):
        action = int(np.flatnonzero(info["action_mask"])[0])
        obs, _, done, _, info = env.step(action)
        assert env.observation_space.contains(obs)
        if done:
            break
