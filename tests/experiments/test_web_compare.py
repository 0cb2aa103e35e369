"""The browser table's comparison of two agents over a tournament's per-deal results
(experiments.web.compare, ``/api/perdeal``, ``/api/compare``, ``/api/compare/plays``)."""

import os

import numpy as np
import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from cardsim.errors import InvalidConfigError
from experiments.cli import main
from experiments.tournaments.per_deal import DTYPE
from experiments.web import app as web_app
from experiments.web.app import create_app
from experiments.web.compare import top_deals
from tests.experiments.web_paths import paths_out_of_the_folder

CONFIG = """name: cmp
kind: tournament
game: debertz
rules: {players: 2}
agents: [heuristic, random]
deals: 6
per_deal: true
seed: 5
"""


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("cmp")
    runs = root / "runs"
    runs.mkdir()
    assert main(["tournament", "debertz", "--players", "2", "--agents", "heuristic", "random",
                 "--deals", "6", "--seed", "5", "--per-deal", str(runs / "lone.npy")]) == 0
    (root / "cmp.yaml").write_text(CONFIG)
    assert main(["run", str(root / "cmp.yaml"), "--out", str(runs)]) == 0
    (root / "games.yaml").write_text(CONFIG.replace("name: cmp", "name: whole")
                                     .replace("deals: 6", "games: 2"))
    assert main(["run", str(root / "games.yaml"), "--out", str(runs)]) == 0
    (runs / "bare.npy").write_bytes((runs / "lone.npy").read_bytes())  # without its config
    (runs / "junk.npy").write_bytes(b"not numpy at all")
    np.save(runs / "other.npy", np.arange(5))
    (runs / "notes.txt").write_text("hello")
    outside = root / "outside.npy"
    outside.write_bytes((runs / "lone.npy").read_bytes())
    os.symlink(outside, runs / "link.npy")
    return runs


@pytest.fixture(scope="module")
def client(runs):
    return TestClient(create_app(runs=str(runs), records=[]))


def chunk_file(client, run: str = "cmp-") -> str:
    files = client.get("/api/perdeal").json()["files"]
    return next(f["path"] for f in files if f["replayable"] and f["path"].startswith(run))


def test_listing_of_per_deal_files(client):
    files = {f["path"]: f for f in client.get("/api/perdeal").json()["files"]}
    assert files["lone.npy"]["replayable"]  # its lone.json says how it was made
    assert not files["bare.npy"]["replayable"]
    assert "link.npy" not in files  # a symbolic link out is not listed
    chunks = sorted(p for p, f in files.items() if f["replayable"] and "/" in p)
    assert len(chunks) == 2 and chunks[0].endswith("/deals/pairing0-0-6.npy")


def test_top_deals_sorted_by_size_of_difference(client, runs):
    path = chunk_file(client)
    r = client.get("/api/compare", params={"file": path, "top": 4})
    assert r.status_code == 200, r.json()
    out = r.json()
    assert out["agents"] == ["heuristic", "random"] and out["replayable"]
    assert out["rows"] == 6 and out["pairings"] == [0]
    diffs = [d["difference"] for d in out["deals"]]
    assert len(diffs) == 4
    assert [abs(x) for x in diffs] == sorted((abs(x) for x in diffs), reverse=True)
    rows = np.load(runs / path)
    full = rows["points"][:, 0] - rows["points"][:, 1]
    assert abs(diffs[0]) == np.abs(full).max()
    for d in out["deals"]:
        assert d["difference"] == pytest.approx(d["points"][0] - d["points"][1])
        assert rows[d["row"]]["item"] == d["item"]
    # cardsim tournament --per-deal: the same deals (same seed), replayable by its config
    lone = client.get("/api/compare", params={"file": "lone.npy", "top": 4}).json()
    assert lone["replayable"] and lone["note"] is None
    assert lone["agents"] == ["heuristic", "random"]
    assert [d["difference"] for d in lone["deals"]] == diffs
    # the same rows without their config: listed, not replayable
    bare = client.get("/api/compare", params={"file": "bare.npy", "top": 4}).json()
    assert not bare["replayable"] and "cardsim run" in bare["note"]
    assert [d["difference"] for d in bare["deals"]] == diffs


def test_top_deals_by_absolute_difference():
    rows = np.zeros(5, dtype=DTYPE)
    rows["item"] = np.arange(5)
    rows["points"][:, 0] = [1, -9, 3, 9, 0]
    rows["pairing"][4] = 1
    got = top_deals(rows, 0, 3)
    assert [d["item"] for d in got] == [1, 3, 2]  # |-9| ties 9: file order
    assert got[0]["difference"] == -9
    with pytest.raises(InvalidConfigError, match="pairing 2"):
        top_deals(rows, 2, 3)
    with pytest.raises(InvalidConfigError, match="top"):
        top_deals(rows, 0, 0)


