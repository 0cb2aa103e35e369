"""Tournaments keep per-chunk sufficient statistics: the same results as per-deal arrays,
whatever the order in which chunks are merged; per-deal rows on request."""

import json
import math

import numpy as np
import pytest

from cardsim.barbu.rules import BarbuRules
from cardsim.debertz.rules import DebertzRules
from cardsim.errors import InvalidConfigError
from experiments.tournaments import tally as T
from experiments.tournaments.per_deal import DTYPE, read_per_deal
from experiments.tournaments.stats import Moments, mean_ci
from experiments.tournaments.tournament import Tournament, tournament


def _per_deal_reference(t: Tournament, chunk: int):
    """The result as computed from every deal's values (the computation tallies replace)."""
    pairs, agents = [], {i: [] for i in range(len(t.agents))}
    for k, p in enumerate(t.pairings):
        parts = [t.play_chunk(k, lo, hi) for kk, lo, hi in t.chunks(chunk) if kk == k]
        pts = np.concatenate([r[0] for r in parts])
        wins = np.concatenate([r[1] for r in parts])
        deals = np.concatenate([r[2] for r in parts])
        contracts = np.concatenate([r[3] for r in parts]) if len(parts[0]) > 3 else None
        agents[p.a].append((pts[:, 0], wins[:, 0]))
        agents[p.b].append((pts[:, 1], wins[:, 1]))
        pairs.append((pts, wins, deals, contracts))
    return pairs, agents


def _close(x, y):
    if y is None or (isinstance(y, float) and math.isnan(y)):
        return x is None
    return x == pytest.approx(y, rel=1e-9, abs=1e-9)


CASES = [
    ("debertz", DebertzRules(players=2), ["heuristic", "random"], dict(deals=700), 3),
    ("debertz", DebertzRules(players=2), ["heuristic", "random"], dict(deals=700), 11),
    ("debertz", DebertzRules(players=3), ["heuristic", "random", "random"], dict(deals=300), 5),
    ("debertz", DebertzRules(players=4), ["heuristic", "random"], dict(deals=250), 2),
    ("debertz", DebertzRules(players=4, teams=True, target=151), ["heuristic", "random"],
     dict(games=30), 7),
    ("debertz", DebertzRules(players=2), ["heuristic", "random"],
     dict(deals=400, duplicate=False), 4),
    ("barbu", BarbuRules(), ["heuristic", "random", "random"], dict(deals=150), 1),
    ("barbu", BarbuRules(), ["heuristic", "random"], dict(deals=140, by_contract=True), 9),
]


@pytest.mark.parametrize("game, rules, agents, kw, seed", CASES)
def test_tallies_give_the_per_deal_table_and_intervals(game, rules, agents, kw, seed):
    chunk = 128
    t = Tournament(game, rules, agents, seed=seed, **kw)
    for k, lo, hi in t.chunks(chunk):
        t.add_chunk(k, t.tally_chunk(k, lo, hi, t.play_chunk(k, lo, hi)))
    res = t.result()
    ref = Tournament(game, rules, agents, seed=seed, **kw)
    pairs, per_agent = _per_deal_reference(ref, chunk)
    for row, (pts, wins, deals, contracts) in zip(res["pairings"], pairs):
        diff, half = mean_ci(pts[:, 0] - pts[:, 1])
        assert row["items"] == len(pts) and row["deals_played"] == deals.sum()
        assert _close(row["difference"], diff) and _close(row["difference_ci95"], half)
        assert all(_close(m, r) for m, r in zip(row["mean_points"], pts.mean(axis=0)))
        if t.whole:
            assert all(_close(w, r) for w, r in zip(row["win_rate"], wins.mean(axis=0)))
        if contracts is not None:
            for c, crow in enumerate(row["by_contract"]):
                sel = pts[contracts == c]
                d, h = mean_ci(sel[:, 0] - sel[:, 1])
                assert crow["items"] == len(sel)
                assert _close(crow["difference"], d) and _close(crow["difference_ci95"], h)
    for row, i in zip(res["agents"], per_agent):
        values = np.concatenate([v for v, _ in per_agent[i]])
        mean, half = mean_ci(values)
        assert row["items"] == values.size
        assert _close(row["points_per_deal"], mean) and _close(row["ci95"], half)
    assert (res["ratings"] is not None) == (len(agents) >= 3)


def test_hands_mode_sums_are_whole_multiples_and_exact():
    t = Tournament("debertz", DebertzRules(players=3), ["heuristic", "random"], deals=200)
    tally = t.tally_chunk(0, 0, 200, t.play_chunk(0, 0, 200))
    assert tally.scale == 6 * 2 and tally.sums.dtype == np.int64
    w = Tournament("debertz", DebertzRules(players=2, target=101), ["heuristic", "random"],
                   games=20)
    assert w.tally_chunk(0, 0, 20, w.play_chunk(0, 0, 20)).scale == 0  # whole games: floats


@pytest.mark.parametrize("kw", [dict(deals=900), dict(games=25)])
def test_merging_chunks_in_any_order_gives_the_same_result(kw):
    rules = DebertzRules(players=2, target=151)
    agents = ["heuristic", "random", "random"]
    t = Tournament("debertz", rules, agents, seed=6, **kw)
    tallies = [(k, t.tally_chunk(k, lo, hi, t.play_chunk(k, lo, hi)))
               for k, lo, hi in t.chunks(7 if "games" in kw else 100)]
    results = []
    for order in (range(len(tallies)), reversed(range(len(tallies))),
                  np.random.default_rng(0).permutation(len(tallies))):
        u = Tournament("debertz", rules, agents, seed=6, **kw)
        for j in order:
            u.add_chunk(*tallies[j])
        results.append((u.result(), [p.tally.curve for p in u.pairings]))
    assert results[0] == results[1] == results[2]


