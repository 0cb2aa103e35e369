"""The Debertz open-hand solver (cardsim.debertz.solve_nb): root values equal brute-force
minimax over the engine on small end positions, for every player count and the play
conventions; the values are those of playing the round out under the solver's own cards."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from cardsim.debertz import engine_nb as E
from cardsim.debertz import layout as L
from cardsim.debertz import solve_nb as V
from cardsim.debertz.rules import DebertzRules
from tests.search.debertz_positions import positions
from tests.search.solver_checks import children, root_values

CONVENTIONS = [
    dict(players=2),
    dict(players=3),
    dict(players=4),
    dict(players=4, teams=True),
    dict(players=4, teams=True, partner_exemption=True, overtrump_on_ruff=True),
    dict(players=3, overtrump_on_ruff=True, bella_any_card=False),
]


def outcome(st, R, side):
    """The solver's measure at the end of a round: the side's round points (D9.1) less the
    other sides'."""
    rp = st[L.ROUND_POINTS:L.ROUND_POINTS + R[L.R_SIDES]]
    return rp[side] - (rp.sum() - rp[side])


def brute(st, R, side):
    if st[L.PHASE] != L.PH_PLAY:
        return outcome(st, R, side)
    mask = E.legal_mask(st, R)
    maximise = E.side_of(st[L.TURN], R[L.R_TEAMS]) == side
    legal = [c for c in range(32) if mask >> c & 1]
    values = [brute(child, R, side) for _, child in children(E, st, R, legal)]
    return max(values) if maximise else min(values)


def solve(st, R, side, tt, budget=0, maxn=0):
    return root_values(V, 32, st, R, side, tt, budget=budget, maxn=maxn)


@pytest.mark.parametrize("kw", CONVENTIONS, ids=str)
def test_root_values_equal_brute_force_minimax(kw):
    rules = DebertzRules(target=100000, **kw)
    n = rules.players
    tricks = 8 if n == 4 else 9
    tt = V.new_table(12)
    for plays in ((tricks - 3) * n, (tricks - 3) * n + 1, (tricks - 2) * n + n - 1):
        R, states = positions(rules, 10, plays, seed=plays)
        for st in states:
            side = E.side_of(st[L.TURN], R[L.R_TEAMS])
            values = solve(st, R, side, tt)
            assert set(values) == {c for c in range(32) if E.legal_mask(st, R) >> c & 1}
            exact = {c: brute(child, R, side) for c, child in children(E, st, R, values)}
            # the solver leaves out what is already won: the same offset for every card
            offsets = {exact[c] - values[c] for c in values}
            assert len(offsets) == 1, (kw, plays, values, exact)


def points_worth(st, R):
    """Each side's max-n measure at a round's end (MAXN_POINTS): its round points (D9.1)
    less everyone else's."""
    rp = st[L.ROUND_POINTS:L.ROUND_POINTS + R[L.R_SIDES]]
    return tuple(int(2 * rp[q] - rp.sum()) for q in range(len(rp)))


def recorded_worth(st, R):
    """Each side's max-n measure with MAXN_RECORDED: its recorded score (D9.2, D9.3, as the
    engine writes it) times the number of other sides, less the others' recorded scores."""
    rec = st[L.RECORDED:L.RECORDED + R[L.R_SIDES]]
    return tuple(int(len(rec) * rec[q] - rec.sum()) for q in range(len(rec)))


def maxn_outcomes(st, R, worth):
    """Every vector of the sides' measures (``worth`` at the round's end) that max-n play
    reaches from ``st`` under some way of breaking ties: the side to act takes a child whose
    outcome is worth at least what it is sure to get from its best child."""
    if st[L.PHASE] != L.PH_PLAY:
        return {worth(st, R)}
    side = E.side_of(st[L.TURN], R[L.R_TEAMS])
    mask = E.legal_mask(st, R)
    legal = [c for c in range(32) if mask >> c & 1]
    after = [maxn_outcomes(child, R, worth) for _, child in children(E, st, R, legal)]
    floor = max(min(w[side] for w in outs) for outs in after)
    return {w for outs in after for w in outs if w[side] >= floor}


