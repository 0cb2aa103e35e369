"""The ``pimc`` agent's class, for every game that has one: perfect-information Monte Carlo
over an open-hand solver (``agents/pimc_nb.py``, each game's pieces in
``agents/<game>/pimc_nb.py``). Compiled, so tournaments run it inside the table over many
games in parallel.

Each game names its own subclass in ``agents/<game>/pimc.py`` (what agents.registry makes);
the game given to the subclass picks its options, declared in
``agents/<game>/pimc_options.py``."""

from __future__ import annotations

from importlib import import_module

from agents.base import CompiledAgent
from agents.belief_pimc import OPTION_HELP as BELIEF_OPTIONS
from agents.policies import PIMC, SEARCH_POLICIES


class PIMCAgent(CompiledAgent):
    """Perfect-information Monte Carlo: sampled deals, each solved with every hand open. A
    game's subclass names the game: ``class BarbuPIMC(PIMCAgent, game="barbu")``."""

    name = PIMC.name
    kind = PIMC.kind
    policies = SEARCH_POLICIES
    OPTION_HELP = BELIEF_OPTIONS  # beliefs=NAME: agents.belief_pimc

    def __init_subclass__(cls, game: str = "", **kwargs):
        super().__init_subclass__(**kwargs)
        if game:
            cls.games = (game,)
            cls.OPTIONS = import_module(f"agents.{game}.pimc_options").OPTIONS
