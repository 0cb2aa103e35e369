"""The ``ismcts`` Barbu agent: information-set Monte Carlo tree search with compiled rollouts
(``agents/barbu/ismcts_nb.py``), for trump, starting rank, doubling and card play alike; the
contract choice by simulation as the pimc agent. Compiled, so tournaments run it inside the
table over many games in parallel."""

from __future__ import annotations

from agents.base import CompiledAgent, Option


class BarbuISMCTS(CompiledAgent):
    """Information-set MCTS: one tree over every deal consistent with what the seat knows."""

    name = "ismcts"
    games = ("barbu",)
    kind = 3
    OPTIONS = {
        "iterations": Option(1000, 1, 1e7, "iterations per decision (one sampled deal each)"),
        "exploration": Option(0.7, 0.0, 10.0, "UCB1 exploration constant (results are in "
                                              "units of 50 points)"),
        "rollout": Option(1, 0, 1, "rollout policy: 1 the heuristic, 0 random play",
                          switch=True),
        "ms": Option(0, 0, 600000, "stop after this many milliseconds per decision (0: no "
                                   "limit); results then depend on the machine's speed"),
    }
