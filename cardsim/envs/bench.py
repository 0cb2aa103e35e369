"""Throughput of the environments: ``python -m cardsim.envs.bench [--batch 4096 --threads 2]``.

Prints decisions per second of the batched self-play API (with and without observation
vectors; the policy is "lowest legal action", one numpy argmax per step, included in the
time) and learner steps per second of the single Gymnasium environments (random opponents in
compiled code, then heuristic opponents, also stepped inside the compiled step; the learner's
policy is the same argmax).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from cardsim.games import GAMES
from cardsim.runtime import load_after, load_before


def bench_batch(game: str, batch: int, threads: int, observations: bool, seconds: float) -> float:
    """Decisions per second of a ``SelfPlayBatch`` of ``batch`` games of ``game`` on ``threads``
    numba threads, with or without ``observations``, stepped for ``seconds`` after 20 warm-up
    steps; every game plays its lowest legal action."""
    from cardsim.envs.selfplay import SelfPlayBatch

    b = SelfPlayBatch(game, batch, seed=1, threads=threads, observations=observations,
                      check_actions=False)
    r = b.reset()
    actions = np.zeros(batch, dtype=np.int64)
    for _ in range(20):
        np.argmax(r.legal, axis=1, out=actions)
        r = b.step(actions)
    n = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        np.argmax(r.legal, axis=1, out=actions)
        r = b.step(actions)
        n += 1
    return n * batch / (time.perf_counter() - t0)


def bench_gym(env_id: str, seconds: float, **kwargs) -> float:
    """Learner steps per second of the Gymnasium environment ``env_id`` (``kwargs`` to
    ``gym.make``) over ``seconds`` after 2000 warm-up steps; the learner plays its lowest legal
    action."""
    import gymnasium as gym

    import cardsim.envs  # noqa: F401

    env = gym.make(env_id, **kwargs).unwrapped
    env.reset(seed=0)
    n = 0
    t0 = None
    while True:
        _, _, term, _, _ = env.step(int(env.action_masks().argmax()))
        if term:
            env.reset()
        n += 1
        if t0 is None and n == 2000:  # warm-up done
            t0, n = time.perf_counter(), 0
        if t0 is not None and time.perf_counter() - t0 > seconds:
            return n / (time.perf_counter() - t0)


def main(argv=None) -> None:
    """Print the throughput of the batched self-play API and of the Gymnasium environments for both
    games (options from ``argv``: ``--batch``, ``--threads``, ``--seconds``), with the load average
    before and after."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--batch", type=int, default=4096)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--seconds", type=float, default=4.0)
    args = p.parse_args(argv)
    load_before()
    for game in GAMES:
        for obs in (True, False):
            rate = bench_batch(game, args.batch, args.threads, obs, args.seconds)
            print(f"self-play {game:<8} batch {args.batch} threads {args.threads} "
                  f"observations {str(obs):<5}: {rate:>12,.0f} decisions/s")
    for env_id in ("cardsim/Debertz-v0", "cardsim/Barbu-v0"):
        for opponents in ("random", "heuristic"):
            for mode in ("vector", "dict"):
                rate = bench_gym(env_id, args.seconds, observation_mode=mode,
                                 opponents=opponents)
                print(f"gymnasium {env_id:<20} opponents {opponents:<9} observation "
                      f"{mode:<6}: {rate:>10,.0f} steps/s")
    load_after()


if __name__ == "__main__":
    main()
