"""The compiled policies of this package and the policy sets its agents bring to a table.

Each compiled agent kind is declared once, with its decision function in each game (the
``policy_action`` of its ``agents/<game>/*_nb.py`` module, cardsim.policy_nb's signature).
An agent's set holds its own policy and those of the cheaper kinds, so the sets nest: the
heuristic's within the search agents' (pimc and ismcts share theirs: they share the samplers
and the heuristic play-outs, and each distinct set compiles its own copy of the table's
loops). A table compiles the union of its agents' sets, which is then always one of these:
a tournament of the heuristic against random play compiles neither the samplers nor the
solvers of the search agents.
"""

from cardsim.games import GAMES
from cardsim.policy_nb import RANDOM_POLICIES, CompiledPolicy, PolicySet


def _functions(module: str) -> dict[str, str]:
    return {game: f"agents.{game}.{module}:policy_action" for game in GAMES}


HEURISTIC = CompiledPolicy.declare(1, "heuristic", _functions("heuristic_nb"))
PIMC = CompiledPolicy.declare(2, "pimc", _functions("pimc_nb"))
ISMCTS = CompiledPolicy.declare(3, "ismcts", _functions("ismcts_nb"))

HEURISTIC_POLICIES = PolicySet(HEURISTIC)
SEARCH_POLICIES = PolicySet(HEURISTIC, ISMCTS, PIMC)  # every compiled policy of the package

NESTED_SETS = (RANDOM_POLICIES, HEURISTIC_POLICIES, SEARCH_POLICIES)


def policies_for_kinds(kinds) -> PolicySet:
    """The smallest of this package's sets that holds every kind id in ``kinds`` (for
    callers that seat policies by kind id, as the tests do)."""
    wanted = {int(k) for k in kinds}
    for policies in NESTED_SETS:
        if wanted <= set(policies.kinds):
            return policies
    raise ValueError(f"no compiled policy has kind {sorted(wanted - set(SEARCH_POLICIES.kinds))}")
