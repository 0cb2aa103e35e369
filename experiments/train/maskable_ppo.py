"""Train sb3-contrib MaskablePPO on Debertz (2 players) against random opponents.

Read top to bottom: arguments (a dataclass), the environment, periodic evaluation against the
engine's random policy (win rate over short games and mean recorded points per deal, with the
random policy's own figures from the same seats as the baseline), the learning curve as a PNG
and metrics as JSON lines in the run directory.

    python experiments/train/maskable_ppo.py                      # small default budget
    python experiments/train/maskable_ppo.py --timesteps 300000 --out runs/ppo_debertz

Needs the ``rl`` extra (sb3-contrib, stable-baselines3, matplotlib).
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import gymnasium as gym
import numpy as np

import cardsim.envs  # noqa: F401  (registers cardsim/Debertz-v0)
from cardsim.debertz import layout as L


@dataclass
class Args:
    """The script's arguments, each also a command-line option (``--eval-every``); their comments
    give units."""
    timesteps: int = 60_000        # learner decisions to train on
    eval_every: int = 10_000       # evaluate after this many decisions
    eval_games: int = 40           # games per evaluation (short games: eval_target)
    eval_target: int = 151         # target of the evaluation games (D11)
    players: int = 2               # Debertz players (D1)
    n_steps: int = 1024            # PPO rollout length
    batch_size: int = 256
    learning_rate: float = 3e-4
    net: int = 128                 # hidden units per layer (two layers)
    seed: int = 0
    threads: int = 1               # torch threads
    out: str = "runs/maskable_ppo_debertz"


def parse_args() -> Args:
    """``Args`` from the command line: one option per field, of the field's type and default."""
    p = argparse.ArgumentParser(prog="python -m experiments.train.maskable_ppo",
                                description=__doc__.split("\n\n")[0])
    for f in fields(Args):
        p.add_argument("--" + f.name.replace("_", "-"), type=type(f.default), default=f.default)
    return Args(**vars(p.parse_args()))


def make_env(args: Args, **kw):
    """The Gymnasium Debertz environment trained on: ``args.players`` players, flat vector
    observations, random opponents; ``kw`` goes to ``gym.make``."""
    return gym.make("cardsim/Debertz-v0", players=args.players, observation_mode="vector", **kw)


def evaluate(policy, args: Args, seed: int) -> dict:
    """Play ``eval_games`` games to ``eval_target`` as seat 0 against random opponents.
    ``policy(obs, mask) -> action``; None plays uniformly at random (the baseline)."""
    env = make_env(args, episode="game", target=args.eval_target, reward_scale=1.0)
    rng = np.random.default_rng(seed)
    wins = points = deals = 0
    for g in range(args.eval_games):
        obs, _ = env.reset(seed=seed * 100_000 + g)
        while True:
            mask = env.unwrapped.action_masks()
            a = int(rng.choice(np.flatnonzero(mask))) if policy is None else policy(obs, mask)
            obs, r, term, _, _ = env.step(a)
            points += r
            if term:
                break
        st = env.unwrapped.state
        deals += int(st[L.DEAL_NO]) + 1
        wins += int(0 in env.unwrapped.kit.winning_seats(env.unwrapped.rules, st))
    return {"win_rate": wins / args.eval_games, "points_per_deal": points / max(1, deals)}


def main(args: Args | None = None) -> Path:
    """Train MaskablePPO for ``args.timesteps`` learner decisions (``parse_args()`` when None),
    evaluating every ``args.eval_every``; writes ``config.json``, ``metrics.jsonl``, ``model.zip``
    and ``learning_curve.png`` to ``args.out`` and returns that directory."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    args = args or parse_args()
    torch.set_num_threads(args.threads)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.json").write_text(json.dumps(asdict(args), indent=2))
    metrics_path = out / "metrics.jsonl"
    metrics_path.write_text("")
    env = make_env(args)
    model = MaskablePPO("MlpPolicy", env, n_steps=args.n_steps, batch_size=args.batch_size,
                        learning_rate=args.learning_rate, seed=args.seed, device="cpu",
                        policy_kwargs={"net_arch": [args.net, args.net]}, verbose=0)

    def policy(obs, mask):
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        return int(action)

    baseline = evaluate(None, args, seed=1)
    curve = []

    def record(step: int):
        row = {"timesteps": step, **evaluate(policy, args, seed=1),
               "baseline_win_rate": baseline["win_rate"],
               "baseline_points_per_deal": baseline["points_per_deal"],
               "elapsed_s": round(time.perf_counter() - t0, 1)}
        curve.append(row)
        with metrics_path.open("a") as fh:
            fh.write(json.dumps(row) + "\n")
        print(f"step {step:>8}: win rate {row['win_rate']:.2f} (random {baseline['win_rate']:.2f})"
              f"  points/deal {row['points_per_deal']:.1f} "
              f"(random {baseline['points_per_deal']:.1f})", flush=True)

    class EvalCallback(BaseCallback):
        def _on_step(self) -> bool:
            if self.num_timesteps % args.eval_every == 0:
                record(self.num_timesteps)
            return True

    t0 = time.perf_counter()
    record(0)
    model.learn(total_timesteps=args.timesteps, callback=EvalCallback())
    model.save(out / "model.zip")
    plot(curve, out / "learning_curve.png")
    print(f"wrote {out}/learning_curve.png, metrics.jsonl, model.zip")
    return out


def plot(curve: list[dict], path: Path) -> None:
    """Write the learning curve ``curve`` (rows of ``metrics.jsonl``) to the PNG ``path``: points
    per deal and win rate against learner decisions, the random policy's as dashed lines."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = [r["timesteps"] for r in curve]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    ax1.plot(steps, [r["points_per_deal"] for r in curve], marker="o", label="MaskablePPO")
    ax1.axhline(curve[0]["baseline_points_per_deal"], color="grey", ls="--", label="random")
    ax1.set(xlabel="learner decisions", ylabel="recorded points per deal",
            title="Debertz vs random: points")
    ax2.plot(steps, [r["win_rate"] for r in curve], marker="o", label="MaskablePPO")
    ax2.axhline(curve[0]["baseline_win_rate"], color="grey", ls="--", label="random")
    ax2.set(xlabel="learner decisions", ylabel="win rate", ylim=(0, 1),
            title="Debertz vs random: games won")
    for ax in (ax1, ax2):
        ax.legend()
        ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


if __name__ == "__main__":
    main()