@pytest.mark.parametrize("kw", [dict(players=3), dict(players=4),
                                dict(players=3, overtrump_on_ruff=True, bella_any_card=False)],
                         ids=str)
def test_maxn_root_values_are_max_n_outcomes(kw):
    """With ``P_MAXN`` and three or four sides every side plays for its own points less the
    others': each root card's value is the seat's side's value at an outcome max-n play
    reaches after that card; never below the paranoid value, and above it somewhere."""
    rules = DebertzRules(target=100000, **kw)
    n = rules.players
    tricks = 8 if n == 4 else 9
    tt = V.new_table(12)
    above = 0
    for plays in ((tricks - 3) * n, (tricks - 3) * n + 1, (tricks - 2) * n + n - 1):
        R, states = positions(rules, 6, plays, seed=plays + 1)
        for st in states:
            side = E.side_of(st[L.TURN], R[L.R_TEAMS])
            paranoid = solve(st, R, side, tt)
            values = solve(st, R, side, tt, maxn=V.MAXN_POINTS)
            assert set(values) == set(paranoid)
            for c, child in children(E, st, R, values):
                # what is already won: the paranoid value's offset from the exact minimax
                offset = brute(child, R, side) - paranoid[c]
                reachable = {w[side] for w in maxn_outcomes(child, R, points_worth)}
                assert values[c] + offset in reachable, (kw, plays, c, values, reachable)
                assert values[c] >= paranoid[c]
                above += values[c] > paranoid[c]
    assert above > 0


@pytest.mark.parametrize("kw", [dict(players=3), dict(players=4, byte_penalty=50)], ids=str)
def test_maxn_on_recorded_scores_reaches_recorded_outcomes(kw):
    """MAXN_RECORDED: each side plays for what is written down (D9.2 byte and hanging byte,
    the pot going to the round's top scorer, D9.3 the byte penalty now due), so a root
    card's value is the seat's side's measure at an outcome that max-n play on the engine's
    recorded scores reaches. Half the positions carry a pot and a bidder two bytes into a
    penalty; the positions reach bytes. Earlier in the round the measure ranks cards
    otherwise than round points do."""
    rules = DebertzRules(target=100000, **kw)
    n = rules.players
    tricks = 8 if n == 4 else 9
    tt = V.new_table(12)
    bytes_seen = 0
    other_order = 0
    for plays in ((tricks - 3) * n, (tricks - 3) * n + 1, (tricks - 2) * n + n - 1):
        R, states = positions(rules, 8, plays, seed=plays + 7)
        for k, st in enumerate(states):
            if k % 2:
                st[L.POT] = 37
                st[L.BYTE_COUNTS + E.side_of(st[L.BIDDER], R[L.R_TEAMS])] = 2
            side = E.side_of(st[L.TURN], R[L.R_TEAMS])
            values = solve(st, R, side, tt, maxn=V.MAXN_RECORDED)
            for c, child in children(E, st, R, values):
                outcomes = maxn_outcomes(child, R, recorded_worth)
                reachable = {w[side] for w in outcomes}
                assert values[c] in reachable, (kw, plays, c, values, reachable)
                bytes_seen += any(w[E.side_of(st[L.BIDDER], R[L.R_TEAMS])] < 0
                                  for w in outcomes)
    R, states = positions(rules, 8, n, seed=5)  # after the first trick, with a node budget
    for st in states:
        side = E.side_of(st[L.TURN], R[L.R_TEAMS])
        values = solve(st, R, side, tt, budget=20000, maxn=V.MAXN_RECORDED)
        points = solve(st, R, side, tt, budget=20000, maxn=V.MAXN_POINTS)
        assert set(values) == set(points)
        other_order += any(points[a] > points[b] and values[a] < values[b]
                           for a in values for b in values)
    assert bytes_seen > 0 and other_order > 0, (bytes_seen, other_order)


def test_maxn_with_two_sides_is_the_paranoid_solve():
    rules = DebertzRules(target=100000, players=4, teams=True)
    R, states = positions(rules, 6, 12, seed=3)
    tt = V.new_table(12)
    for st in states:
        side = E.side_of(st[L.TURN], R[L.R_TEAMS])
        assert solve(st, R, side, tt, maxn=1) == solve(st, R, side, tt)