def test_both_plays_of_a_deal_replay(client):
    path = chunk_file(client)
    best = client.get("/api/compare", params={"file": path, "top": 1}).json()["deals"][0]
    r = client.get("/api/compare/plays", params={"file": path, "item": best["item"]})
    assert r.status_code == 200, r.json()
    out = r.json()
    assert out["points"] == pytest.approx(out["file_points"])
    assert out["file_points"] == pytest.approx(best["points"])
    plays = out["plays"]
    assert len(plays) == 2
    assert plays[0]["seats"] == ["heuristic", "random"]
    assert plays[1]["seats"] == ["random", "heuristic"]
    for p in plays:
        assert p["records"] and p["records"][0]["format"] == "cardsim-debertz/1"
        assert len(p["steps"]) > 10 and p["steps"][0]["action"] is None
        assert p["steps"][1]["action"] and p["steps"][1]["seat"] is not None
    # the same cards in both plays: the hands dealt are the same, the seats swapped
    h0 = [s["hand"] for s in plays[0]["steps"][0]["view"]["seats"]]
    h1 = [s["hand"] for s in plays[1]["steps"][0]["view"]["seats"]]
    assert h0 == h1


def test_a_lone_per_deal_file_replays_by_the_config_beside_it(client):
    path = chunk_file(client)
    run = client.get("/api/compare/plays", params={"file": path, "item": 2}).json()
    r = client.get("/api/compare/plays", params={"file": "lone.npy", "item": 2})
    assert r.status_code == 200, r.json()
    lone = r.json()
    assert lone["points"] == pytest.approx(lone["file_points"])
    assert lone["points"] == pytest.approx(run["points"])
    assert [p["records"] for p in lone["plays"]] == [p["records"] for p in run["plays"]]


def test_plays_refused_without_a_config_or_item(client):
    r = client.get("/api/compare/plays", params={"file": "bare.npy", "item": 0})
    assert r.status_code == 400 and "config" in r.json()["error"]
    path = chunk_file(client)
    r = client.get("/api/compare/plays", params={"file": path, "item": 99})
    assert r.status_code == 400 and "item 99" in r.json()["error"]
    r = client.get("/api/compare/plays", params={"file": path, "item": 0, "deal": 5})
    assert r.status_code == 400 and "deal must be" in r.json()["error"]


@pytest.mark.parametrize("path, status, words", paths_out_of_the_folder(
    "outside.npy", ".npy", "outside runs") + [("junk.npy", 400, "not a NumPy file"),
                                              ("other.npy", 400, "not a per-deal file"),
                                              ("notes.txt", 400, ".npy file"),
                                              ("", 400, "give the path")])
def test_bad_paths_refused(client, path, status, words):
    for url in ("/api/compare", "/api/compare/plays"):
        r = client.get(url, params={"file": path})
        assert r.status_code == status, (url, r.json())
        assert words in r.json()["error"]


def test_huge_file_refused(client, monkeypatch):
    monkeypatch.setattr(web_app, "MAX_PER_DEAL_BYTES", 100)
    r = client.get("/api/compare", params={"file": "bare.npy"})
    assert r.status_code == 400 and "are not read" in r.json()["error"]


def test_bad_numbers_refused(client):
    r = client.get("/api/compare", params={"file": "lone.npy", "top": 0})
    assert r.status_code == 400 and "top must be" in r.json()["error"]
    r = client.get("/api/compare", params={"file": "lone.npy", "top": "x"})
    assert r.status_code == 422
    r = client.get("/api/compare", params={"file": "lone.npy", "pairing": 3})
    assert r.status_code == 400 and "pairing 3" in r.json()["error"]


def test_whole_games_step_through_each_deal(client):
    path = chunk_file(client, "whole-")
    best = client.get("/api/compare", params={"file": path, "top": 1}).json()["deals"][0]
    out = client.get("/api/compare/plays", params={"file": path, "item": best["item"]}).json()
    assert out["points"] == pytest.approx(out["file_points"])
    lengths = [len(p["records"]) for p in out["plays"]]
    assert max(lengths) > 1  # a whole game to 501 takes several deals
    last = max(lengths) - 1
    r = client.get("/api/compare/plays", params={"file": path, "item": best["item"],
                                                 "deal": last})
    assert r.status_code == 200, r.json()
    for p in r.json()["plays"]:
        assert (p["steps"] is None) == (len(p["records"]) <= last)
    r = client.get("/api/compare/plays", params={"file": path, "item": best["item"],
                                                 "deal": last + 1})
    assert r.status_code == 400 and "deal must be" in r.json()["error"]
