"""The ``heuristic`` agent's class, for both games: a rule-based player compiled into the
table's loops (``agents/<game>/heuristic_nb.py``).

Each game names its own subclass in ``agents/<game>/heuristic.py`` (what agents.registry
makes), with its strategy and its options (``agents/<game>/heuristic_options.py``)."""

from __future__ import annotations

from agents.base import CompiledAgent
from agents.policies import HEURISTIC, HEURISTIC_POLICIES


class HeuristicAgent(CompiledAgent):
    """A rule-based player: the ``heuristic`` policy of the compiled table."""

    name = HEURISTIC.name
    kind = HEURISTIC.kind
    policies = HEURISTIC_POLICIES
