"""What Ray costs against local threads: ``python -m experiments.bench.ray``.

Plays ``--deals`` Debertz deals (default rules) with the heuristic in every seat, locally with
``--cpus`` numba threads and as Ray tasks on a local Ray instance of ``--cpus`` CPUs, for each
chunk size of ``--chunks``; local and Ray runs alternate (A/B, ``--repeats`` times) so that a
machine whose speed drifts slows both alike. Prints, per chunk size, the median overhead of Ray
over local (wall time of ``simulate``, Ray workers already started), then the start-up of the
Ray instance, the rate at which the driver takes in finished tasks (empty tasks: Ray's round
trip and the merge alone; then with each chunk's file written, as a run directory does) and,
from these, how many workers one driver keeps busy at each chunk size.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from cardsim.runtime import load_after, load_before


def _empty_stats(num_stats, task, n_threads):
    """A task that plays nothing: what is left is Ray's round trip and the driver's merge."""
    return {"stats": np.zeros(num_stats, dtype=np.int64), "seconds": 0.0, "history": None}


def merge_rate(executor, num_stats: int, tasks: int, folder: Path | None) -> float:
    """Finished tasks the driver takes in per second (summing each chunk's statistics, and
    with ``folder`` writing each chunk's file atomically as a run does)."""
    from experiments.runs.files import atomic_save_npz

    total = np.zeros(num_stats, dtype=np.int64)
    t0 = time.perf_counter()
    for (lo, hi), part in executor.map(_empty_stats, num_stats, [(i, i + 1) for i in
                                                                  range(tasks)]):
        total += part["stats"]
        if folder is not None:
            atomic_save_npz(folder / f"items-{lo}-{hi}.npz", stats=part["stats"],
                            seconds=np.array(part["seconds"]))
    return tasks / (time.perf_counter() - t0)


_BREAKDOWN = """
import json, sys, time
t0 = time.perf_counter()
from experiments.cli import make_rules
from experiments.runs.executor import RayExecutor
from experiments.runs.simulate import simulate
ex = RayExecutor()
summary = simulate("debertz", make_rules("debertz"), ["heuristic"], 1, hands=int(sys.argv[1]),
                   executor=ex, chunk=int(sys.argv[2]))
print(json.dumps({"startup_s": ex.startup_s, "first_result_s": ex.first_result_s,
                  "compile_s": ex.compile_s, "tasks_compiled": ex.tasks_compiled,
                  "total_s": time.perf_counter() - t0}))
"""


def _timed(command: list, env: dict) -> tuple[float, str]:
    """Wall seconds of ``command`` in a new process, and its standard output."""
    t0 = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return time.perf_counter() - t0, done.stdout


def first_result(args) -> None:
    """The ``--first-result`` measurement of the module docstring."""
    simulate = [sys.executable, "-m", "experiments.cli", "simulate", "debertz", "--agents",
                "heuristic", "--hands", str(args.deals), "--json"]
    commands = {"local": simulate + ["--threads", str(args.cpus)], "ray": simulate + ["--ray"]}
    walls: dict = {"local": [], "ray": []}
    compiled: dict = {"local": [], "ray": []}
    breakdown = []
    load_before(f"; {args.deals:,} deals, {'cold' if args.cold else 'warm'} compiled cache")
    with tempfile.TemporaryDirectory(prefix="cardsim-bench-cache-") as tmp:
        env = dict(os.environ)
        if args.cold:
            env["CARDSIM_CACHE_DIR"] = tmp
        else:  # warm every kernel here and in the cache first
            subprocess.run(commands["local"], env=env, capture_output=True, check=True)
        for _ in range(args.repeats):
            for where in ("local", "ray"):
                if args.cold:  # every command compiles from nothing
                    shutil.rmtree(tmp)
                    os.mkdir(tmp)
                seconds, out = _timed(commands[where], env)
                walls[where].append(seconds)
                compiled[where].append(json.loads(out)["compile_s"])
            if not args.cold:
                _, out = _timed([sys.executable, "-c", _BREAKDOWN, str(args.deals),
                                 str(65_536)], env)
                breakdown.append(json.loads(out))
    for where in ("local", "ray"):
        print(f"{where:>5}: command wall median {statistics.median(walls[where]):.1f} s (each: "
              + ", ".join(f"{w:.1f}" for w in walls[where]) + " s); compile_s reported: "
              + ", ".join(str(c) for c in compiled[where]))
    if breakdown:
        med = {k: statistics.median(b[k] for b in breakdown) for k in breakdown[0]}
        print(f"  ray, in one process (median of {len(breakdown)}): starting the local "
              f"instance {med['startup_s']:.1f} s, the first task's result "
              f"{med['first_result_s']:.1f} s after submitting, all {args.deals:,} deals "
              f"{med['total_s']:.1f} s from the start of the process; workers compiled "
              f"{med['compile_s']:.1f} s in {med['tasks_compiled']:.0f} tasks")
    load_after()


def main(argv=None) -> None:
    """Run the Ray benchmark of the module docstring with the options of ``argv`` (``--deals``,
    ``--chunks``, ``--repeats``, ``--cpus``, ``--merge-tasks``) on a local Ray instance and print
    its figures. Needs the ``ray`` extra."""
    p = argparse.ArgumentParser(prog="python -m experiments.bench.ray",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--deals", type=int, default=1_000_000)
    p.add_argument("--chunks", type=int, nargs="+", default=[262_144, 131_072, 65_536, 16_384])
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--cpus", type=int, default=2)
    p.add_argument("--merge-tasks", type=int, default=2000)
    p.add_argument("--first-result", action="store_true",
                   help="time the simulate command locally and with --ray, each a new process")
    p.add_argument("--cold", action="store_true",
                   help="with --first-result: from an empty compiled cache each time")
    args = p.parse_args(argv)
    if args.first_result:
        if args.deals == p.get_default("deals"):
            args.deals = 200_000
        first_result(args)
        return

    import ray

    from experiments.cli import make_rules
    from experiments.runs.executor import RayExecutor
    from experiments.runs.simulate import simulate

    rules = make_rules("debertz")
    num_stats = rules.game.num_stats
    load_before()
    t0 = time.perf_counter()
    ray.init(num_cpus=args.cpus, include_dashboard=False, log_to_driver=False,
             logging_level="error")
    startup = time.perf_counter() - t0
    ex = RayExecutor()

    def local():
        return simulate("debertz", rules, ["heuristic"], 1, hands=args.deals,
                        n_threads=args.cpus)

    def on_ray(chunk):
        with ex:
            return simulate("debertz", rules, ["heuristic"], 1, hands=args.deals,
                            executor=ex, chunk=chunk)

    # compile or load numba's cache here and in every worker before timing
    simulate("debertz", rules, ["heuristic"], 1, hands=1000, n_threads=args.cpus)
    with ex:
        simulate("debertz", rules, ["heuristic"], 1, hands=4 * args.cpus * 100, executor=ex,
                 chunk=100)
    single_core = []
    for chunk in args.chunks:
        overheads, rates = [], []
        for _ in range(args.repeats):
            a = local()
            b = on_ray(chunk)
            assert a["mean_round_points"] == b["mean_round_points"]  # the same deals
            overheads.append(b["seconds"] / a["seconds"] - 1)
            rates.append((a["deals_per_s"], b["deals_per_s"]))
        single_core.append((chunk, statistics.median(r[1] for r in rates) / args.cpus))
        tasks = -(-args.deals // chunk)
        print(f"chunk {chunk:>7,} ({tasks:>3} tasks): Ray overhead median "
              f"{100 * statistics.median(overheads):+.1f}% (each: "
              + ", ".join(f"{100 * o:+.1f}%" for o in overheads) + "); deals/s local "
              + ", ".join(f"{r[0]:,}" for r in rates) + " | Ray "
              + ", ".join(f"{r[1]:,}" for r in rates))
    print(f"Ray start-up (ray.init, {args.cpus} CPUs, local instance): {startup:.1f} s")
    with ex:
        plain = merge_rate(ex, num_stats, args.merge_tasks, None)
        with tempfile.TemporaryDirectory() as tmp:
            kept = merge_rate(ex, num_stats, args.merge_tasks, Path(tmp))
    print(f"driver merge rate: {plain:,.0f} tasks/s (Ray round trip + merge), "
          f"{kept:,.0f} tasks/s with each chunk's file written (a run directory)")
    for chunk, rate in single_core:
        task_s = chunk / rate
        print(f"chunk {chunk:>7,}: a task takes {task_s:.2f} s on one CPU "
              f"({rate:,.0f} deals/s); one driver keeps about {kept * task_s:,.0f} workers "
              f"busy ({kept * chunk:,.0f} deals/s) before merging limits the run")
    ray.shutdown()
    load_after()


if __name__ == "__main__":
    main()
