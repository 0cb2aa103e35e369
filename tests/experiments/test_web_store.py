"""Games that outlive the server: the SQLite store (experiments.web.store), games made
again from it (experiments.web.sessions), capacity and idle games, and a server killed with
-9 and started again."""

import json
import os
import signal
import time
import urllib.error
import urllib.request

import pytest

from experiments.web.load import free_port, start_server
from experiments.web.store import NEXT_DEAL, GameGone, GameStore, TableFull


class Clock:
    """A clock the test moves by hand."""

    def __init__(self):
        self.now = 1_000_000.0

    def __call__(self):
        return self.now


def kept(store, **kw):
    args = dict(game="debertz", rules={"players": 2}, seat=0, specs=[None, "heuristic"],
                seed=3, duplicate=None)
    args.update(kw)
    return store.create(**args)


def test_store_keeps_actions_in_order_and_checks_tokens(tmp_path):
    store = GameStore(str(tmp_path / "g.sqlite3"))
    gid, token = kept(store)
    store.append(gid, 0, [33, 5], rng=2**64 - 1)
    store.append(gid, 2, [NEXT_DEAL], rng=7)
    game = store.load(gid)
    assert game.actions == [33, 5, NEXT_DEAL] and game.rng == 7
    assert game.specs == [None, "heuristic"] and game.rules == {"players": 2}
    assert store.token_matches(gid, token) and not store.token_matches(gid, token + "x")
    with pytest.raises(Exception):  # an action number taken twice is refused, not overwritten
        store.append(gid, 1, [9], rng=0)
    assert store.load(gid).actions == [33, 5, NEXT_DEAL]  # the failed write left nothing
    # another connection (a restarted server) reads the same
    again = GameStore(str(tmp_path / "g.sqlite3"))
    assert again.load(gid).actions == [33, 5, NEXT_DEAL]
    assert store.drop(gid) and not store.drop(gid)
    with pytest.raises(GameGone):
        again.load(gid)
    with pytest.raises(GameGone):
        store.append(gid, 3, [1], rng=0)


def test_capacity_refuses_new_games_and_drops_only_idle_ones(tmp_path):
    clock = Clock()
    store = GameStore(str(tmp_path / "g.sqlite3"), max_games=2, idle_seconds=600, clock=clock)
    first, _ = kept(store)
    clock.now += 100
    second, _ = kept(store)
    clock.now += 100
    with pytest.raises(TableFull, match="2 games in progress") as full:
        kept(store)
    # the first game frees its place 400 s from now; a client is told to ask within a minute
    assert 1 <= full.value.retry_after <= 60
    assert store.load(first) and store.load(second)  # nothing in progress was dropped
    # a finished game frees its place and is kept as hand records
    store.append(second, 0, [1], rng=0, records=[{"format": "cardsim-debertz/1", "deal": 0}])
    third, _ = kept(store)
    assert store.records(second) == [{"format": "cardsim-debertz/1", "deal": 0}]
    assert [g["id"] for g in store.finished(10)] == [second]
    assert store.finished(10)[0]["deals"] == 1
    # idle past the limit: dropped when room is needed; a game touched since, or a
    # finished game, never
    clock.now += 301
    store.touch(third)
    clock.now += 300
    fourth, _ = kept(store)
    with pytest.raises(GameGone):
        store.load(first)
    assert store.load(third) and store.load(fourth) and store.records(second)
    assert store.counts() == {"in_progress": 2, "finished": 1}
    clock.now += 10_000
    assert sorted(store.drop_idle()) == sorted([third, fourth])
    assert store.counts() == {"in_progress": 0, "finished": 1}


# --- games made again from the store -----------------------------------------------------
fastapi = pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

from experiments.web.app import create_app  # noqa: E402


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def start(client, body):
    r = client.post("/api/games", json=body)
    assert r.status_code == 200, r.json()
    data = r.json()
    return data["id"], data["token"], data


def step(client, gid, token, k):
    """The ``k``-th legal action of the person (cycled), or the next deal."""
    state = client.get(f"/api/games/{gid}", headers=auth(token)).json()
    view = state["view"]
    if view["game_over"]:
        return state
    if view["deal_over"]:
        r = client.post(f"/api/games/{gid}/next", headers=auth(token))
    else:
        legal = view["legal"]
        r = client.post(f"/api/games/{gid}/act", headers=auth(token),
                        json={"action": legal[k % len(legal)]["id"]})
    assert r.status_code == 200, r.json()
    return r.json()


def test_a_new_server_serves_every_game_as_it_was(tmp_path):
    """Games played part way on one server are served by a second one on the same store
    (what a restart after a crash does): the same view, the same id, and they go on. The
    games' actions were committed before each reply, so nothing is lost with the first."""
    path = str(tmp_path / "games.sqlite3")
    first = TestClient(create_app(runs=None, store=path))
    games = [start(first, {"game": "barbu", "agents": ["random"], "seed": 5}),
             start(first, {"game": "debertz", "players": 3, "seat": 2,
                           "agents": ["heuristic"], "seed": 8})]
    for k in range(40):
        for gid, token, _ in games:
            step(first, gid, token, k)
    before = {gid: first.get(f"/api/games/{gid}", headers=auth(token)).json()
              for gid, token, _ in games}
    with TestClient(create_app(runs=None, store=path)) as second:  # started: its lifespan
        for _ in range(3000):  # the games in progress are made again as it starts
            at_start = second.get("/api/stats").json()["restored_at_start"]
            if at_start["seconds"] is not None:
                break
            time.sleep(0.1)
        assert at_start["games"] == at_start["restored"] == 2 and at_start["failed"] == 0
        for gid, token, _ in games:
            after = second.get(f"/api/games/{gid}", headers=auth(token)).json()
            assert after == before[gid]
            assert after["id"] == gid
            assert step(second, gid, token, 1)["id"] == gid  # and it goes on
        assert second.get("/api/stats").json()["restored"] == 2  # none made twice


