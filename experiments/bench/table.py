"""Throughput of Python agents at the table: ``python -m experiments.bench.table``.

A Python agent that plays its first legal action meets the compiled heuristic in a duplicate
tournament (Debertz 2 players, Barbu); the table serves it in batches of ``--batch`` games.
Prints the Python agent's decisions per second (its own decisions over the wall time of the
whole tournament, the heuristic's compiled decisions included) and the games per second.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from cardsim.games import GAMES
from cardsim.runtime import load_after, load_before


class FirstLegal:
    """Plays the first legal action; counts its decisions."""

    label = "first-legal"

    def __init__(self):
        self.decisions = 0
        self.calls = 0

    def act(self, observations, legal_masks):
        """The lowest legal action id of each row of ``legal_masks``."""
        self.decisions += len(legal_masks)
        self.calls += 1
        return legal_masks.argmax(axis=1)


def bench(game: str, deals: int, batch: int, threads: int) -> dict:
    """Time one duplicate tournament of ``deals`` deals of ``game`` (fewest players),
    ``FirstLegal`` against the compiled heuristic, ``batch`` games served per call of the Python
    agent, on ``threads`` numba threads (after a compile run). Returns the figures printed:
    seconds, the Python agent's decisions per second, its act calls, deals per second and the mean
    points difference."""
    from cardsim.table import Seating, Table
    from experiments.cli import make_rules
    from experiments.tournaments.tournament import seating_patterns
    from agents.registry import make_agent

    rules = make_rules(game)  # the game's default table (Debertz: the smallest, 2 players)
    kit = rules.game
    table = Table(kit, rules, batch=batch)
    agent = FirstLegal()
    seating = Seating([agent, make_agent("heuristic", game)], seating_patterns(rules, 0, 1))
    table.duplicate(seating, 0, 0, 64, False, n_threads=threads)  # compile or load the cache
    agent.decisions = agent.calls = 0
    t0 = time.perf_counter()
    points = table.duplicate(seating, 1, 0, deals, False, n_threads=threads)[0]
    seconds = time.perf_counter() - t0
    patterns = seating.patterns.shape[0]
    return {"game": game, "players": kit.players(rules), "deals": deals,
            "patterns": patterns, "batch": batch, "threads": threads,
            "seconds": round(seconds, 3),
            "python_decisions_per_s": round(agent.decisions / seconds),
            "act_calls": agent.calls,
            "deals_played_per_s": round(deals * patterns / seconds),
            "mean_difference": round(float(np.mean(points[:, 0] - points[:, 1])), 2)}


def main(argv=None) -> None:
    """Run ``bench`` for every game with the options of ``argv`` (``--deals``, ``--batch``,
    ``--threads``) and print each result and the load average before and after."""
    p = argparse.ArgumentParser(prog="python -m experiments.bench.table",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--deals", type=int, default=100_000)
    p.add_argument("--batch", type=int, default=4096)
    p.add_argument("--threads", type=int, default=2)
    args = p.parse_args(argv)
    load_before()
    for game in GAMES:
        print(bench(game, args.deals, args.batch, args.threads))
    load_after()


if __name__ == "__main__":
    main()
