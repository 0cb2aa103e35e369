"""Agents that think long decide in worker processes, within a time per request
(experiments.web.search): a reply says ``thinking`` when that time was spent, and
``POST /api/games/{id}/advance`` lets them go on."""

import os
import signal
import time

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from experiments.web.app import create_app
from experiments.web.search import thinks_long


def test_which_agents_think_long():
    from agents.registry import make_agent

    assert not thinks_long(make_agent("heuristic", "barbu"))
    assert not thinks_long(make_agent("random", "debertz"))
    assert thinks_long(make_agent("pimc:samples=2", "debertz"))
    assert thinks_long(make_agent("ismcts", "barbu"))


def test_a_search_thinks_in_a_worker_within_the_requests_time(tmp_path):
    app = create_app(runs=None, store=str(tmp_path / "g.sqlite3"), agent_seconds=0.05,
                     search_workers=1)
    client = TestClient(app)
    # seat 1 of a 2-player table; pimc in seat 0 speaks first (the dealer is seat 1)
    r = client.post("/api/games", json={"game": "debertz", "players": 2, "seat": 1, "seed": 1,
                                        "agents": ["pimc:samples=2"],
                                        "rules": {"first_dealer": 1}})
    assert r.status_code == 200, r.json()
    state = r.json()
    headers = {"Authorization": "Bearer " + state["token"]}
    # a worker process is started on the first long decision: far more than 0.05 s
    assert state["thinking"] and state["view"]["legal"] == []
    refused = client.post(f"/api/games/{state['id']}/act", json={"action": 32},
                          headers=headers)
    assert refused.status_code == 400 and "is thinking" in refused.json()["error"]
    moves = []
    give_up = time.monotonic() + 900  # a worker's first decision loads what it needs
    while state["thinking"] and time.monotonic() < give_up:
        state = client.post(f"/api/games/{state['id']}/advance", headers=headers).json()
        moves += [e for e in state["events"] if e["kind"] == "move"]
    assert not state["thinking"] and state["view"]["legal"]
    assert moves and all(m["seat"] == 0 for m in moves)
    workers = app.state.search.pids()
    assert workers and os.getpid() not in workers
    # a worker yields the processor to the server's own requests
    assert all(os.getpriority(os.PRIO_PROCESS, w) > os.getpriority(os.PRIO_PROCESS, 0)
               for w in workers)
    stats = client.get("/api/stats").json()
    assert stats["workers_rss_mib"] and stats["rss_mib"] > 0
    # a worker that dies (killed, out of memory) is replaced: the games go on
    for w in workers:
        os.kill(w, signal.SIGKILL)
    state = client.post("/api/games", json={"game": "debertz", "players": 2, "seat": 1,
                                            "seed": 2, "agents": ["pimc:samples=2"],
                                            "rules": {"first_dealer": 1}}).json()
    headers = {"Authorization": "Bearer " + state["token"]}
    give_up = time.monotonic() + 900
    while state["thinking"] and time.monotonic() < give_up:
        r = client.post(f"/api/games/{state['id']}/advance", headers=headers)
        assert r.status_code == 200, r.json()
        state = r.json()
    assert not state["thinking"] and state["view"]["legal"]
    assert set(app.state.search.pids()).isdisjoint(workers)
    app.state.search.close()
