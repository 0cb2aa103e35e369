"""The browser table's JSON API (experiments.web.app) through the framework's test client."""

import json
import os

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from experiments.cli import main
from experiments.web import files as web_files
from experiments.web.app import create_app
from tests.experiments.web_paths import paths_out_of_the_folder


@pytest.fixture(scope="module")
def dirs(tmp_path_factory):
    root = tmp_path_factory.mktemp("web")
    runs, recs = root / "runs", root / "records"
    runs.mkdir()
    recs.mkdir()
    assert main(["simulate", "debertz", "--hands", "2", "--agents", "heuristic",
                 "--history", str(recs / "debertz.jsonl")]) == 0
    run = runs / "tour-1"
    (run / "plots").mkdir(parents=True)
    (run / "meta.json").write_text(json.dumps({"name": "tour", "kind": "tournament"}))
    (run / "table.txt").write_text("agent  points\nheuristic  +1.0\n")
    (run / "plots" / "difference.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (run / "metrics.jsonl").write_text('{"iteration": 1, "loss": 0.5}\n')  # not records
    (recs / "broken.jsonl").write_text('{"format": "cardsim-debertz/1"}\n[1, 2]\n')
    (recs / "other.jsonl").write_text('{"format": "chess/1"}\n')
    outside = root / "secret.jsonl"
    outside.write_text((recs / "debertz.jsonl").read_text())
    os.symlink(outside, recs / "link.jsonl")
    return runs, recs


@pytest.fixture(scope="module")
def client(dirs):
    runs, recs = dirs
    return TestClient(create_app(runs=str(runs), records=[str(recs)]))


def auth(state) -> dict:
    """The header that shows a game's token (the reply to POST /api/games holds it)."""
    return {"Authorization": f"Bearer {state['token']}"}


def new_game(client, body) -> dict:
    """A new game's state; its token stays with the state through ``play_deal``."""
    r = client.post("/api/games", json=body)
    assert r.status_code == 200, r.json()
    return r.json()


def play_deal(client, state, token=None):
    """Take the first legal action until the deal ends; returns the last state (with the
    game's token)."""
    token = token or state["token"]
    for _ in range(200):
        view = state["view"]
        if view["deal_over"] or view["game_over"]:
            return {**state, "token": token}
        if state["thinking"]:  # agents that think long had no more time in that request
            r = client.post(f"/api/games/{state['id']}/advance", headers=auth({"token": token}))
        else:
            assert view["legal"], view
            r = client.post(f"/api/games/{state['id']}/act",
                            json={"action": view["legal"][0]["id"]},
                            headers=auth({"token": token}))
        assert r.status_code == 200, r.json()
        state = r.json()
    raise AssertionError("the deal did not end")


def replayed(client, url: str, headers: dict) -> dict:
    """A duplicate replay's reply: asked again while it says ``thinking`` (status 202: its
    worker had not ended it in the request's time)."""
    for _ in range(600):
        r = client.get(url, headers=headers)
        if r.status_code != 202:
            return r.json()
        assert r.json()["thinking"] is True
    raise AssertionError(f"{url} still thinking")


def test_meta(client):
    meta = client.get("/api/meta").json()
    assert set(meta["games"]) == {"debertz", "barbu"}
    assert "heuristic" in meta["games"]["debertz"]["agents"]
    assert meta["games"]["debertz"]["conventions"]["target"] == 501
    assert meta["presets"]["debertz-3p"][:3] == ["strongest", "fast", "network"]
    assert meta["preset_about"]["barbu"]["heuristic"]
    # the network menu: the zoo's playing networks with their measured strength, each
    # table's strongest first
    models = {m["name"]: m for m in meta["models"]}
    assert set(models) == set(meta["checkpoints"])
    assert models["debertz-2p"]["table"] == "debertz-2p" and models["debertz-2p"]["summary"]
    barbu = [m for m in meta["models"] if m["table"] == "barbu"]
    measured = [m["over_heuristic"] for m in barbu if m["over_heuristic"] is not None]
    assert measured == sorted(measured, reverse=True) and barbu[0]["over_heuristic"] is not None


def test_a_preset_seats_the_tables_named_player(client):
    # "network" at 2 against 2 is the critic of that table, at Barbu Barbu's
    r = client.post("/api/games", json={"game": "debertz", "players": 4, "teams": True,
                                        "seat": 0, "agents": ["network"], "seed": 4})
    assert r.status_code == 200, r.json()
    assert r.json()["view"]["labels"] == ["you", "network", "network", "network"]
    r = client.post("/api/games", json={"game": "debertz", "players": 4, "seat": 0,
                                        "agents": ["fast", "network", "nosuchplayer"]})
    assert r.status_code == 400 and "nosuchplayer" in r.json()["error"]


def test_debertz_deal_illegal_action_refused(client):
    state = new_game(client, {"game": "debertz", "players": 2, "seat": 1,
                              "agents": ["heuristic"], "seed": 4})
    gid, mine = state["id"], auth(state)
    view = state["view"]
    assert view["seats"][1]["hand"] and view["seats"][0]["hand"] is None  # hidden
    legal = {a["id"] for a in view["legal"]}
    bad = next(a for a in range(40) if a not in legal)
    r = client.post(f"/api/games/{gid}/act", json={"action": bad}, headers=mine)
    assert r.status_code == 400 and "not legal" in r.json()["error"]
    r = client.post(f"/api/games/{gid}/act", content=b"{not json", headers=mine)
    assert r.status_code == 400 and "JSON" in r.json()["error"]
    # the game goes on after the refusals
    end = play_deal(client, client.get(f"/api/games/{gid}", headers=mine).json(),
                    state["token"])
    assert end["view"]["deal_over"] and end["view"]["deals_ended"] == 1
    assert any(e["kind"] == "trick" for e in end["events"]) or end["events"]
    sheet = client.get(f"/api/games/{gid}/sheet", headers=mine).json()
    assert len(sheet["points"]) == 1 and sheet["records"][0]["format"] == "cardsim-debertz/1"
    nxt = client.post(f"/api/games/{gid}/next", headers=mine).json()
    assert not nxt["view"]["deal_over"] and nxt["view"]["deal"] >= 1
    assert client.delete(f"/api/games/{gid}", headers=mine).status_code == 200
    r = client.get(f"/api/games/{gid}", headers=mine)
    assert r.status_code == 404 and "no such game" in r.json()["error"]


def test_barbu_deal_and_duplicate(client):
    state = new_game(client, {"game": "barbu", "seat": 0, "agents": "random", "seed": 7,
                              "duplicate": "random"})
    end = play_deal(client, state)
    assert end["view"]["deal_over"]
    dup = replayed(client, f"/api/games/{state['id']}/duplicate", auth(state))
    assert dup["agent"] == "random" and len(dup["deals"]) == 1
    assert sum(e["kind"] == "move" for e in end["events"]) >= 1


def test_whole_game_duplicate(client):
    """The whole game replayed with the duplicate agent in your seat, once yours is over."""
    state = new_game(client, {"game": "debertz", "players": 2, "seat": 1,
                              "agents": "heuristic", "seed": 4, "duplicate": "heuristic",
                              "rules": {"target": 150}})
    gid, mine, token = state["id"], auth(state), state["token"]
    early = client.get(f"/api/games/{gid}/duplicate-game", headers=mine)
    assert early.status_code == 400 and "once yours is over" in early.json()["error"]
    for _ in range(50):
        state = play_deal(client, state, token)
        if state["view"]["game_over"]:
            break
        state = client.post(f"/api/games/{gid}/next", headers=mine).json()
    assert state["view"]["game_over"]
    dup = replayed(client, f"/api/games/{gid}/duplicate-game", mine)
    assert dup["agent"] == "heuristic" and dup["seat"] == 1
    assert dup["you"]["over"] and dup["agent_game"]["over"]
    assert dup["you"]["side"] == dup["agent_game"]["side"] == 1
    assert dup["difference"] == dup["you"]["margin"] - dup["agent_game"]["margin"]
    assert dup["you"]["deals"] == len(dup["you"]["points"]) >= 1
    assert client.get(f"/api/games/{gid}/duplicate-game", headers=mine).json() == dup  # kept
    plain = new_game(client, {"game": "debertz", "players": 2})
    r = client.get(f"/api/games/{plain['id']}/duplicate-game", headers=auth(plain))
    assert r.status_code == 400 and "duplicate mode" in r.json()["error"]


@pytest.mark.parametrize("body, words", [
    ({"game": "chess"}, "game must be"),
    ({"game": "debertz", "players": 5}, "players"),
    ({"game": "debertz", "agents": ["nosuchagent"]}, "unknown debertz agent"),
    ({"game": "debertz", "seat": 9}, "seat must be"),
    ({"game": "debertz", "rules": {"target": "x"}}, "target"),
])
def test_bad_new_game(client, body, words):
    r = client.post("/api/games", json=body)
    assert r.status_code == 400 and words in r.json()["error"], r.json()


def test_replay_and_solver_values(client):
    files = client.get("/api/records").json()["files"]
    paths = {f["path"] for f in files}
    assert "debertz.jsonl" in paths and "link.jsonl" not in paths
    # JSON Lines that are not hand records (a run's metrics, another format) are not listed
    assert "tour-1/metrics.jsonl" not in paths and "other.jsonl" not in paths
    r = client.get("/api/replay", params={"root": "records", "path": "debertz.jsonl", "deal": 1})
    data = r.json()
    assert r.status_code == 200 and len(data["deals"]) == 2
    steps = data["steps"]
    assert steps[0]["action"] is None and all(s["hand"] for s in steps[0]["view"]["seats"])
    k = next(i for i, s in enumerate(steps) if s["view"]["phase"] == "play"
             and len([a for a in s["view"]["seats"][s["view"]["turn"]]["hand"]]) > 1)
    r = client.post("/api/replay/analyse", json={"root": "records", "path": "debertz.jsonl",
                                                 "deal": 1, "step": k, "method": "solver"})
    out = r.json()
    assert r.status_code == 200, out
    assert out["best"] in out["values"] and out["played"] == steps[k + 1]["action"]
    assert all(isinstance(v, float) for v in out["values"].values())


@pytest.mark.parametrize("path, status, words", paths_out_of_the_folder(
    "secret.jsonl", ".jsonl", "outside") + [("broken.jsonl", 400, "line 2"),
                                           ("other.jsonl", 400, "format")])
def test_replay_refuses_paths_and_bad_records(client, path, status, words):
    r = client.get("/api/replay", params={"root": "records", "path": path})
    assert r.status_code == status and words in r.json()["error"], r.json()


def test_replay_refuses_huge_files(client, monkeypatch):
    monkeypatch.setattr(web_files, "MAX_RECORD_BYTES", 10)
    r = client.get("/api/replay", params={"root": "records", "path": "debertz.jsonl"})
    assert r.status_code == 400 and "not read" in r.json()["error"]


def test_leaderboard_standings_are_the_kept_ladders(client):
    from experiments.tournaments import leaderboard as lb

    tables = client.get("/api/leaderboard").json()["tables"]
    assert [t["table"] for t in tables] == list(lb.TABLES)
    for t in tables:
        data = lb.load(t["table"])
        assert (t["ladder"] is None) == (data is None)
        if data is not None:
            assert [r["spec"] for r in t["ladder"]["rows"]] == [
                r["spec"] for r in lb.standings(data)]


def test_leaderboard(client):
    runs = client.get("/api/runs").json()["runs"]
    assert runs[0]["name"] == "tour-1" and "heuristic" in runs[0]["table"]
    assert runs[0]["plots"] == ["tour-1/plots/difference.png"]
    r = client.get("/api/runs/file", params={"path": runs[0]["plots"][0]})
    assert r.status_code == 200 and r.headers["content-type"] == "image/png"
    r = client.get("/api/runs/file", params={"path": "tour-1/meta.json"})
    assert r.status_code == 400


def test_page_and_static_files(client):
    r = client.get("/")
    assert r.status_code == 200 and '<script type="module" src="/static/main.js">' in r.text
    # the page's modules, each served as JavaScript (the browser runs no other type)
    for name in ("main.js", "api.js", "cards.js", "table.js", "setup.js", "play.js",
                 "sheet.js", "values.js", "replay.js", "compare.js", "leaderboard.js"):
        r = client.get(f"/static/{name}")
        assert r.status_code == 200 and "javascript" in r.headers["content-type"], name
    assert client.get("/static/..%2Fapp.py").status_code == 404
    assert client.get("/nowhere").json()["error"]
