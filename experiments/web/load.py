"""``cardsim load``: many players at once against a ``cardsim serve``, and the figures that
say whether the table holds: requests, statuses, time per action (percentiles), memory.

Each simulated player starts a game at one of the tables in turn (Debertz with 2, 3 and 4
players and 2 against 2, Barbu), the other seats taken by ``--agent`` (default heuristic),
or by ``--slow-agent`` for the ``--slow`` players (default ``pimc``), and plays random legal
moves, waiting ``--think`` seconds on average between them as a person does (an exponential
wait; 0: no wait at all). The players arrive over the first ``--ramp`` seconds, each at a
random moment. One request in ten (``--bad``) is a bad one: an illegal action, a
body that is not JSON, no token or another game's token. Every bad request must be refused
(4xx) and leave the game as it was: the game is read again after each to check. A game over
is followed by a new one.

With ``--restart`` the server is then killed with SIGKILL and started again on its store;
once it has made its games again (in the background, as it starts), every game in progress
is read back: whether each is served as it was, and how long that took.

Without ``--url`` the command starts its own server (``cardsim serve`` on a free port, its
store in a temporary directory), warms it up (a whole deal per table and agent, which
compiles or loads every phase's code in the server and its search workers, left out of the
figures) and stops it at the end. The server's memory is
read from ``GET /api/stats`` every second.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from cardsim.errors import CardsimError

TABLES = [  # (name, body of POST /api/games without agents)
    ("debertz-2p", {"game": "debertz", "players": 2}),
    ("debertz-3p", {"game": "debertz", "players": 3}),
    ("debertz-4p", {"game": "debertz", "players": 4}),
    ("debertz-2v2", {"game": "debertz", "players": 4, "teams": True}),
    ("barbu", {"game": "barbu"}),
]
BAD_KINDS = ("illegal action", "not JSON", "no token", "another token")
ROOT = Path(__file__).resolve().parents[2]


class LoadError(CardsimError):
    """The load could not run (no server, bad arguments)."""


@dataclass
class Tally:
    """What the players saw."""

    times: dict = field(default_factory=lambda: {"fast": [], "slow": [], "new game": []})
    statuses: Counter = field(default_factory=Counter)
    bad: Counter = field(default_factory=Counter)          # bad requests sent, by kind
    bad_accepted: list = field(default_factory=list)        # bad requests not refused
    bad_changed: int = 0                                    # refused, yet the game changed
    thinking_replies: int = 0
    games_started: int = 0
    games_finished: int = 0
    errors: list = field(default_factory=list)              # 5xx and transport errors
    memory: list = field(default_factory=list)              # (seconds, rss, workers' rss)
    games: dict = field(default_factory=dict)               # id -> (token, the last view)


def percentile(values: list[float], q: float) -> float | None:
    """The ``q``-th percentile (0-100) of ``values``, nearest rank; None when empty."""
    if not values:
        return None
    ordered = sorted(values)
    rank = math.ceil(q / 100 * len(ordered))  # the smallest value with q% at or below it
    return ordered[max(1, min(len(ordered), rank)) - 1]


async def _player(client, url: str, index: int, slow: bool, args, tally: Tally,
                  stop_at: float) -> None:
    rng = random.Random(args.seed * 100_003 + index)
    table, body = TABLES[index % len(TABLES)]
    body = dict(body, agents=[args.slow_agent if slow else args.agent],
                seed=rng.randrange(2**31))
    kind = "slow" if slow else "fast"
    state = token = None
    acted = 0
    await asyncio.sleep(rng.uniform(0, args.ramp))  # people do not all arrive at one instant

    async def call(method, path, timed, **kw):
        t = time.perf_counter()
        try:
            r = await client.request(method, url + path, **kw)
        except Exception as e:  # noqa: BLE001 - a transport error is a figure here
            tally.errors.append(f"{method} {path}: {type(e).__name__}: {e}")
            return None
        if timed is not None:
            tally.times[timed].append(time.perf_counter() - t)
        tally.statuses[r.status_code] += 1
        if r.status_code >= 500:
            tally.errors.append(f"{method} {path}: {r.status_code} {r.text[:200]}")
        return r

    def auth(tok):
        return {"Authorization": f"Bearer {tok}"}

    while acted < args.actions and time.monotonic() < stop_at:
        if state is None or state["view"]["game_over"]:
            if state is not None:
                tally.games_finished += 1
            r = await call("POST", "/api/games", "new game", json=body)
            if r is None or r.status_code != 200:
                await asyncio.sleep(1.0)
                continue
            state = r.json()
            token = state["token"]
            tally.games_started += 1
        if args.think > 0:
            await asyncio.sleep(rng.expovariate(1 / args.think))
        gid = state["id"]
        view = state["view"]
        if not state["thinking"] and not view["deal_over"] and rng.random() < args.bad:
            await _bad_request(call, gid, token, view, rng, tally, auth)
            continue
        if state["thinking"]:
            tally.thinking_replies += 1
            r = await call("POST", f"/api/games/{gid}/advance", kind, headers=auth(token))
        elif view["deal_over"]:
            r = await call("POST", f"/api/games/{gid}/next", kind, headers=auth(token))
        else:
            action = rng.choice(view["legal"])["id"]
            r = await call("POST", f"/api/games/{gid}/act", kind, headers=auth(token),
                           json={"action": action})
        acted += 1
        if r is not None and r.status_code == 200:
            state = r.json()
            tally.games[gid] = (token, state["view"])
        elif r is not None and r.status_code == 404:
            state = None  # the game was dropped: a new one


async def _bad_request(call, gid, token, view, rng, tally: Tally, auth) -> None:
    kind = rng.choice(BAD_KINDS)
    tally.bad[kind] += 1
    path = f"/api/games/{gid}/act"
    legal = {a["id"] for a in view["legal"]}
    if kind == "illegal action":
        r = await call("POST", path, None, headers=auth(token),
                       json={"action": next(a for a in range(90) if a not in legal)})
    elif kind == "not JSON":
        r = await call("POST", path, None, headers={**auth(token),
                                                    "Content-Type": "application/json"},
                       content=b"{not json")
    elif kind == "no token":
        r = await call("POST", path, None, json={"action": min(legal)})
    else:
        r = await call("POST", path, None, headers=auth(token[::-1]),
                       json={"action": min(legal)})
    if r is None:
        return
    if not 400 <= r.status_code < 500:
        tally.bad_accepted.append(f"{kind}: {r.status_code}")
        return
    again = await call("GET", f"/api/games/{gid}", None, headers=auth(token))
    if again is not None and again.status_code == 200 and again.json()["view"] != view:
        tally.bad_changed += 1


async def _watch_memory(client, url: str, tally: Tally, start: float, done: asyncio.Event):
    while not done.is_set():
        try:
            stats = (await client.get(url + "/api/stats")).json()
            tally.memory.append((round(time.monotonic() - start, 1), stats["rss_mib"],
                                 sum(x or 0 for x in stats.get("workers_rss_mib") or [])))
        except Exception:  # noqa: BLE001 - a missed reading is no figure
            pass
        try:
            await asyncio.wait_for(done.wait(), 1.0)
        except asyncio.TimeoutError:
            pass


async def _run(url: str, args) -> tuple[Tally, float]:
    import httpx

    tally = Tally()
    limits = httpx.Limits(max_connections=args.players + args.slow + 4,
                          max_keepalive_connections=args.players + args.slow + 4)
    async with httpx.AsyncClient(limits=limits, timeout=600) as client:
        start = time.monotonic()
        stop_at = start + args.seconds
        done = asyncio.Event()
        watcher = asyncio.create_task(_watch_memory(client, url, tally, start, done))
        players = [_player(client, url, k, k >= args.players, args, tally, stop_at)
                   for k in range(args.players + args.slow)]
        await asyncio.gather(*players)
        elapsed = time.monotonic() - start
        done.set()
        await watcher
        stats = (await client.get(url + "/api/stats")).json()
        tally.memory.append((round(elapsed, 1), stats["rss_mib"],
                             sum(x or 0 for x in stats.get("workers_rss_mib") or [])))
    return tally, elapsed


def free_port() -> int:
    """A TCP port of this machine that nothing listens on now (the system picks it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(directory: Path, port: int | None = None):
    """``cardsim serve`` on ``port`` (a free one by default) with its runs and its game store
    in ``directory``, once it answers: ``(process, url)``. Raises ``LoadError`` when the
    server exits first or does not answer within 5 minutes. The same ``directory`` and
    ``port`` start it again after a kill, with the games it stored."""
    port = free_port() if port is None else port
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-m", "experiments.cli", "serve", "--port",
                             str(port), "--runs", str(directory / "runs"), "--store",
                             str(directory / "games.sqlite3")], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    import urllib.request

    for _ in range(1200):
        try:
            urllib.request.urlopen(url + "/api/stats", timeout=2)
            return proc, url
        except OSError:
            if proc.poll() is not None:
                raise LoadError("the server did not start: " +
                                proc.stderr.read().decode(errors="replace")[-2000:])
            time.sleep(0.25)
    proc.kill()
    raise LoadError("the server did not answer within 5 minutes")


