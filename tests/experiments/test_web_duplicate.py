"""The duplicate replays of the browser table (``GET /api/games/{id}/duplicate`` and
``.../duplicate-game``) are played in a search worker (experiments.web.search): the same
replies as experiments.play.session's duplicate_deal and duplicate_game in the server, a reply with
status 202 and ``thinking`` once the request's time is spent, and no other game held up
while they are played."""

import threading
import time

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from experiments.play.session import duplicate_deal, duplicate_game, game_result, make_seat_agents
from experiments.web.app import create_app


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def new_game(client, **body) -> tuple[dict, dict]:
    r = client.post("/api/games", json=body)
    assert r.status_code == 200, r.json()
    state = r.json()
    return state, auth(state["token"])


def play_to_deal_end(client, state: dict, headers: dict) -> dict:
    """The person takes the first legal action until the deal ends."""
    for _ in range(200):
        if state["view"]["deal_over"]:
            return state
        if state["thinking"]:
            r = client.post(f"/api/games/{state['id']}/advance", headers=headers)
        else:
            r = client.post(f"/api/games/{state['id']}/act",
                            json={"action": state["view"]["legal"][0]["id"]}, headers=headers)
        assert r.status_code == 200, r.json()
        state = r.json()
    raise AssertionError("the deal did not end")


def replayed(client, url: str, headers: dict, seconds: float = 600):
    """The replies to ``url`` until one is not ``thinking`` (status 202): (all of them)."""
    replies = []
    give_up = time.monotonic() + seconds  # a worker's first job loads what it needs
    while time.monotonic() < give_up:
        r = client.get(url, headers=headers)
        replies.append(r)
        if r.status_code != 202:
            return replies
        assert r.json()["thinking"] is True
        time.sleep(0.05)
    raise AssertionError(f"{url} still thinking after {seconds} s")


def duplicate_seat_agents(live):
    """Agents for the seats of an open game, its duplicate agent in the human's seat."""
    specs = list(live.specs)
    specs[live.seat] = live.duplicate
    return make_seat_agents(live.game, specs, None, live.session.rules)


def expected_deals(app, gid: str) -> dict:
    """The reply of /duplicate as the server made it before: duplicate_deal in the server."""
    with app.state.games.open(gid) as live:
        s, seat = live.session, live.seat
        agents = duplicate_seat_agents(live)
        rows = [{"deal": k, "you": s.deal_points[k][seat],
                 "agent": duplicate_deal(s, k, agents)["points"][seat]}
                for k in range(len(s.records))]
        return {"agent": live.duplicate, "seat": seat, "deals": rows,
                "total_you": sum(r["you"] for r in rows),
                "total_agent": sum(r["agent"] for r in rows)}


def expected_game(app, gid: str) -> dict:
    """The reply of /duplicate-game as the server made it before: duplicate_game in it."""
    with app.state.games.open(gid) as live:
        s, seat = live.session, live.seat
        agents = duplicate_seat_agents(live)
        you = game_result(s, seat)
        bot = game_result(duplicate_game(s, agents), seat)
        return {"agent": live.duplicate, "seat": seat,
                "side_names": s.kit.table_view(s.rules, s.st, None)["side_names"],
                "you": you, "agent_game": bot, "difference": you["margin"] - bot["margin"]}


