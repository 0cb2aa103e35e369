"""What keeps ``cardsim serve`` safe: each game answers only its token, request bodies are
bounded, the page runs only its own files, and listening beyond this machine or on a busy
port is a clear refusal."""

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from experiments.web.app import create_app
from experiments.web.guard import MAX_BODY_BYTES, is_this_machine

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return TestClient(create_app(runs=None, store=str(tmp_path_factory.mktemp("safe") /
                                                      "g.sqlite3")))


def test_only_the_games_creator_sees_it_or_acts_in_it(client):
    mine = client.post("/api/games", json={"game": "barbu", "seed": 2, "agents": "heuristic",
                                           "duplicate": "heuristic"}).json()
    other = client.post("/api/games", json={"game": "barbu", "seed": 3}).json()
    assert mine["token"] and mine["token"] != other["token"]
    gid = mine["id"]
    before = client.get(f"/api/games/{gid}", headers={"Authorization": "Bearer " +
                                                      mine["token"]}).json()
    legal = before["view"]["legal"][0]["id"]
    requests = [("GET", f"/api/games/{gid}", None), ("POST", f"/api/games/{gid}/act",
                                                       {"action": legal}),
                ("POST", f"/api/games/{gid}/next", None), ("GET", f"/api/games/{gid}/sheet", None),
                ("POST", f"/api/games/{gid}/analyse", {"method": "solver"}),
                ("GET", f"/api/games/{gid}/duplicate", None), ("DELETE", f"/api/games/{gid}", None)]
    for method, url, body in requests:
        r = client.request(method, url, json=body)
        assert r.status_code == 401 and "Authorization: Bearer TOKEN" in r.json()["error"], url
        r = client.request(method, url, json=body,
                           headers={"Authorization": "Bearer " + other["token"]})
        assert r.status_code == 403 and "only the person who created" in r.json()["error"], url
        r = client.request(method, url, json=body, headers={"Authorization": other["token"]})
        assert r.status_code == 401, url  # not the Bearer scheme
    after = client.get(f"/api/games/{gid}", headers={"Authorization": "Bearer " +
                                                     mine["token"]}).json()
    assert after["view"] == before["view"]  # nothing the others sent changed the game
    r = client.get("/api/games/nosuchgame", headers={"Authorization": "Bearer x"})
    assert r.status_code == 404 and "no such game" in r.json()["error"]


def test_request_bodies_are_bounded(client):
    big = b'{"game": "debertz", "pad": "' + b"x" * MAX_BODY_BYTES + b'"}'
    r = client.post("/api/games", content=big, headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and f"over {MAX_BODY_BYTES} bytes" in r.json()["error"]

    def chunks():  # no declared length: counted as it arrives
        for _ in range(MAX_BODY_BYTES // 1024 + 2):
            yield b" " * 1024

    r = client.post("/api/replay/analyse", content=chunks(),
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and "the most this server reads" in r.json()["error"]
    r = client.post("/api/games", json={"game": "debertz", "players": 2})
    assert r.status_code == 200  # a body of normal size goes through


def test_the_page_runs_only_its_own_files(client):
    for url in ("/", "/static/style.css", "/api/meta", "/nowhere"):
        headers = client.get(url).headers
        policy = headers["content-security-policy"]
        assert "default-src 'self'" in policy and "script-src 'self'" in policy, url
        assert "frame-ancestors 'none'" in policy and headers["x-content-type-options"] == \
            "nosniff"
    page = client.get("/").text
    assert "<script>" not in page and " style=" not in page and " onclick=" not in page


@pytest.mark.parametrize("host, local", [("127.0.0.1", True), ("localhost", True),
                                         ("::1", True), ("127.0.0.2", True),
                                         ("0.0.0.0", False), ("::", False),
                                         ("192.168.1.4", False), ("example.org", False)])
def test_which_addresses_are_this_machine(host, local):
    assert is_this_machine(host) is local


def cardsim(*args, timeout=120):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "experiments.cli", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)


def test_serve_refuses_to_listen_beyond_this_machine_unless_asked(tmp_path):
    out = cardsim("serve", "--host", "0.0.0.0", "--runs", str(tmp_path / "runs"))
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.strip().splitlines() == [
        "cardsim: error: --host 0.0.0.0 listens beyond this machine: add --public to allow "
        "it (the default, 127.0.0.1, serves this machine only)"]


def test_serve_with_public_warns_before_it_listens(tmp_path):
    with socket.socket() as s:
        s.bind(("0.0.0.0", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "experiments.cli", "serve", "--host",
                             "0.0.0.0", "--public", "--port", str(port), "--runs",
                             str(tmp_path / "runs")], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        warning = proc.stderr.readline()
        assert warning.startswith(f"cardsim serve: warning: listening on 0.0.0.0:{port}, "
                                  f"beyond this machine")
        assert proc.stdout.readline().startswith(f"cardsim serve: http://0.0.0.0:{port}/")
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_serve_on_a_busy_port_says_so_in_one_line(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        start = time.monotonic()
        out = cardsim("serve", "--port", str(port), "--runs", str(tmp_path / "runs"))
    assert out.returncode == 2
    assert out.stdout == ""  # no "serving" line before the refusal
    assert out.stderr.strip().splitlines() == [
        f"cardsim: error: port {port} on 127.0.0.1 is busy: another program listens there "
        f"(another cardsim serve?); choose another with --port"]
    assert time.monotonic() - start < 60
