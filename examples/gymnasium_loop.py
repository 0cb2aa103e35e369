"""One learning seat in the Gymnasium environment, against the heuristic, playing random
legal actions.

    python examples/gymnasium_loop.py [--episodes N]
"""

import argparse

import gymnasium as gym
import numpy as np

import cardsim.envs  # noqa: F401  registers cardsim/Debertz-v0 and cardsim/Barbu-v0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=5)
    args = parser.parse_args()
    env = gym.make("cardsim/Debertz-v0", players=2, opponents="heuristic")
    rng = np.random.default_rng(0)
    for episode in range(args.episodes):
        obs, info = env.reset(seed=episode)
        total, steps, done = 0.0, 0, False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
            total += reward
            steps += 1
            done = terminated or truncated
        print(f"episode {episode}: {steps} decisions, reward {total:+.2f}")


if __name__ == "__main__":
    main()
