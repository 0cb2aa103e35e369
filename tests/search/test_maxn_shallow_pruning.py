"""Max-n's shallow pruning (cardsim.maxn_nb) keeps every root card's value and searches
fewer nodes. A node budget too large to be reached turns the pruning off (a budgeted solve's
values depend on the nodes it searches) while the solve stays exact, so the same positions
solved both ways must agree."""

import sys
from pathlib import Path

import numpy as np

from cardsim.debertz import solve_nb as V

sys.path.insert(0, str(Path(__file__).parents[1] / "fixtures"))

from make_debertz_solver_reference import load  # noqa: E402

ROWS, KIND, LEGAL, VALUES, MS, NAMES = load()
NEVER_SPENT = 1 << 50


def solve(row, budget):
    pos = row.copy()
    pos[V.P_BUDGET] = budget
    values = np.zeros(32, dtype=np.int64)
    V.solve_root(pos, V.new_table(17), values)
    return values, int(pos[V.P_NODES])


def test_pruned_max_n_keeps_values_and_searches_fewer_nodes():
    pruned_total = full_total = 0
    for name in ("3p-maxn", "4p-maxn"):
        mine = np.flatnonzero(KIND == NAMES.index(name))
        middling = mine[(MS[mine] > 2) & (MS[mine] < 40)][:6]
        assert len(middling) == 6
        for i in middling:
            pruned, pruned_nodes = solve(ROWS[i], 0)
            full, full_nodes = solve(ROWS[i], NEVER_SPENT)
            assert np.array_equal(pruned, full) and np.array_equal(pruned, VALUES[i])
            pruned_total += pruned_nodes
            full_total += full_nodes
    assert pruned_total < full_total
