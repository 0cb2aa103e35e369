"""Whole matches (B2) and the invariants of B8 over random play, on both paths of the table
(cardsim.table): the compiled loops (statistics) and the row-by-row path that writes hand
records (replayed here)."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from cardsim.barbu import actions as A
from cardsim.barbu import simulate_nb as S
from cardsim.barbu import summary
from cardsim.barbu.game import BarbuGame
from cardsim.barbu.record import read_records, replay
from cardsim.barbu.rules import BarbuRules
from cardsim.games import get as games_contract
from cardsim.records import RecordWriter
from cardsim.table import RANDOM_AGENT, Seating, Table


def simulate(rules=None, seed=0, hands=None, games=None, threads=1, history_path=None):
    """Random play at the table, ``hands`` single deals or ``games`` whole matches: the
    summary of its statistics (``summary.summarize``); with ``history_path`` every deal is
    also written there as a hand record, in (match, deal) order."""
    rules = rules or BarbuRules()
    whole = games is not None
    n = games if whole else hands
    table = Table("barbu", rules, batch=512)
    seating = Seating([RANDOM_AGENT], [[0, 0, 0, 0]])
    if history_path is None:
        stats = table.simulate(seating, seed, 0, n, whole, threads)
    else:
        contract = games_contract("barbu")
        with RecordWriter(history_path) as out:
            stats = table.simulate(seating, seed, 0, n, whole, threads,
                                   history=lambda row: contract.record_line(row, rules, seed),
                                   write=out.write_line)
    return summary.summarize(stats, rules, seed, whole, 0.0)


RULE_SETS = [{}, {"king_lead_rule": "no_hearts", "king_must_discard": True,
                  "trumps_must_ruff": False, "trumps_must_overtrump": True, "first_declarer": 2},
             # the variants beyond the rules file (docs/rules/barbu.md, "Variants")
             {"doubles_owed": 3, "redoubles": False, "domino_start": "7"}]


@pytest.fixture(scope="module", params=range(len(RULE_SETS)))
def match_records(request, tmp_path_factory):
    rules = BarbuRules(**RULE_SETS[request.param])
    path = tmp_path_factory.mktemp("h") / "matches.jsonl"
    out = simulate(rules, seed=11, games=3, threads=2, history_path=path)
    return rules, out, read_records(path)


def test_stats_keep_b8_totals():
    R = BarbuRules().pack()
    for whole, n in ((True, 12), (False, 600)):
        st = S.simulate_random(R, 3, 0, n, whole, 5)
        assert st[S.S_BAD] == 0
        for c in range(7):
            assert st[S.S_ALL_CS + c] == A.CONTRACT_TOTALS[c] * st[S.S_COUNT + c]
            assert st[S.S_ALL_DS + c] == st[S.S_ALL_CS + c]   # settlements total 0
        assert st[S.S_DEALS] == (28 * n if whole else n)


def test_whole_match_contracts_and_totals():
    st = S.simulate_random(BarbuRules().pack(), 4, 0, 10, True, 3)
    assert st[S.S_MATCHES] == 10 and sum(st[S.S_FINAL:S.S_FINAL + 4]) == 0
    # B2: every declarer plays every contract once: 4 per contract per match
    assert list(st[S.S_COUNT:S.S_COUNT + 7]) == [40] * 7
    assert st[S.S_WINS:S.S_WINS + 4].sum() >= 10   # a shared win counts for each winner


def test_records_of_matches(match_records):
    rules, out, recs = match_records
    assert len(recs) == 3 * 28 and out["deals"] == 84 and out["matches"] == 3
    assert out["invariant_violations"] == 0
    for g in range(3):
        deals = [r for r in recs if r["game"] == g]
        assert [r["deal"] for r in deals] == list(range(28))
        first = deals[0]["declarer"]
        if rules.first_declarer != "random":
            assert first == rules.first_declarer
        for r in deals:
            d = r["deal"]
            assert r["declarer"] == (first + d // 7) % 4            # B2 rotation
            assert r["dealer"] == (r["declarer"] + 3) % 4
        for b in range(4):
            block = deals[7 * b:7 * b + 7]
            assert sorted(r["contract"] for r in block) == sorted(A.CONTRACT_NAMES)
            decl = block[0]["declarer"]
            owed = rules.doubles_owed
            for s in range(4):   # B6.3: at least the owed doubles of the declarer from each
                if s != decl:
                    n = sum(1 for r in block for d in r["doubles"]
                            if d[:2] == [s, decl] and d[2] == "double")
                    assert n >= owed
            assert block[0]["doubles_owed_before"] == [0 if s == decl else owed
                                                       for s in range(4)]
        for a, b in zip(deals, deals[1:]):
            assert b["scores_before"] == a["scores_after"]
        assert sum(deals[-1]["scores_after"]) == 0                    # B8
        assert deals[0]["scores_before"] == [0, 0, 0, 0]


def test_record_deal_invariants(match_records):
    rules, out, recs = match_records
    for r in recs:
        c = r["contract"]
        assert sum(r["contract_scores"]) == A.CONTRACT_TOTALS[A.CONTRACT_NAMES.index(c)]
        assert sum(r["settlements"]) == 0
        assert r["deal_scores"] == [x + y for x, y in zip(r["contract_scores"], r["settlements"])]
        assert r["scores_after"] == [x + y for x, y in zip(r["scores_before"], r["deal_scores"])]
        plays = [p[1] for p in r["plays"]]
        if not rules.redoubles:   # variant: a doubled player may not redouble (B6.1-B6.2)
            assert all(d[2] == "double" for d in r["doubles"])
        if c == "domino" and rules.domino_start != "declarer":   # variant: a fixed rank (B5)
            assert r["start_rank"] == rules.domino_start
        if c == "domino":
            assert sorted(r["out_order"]) == [0, 1, 2, 3] and r["trick_winners"] == []
        else:
            n = len(r["trick_winners"])
            assert len(plays) == 4 * n and "pass" not in plays
            last = plays[-4:]
            if c == "no_queens":   # B8: ends exactly with the trick holding the 4th queen
                assert {p for p in plays if p[0] == "Q"} == {"QS", "QH", "QD", "QC"}
                assert any(p[0] == "Q" for p in last)
            elif c == "no_king":
                assert "KH" in last
            else:
                assert n == 13


def test_replay_every_record(match_records):
    for r in match_records[2]:
        replay(r, check_seed=True)


def test_thread_count_and_paths_agree(match_records):
    rules, out, _ = match_records
    # the compiled loops on one thread, the record path on two: the same summary
    assert simulate(rules, seed=11, games=3, threads=1) == out


def test_hands_mode_summary_and_threads(tmp_path):
    a = simulate(seed=5, hands=300, threads=1)
    b = simulate(seed=5, hands=300, threads=2, history_path=tmp_path / "h.jsonl")
    assert a == b and a["deals"] == 300 and a["matches"] == 0 and "match_results" not in a
    recs = read_records(tmp_path / "h.jsonl")
    assert [(r["game"], r["deal"]) for r in recs] == [(k // 28, k % 28) for k in range(300)]
    for r in recs[:60]:
        replay(r, check_seed=True)
        k = r["deal"] % 7
        decl = r["declarer"]
        for s in range(4):   # owed doubles never exceed the chances left (B6.3)
            assert r["doubles_owed_before"][s] <= min(2, 7 - k) and (s != decl or
                                                                 r["doubles_owed_before"][s] == 0)


def test_random_play_through_python_layer_never_empty():
    # B8: the legal set is never empty for the seat to act; the match ends after 28 deals.
    rng = np.random.default_rng(0)
    g = BarbuGame(seed=2)
    deals = 0
    while True:
        legal = g.legal_actions()
        assert legal and g.turn() >= 0
        g.step(int(rng.choice(legal)))
        if g.is_deal_over:
            deals += 1
            assert g.legal_actions() == [] and g.turn() == -1
            if g.is_match_over:
                break
            g.next_deal()
    assert deals == 28 and sum(g.scores) == 0 and g.winners
    assert g.winners == [s for s in range(4) if g.scores[s] == max(g.scores)]


NOJIT_SCRIPT = """
import json, sys
from cardsim.barbu.rules import BarbuRules
from cardsim.barbu import simulate_nb as S
from cardsim import random_play_nb
assert not hasattr(random_play_nb.simulate_worker, "py_func"), "NUMBA_DISABLE_JIT had no effect"
out = []
for rules in ({}, {"king_must_discard": True, "trumps_must_overtrump": True}):
    R = BarbuRules(**rules).pack()
    out.append([int(x) for x in S.simulate_random(R, 9, 0, 1, True, 1)])
    out.append([int(x) for x in S.simulate_random(R, 9, 100, 40, False, 3)])
print(json.dumps(out))
"""


def test_jit_and_nojit_agree():
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    res = subprocess.run([sys.executable, "-c", NOJIT_SCRIPT], env=env, capture_output=True,
                         text=True, timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    nojit = json.loads(res.stdout.strip().splitlines()[-1])
    jit = []
    for rules in ({}, {"king_must_discard": True, "trumps_must_overtrump": True}):
        R = BarbuRules(**rules).pack()
        jit.append([int(x) for x in S.simulate_random(R, 9, 0, 1, True, 1)])
        jit.append([int(x) for x in S.simulate_random(R, 9, 100, 40, False, 3)])
    assert nojit == jit
