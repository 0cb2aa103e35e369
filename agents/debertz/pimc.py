"""The ``pimc`` Debertz agent: perfect-information Monte Carlo over an exact solver.

It decides by sampling: card play by solving sampled deals with every hand open, bidding and
the seven swap by playing sampled deals out for each option (``agents/debertz/pimc_nb.py``).
Compiled, so tournaments run it inside the table over many games in parallel.
"""

from __future__ import annotations

from agents.base import CompiledAgent
from agents.belief_pimc import OPTION_HELP as BELIEF_OPTIONS
from agents.debertz.pimc_options import OPTIONS as PIMC_OPTIONS
from agents.policies import SEARCH_POLICIES


class DebertzPIMC(CompiledAgent):
    """Perfect-information Monte Carlo: sampled deals, each solved exactly."""

    name = "pimc"
    games = ("debertz",)
    kind = 2
    policies = SEARCH_POLICIES
    OPTION_HELP = BELIEF_OPTIONS  # beliefs=NAME: agents.belief_pimc
    OPTIONS = PIMC_OPTIONS


AGENT = DebertzPIMC  # the class agents.registry makes for this name
