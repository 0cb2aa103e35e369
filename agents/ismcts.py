"""The ``ismcts`` agent, for both games: information-set Monte Carlo tree search with compiled
play-outs (``agents/ismcts_nb.py``, each game's pieces in ``agents/<game>/ismcts_nb.py``),
for every decision: Debertz's bidding, seven swap and card play; Barbu's trump, starting
rank, doubling and card play, and its contract choice by simulation as the pimc agent.
Its options are declared in ``agents/ismcts_options.py``. Compiled, so tournaments run it
inside the table over many games in parallel."""

from __future__ import annotations

from agents.base import CompiledAgent
from agents.ismcts_options import OPTIONS as ISMCTS_OPTIONS
from agents.policies import ISMCTS, SEARCH_POLICIES
from cardsim.games import GAMES


class ISMCTSAgent(CompiledAgent):
    """Information-set MCTS: one tree over every deal consistent with what the seat knows."""

    name = ISMCTS.name
    games = GAMES
    kind = ISMCTS.kind
    policies = SEARCH_POLICIES
    OPTIONS = ISMCTS_OPTIONS
