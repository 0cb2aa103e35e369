"""The Barbu open-hand solver keeps its values: every legal root card's value, in the
positions of tests/fixtures/barbu_solver_reference.npz (written by
tests/fixtures/make_barbu_solver_reference.py before the Barbu solver was worked on for speed),
is the same now. Every trick contract, paranoid and max-n, exact and with a node budget,
several conventions, the seventh trick to the last but one.

The quick test checks the cheapest positions of each kind and contract (seconds); set
``CARDSIM_FULL_SOLVER_PARITY=1`` to check all of them (about a minute)."""

import os
import sys
from pathlib import Path

import numpy as np
import pytest

from cardsim.barbu import solve_nb as V

FIXTURES = Path(__file__).parents[1] / "fixtures"
sys.path.insert(0, str(FIXTURES))

from make_barbu_solver_reference import KINDS, TRICK_CONTRACTS, load  # noqa: E402

ROWS, KIND, LEGAL, VALUES, MS, NAMES = load()
QUICK_PER_CONTRACT = 8  # positions per kind and contract in the quick test: the cheapest
FULL = os.environ.get("CARDSIM_FULL_SOLVER_PARITY") == "1"


def mismatches(indices):
    """The positions among ``indices`` whose legal cards or values differ from the
    reference, solved in order with one table (as a search agent reuses its table)."""
    tt = V.solver_table(17)
    values = np.zeros(52, dtype=np.int64)
    bad = []
    for i in indices:
        values[:] = 0
        legal = V.solve_root(ROWS[i].copy(), tt, values)
        if legal != LEGAL[i] or not np.array_equal(values, VALUES[i]):
            bad.append((int(i), NAMES[KIND[i]]))
    return bad


def test_reference_covers_every_kind_and_contract():
    assert NAMES == [k[0] for k in KINDS]
    for kind in range(len(KINDS)):
        contracts = set(ROWS[KIND == kind, V.P_CONTRACT].tolist())
        assert contracts == set(TRICK_CONTRACTS), NAMES[kind]


@pytest.mark.parametrize("kind", range(len(KINDS)), ids=[k[0] for k in KINDS])
def test_cheap_positions_keep_their_values(kind):
    picked = []
    for contract in TRICK_CONTRACTS:
        mine = np.flatnonzero((KIND == kind) & (ROWS[:, V.P_CONTRACT] == contract))
        picked.extend(mine[np.argsort(MS[mine], kind="stable")][:QUICK_PER_CONTRACT])
    assert mismatches(sorted(picked)) == []


def test_a_changed_value_is_caught():
    """The check itself: a reference value off by one is reported."""
    i = int(np.argmin(MS))
    card = int(np.flatnonzero([(LEGAL[i] >> c) & 1 for c in range(52)])[0])
    saved = VALUES[i, card]
    VALUES[i, card] += 1
    try:
        assert mismatches([i]) == [(i, NAMES[KIND[i]])]
    finally:
        VALUES[i, card] = saved


@pytest.mark.skipif(not FULL, reason="set CARDSIM_FULL_SOLVER_PARITY=1 (about a minute)")
def test_every_position_keeps_its_values():
    bad = mismatches(range(len(KIND)))
    assert bad == [], f"{len(bad)} positions differ, first {bad[:10]}"