def test_duplicate_replies_are_duplicate_deal_and_game_played_in_a_worker(tmp_path):
    # no time for the agents in a request: the first reply says thinking (202), the next
    # ones take the worker's job up until it has ended
    app = create_app(runs=None, store=str(tmp_path / "g.sqlite3"), agent_seconds=0.001,
                     search_workers=1)
    client = TestClient(app)
    try:
        state, mine = new_game(client, game="debertz", players=2, seat=1, seed=5,
                               agents="heuristic", duplicate="heuristic",
                               rules={"target": 300})
        gid = state["id"]
        state = play_to_deal_end(client, state, mine)
        state = client.post(f"/api/games/{gid}/next", headers=mine).json()
        state = play_to_deal_end(client, state, mine)
        assert not state["view"]["game_over"]
        url = f"/api/games/{gid}/duplicate"
        replies = replayed(client, url, mine)
        assert replies[0].status_code == 202
        assert replies[0].json() == {"thinking": True, "agent": "heuristic", "seat": 1,
                                     "deals_done": 0, "deals": 2}
        assert replies[-1].status_code == 200
        dup = replies[-1].json()
        assert dup == expected_deals(app, gid) and len(dup["deals"]) == 2
        workers = app.state.search.pids()
        assert workers  # played in a worker, not in the server
        # kept: the second request sends nothing to a worker (a closed pool would start
        # new ones) and answers at once
        app.state.search.close()
        again = client.get(url, headers=mine)
        assert again.status_code == 200 and again.json() == dup
        assert app.state.search.pids() == []

        # the whole game, once it is over
        for _ in range(50):
            state = client.post(f"/api/games/{gid}/next", headers=mine).json()
            state = play_to_deal_end(client, state, mine)
            if state["view"]["game_over"]:
                break
        assert state["view"]["game_over"]
        url = f"/api/games/{gid}/duplicate-game"
        replies = replayed(client, url, mine)
        assert replies[0].status_code == 202
        assert replies[0].json() == {"thinking": True, "agent": "heuristic", "seat": 1}
        assert replies[-1].status_code == 200
        whole = replies[-1].json()
        assert whole == expected_game(app, gid)
        app.state.search.close()
        assert client.get(url, headers=mine).json() == whole  # kept
        assert app.state.search.pids() == []
        # the deals of the whole game: the first two kept, the others played now
        dup = replayed(client, f"/api/games/{gid}/duplicate", mine)[-1].json()
        assert dup == expected_deals(app, gid) and len(dup["deals"]) > 2
    finally:
        app.state.search.close()


def test_other_games_are_answered_while_a_duplicate_replay_is_played(tmp_path):
    """A pimc replay holds the interpreter lock for seconds at a time: played in the
    server, it would stop every other game's requests as long."""
    app = create_app(runs=None, store=str(tmp_path / "g.sqlite3"), agent_seconds=300,
                     search_workers=1)
    with TestClient(app) as client:  # one event loop for every request, as a server
        slow, mine = new_game(client, game="debertz", players=2, seat=1, seed=3,
                              agents="heuristic", duplicate="pimc:samples=4096")
        slow = play_to_deal_end(client, slow, mine)
        other, theirs = new_game(client, game="debertz", players=2, seat=1, seed=4,
                                 agents="heuristic")
        reply = {}

        def compare():
            reply["r"] = client.get(f"/api/games/{slow['id']}/duplicate", headers=mine)

        thread = threading.Thread(target=compare)
        thread.start()
        waits = []  # each request's time, with this thread's pause before it: a server
        while thread.is_alive():  # holding the interpreter lock holds up both
            start = time.monotonic()
            time.sleep(0.05)
            r = client.get(f"/api/games/{other['id']}", headers=theirs)
            assert r.status_code == 200
            if thread.is_alive():  # answered while the replay was still being played
                waits.append(time.monotonic() - start - 0.05)
        thread.join()
        assert reply["r"].status_code == 200, reply["r"].json()
        assert len(reply["r"].json()["deals"]) == 1
        assert waits and max(waits) < 1.0, sorted(waits)[-5:]  # milliseconds, as a rule
        assert len(waits) >= 20, waits  # the replay took seconds


@pytest.mark.parametrize("path", ["duplicate", "duplicate-game"])
def test_a_game_not_started_in_duplicate_mode_has_no_duplicate_replay(tmp_path, path):
    client = TestClient(create_app(runs=None, store=str(tmp_path / "g.sqlite3")))
    state, mine = new_game(client, game="debertz", players=2, seat=0, seed=5,
                           agents="heuristic")
    r = client.get(f"/api/games/{state['id']}/{path}", headers=mine)
    assert r.status_code == 400
    assert r.json() == {"error": "this game was not started in duplicate mode"}