def _warm_up(url: str, args) -> None:
    """A whole deal per table and agent, so that every phase's code is compiled or loaded
    (in the server and its search workers) before anything is measured; then dropped."""
    import httpx

    agents = [args.agent] + ([args.slow_agent] if args.slow else [])
    rng = random.Random(args.seed)
    with httpx.Client(timeout=900) as client:
        for agent in agents:
            for _, body in TABLES:
                r = client.post(url + "/api/games", json=dict(body, agents=[agent]))
                if r.status_code != 200:
                    raise LoadError(f"warming up {body} with {agent}: {r.status_code} "
                                    f"{r.text[:300]}")
                state = r.json()
                gid, headers = state["id"], {"Authorization": f"Bearer {state['token']}"}
                for _ in range(2000):
                    view = state["view"]
                    if view["deal_over"] or view["game_over"]:
                        break
                    if state["thinking"]:
                        r = client.post(f"{url}/api/games/{gid}/advance", headers=headers)
                    else:
                        r = client.post(f"{url}/api/games/{gid}/act", headers=headers,
                                        json={"action": rng.choice(view["legal"])["id"]})
                    if r.status_code != 200:
                        raise LoadError(f"warming up {body} with {agent}: {r.status_code} "
                                        f"{r.text[:300]}")
                    state = r.json()
                client.delete(f"{url}/api/games/{gid}", headers=headers)


