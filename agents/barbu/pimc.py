"""The ``pimc`` Barbu agent: perfect-information Monte Carlo over an open-hand solver
(``agents.pimc``).

It decides by sampling: trick play by solving sampled deals with every hand open (the first
tricks, while more than ``solve`` are left, by playing each card out on drawn deals); Domino,
the contract, trump, starting rank and doubling by playing sampled deals out for each option
(``agents/barbu/pimc_nb.py``; options in ``agents/barbu/pimc_options.py``).
"""

from __future__ import annotations

from agents.pimc import PIMCAgent


class BarbuPIMC(PIMCAgent, game="barbu"):
    """Perfect-information Monte Carlo: sampled deals, each solved with every hand open."""


AGENT = BarbuPIMC  # the class agents.registry makes for this name
