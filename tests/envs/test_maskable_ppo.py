"""Smoke test: sb3-contrib MaskablePPO trains a few thousand steps on each Gymnasium env."""

import gymnasium as gym
import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
torch = pytest.importorskip("torch")

from sb3_contrib import MaskablePPO  # noqa: E402


@pytest.mark.parametrize("env_id,kwargs", [
    ("cardsim/Debertz-v0", {"observation_mode": "vector"}),
    ("cardsim/Barbu-v0", {"observation_mode": "vector"}),
    ("cardsim/Debertz-v0", {"players": 3}),  # Dict observation: MultiInputPolicy
])
def test_maskable_ppo_smoke(env_id, kwargs):
    torch.set_num_threads(1)
    env = gym.make(env_id, **kwargs)
    policy = "MlpPolicy" if kwargs.get("observation_mode") == "vector" else "MultiInputPolicy"
    model = MaskablePPO(policy, env, n_steps=256, batch_size=64, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [32]}, device="cpu")
    model.learn(total_timesteps=1024 if policy == "MultiInputPolicy" else 2048)
    obs, _ = env.reset(seed=1)
    for _ in range(50):
        action, _ = model.predict(obs, action_masks=env.unwrapped.action_masks(),
                                  deterministic=True)
        obs, r, term, trunc, _ = env.step(int(action))
        if term:
            obs, _ = env.reset()
    assert np.isfinite(r)
