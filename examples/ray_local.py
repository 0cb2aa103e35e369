"""The same tournament played locally and as tasks on a Ray instance started on this machine:
the results are identical, only the timings differ (how long each took, and each agent's
microseconds per decision).

    python examples/ray_local.py [--deals N] [--workers N]

Needs the ray extra (pip install -e '.[ray]'). On a cluster, pass its address instead
(RayExecutor("auto") on a machine of the cluster, or "HOST:PORT"); from the command line,
``cardsim tournament ... --ray [ADDRESS]``.
"""

import argparse
import time

from cardsim.debertz.rules import DebertzRules
from experiments.runs.executor import RayExecutor
from experiments.tournaments.tournament import format_table, tournament, without_times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    agents = ["heuristic", "random"]

    start = time.perf_counter()
    local = tournament("debertz", DebertzRules(), agents, deals=args.deals)
    print(f"local: {time.perf_counter() - start:.1f} s")

    start = time.perf_counter()
    # None: join the Ray instance running on this machine, or start one (stopped at the end)
    on_ray = tournament("debertz", DebertzRules(), agents, deals=args.deals,
                        executor=RayExecutor(None, num_workers=args.workers))
    print(f"Ray, starting a local instance: {time.perf_counter() - start:.1f} s")

    print(format_table(on_ray))
    same = without_times(local) == without_times(on_ray)
    print("the same results as the local run, times aside:", same)


if __name__ == "__main__":
    main()