def restart_figures(proc, directory: Path, tally: Tally) -> tuple[object, dict]:
    """The server killed with SIGKILL and started again on its store: how long until it
    answers, and each game in progress read back (as it was? how long?). Returns the new
    server process and the figures."""
    import signal

    import httpx

    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=60)
    start = time.monotonic()
    proc, url = start_server(directory)
    answered = time.monotonic() - start
    same, times = 0, []
    going = {g: v for g, v in tally.games.items() if not v[1]["game_over"]}
    with httpx.Client(timeout=600) as client:
        for _ in range(6000):  # the games are made again in the background: until done
            at_start = client.get(url + "/api/stats").json()["restored_at_start"]
            if at_start and at_start["seconds"] is not None:
                break
            time.sleep(0.1)
        t0 = time.monotonic()
        for gid, (token, view) in going.items():
            t = time.perf_counter()
            r = client.get(f"{url}/api/games/{gid}", headers={"Authorization":
                                                              f"Bearer {token}"})
            times.append(time.perf_counter() - t)
            same += r.status_code == 200 and r.json()["view"] == view
        total = time.monotonic() - t0
        stats = client.get(url + "/api/stats").json()
    ms = [t * 1000 for t in times]
    return proc, {"games_in_progress": len(going), "served_as_they_were": same,
                  "restored": stats["restored"], "seconds_until_answering": round(answered, 1),
                  "at_start": stats["restored_at_start"],
                  "seconds_to_restore_all": round(total, 2),
                  "restore_ms": {"p50": percentile(ms, 50) and round(percentile(ms, 50), 1),
                                 "p99": percentile(ms, 99) and round(percentile(ms, 99), 1),
                                 "max": round(max(ms), 1) if ms else None},
                  "rss_mib_after": stats["rss_mib"]}


