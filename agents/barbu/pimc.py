"""The ``pimc`` Barbu agent: perfect-information Monte Carlo over an open-hand solver.

It decides by sampling: trick play by solving sampled deals with every hand open (the first
tricks, while more than ``solve`` are left, by playing each card out on drawn deals); Domino,
the contract, trump, starting rank and doubling by playing sampled deals out for each option
(``agents/barbu/pimc_nb.py``). Compiled, so tournaments run it inside the table over many
games in parallel.
"""

from __future__ import annotations

from agents.base import CompiledAgent
from agents.belief_pimc import OPTION_HELP as BELIEF_OPTIONS
from agents.barbu.pimc_options import OPTIONS as PIMC_OPTIONS
from agents.policies import SEARCH_POLICIES


class BarbuPIMC(CompiledAgent):
    """Perfect-information Monte Carlo: sampled deals, each solved with every hand open."""

    name = "pimc"
    games = ("barbu",)
    kind = 2
    policies = SEARCH_POLICIES
    OPTION_HELP = BELIEF_OPTIONS  # beliefs=NAME: agents.belief_pimc
    OPTIONS = PIMC_OPTIONS


AGENT = BarbuPIMC  # the class agents.registry makes for this name
