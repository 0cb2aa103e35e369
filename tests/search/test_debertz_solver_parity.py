"""The Debertz open-hand solver keeps its values: every legal root card's value, in the
positions of tests/fixtures/debertz_solver_reference.npz (written by
tests/fixtures/make_debertz_solver_reference.py with the solver before its speed-ups), is
the same now. Every kind of solve is covered (two, three and four players, 2 against 2,
paranoid and both max-n, exact and with a node budget, several conventions, first trick to
the last but one).

The quick test checks the cheapest positions of each kind (seconds); set
``CARDSIM_FULL_SOLVER_PARITY=1`` to check all of them (minutes)."""

import os
import sys
from pathlib import Path

import numpy as np
import pytest

from cardsim.debertz import solve_nb as V

FIXTURES = Path(__file__).parents[1] / "fixtures"
sys.path.insert(0, str(FIXTURES))

from make_debertz_solver_reference import KINDS, load  # noqa: E402

ROWS, KIND, LEGAL, VALUES, MS, NAMES = load()
QUICK_PER_KIND = 30  # positions per kind in the quick test: the cheapest to solve
FULL = os.environ.get("CARDSIM_FULL_SOLVER_PARITY") == "1"


def mismatches(indices):
    """The positions among ``indices`` whose legal cards or values differ from the
    reference, solved in order with one table (as a search agent reuses its table)."""
    tt = V.new_table(17)
    values = np.zeros(32, dtype=np.int64)
    bad = []
    for i in indices:
        values[:] = 0
        legal = V.solve_root(ROWS[i].copy(), tt, values)
        if legal != LEGAL[i] or not np.array_equal(values, VALUES[i]):
            bad.append((int(i), NAMES[KIND[i]]))
    return bad


def test_reference_covers_every_kind():
    assert NAMES == [k[0] for k in KINDS]
    assert set(KIND.tolist()) == set(range(len(KINDS)))


@pytest.mark.parametrize("kind", range(len(KINDS)), ids=[k[0] for k in KINDS])
def test_cheap_positions_keep_their_values(kind):
    mine = np.flatnonzero(KIND == kind)
    first_trick = mine[ROWS[mine, V.P_TRICKS_LEFT] == (8 if KINDS[kind][1]["players"] == 4
                                                       else 9)]
    cheap = mine[np.argsort(MS[mine], kind="stable")][:QUICK_PER_KIND]
    # a few first-trick positions too, the cheapest of them
    cheap_first = first_trick[np.argsort(MS[first_trick], kind="stable")][:5]
    assert mismatches(np.union1d(cheap, cheap_first)) == []


@pytest.mark.skipif(not FULL, reason="set CARDSIM_FULL_SOLVER_PARITY=1 (minutes)")
def test_every_position_keeps_its_values():
    bad = mismatches(range(len(KIND)))
    assert bad == [], f"{len(bad)} positions differ, first {bad[:10]}"