def summary(tally: Tally, elapsed: float, args) -> dict:
    """The figures as a JSON-able dict (times in milliseconds)."""
    def stats(values):
        ms = [v * 1000 for v in values]
        return {"n": len(ms), **{f"p{q}": None if not ms else round(percentile(ms, q), 1)
                                 for q in (50, 90, 99)},
                "max": round(max(ms), 1) if ms else None}

    requests = sum(tally.statuses.values())
    rss = [m[1] for m in tally.memory if m[1] is not None]
    workers = [m[2] for m in tally.memory]
    return {
        "players": args.players + args.slow, "fast_players": args.players,
        "slow_players": args.slow, "agent": args.agent, "slow_agent": args.slow_agent,
        "think_seconds": args.think, "ramp_seconds": args.ramp, "seconds": round(elapsed, 1),
        "requests": requests,
        "requests_per_second": round(requests / elapsed, 1) if elapsed else None,
        "statuses": {str(k): v for k, v in sorted(tally.statuses.items())},
        "server_errors": len(tally.errors), "error_samples": tally.errors[:5],
        "bad_requests": sum(tally.bad.values()), "bad_by_kind": dict(tally.bad),
        "bad_accepted": len(tally.bad_accepted), "bad_changed_the_game": tally.bad_changed,
        "games_started": tally.games_started, "games_finished": tally.games_finished,
        "thinking_replies": tally.thinking_replies,
        "action_ms": {k: stats(v) for k, v in tally.times.items()},
        "memory_mib": {"server_first": rss[0] if rss else None,
                       "server_most": max(rss) if rss else None,
                       "server_last": rss[-1] if rss else None,
                       "workers_most": max(workers) if workers else None},
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def format_summary(s: dict) -> str:
    """A load run's figures as text: requests, statuses, time per action, memory."""
    def line(name, t):
        if not t["n"]:
            return f"  {name}: none"
        return (f"  {name}: {t['n']} requests, p50 {t['p50']} ms, p90 {t['p90']} ms, "
                f"p99 {t['p99']} ms, max {t['max']} ms")

    statuses = ", ".join(f"{k} {v}" for k, v in s["statuses"].items())
    mem = s["memory_mib"]
    think = f"{s['think_seconds']:g} s between moves on average" if s["think_seconds"] else \
        "no wait between moves"
    out = [f"players: {s['players']} at once ({s['fast_players']} against {s['agent']}, "
           f"{s['slow_players']} against {s['slow_agent']}), arriving over "
           f"{s['ramp_seconds']:g} s, {think}, mixed tables",
           f"requests: {s['requests']} in {s['seconds']} s ({s['requests_per_second']}/s); "
           f"statuses: {statuses}; server errors (5xx or none): {s['server_errors']}",
           f"bad requests: {s['bad_requests']}, not refused: {s['bad_accepted']}, refused but "
           f"the game changed: {s['bad_changed_the_game']}",
           f"games: {s['games_started']} started, {s['games_finished']} finished; replies "
           f"'thinking': {s['thinking_replies']}",
           "time per action (act, next deal, advance):",
           line(f"players against {s['agent']}", s["action_ms"]["fast"]),
           line(f"players against {s['slow_agent']}", s["action_ms"]["slow"]),
           line("new games", s["action_ms"]["new game"]),
           f"server memory (resident): {mem['server_first']} MiB first, {mem['server_most']} "
           f"MiB at most, {mem['server_last']} MiB last; search workers at most "
           f"{mem['workers_most']} MiB",
           f"load average (1, 5, 15 min): {', '.join(map(str, s['load_average']))}"]
    r = s.get("restart")
    if r:
        out.append(f"restart after kill -9: answering after {r['seconds_until_answering']} s; "
                   f"{r['at_start']['restored']} games made again in the background in "
                   f"{r['at_start']['seconds']} s ({r['at_start']['failed']} failed); "
                   f"{r['served_as_they_were']} of {r['games_in_progress']} games in progress "
                   f"served as they were ({r['restored']} restored), all read back in "
                   f"{r['seconds_to_restore_all']} s (a game: p50 {r['restore_ms']['p50']} ms, "
                   f"p99 {r['restore_ms']['p99']} ms, max {r['restore_ms']['max']} ms); "
                   f"memory then {r['rss_mib_after']} MiB")
    for e in s["error_samples"]:
        out.append(f"  error: {e}")
    return "\n".join(out)


def check_args(args) -> None:
    """Refuse (``LoadError``, one line) options that give no players or no valid shares."""
    if args.players < 0 or args.slow < 0 or args.players + args.slow < 1:
        raise LoadError("give at least one player (--players N, --slow N)")
    if not 0 <= args.bad <= 1:
        raise LoadError(f"--bad is a share of the requests, 0..1; got {args.bad}")
    if args.think < 0 or args.ramp < 0 or args.seconds <= 0 or args.actions < 1:
        raise LoadError("--think and --ramp must be 0 or more, --seconds above 0, --actions 1 "
                        "or more")


def main(args) -> int:
    """Run the load (``cardsim load``); prints the figures. Exit status 1 when a request
    failed with a 5xx or a bad request was not refused or changed its game."""
    check_args(args)
    proc = None
    with tempfile.TemporaryDirectory(prefix="cardsim-load-") as tmp:
        url = args.url
        try:
            if url is None:
                print("starting a server and warming it up (compiles what the cache lacks)"
                      "...", file=sys.stderr, flush=True)
                proc, url = start_server(Path(tmp))
                _warm_up(url, args)
            url = url.rstrip("/")
            tally, elapsed = asyncio.run(_run(url, args))
            restart = None
            if args.restart:
                if proc is None:
                    raise LoadError("--restart kills the server it started: leave out --url")
                proc, restart = restart_figures(proc, Path(tmp), tally)
        finally:
            if proc is not None:
                proc.terminate()
                try:
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    proc.kill()
    figures = summary(tally, elapsed, args)
    if restart is not None:
        figures["restart"] = restart
    print(json.dumps(figures, indent=1) if args.json else format_summary(figures))
    failed = figures["server_errors"] or figures["bad_accepted"] or \
        figures["bad_changed_the_game"]
    return 1 if failed else 0