def test_chunk_size_does_not_change_hands_results():
    rules = DebertzRules(players=4)
    res = []
    for chunk in (64, 1000):
        t = Tournament("debertz", rules, ["heuristic", "random"], deals=500, seed=2)
        for k, lo, hi in t.chunks(chunk):
            t.add_chunk(k, t.tally_chunk(k, lo, hi, t.play_chunk(k, lo, hi)))
        res.append((t.result(), t.pairings[0].tally.curve))
    assert res[0] == res[1]


def test_settling_curve_matches_the_prefix_statistics():
    t = Tournament("debertz", DebertzRules(players=2), ["heuristic", "random"], deals=600,
                   seed=1)
    parts = []
    for k, lo, hi in t.chunks(128):
        r = t.play_chunk(k, lo, hi)
        parts.append(r[0])
        t.add_chunk(k, t.tally_chunk(k, lo, hi, r))
    d = np.concatenate(parts)
    d = d[:, 0] - d[:, 1]
    curve = t.pairings[0].tally.curve
    assert [c[0] for c in curve] == [int(g) for g in T.CURVE_GRID if g <= 600]
    for n, mean, half in curve:
        m, h = mean_ci(d[:n])
        assert _close(mean, m) and _close(half, h)
    assert np.isclose(d.mean(), t.pairings[0].tally.moments[0][T.DIFF].mean())


def test_samples_are_bounded(monkeypatch):
    monkeypatch.setattr(T, "SAMPLE_ITEMS", 300)
    t = Tournament("debertz", DebertzRules(players=2), ["heuristic", "random"], deals=1000)
    for k, lo, hi in t.chunks(256):
        tally = t.tally_chunk(k, lo, hi, t.play_chunk(k, lo, hi))
        assert tally.sample.shape[0] == max(0, min(hi, 300) - lo)
        t.add_chunk(k, tally)
    assert t.pairings[0].tally.sample.shape == (300, 2)
    assert not np.isnan(t.pairings[0].tally.sample).any()


def test_moments_interval_of_one_item_is_none():
    m = Moments(1, T.exact(5), T.exact(25))
    assert m.mean_ci() == (5.0, None)
    assert Moments().mean_ci() == (None, None)


def test_per_deal_file_holds_every_deal(tmp_path):
    path = tmp_path / "deals.npy"
    res = tournament("barbu", BarbuRules(), ["heuristic", "random"], deals=70, seed=3,
                     by_contract=True, per_deal=path)
    rows = read_per_deal(path)
    assert rows.dtype == DTYPE and len(rows) == 70
    assert (rows["item"] == np.arange(70)).all() and (rows["contract"] == np.arange(70) % 7).all()
    d = rows["points"][:, 0] - rows["points"][:, 1]
    assert _close(res["pairings"][0]["difference"], float(d.mean()))
    assert not list(tmp_path.glob(".*.tmp"))
    # beside it, the config that plays its deals again (kind: tournament)
    from experiments.runs.config import config_from_dict

    cfg = config_from_dict(json.loads((tmp_path / "deals.json").read_text()))
    assert (cfg.kind, cfg.game, cfg.agents, cfg.deals, cfg.seed) == (
        "tournament", "barbu", ["heuristic", "random"], 70, 3)
    assert cfg.by_contract and cfg.duplicate and cfg.make_rules() == BarbuRules()
    # an existing config there is kept unless forced, like the file itself
    (tmp_path / "deals.npy").unlink()
    with pytest.raises(InvalidConfigError, match="deals.json"):
        tournament("barbu", BarbuRules(), ["heuristic", "random"], deals=7, per_deal=path)


@pytest.mark.parametrize("scale", [0, 12])
def test_chunk_pass_equals_numpy_and_the_uncompiled_kernel(scale):
    from experiments.tournaments import tally_nb

    rng = np.random.default_rng(1)
    points = rng.integers(-300, 300, size=(500, 2)) / 12.0
    labels = rng.integers(0, 7, size=500)
    lo = 90
    at = T.CURVE_GRID[(T.CURVE_GRID > lo) & (T.CURVE_GRID <= lo + 500)]
    t = T.ChunkTally.from_items(lo, lo + 500, points, np.zeros((500, 2)), np.ones(500),
                                contracts=labels, groups=8, scale=scale)
    assert t.scale == scale
    v = np.rint(points * 12).astype(np.int64) if scale else points
    v = np.column_stack([v[:, 0], v[:, 1], v[:, 0] - v[:, 1]])
    for g in range(8):
        sel = v if g == 0 else v[labels == g - 1]
        assert t.count[g] == len(sel)
        assert np.allclose(t.sums[g], sel.sum(axis=0), rtol=1e-12, atol=0)
        assert np.allclose(t.squares[g], (sel * sel).sum(axis=0), rtol=1e-12, atol=0)
    assert np.allclose(t.curve_sums, np.cumsum(v[:, 2])[at - lo - 1], rtol=1e-12, atol=0)
    args = [np.zeros(8, np.int64), np.zeros((8, 3), v.dtype), np.zeros((8, 3), v.dtype),
            np.zeros(len(at), v.dtype), np.zeros(len(at), v.dtype)]
    tally_nb.chunk_sums.py_func(np.ascontiguousarray(v[:, :2]), labels, lo, at, *args)
    assert (args[0] == t.count).all() and (args[1] == t.sums).all()
    assert (args[3] == t.curve_sums).all() and (args[4] == t.curve_squares).all()
    out = np.zeros((2, 2), np.int64)
    assert not tally_nb.to_units(np.array([[0.5, 1 / 7], [0, 0]]), 2, out)
