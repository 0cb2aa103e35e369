"""Figures of the browser table (``cardsim serve``), printed, not asserted:

- the time from a person's click (``POST /api/games/{id}/act``) to the agents' replies, with
  ``pimc`` in the three other seats (Debertz 2 against 2, and Barbu);
- the page's load time in headless Chromium (when Playwright and chromium are installed);
- the server's memory (resident set) after 100 whole games played through the API.

    python -m experiments.bench.web [--clicks 30] [--games 100] [--skip-barbu]

The app runs in this process behind the framework's test client (the same code uvicorn
serves), so the figures exclude the network but include JSON encoding.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path


def rss_mib() -> float:
    """This process's resident memory in MiB (Linux ``/proc``; NaN elsewhere)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Player:
    """One person at the table through the API: the game's token sent with every request, and
    a reply that says the agents are still ``thinking`` followed until they have moved."""

    def __init__(self, client, body: dict):
        reply = client.post("/api/games", json=body)
        reply.raise_for_status()
        self.client, self.state = client, reply.json()
        self.headers = {"Authorization": f"Bearer {self.state['token']}"}
        self.settle()

    def post(self, action: str, json: dict | None = None) -> dict:
        """``POST /api/games/{id}/ACTION`` with the token; the state once the agents moved."""
        reply = self.client.post(f"/api/games/{self.state['id']}/{action}", json=json,
                                 headers=self.headers)
        reply.raise_for_status()
        self.state = reply.json()
        self.settle()
        return self.state

    def settle(self) -> None:
        """Follow a ``thinking`` reply with ``advance`` until the agents have moved."""
        while self.state.get("thinking"):
            reply = self.client.post(f"/api/games/{self.state['id']}/advance",
                                     headers=self.headers)
            reply.raise_for_status()
            self.state = reply.json()


def click_times(client, game: str, players: int | None, agent: str, clicks: int,
                teams: bool = False) -> dict:
    """Seconds per click until the agents have replied, over ``clicks`` clicks (the first
    game's compilation excluded: one warm-up game first)."""
    body = {"game": game, "seat": 0, "agents": [agent], "seed": 11}
    if players:
        body["players"] = players
        body["teams"] = teams
    Player(client, body)  # warm-up: compiles the agents
    rng = random.Random(0)
    times, replies = [], []
    player = Player(client, dict(body, seed=12))
    while len(times) < clicks:
        view = player.state["view"]
        if view["game_over"]:
            break
        if view["deal_over"]:
            player.post("next")
            continue
        a = rng.choice(view["legal"])["id"]
        t = time.perf_counter()
        state = player.post("act", {"action": a})
        times.append(time.perf_counter() - t)
        replies.append(sum(e["kind"] == "move" for e in state["events"]) - 1)
    times.sort()
    return {"clicks": len(times), "median_s": statistics.median(times),
            "p90_s": times[int(0.9 * (len(times) - 1))], "max_s": times[-1],
            "agent_moves_per_click": statistics.mean(replies)}


def memory_after_games(client, games: int) -> dict:
    """RSS before and after ``games`` whole Debertz games (2 players, target 301, random
    clicks against the heuristic), each left in the server's store when it ends."""
    rng = random.Random(1)
    before = None
    requests = 0
    t = time.perf_counter()
    for g in range(games + 1):
        player = Player(client, {"game": "debertz", "players": 2, "agents": ["heuristic"],
                                  "seed": g, "rules": {"target": 301}})
        while not player.state["view"]["game_over"]:
            if player.state["view"]["deal_over"]:
                player.post("next")
            else:
                player.post("act", {"action": rng.choice(player.state["view"]["legal"])["id"]})
            requests += 1
        if g == 0:
            before = rss_mib()  # after the first game: compiled code loaded
            t = time.perf_counter()
    return {"games": games, "requests": requests, "seconds": time.perf_counter() - t,
            "rss_after_first_game_mib": before, "rss_after_mib": rss_mib(),
            "server": client.get("/api/stats").json()}


def page_load(runs: str) -> dict | None:
    """Load time of the page in headless Chromium, from a ``cardsim serve`` process."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    if chromium is None:
        return None
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "experiments.cli", "serve", "--port",
                             str(port), "--runs", runs], stdout=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(url + "api/meta", timeout=2)
                break
            except OSError:
                time.sleep(0.2)
        loads = []
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            for _ in range(5):
                page = b.new_page()
                t = time.perf_counter()
                page.goto(url)
                page.wait_for_selector("#game option", state="attached")
                loads.append(time.perf_counter() - t)
                nav = page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd")
                page.close()
            b.close()
        return {"ready_s_median": statistics.median(loads), "ready_s_first": loads[0],
                "load_event_ms_last": nav}
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def main() -> None:
    """Print the figures the command-line options ask for."""
    p = argparse.ArgumentParser(prog="python -m experiments.bench.web",
                                description=__doc__.splitlines()[0])
    p.add_argument("--clicks", type=int, default=30)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--skip-barbu", action="store_true")
    p.add_argument("--skip-memory", action="store_true")
    p.add_argument("--skip-page", action="store_true")
    p.add_argument("--debertz-agent", default="pimc:samples=16,nodes=50000",
                   help="the agent of the three other seats of a Debertz 2 against 2 table "
                        "(exact solves, nodes=0, take far longer with four hands)")
    p.add_argument("--barbu-agent", default="pimc")
    p.add_argument("--runs", default="runs")
    args = p.parse_args()
    from fastapi.testclient import TestClient

    from experiments.web.app import create_app

    if not args.skip_page:
        print("page load:", page_load(args.runs), flush=True)
    import tempfile

    store = Path(tempfile.mkdtemp(prefix="bench-web-")) / "games.sqlite3"  # not the user's
    client = TestClient(create_app(runs=args.runs, store=str(store)))
    if not args.skip_memory:
        print("memory:", memory_after_games(client, args.games), flush=True)
    print(f"click, Debertz 2 against 2, {args.debertz_agent} x3:",
          click_times(client, "debertz", 4, args.debertz_agent, args.clicks, teams=True),
          flush=True)
    if not args.skip_barbu:
        print(f"click, Barbu, {args.barbu_agent} x3:",
              click_times(client, "barbu", None, args.barbu_agent, args.clicks), flush=True)


if __name__ == "__main__":
    main()
