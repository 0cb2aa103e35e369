"""Training throughput end to end: ``python -m experiments.bench.train``.

Runs iterations of a training config (default: configs/train/debertz_2p_dmc.yaml, the
default network) in a temporary run directory, without evaluation, and prints per
iteration the self-play decisions per second (decisions played over the iteration's wall
time: engine steps, the batched forwards, the episode buffer, the solver's labels with
``distill`` and every gradient step), the samples learnt from per second and, with
``distill``, the positions labelled per second. Then it times the parts of one iteration
apart: the engine alone (random legal actions), the engine with the network's forward, the
solver's labels alone (``distill``) and the learner's gradient steps alone.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np
import yaml


def main(argv=None) -> None:
    """Run the training benchmark of the module docstring with the options of ``argv``
    (``--config``, ``--iterations``, ``--steps``, ``--threads``) and print its figures; nothing is
    kept (a temporary run directory). Needs torch."""
    p = argparse.ArgumentParser(prog="python -m experiments.bench.train",
                                description=__doc__.splitlines()[0])
    p.add_argument("--config", default=str(Path(__file__).resolve().parents[2] / "configs"
                                           / "train" / "debertz_2p_dmc.yaml"))
    p.add_argument("--iterations", type=int, default=4)
    p.add_argument("--steps", type=int, default=None, help="steps_per_iteration")
    p.add_argument("--threads", type=int, default=2, help="torch and numba threads")
    args = p.parse_args(argv)

    import torch

    from experiments.train.config import config_from_dict
    from experiments.train.loop import Trainer, iteration_seeds

    data = yaml.safe_load(Path(args.config).read_text())
    data.update(iterations=args.iterations, eval_every=0, torch_threads=args.threads,
                numba_threads=args.threads)
    if args.steps:
        data["steps_per_iteration"] = args.steps
    cfg = config_from_dict(data)
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "checkpoints").mkdir()
        trainer = Trainer(Path(tmp), cfg, torch.device(cfg.device))
        print(f"{cfg.name}: {cfg.num_games} games x {cfg.steps_per_iteration} steps per "
              f"iteration, network {cfg.hidden}, {args.threads} torch + numba threads")
        trainer.evaluate = lambda: {}
        for _ in range(args.iterations):
            row = trainer._one_iteration()
            labelled = (f", {row['labelled'] / row['seconds']:,.0f} positions labelled/s"
                        if "labelled" in row else "")
            print(f"iteration {row['iteration']}: {row['decisions_per_s']:,.0f} decisions/s, "
                  f"{row['samples'] / row['seconds']:,.0f} samples learnt/s{labelled} "
                  f"({row['seconds']:.1f} s)")

        # the parts apart, on one iteration's worth of steps
        batch, algo, steps = trainer.batch, trainer.algo, cfg.steps_per_iteration
        _, rng = iteration_seeds(cfg.seed, 0)
        from cardsim.envs.selfplay import random_legal_actions

        s = batch.reset(1)
        t0 = time.perf_counter()
        for _ in range(steps):
            s = batch.step(random_legal_actions(s.legal, rng))
        engine = time.perf_counter() - t0
        s = batch.reset(1)
        t0 = time.perf_counter()
        for _ in range(steps):
            s = batch.step(algo.choose(s.obs, s.legal, rng)[0])
        acting = time.perf_counter() - t0
        n = steps * cfg.num_games
        print(f"engine alone (random actions): {n / engine:,.0f} decisions/s; engine + "
              f"forward: {n / acting:,.0f} decisions/s")
        if cfg.algorithm == "distill":
            s = batch.reset(1)
            rows = np.arange(cfg.num_games)
            draws = np.arange(cfg.num_games, dtype=np.uint64)
            labelled, seconds = 0, 0.0
            for _ in range(steps):
                t0 = time.perf_counter()
                labels = algo.labels(batch, rows, draws)
                seconds += time.perf_counter() - t0
                labelled += int((~np.isnan(labels)).any(axis=1).sum())
                s = batch.step(random_legal_actions(s.legal, rng))
            print(f"solver labels alone: {labelled / seconds:,.0f} positions labelled/s "
                  f"({labelled:,} of {n:,} decisions of random play)")
        if cfg.algorithm in ("dmc", "distill"):
            from experiments.train.episodes import Samples

            k = algo.args.batch_size
            gen = np.random.default_rng(0)
            obs = gen.random((k, batch.obs_size), dtype=np.float32)
            extra = np.zeros((k, *algo.extra_shape(batch.num_actions)), np.float32)
            if cfg.algorithm == "distill":  # half the rows labelled, as in Debertz play
                extra[k // 2:] = np.nan
            sample = Samples(obs, np.ones((k, batch.num_actions), bool),
                             np.zeros(k, np.int64), np.zeros(k, np.float32), extra)
            t0 = time.perf_counter()
            for _ in range(10):
                algo.learn(sample)
            print(f"gradient steps alone: {10 * k / (time.perf_counter() - t0):,.0f} "
                  f"samples/s")


if __name__ == "__main__":
    main()
