"""Helpers shared by the environment tests."""

import numpy as np


def play_random(env, n_steps, seed=0):
    """Random legal play for n_steps learner decisions; returns the trajectory."""
    rng = np.random.default_rng(seed)
    traj = []
    obs, info = env.reset(seed=seed)
    for _ in range(n_steps):
        legal = np.flatnonzero(env.action_masks())
        a = int(rng.choice(legal))
        obs, r, term, trunc, info = env.step(a)
        vec = np.concatenate(list(obs.values())) if isinstance(obs, dict) else obs
        traj.append((a, r, term, vec.copy()))
        if term or trunc:
            obs, info = env.reset()
    return traj


def random_episode_reward(env, rng):
    """The learner's reward summed over the rest of an episode of random legal play."""
    total = 0.0
    while True:
        _, r, term, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        total += r
        if term:
            return total
