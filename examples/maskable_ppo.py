"""sb3-contrib's MaskablePPO on the Gymnasium environment: one seat of 2-player Debertz
against the heuristic, then the mean reward per deal before and after training.

    python examples/maskable_ppo.py [--timesteps N]

Needs the rl extra (pip install -e '.[rl]'). experiments/train/maskable_ppo.py is a longer
version with periodic evaluation and a learning curve.
"""

import argparse

import gymnasium as gym
import numpy as np
from sb3_contrib import MaskablePPO

import cardsim.envs  # noqa: F401  registers cardsim/Debertz-v0 and cardsim/Barbu-v0


def mean_reward(env, policy, deals: int, seed: int) -> float:
    """Mean reward per deal (recorded points x 0.01) of ``policy(obs, mask)``."""
    total = 0.0
    for deal in range(deals):
        obs, info = env.reset(seed=seed + deal)
        done = False
        while not done:
            obs, reward, terminated, truncated, info = env.step(
                policy(obs, info["action_mask"]))
            total += reward
            done = terminated or truncated
    return total / deals


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timesteps", type=int, default=5000)
    parser.add_argument("--deals", type=int, default=200)
    args = parser.parse_args()
    env = gym.make("cardsim/Debertz-v0", players=2, opponents="heuristic",
                   observation_mode="vector")
    model = MaskablePPO("MlpPolicy", env, n_steps=512, batch_size=128, seed=0, verbose=0)

    rng = np.random.default_rng(0)
    random_play = mean_reward(env, lambda obs, mask: int(rng.choice(np.flatnonzero(mask))),
                              args.deals, seed=10**6)
    model.learn(total_timesteps=args.timesteps)
    trained = mean_reward(env, lambda obs, mask: int(model.predict(
        obs, action_masks=mask, deterministic=True)[0]), args.deals, seed=10**6)
    print(f"mean reward per deal against the heuristic, {args.deals} deals: "
          f"random play {random_play:+.3f}, MaskablePPO after {args.timesteps:,} "
          f"decisions {trained:+.3f}")


if __name__ == "__main__":
    main()
