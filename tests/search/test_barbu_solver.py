"""The Barbu open-hand solver (cardsim.barbu.solve_nb): root values equal brute-force minimax
over the engine on small end positions, in every trick contract and the play conventions,
doubles included (B7 weights); the values are those of playing the deal out under the
solver's own cards; a node budget values every card early in the deal."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from cardsim.barbu import actions as A
from cardsim.barbu import engine_nb as E
from cardsim.barbu import layout as L
from cardsim.barbu import solve_nb as V
from cardsim.barbu.rules import BarbuRules
from tests.search.barbu_positions import barbu_positions
from tests.search.solver_checks import children, root_values

TRICK_CONTRACTS = [c for c in range(A.NUM_CONTRACTS) if c != A.DOMINO]
CONVENTIONS = [
    dict(),
    dict(king_lead_rule="no_hearts", king_must_discard=True, trumps_must_overtrump=True),
    dict(trumps_must_ruff=False, trumps_must_overtrump=True),
]
TT = V.solver_table(12)


def legal_cards(st, R):
    base, bits = E.legal_mask(st, R)
    return [base + k for k in range(53) if bits >> k & 1]


def brute(st, R, seat):
    """The seat's deal score (B7) under paranoid minimax: the seat maximises, others minimise."""
    if st[L.PHASE] != L.PH_PLAY:
        return int(st[L.DEAL_SCORES + seat])
    values = [brute(child, R, seat) for _, child in children(E, st, R, legal_cards(st, R))]
    return max(values) if st[L.TURN] == seat else min(values)


def solve(st, R, seat, tt=TT, budget=0, maxn=0):
    return root_values(V, 52, st, R, seat, tt, budget=budget, maxn=maxn)


@pytest.mark.parametrize("kw", CONVENTIONS, ids=str)
@pytest.mark.parametrize("contract", TRICK_CONTRACTS, ids=lambda c: A.CONTRACT_NAMES[c])
def test_root_values_equal_brute_force_minimax(kw, contract):
    rules = BarbuRules(**kw)
    checked = 0
    for plays in (40, 42, 37):
        R, states = barbu_positions(rules, 3, contract, plays, seed=plays + contract)
        for st in states:
            seat = int(st[L.TURN])
            values = solve(st, R, seat)
            assert sorted(values) == legal_cards(st, R)
            exact = {c: brute(child, R, seat) for c, child in children(E, st, R, values)}
            # the solver leaves out what is already taken: the same offset for every card
            offsets = {exact[c] - values[c] for c in values}
            assert len(offsets) == 1, (kw, plays, values, exact)
            checked += 1
    assert checked == 9


def weight_rows(st):
    """Row p: the weight of each seat's contract score in p's deal score (B7.2)."""
    rows = []
    for p in range(4):
        pos = np.zeros(V.POSITION_WIDTH, dtype=np.int64)
        V.weights_of(st, p, pos)
        rows.append(pos[V.P_WEIGHT:V.P_WEIGHT + 4].copy())
    return rows


def maxn_outcomes(st, R, rows):
    """Every final contract-score vector that max-n play can reach from ``st`` under some
    way of breaking ties: the seat to act takes a child whose outcome is worth at least
    what it is sure to get from its best child (the most, over children, of the least
    the child can give it)."""
    if st[L.PHASE] != L.PH_PLAY:
        return {tuple(int(x) for x in st[L.CONTRACT_SCORES:L.CONTRACT_SCORES + 4])}
    w = rows[int(st[L.TURN])]
    after = [maxn_outcomes(child, R, rows) for _, child in children(E, st, R, legal_cards(st, R))]
    floor = max(min(int(w @ v) for v in outs) for outs in after)
    return {v for outs in after for v in outs if int(w @ v) >= floor}


@pytest.mark.parametrize("kw", CONVENTIONS[:2], ids=str)
@pytest.mark.parametrize("contract", TRICK_CONTRACTS, ids=lambda c: A.CONTRACT_NAMES[c])
def test_maxn_root_values_are_max_n_outcomes(kw, contract):
    """With ``P_MAXN`` every seat plays for its own deal score: each root card's value is the
    seat's deal score of an outcome max-n play reaches after that card (doubles included)."""
    rules = BarbuRules(**kw)
    checked = 0
    for plays in (40, 38):
        R, states = barbu_positions(rules, 3, contract, plays, seed=plays + 7 * contract)
        for st in states:
            seat = int(st[L.TURN])
            rows = weight_rows(st)
            values = solve(st, R, seat, maxn=1)
            assert sorted(values) == legal_cards(st, R)
            taken = int(rows[seat] @ st[L.CONTRACT_SCORES:L.CONTRACT_SCORES + 4])
            for c, child in children(E, st, R, values):
                value = values[c]
                reachable = {int(rows[seat] @ v) for v in maxn_outcomes(child, R, rows)}
                assert taken + value in reachable, (kw, plays, c, value, reachable)
            checked += 1
    assert checked == 6


