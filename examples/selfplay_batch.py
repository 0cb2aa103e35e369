"""Batched self-play: 1024 games of 3-player Debertz stepped together, every seat played by
the caller (here: random legal actions).

    python examples/selfplay_batch.py [--games N] [--steps N]
"""

import argparse

import numpy as np

from cardsim.envs import SelfPlayBatch


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=200)
    args = parser.parse_args()
    batch = SelfPlayBatch("debertz", args.games, players=3, seed=0)
    step = batch.reset()
    rng = np.random.default_rng(0)
    points, episodes = np.zeros(4), 0
    for _ in range(args.steps):
        # one random legal action per game, for whichever seat is to act in it
        choice = (rng.random(step.legal.shape) * step.legal).argmax(axis=1)
        step = batch.step(choice)
        points += step.rewards.sum(axis=0)
        episodes += int(step.done.sum())
    print("observations", step.obs.shape, "legal masks", step.legal.shape)
    print(f"{episodes} deals ended; reward per seat {points.round(1)}")


if __name__ == "__main__":
    main()
