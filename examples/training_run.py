"""A small training run from Python: DMC self-play for 2-player Debertz, its metrics and
learning curve, then the trained network in a tournament against random play.

    python examples/training_run.py [--iterations N] [--games N] [--out DIR]

Needs torch (pip install -e '.[neural]'). The same run from the command line is
``cardsim train CONFIG.yaml`` with the config this script writes.
"""

import argparse
import json
from pathlib import Path

import yaml

from cardsim.debertz.rules import DebertzRules
from experiments.train.loop import format_summary, start_training
from experiments.tournaments.tournament import format_table, tournament


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=8)
    parser.add_argument("--games", type=int, default=256)
    parser.add_argument("--out", default="runs")
    args = parser.parse_args()

    config = dict(name="example-dmc", game="debertz", rules={"players": 2}, algorithm="dmc",
                  num_games=args.games, steps_per_iteration=64, iterations=args.iterations,
                  eval_every=max(1, args.iterations // 2), eval_deals=500,
                  eval_opponents=["random"], torch_threads=1, numba_threads=1)
    Path(args.out).mkdir(parents=True, exist_ok=True)
    config_path = Path(args.out) / "example-dmc.yaml"
    config_path.write_text(yaml.safe_dump(config))

    run_dir, summary = start_training(config_path, args.out)
    print(format_summary(summary))

    # one line per iteration; evaluations carry the difference against each opponent
    for line in (run_dir / "metrics.jsonl").read_text().splitlines():
        m = json.loads(line)
        if "eval" in m:
            print(f"iteration {m['iteration']}: {m['total_decisions']:,} decisions, "
                  f"loss {m['loss']:.3f}, against random "
                  f"{m['eval']['random']['difference']:+.2f}")
    print("learning curve:", run_dir / "plots" / "learning_curve.png")

    network = f"neural:checkpoint={run_dir},label=network"
    result = tournament("debertz", DebertzRules(), [network, "random"], deals=2000)
    print(format_table(result))


if __name__ == "__main__":
    main()
