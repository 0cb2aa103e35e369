"""Action ids are integers: a float such as 33.9, a bool or a string given as an action is a
typed error in every environment, never truncated to another action."""

import gymnasium as gym
import numpy as np
import pytest

from cardsim.envs.actions import action_id, action_ids
from cardsim.errors import IllegalActionError

NOT_IDS = [33.9, -0.5, float("nan"), True, "3", None, np.array([1, 2]), [1.5]]


@pytest.mark.parametrize("given, expected", [(3, 3), (np.int64(4), 4), (5.0, 5),
                                             (np.float32(6.0), 6), (np.array([7]), 7),
                                             ([8], 8)])
def test_integer_ids_in_any_form_are_taken(given, expected):
    assert action_id(given) == expected and type(action_id(given)) is int


@pytest.mark.parametrize("given", NOT_IDS, ids=repr)
def test_what_is_not_an_integer_id_is_refused(given):
    with pytest.raises(IllegalActionError, match="integer id"):
        action_id(given)


def test_batches_of_ids():
    assert action_ids(np.array([1.0, 2.0])).dtype == np.int64
    with pytest.raises(IllegalActionError, match="action 1 is 2.5"):
        action_ids(np.array([1.0, 2.5]))
    with pytest.raises(IllegalActionError, match="integer ids"):
        action_ids(np.array([True, False]))


def test_gym_env_refuses_a_fractional_action():
    env = gym.make("cardsim/Debertz-v0").unwrapped
    env.reset(seed=1)
    legal = int(np.flatnonzero(env.action_masks())[0])
    with pytest.raises(IllegalActionError, match="integer id, got 33.9"):
        env.step(33.9)
    with pytest.raises(IllegalActionError, match="integer id"):
        env.step(legal + 0.5)  # would have played ``legal`` before
    env.step(float(legal))  # a whole number in a float is that action


def test_pettingzoo_and_selfplay_refuse_a_fractional_action():
    pytest.importorskip("pettingzoo")
    from cardsim.envs.aec import DebertzAECEnv
    from cardsim.envs.selfplay import SelfPlayBatch

    env = DebertzAECEnv()
    env.reset(seed=0)
    with pytest.raises(IllegalActionError, match="integer id"):
        env.step(33.9)
    b = SelfPlayBatch("barbu", 2, seed=0)
    r = b.reset()
    good = np.array([np.flatnonzero(r.legal[i])[0] for i in range(2)], dtype=np.float64)
    with pytest.raises(IllegalActionError, match="integer ids"):
        b.step(good + 0.25)