def test_maxn_and_paranoid_differ_where_opponents_duck():
    """No Tricks, the seat to act on lead: paranoid opponents would pass tricks back to it,
    self-interested ones keep ducking, so max-n never values a card below paranoid."""
    R, states = barbu_positions(BarbuRules(), 6, A.NO_TRICKS, 36, seed=5)
    lower = 0
    for st in states:
        seat = int(st[L.TURN])
        paranoid = solve(st, R, seat)
        maxn = solve(st, R, seat, maxn=1)
        assert all(maxn[c] >= paranoid[c] for c in paranoid)
        lower += sum(maxn[c] > paranoid[c] for c in paranoid)
    assert lower > 0


def _offset(st, R, seat):
    """The seat's deal score from the points taken before the root (B7 weights)."""
    pos = np.zeros(V.POSITION_WIDTH, dtype=np.int64)
    V.weights_of(st, seat, pos)
    w = pos[V.P_WEIGHT:V.P_WEIGHT + 4]
    return int((w * st[L.CONTRACT_SCORES:L.CONTRACT_SCORES + 4]).sum())


@pytest.mark.parametrize("contract", [A.NO_QUEENS, A.NO_HEARTS, A.TRUMPS],
                         ids=lambda c: A.CONTRACT_NAMES[c])
def test_playing_the_solver_cards_realises_the_root_value(contract):
    """The seat plays its best card and the others the card worst for it, each chosen by a
    new solve: the deal ends with exactly the value the root solve promised."""
    rules = BarbuRules()
    tt = V.solver_table(16)
    R, states = barbu_positions(rules, 3, contract, 28, seed=4)
    for st in states:
        seat = int(st[L.TURN])
        best = max(solve(st, R, seat, tt).values())
        row = st.copy()
        while row[L.PHASE] == L.PH_PLAY:
            values = solve(row, R, seat, tt)
            pick = max if row[L.TURN] == seat else min
            E.step(row, R, pick(values, key=lambda c: (values[c], -c)))
        assert row[L.DEAL_SCORES + seat] == _offset(st, R, seat) + best


def test_a_node_budget_gives_values_for_every_legal_card_quickly():
    rules = BarbuRules()
    for contract in TRICK_CONTRACTS:
        R, states = barbu_positions(rules, 2, contract, 1, seed=2)
        for st in states:
            pos = np.zeros(V.POSITION_WIDTH, dtype=np.int64)
            values = solve(st, R, int(st[L.TURN]), budget=3000)
            assert sorted(values) == legal_cards(st, R)
            assert all(abs(v) <= 4 * 65 for v in values.values())


PARITY_SCRIPT = """
import json, numpy as np
from cardsim.barbu import solve_nb as V
pos = np.array(json.loads(%r), dtype=np.int64)
values = np.zeros(52, dtype=np.int64)
legal = V.solve_root(pos, V.solver_table(10), values)
print(json.dumps([int(legal), values.tolist(), int(pos[V.P_TOTAL_NODES])]))
"""


@pytest.mark.parametrize("maxn", [0, 1], ids=["paranoid", "maxn"])
def test_compiled_and_pure_python_solve_alike(maxn):
    R, states = barbu_positions(BarbuRules(), 1, A.NO_HEARTS, 38, seed=9)
    pos = np.zeros(V.POSITION_WIDTH, dtype=np.int64)
    V.position_of(states[0], R, int(states[0][L.TURN]), pos)
    pos[V.P_MAXN] = maxn
    script = PARITY_SCRIPT % json.dumps(pos.tolist())
    values = np.zeros(52, dtype=np.int64)
    legal = V.solve_root(pos.copy(), V.solver_table(10), values)
    work = pos.copy()
    V.solve_root(work, V.solver_table(10), values)
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    run = subprocess.run([sys.executable, "-W", "ignore::RuntimeWarning", "-c", script],
                         env=env, capture_output=True, text=True, check=True)
    assert json.loads(run.stdout) == [int(legal), values.tolist(), int(work[V.P_TOTAL_NODES])]
