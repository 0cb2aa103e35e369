"""The Debertz engine (docs/rules/debertz.md): rules config, state layout, numba kernels,
Python layer.

Modules: ``rules`` (DebertzRules), ``layout`` (one int64 row per game), ``actions`` (named
action ids), ``tables`` (card order and points, D2), ``engine_nb`` and ``melds_nb`` (kernels),
``simulate_nb`` (compiled random play), ``game`` (thin Python layer), ``record`` (cardsim-debertz/1
hand records), ``summary`` (what the command line calls).
"""

from cardsim.debertz.rules import DebertzRules

__all__ = ["DebertzRules"]
