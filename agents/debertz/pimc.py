"""The ``pimc`` Debertz agent: perfect-information Monte Carlo over an exact solver
(``agents.pimc``).

It decides by sampling: card play by solving sampled deals with every hand open, bidding and
the seven swap by playing sampled deals out for each option (``agents/debertz/pimc_nb.py``;
options in ``agents/debertz/pimc_options.py``).
"""

from __future__ import annotations

from agents.pimc import PIMCAgent


class DebertzPIMC(PIMCAgent, game="debertz"):
    """Perfect-information Monte Carlo: sampled deals, each solved exactly."""


AGENT = DebertzPIMC  # the class agents.registry makes for this name
