"""The ``ismcts`` agent, for both games: information-set Monte Carlo tree search with compiled
play-outs (``agents/ismcts_nb.py``, each game's pieces in ``agents/<game>/ismcts_nb.py``),
for every decision: Debertz's bidding, seven swap and card play; Barbu's trump, starting
rank, doubling and card play, and its contract choice by simulation as the pimc agent.
Compiled, so tournaments run it inside the table over many games in parallel."""

from __future__ import annotations

from agents.base import CompiledAgent, Option
from agents.policies import SEARCH_POLICIES
from cardsim.games import GAMES


class ISMCTSAgent(CompiledAgent):
    """Information-set MCTS: one tree over every deal consistent with what the seat knows."""

    name = "ismcts"
    games = GAMES
    kind = 3
    policies = SEARCH_POLICIES
    OPTIONS = {
        "iterations": Option(1000, 1, 1e7, "iterations per decision (one sampled deal each)"),
        "exploration": Option(0.7, 0.0, 10.0, "UCB1 exploration constant (results are in "
                                              "hundreds of points in Debertz, units of 50 "
                                              "in Barbu)"),
        "rollout": Option(1, 0, 1, "rollout policy: 1 the heuristic, 0 random play",
                          switch=True),
        "ms": Option(0, 0, 600000, "stop after this many milliseconds per decision (0: no "
                                   "limit); results then depend on the machine's speed"),
    }