def test_a_game_that_left_memory_goes_on_as_if_it_had_stayed(tmp_path):
    """With room for one game in memory, two games played in turn leave memory and are made
    again at every request; random agents then draw exactly what they would have drawn."""
    tight = TestClient(create_app(runs=None, store=str(tmp_path / "a.sqlite3"), max_live=1))
    roomy = TestClient(create_app(runs=None, store=str(tmp_path / "b.sqlite3")))
    bodies = [{"game": "barbu", "agents": ["random"], "seed": 9},
              {"game": "debertz", "players": 2, "agents": ["random"], "seed": 2}]
    pairs = [(start(tight, b), start(roomy, b)) for b in bodies]
    for k in range(30):
        for (tid, ttok, _), (rid, rtok, _) in pairs:
            a = step(tight, tid, ttok, k)
            b = step(roomy, rid, rtok, k)
            assert a["view"] == b["view"]
            assert [e["name"] for e in a["events"] if "name" in e] == \
                [e["name"] for e in b["events"] if "name" in e]
    assert tight.get("/api/stats").json()["restored"] >= 30
    assert tight.get("/api/stats").json()["in_memory"] == 1


def test_at_capacity_a_new_game_waits_and_no_game_is_dropped(tmp_path):
    client = TestClient(create_app(runs=None, store=str(tmp_path / "g.sqlite3"), max_games=2))
    games = [start(client, {"game": "debertz", "players": 2, "seed": k}) for k in range(2)]
    r = client.post("/api/games", json={"game": "debertz", "players": 2})
    assert r.status_code == 503 and "2 games in progress" in r.json()["error"]
    assert 1 <= int(r.headers["retry-after"]) <= 60
    for gid, token, _ in games:
        assert client.get(f"/api/games/{gid}", headers=auth(token)).status_code == 200
    # the page's player leaves: the place frees at once
    gid, token, _ = games[0]
    assert client.delete(f"/api/games/{gid}", headers=auth(token)).status_code == 200
    assert client.post("/api/games", json={"game": "debertz", "players": 2}).status_code == 200


def test_finished_games_are_listed_and_replayed(tmp_path):
    client = TestClient(create_app(runs=None, store=str(tmp_path / "g.sqlite3")))
    gid, token, state = start(client, {"game": "debertz", "players": 2, "agents": ["random"],
                                       "seed": 1, "rules": {"target": 60}})
    for k in range(400):
        state = step(client, gid, token, k)
        if state["view"]["game_over"]:
            break
    assert state["view"]["game_over"]
    listed = [f for f in client.get("/api/records").json()["files"] if f["root"] == "games"]
    assert [f["path"] for f in listed] == [gid]
    assert listed[0]["deals"] == state["view"]["deals_ended"] >= 1
    r = client.get("/api/replay", params={"root": "games", "path": gid,
                                          "deal": listed[0]["deals"] - 1})
    assert r.status_code == 200, r.json()
    assert r.json()["record"]["game_over"] and r.json()["steps"]
    r = client.get("/api/replay", params={"root": "games", "path": "nosuchgame"})
    assert r.status_code == 404 and "no finished game" in r.json()["error"]


# --- a server process killed with -9 ------------------------------------------------------
def call(url, method="GET", body=None, token=None):
    req = urllib.request.Request(url, method=method,
                                 data=None if body is None else json.dumps(body).encode())
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(req, timeout=600) as r:
        return json.loads(r.read())


def test_a_server_killed_with_sigkill_restarts_with_every_game(tmp_path):
    port = free_port()
    proc, url = start_server(tmp_path, port)
    games = []
    try:
        for k, body in enumerate([{"game": "barbu", "agents": ["heuristic"], "seed": 4},
                                  {"game": "debertz", "players": 4, "teams": True,
                                   "agents": ["heuristic"], "seed": 6}]):
            state = call(url + "/api/games", "POST", body)
            gid, token = state["id"], state["token"]
            for j in range(12):
                view = state["view"]
                if view["deal_over"]:
                    state = call(f"{url}/api/games/{gid}/next", "POST", {}, token)
                else:
                    state = call(f"{url}/api/games/{gid}/act", "POST",
                                 {"action": view["legal"][j % len(view["legal"])]["id"]}, token)
            games.append((gid, token, call(f"{url}/api/games/{gid}", token=token)))
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    proc, url = start_server(tmp_path, port)
    try:
        for gid, token, before in games:
            assert call(f"{url}/api/games/{gid}", token=token) == before
        with pytest.raises(urllib.error.HTTPError) as refused:
            call(f"{url}/api/games/{games[0][0]}", token="not-the-token")
        assert refused.value.code == 403
    finally:
        proc.terminate()
        proc.wait(timeout=30)
