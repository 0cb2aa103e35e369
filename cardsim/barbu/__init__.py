"""The Barbu engine (docs/rules/barbu.md): rules config, state layout, numba kernels, Python layer.

Modules: ``rules`` (BarbuRules), ``layout`` (one int64 row per game), ``actions`` (named action
ids), ``engine_nb`` (kernels), ``simulate_nb`` (compiled random play), ``game`` (thin Python
layer), ``record`` (cardsim-barbu/1 hand records), ``summary`` (what the command line calls).
"""

from cardsim.barbu.rules import BarbuRules

__all__ = ["BarbuRules"]