@pytest.mark.parametrize("kw", [dict(players=2), dict(players=4, teams=True)], ids=str)
def test_playing_the_solver_cards_realises_the_root_value(kw):
    """Two sides: every seat playing its solver's best card from each position ends the
    round with exactly the value the root solve promised."""
    rules = DebertzRules(target=100000, **kw)
    n = rules.players
    tt = V.new_table(16)
    R, states = positions(rules, 6, 2 * n, seed=4)
    for st in states:
        side = E.side_of(st[L.TURN], R[L.R_TEAMS])
        root = solve(st, R, side, tt)
        best = max(root.values())
        row = st.copy()
        while row[L.PHASE] == L.PH_PLAY:
            me = E.side_of(row[L.TURN], R[L.R_TEAMS])
            values = solve(row, R, me, tt)
            E.step(row, R, max(values, key=lambda c: (values[c], -c)))
        # the round's outcome = what was settled before the root + the root value
        assert outcome(row, R, side) == _offset(st, R, side) + best


def _offset(st, R, side):
    """Points settled before the root (won tricks, and sequences and bella of sides that
    already have a trick), as the solver's measure."""
    teams = R[L.R_TEAMS]
    sides = R[L.R_SIDES]
    won = np.zeros(sides, dtype=np.int64)
    has = np.zeros(sides, dtype=bool)
    for s in range(R[L.R_PLAYERS]):
        won[E.side_of(s, teams)] += st[L.WON_POINTS + s]
        has[E.side_of(s, teams)] |= st[L.TRICKS_WON + s] > 0
    mw = st[L.MELD_WINNER]
    if mw >= 0 and has[E.side_of(mw, teams)]:
        for s in range(R[L.R_PLAYERS]):
            if E.side_of(s, teams) == E.side_of(mw, teams):
                won[E.side_of(mw, teams)] += st[L.SEQ_POINTS + s]
    b = st[L.BELLA_SEAT]
    if b >= 0 and has[E.side_of(b, teams)]:
        won[E.side_of(b, teams)] += 20
    return won[side] - (won.sum() - won[side])


def test_a_node_budget_gives_values_for_every_legal_card_quickly():
    rules = DebertzRules(players=4, teams=True)
    R, states = positions(rules, 4, 0, seed=2)
    tt = V.new_table(14)
    for st in states:
        side = E.side_of(st[L.TURN], R[L.R_TEAMS])
        values = solve(st, R, side, tt, budget=2000)
        assert set(values) == {c for c in range(32) if E.legal_mask(st, R) >> c & 1}
        assert all(abs(v) < 400 for v in values.values())


PARITY_SCRIPT = """
import json, numpy as np
from cardsim.debertz import solve_nb as V
pos = np.array(json.loads(%r), dtype=np.int64)
values = np.zeros(32, dtype=np.int64)
legal = V.solve_root(pos, V.new_table(10), values)
print(json.dumps([int(legal), values.tolist()]))
"""


@pytest.mark.parametrize("maxn", [1, 2])
def test_compiled_and_pure_python_maxn_solve_alike(maxn):
    """The max-n search (cardsim.maxn_nb, its game pieces picked by tag) runs as plain Python
    under NUMBA_DISABLE_JIT with the same values."""
    rules = DebertzRules(target=100000, players=3)
    R, states = positions(rules, 1, 15, seed=4)
    pos = np.zeros(V.POSITION_WIDTH, dtype=np.int64)
    V.position_of(states[0], R, E.side_of(states[0][L.TURN], R[L.R_TEAMS]), pos)
    pos[V.P_MAXN] = maxn
    values = np.zeros(32, dtype=np.int64)
    legal = V.solve_root(pos.copy(), V.new_table(10), values)
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    run = subprocess.run([sys.executable, "-W", "ignore::RuntimeWarning", "-c",
                          PARITY_SCRIPT % json.dumps(pos.tolist())],
                         env=env, capture_output=True, text=True, check=True)
    assert json.loads(run.stdout) == [int(legal), values.tolist()]
