"""``cardsim serve``: the browser table, an ASGI app (FastAPI) with a JSON API and one static
page (``experiments/web/static``: HTML, CSS and JavaScript modules, no build step).

The API (every error is a JSON object ``{"error": message}`` with a 4xx status, or 503 with
``Retry-After`` when the table is full, never a traceback):

    GET    /api/meta                         games, table sizes, agents, conventions, the
                                             tables' named players, the zoo's networks
    POST   /api/games                        a new game: {game, players, teams, seat,
                                             agents, seed, rules, duplicate}; the reply
                                             holds the game's ``token``
    GET    /api/games/{id}                   the table as the person's seat sees it
    POST   /api/games/{id}/act               {action}: the person's move, then the agents'
    POST   /api/games/{id}/advance           the agents go on (a reply said ``thinking``)
    POST   /api/games/{id}/next              the next deal
    POST   /api/games/{id}/analyse           {method, samples, checkpoint}: action values
    GET    /api/games/{id}/sheet             each deal's points and hand record
    GET    /api/games/{id}/duplicate         each deal replayed with an agent in your seat
    GET    /api/games/{id}/duplicate-game    once the game is over: the whole game (match)
                                             replayed with that agent in your seat (both
                                             in a worker: past the request's time, 202
                                             and ``thinking``; ask again)
    DELETE /api/games/{id}                   the game is dropped
    GET    /api/stats                        games in progress, finished, in memory; memory
    GET    /api/records                      finished games (root "games"), then hand-record
                                             files under the directories
    GET    /api/replay?root=&path=&deal=     a recorded deal, step by step, all hands open
    POST   /api/replay/analyse               {root, path, deal, step, method, ...}
    GET    /api/runs                         run directories under --runs, their tables
    GET    /api/runs/file?path=              a plot (PNG) of a run
    GET    /api/perdeal                      per-deal files (.npy) under --runs
    GET    /api/compare?file=&pairing=&top=  the deals where a pairing's agents differed
                                             most (experiments.web.compare)
    GET    /api/compare/plays?file=&pairing=&item=&deal=
                                             every play of that duplicate deal, replayed

Every ``/api/games/{id}`` request carries the game's token (``Authorization: Bearer
TOKEN``): only the person who created a game sees its hidden cards or acts in it.

Games are kept in an SQLite store and written before each reply (experiments.web.store),
so that a restart serves each game as it was; a bounded number stay in memory
(experiments.web.sessions). Agents that think long decide in worker processes, a bounded
time per request, and the duplicate replays are played there (experiments.web.search).
Request bodies are bounded and the page runs only its own files (experiments.web.guard).
The server reads only files under the directories it was given (experiments.web.files). It
only calls what the command line calls: the engine, the agents (agents.registry) and the
solver's labels.
"""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path

try:  # the web extra; serve() says what to install when it is missing
    from fastapi import Request
except ImportError:  # pragma: no cover - without the extra
    Request = None

import numpy as np

from cardsim import games
from cardsim.errors import CardsimError, IllegalActionError, InvalidConfigError
from experiments.web.compare import (
    MAX_PER_DEAL_BYTES,
    pairings_of,
    read_rows,
    replay_item,
    run_config,
    top_deals,
)
from experiments.web.files import (
    MAX_LISTED,
    MAX_TEXT_BYTES,
    FileRefused,
    Roots,
    read_deals,
    replay_frames,
)
from experiments.web.guard import MAX_BODY_BYTES, BodyTooLarge, Guard
from experiments.web.search import (
    AGENT_SECONDS,
    SearchPool,
    StillThinking,
    analyse_in_worker,
    duplicate_deals_in_worker,
    duplicate_game_in_worker,
    wait_any,
)
from experiments.web.sessions import MAX_LIVE, LiveGame, LiveGames, actions_of
from experiments.web.store import (
    IDLE_SECONDS,
    MAX_GAMES,
    GameGone,
    GameStore,
    TableFull,
    default_path,
)

STATIC = Path(__file__).parent / "static"
GAMES_ROOT = "games"  # the finished games of the store, listed for replay like a directory
MAX_EVENTS_PER_CALL = 2000  # a guard: agents stop after this many moves in one call


def _bad(message: str, status: int = 400):
    from fastapi.responses import JSONResponse

    return JSONResponse({"error": " ".join(str(message).split())}, status_code=status)


class NotYours(CardsimError):
    """A request for a game without that game's token (401) or with another token (403)."""

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status


def create_app(runs: str | None = "runs", records: list | None = None,
               store: str | None = None, max_games: int = MAX_GAMES,
               idle_seconds: float = IDLE_SECONDS, max_live: int = MAX_LIVE,
               max_body: int = MAX_BODY_BYTES, agent_seconds: float = AGENT_SECONDS,
               search_workers: int | None = None):
    """The ASGI app. ``runs``: the run directories' parent; ``records``: other directories
    whose hand-record files may be opened; ``store``: the games' SQLite file (default
    beside ``runs``, experiments.web.store); ``max_games`` games in progress at once, each
    dropped once idle for ``idle_seconds``; at most ``max_live`` of them in memory; request
    bodies up to ``max_body`` bytes (experiments.web.guard); agents other than random and
    heuristic decide in ``search_workers`` worker processes, for at most ``agent_seconds``
    a request (experiments.web.search)."""
    from fastapi import FastAPI
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import FileResponse
    from starlette.concurrency import run_in_threadpool
    from starlette.exceptions import HTTPException as StarletteHTTPException

    from agents.registry import agent_names
    from experiments.play.analysis import METHODS
    from experiments.runs.seating import make_rules
    from experiments.play.session import PlaySession, game_result, make_seat_agents

    search = SearchPool(search_workers, agent_seconds)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        kept.drop_idle()  # games left alone past the limit while the server was down
        live_games.restore_in_background(kept.in_progress())  # a restart: ready at once
        yield
        search.close()
        kept.close()

    app = FastAPI(title="cardsim", docs_url=None, redoc_url=None, openapi_url=None,
                  lifespan=lifespan)
    app.add_middleware(Guard, max_body=max_body)
    roots = Roots(runs, list(records or []))
    agent_cache: dict = {}
    deals_cache: dict = {}
    kept = GameStore(store or default_path(runs), max_games, idle_seconds)
    app.state.search = search

    def seat_agents(game):
        rules = games.rules_of(game.game, game.rules)
        return make_seat_agents(game.game, game.specs, agent_cache, rules)

    live_games = LiveGames(kept, seat_agents, max_live)
    app.state.store = kept
    app.state.games = live_games
    app.state.roots = roots

    @app.exception_handler(CardsimError)
    async def _cardsim_error(request: Request, exc: CardsimError):
        if isinstance(exc, TableFull):
            response = _bad(str(exc), 503)
            response.headers["Retry-After"] = str(exc.retry_after)
            return response
        if isinstance(exc, NotYours):
            return _bad(str(exc), exc.status)
        if isinstance(exc, BodyTooLarge):
            return _bad(str(exc), 413)
        if isinstance(exc, GameGone):
            return _bad(f"{exc} (it ended and was dropped, or was left idle); start a new one",
                        404)
        return _bad(str(exc), 404 if isinstance(exc, FileRefused) and "no such" in str(exc)
                    else 400)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError):
        return _bad("bad request: " + "; ".join(
            f"{'.'.join(str(x) for x in e.get('loc', ()))}: {e.get('msg')}"
            for e in exc.errors()), 422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException):
        return _bad(exc.detail if isinstance(exc.detail, str) else "error", exc.status_code)

    @app.exception_handler(Exception)
    async def _any(request: Request, exc: Exception):  # never a traceback page
        return _bad(f"internal error: {type(exc).__name__}: {exc}", 500)

    async def _body(request: Request) -> dict:
        try:
            data = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError, ValueError):
            raise InvalidConfigError("the request body must be a JSON object") from None
        if not isinstance(data, dict):
            raise InvalidConfigError("the request body must be a JSON object")
        return data

    def _check_token(gid: str, request: Request) -> None:
        """Only the person who created game ``gid`` may see it or act in it: the request
        carries its token (``Authorization: Bearer TOKEN``)."""
        header = request.headers.get("authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise NotYours(f"game {gid!r} needs its token: send the header 'Authorization: "
                           f"Bearer TOKEN' with the token the reply to POST /api/games gave",
                           401)
        if not kept.token_matches(gid, token.strip()):
            raise NotYours(f"that token is not game {gid!r}'s: only the person who created "
                           f"a game can see it or act in it", 403)

    def _open(gid: str, request: Request):
        """Game ``gid`` for the request's token holder, in memory with its lock held."""
        _check_token(gid, request)
        return live_games.open(gid)

    @contextlib.contextmanager
    def _open_duplicate(gid: str, request: Request):
        """``_open`` for a game started in duplicate mode; another is a clear error."""
        with _open(gid, request) as live:
            if not live.duplicate:
                raise InvalidConfigError("this game was not started in duplicate mode")
            yield live

    def _state(live: LiveGame, events: list | None = None) -> dict:
        s: PlaySession = live.session
        # thinking: agents are still to move; POST .../advance lets them go on
        return {"id": live.id, "seat": live.seat, "view": s.view(live.seat),
                "events": events or [], "duplicate": live.duplicate is not None,
                "thinking": s.turn >= 0 and s.agents[s.turn] is not None}

    def _reply(state: dict):
        # the table's states are plain JSON already: encoded at once, not walked by the
        # framework's encoder (ten times the cost, on every move)
        from fastapi.responses import Response

        return Response(json.dumps(state, separators=(",", ":")),
                        media_type="application/json")

    def _run_agents(live: LiveGame, events: list) -> None:
        """The agents move until the person's turn, the deal's end or the request's time
        for them is spent (experiments.web.search)."""
        s: PlaySession = live.session
        seat = live.seat

        def snap(e):
            e = {k: v for k, v in e.items() if k != "record"}
            e["view"] = s.view(seat)
            events.append(e)

        s.decide = search.decider(live, time.monotonic() + search.seconds)
        try:
            s.advance(max_moves=MAX_EVENTS_PER_CALL, on_event=snap)
        except StillThinking:
            pass  # the reply says so; the next request goes on
        finally:
            s.decide = None

    # --- pages ----------------------------------------------------------------------------
    @app.get("/")
    def index():
        return FileResponse(STATIC / "index.html", media_type="text/html")

    @app.get("/static/{name}")
    def static(name: str):
        path = STATIC / name
        if "/" in name or "\\" in name or name.startswith(".") or not path.is_file():
            return _bad(f"no such file {name!r}", 404)
        return FileResponse(path)

    @app.get("/favicon.ico")
    def favicon():
        from fastapi.responses import Response

        return Response(status_code=204)

    # --- play -----------------------------------------------------------------------------
    @app.get("/api/meta")
    def meta():
        out = {}
        for g in games.GAMES:
            kit = games.get(g)
            rules = kit.rules_cls()
            out[g] = {"title": kit.title, "player_counts": list(kit.player_counts),
                      "agents": agent_names(g), "conventions": rules.to_dict(),
                      "whole": kit.whole_item_name}
        try:
            from agents.neural.zoo import playing_names
            checkpoints = playing_names()
        except Exception:  # noqa: BLE001 - torch missing: no networks to offer
            checkpoints = []
        from agents.presets import TABLES, preset_file

        files = {t: preset_file(t) for t in TABLES}
        presets = {t: list(f["presets"]) for t, f in files.items()}  # the seat menus
        about = {t: {k: v.get("about", "") for k, v in f["presets"].items()}
                 for t, f in files.items()}
        return {"games": out, "checkpoints": checkpoints, "models": model_cards(checkpoints),
                "methods": list(METHODS), "presets": presets, "preset_about": about}

    @app.post("/api/games")
    async def new_game(request: Request):
        data = await _body(request)
        game = data.get("game")
        if game not in games.GAMES:
            raise InvalidConfigError(f"game must be one of {', '.join(games.GAMES)}, got "
                                     f"{game!r}")
        conventions = data.get("rules") or {}
        if not isinstance(conventions, dict):
            raise InvalidConfigError("rules must be an object of conventions")
        players = data.get("players")
        teams = bool(data.get("teams", False))
        kit = games.get(game)
        if len(kit.player_counts) == 1:
            players, teams = None, False
        rules = make_rules(game, players, teams,
                           [f"{k}={v}" for k, v in conventions.items()])
        n = kit.players(rules)
        seat = data.get("seat", 0)
        if type(seat) is not int or not 0 <= seat < n:
            raise InvalidConfigError(f"seat must be a seat 0..{n - 1}, got {seat!r}")
        specs = data.get("agents") or ["heuristic"]
        if isinstance(specs, str):
            specs = [specs]
        if not isinstance(specs, list) or len(specs) not in (1, n - 1) or \
                not all(isinstance(x, str) and x.strip() for x in specs):
            raise InvalidConfigError(f"agents must be one agent spec for all other seats or "
                                     f"one per other seat ({n - 1})")
        per_seat = list(specs) * (n - 1) if len(specs) == 1 else list(specs)
        per_seat.insert(seat, None)
        seed = data.get("seed", 0)
        if type(seed) is not int or not 0 <= seed < 2**63:
            raise InvalidConfigError(f"seed must be an integer 0..2**63-1, got {seed!r}")
        duplicate = data.get("duplicate")
        if duplicate is not None and (not isinstance(duplicate, str) or not duplicate.strip()):
            raise InvalidConfigError("duplicate must be the spec of the agent that replays "
                                     "your seat")

        def start():
            agents = make_seat_agents(game, per_seat, agent_cache, rules)
            if duplicate:
                make_seat_agents(game, [duplicate], agent_cache, rules)  # a bad spec fails now
            session = PlaySession(game, rules, agents, seed=seed, pause_at_deal_end=True)
            gid, token = kept.create(game, rules.to_dict(), seat, per_seat, seed, duplicate)
            try:
                live = live_games.adopt(gid, kept.load(gid), session)
                with live.lock:
                    events: list = []
                    _run_agents(live, events)
                    live_games.commit(live)
                    return _reply({**_state(live, events), "token": token})
            except BaseException:
                kept.drop(gid)  # a game that could not start is not kept
                raise

        return await run_in_threadpool(start)

    @app.get("/api/games/{gid}")
    def get_game(gid: str, request: Request):
        with _open(gid, request) as live:
            kept.touch(gid)
            return _reply(_state(live))

    @app.post("/api/games/{gid}/act")
    async def act(gid: str, request: Request):
        _check_token(gid, request)  # before anything about the body is said
        data = await _body(request)
        if "action" not in data:
            raise IllegalActionError("give the action: {\"action\": id or name}")
        action = data["action"]
        if isinstance(action, bool) or not isinstance(action, (int, str)):
            raise IllegalActionError(f"action must be an id or a name, got {action!r}")
        return await run_in_threadpool(_act, gid, request, action)

    def _act(gid: str, request: Request, action) -> dict:
        with _open(gid, request) as live:
            s: PlaySession = live.session
            events: list = []
            seat = live.seat
            if s.turn >= 0 and s.agents[s.turn] is not None:
                raise IllegalActionError(f"it is not your turn: seat {s.turn} "
                                         f"({s.agent_label(s.turn)}) is thinking; POST "
                                         f"/api/games/{gid}/advance to wait for it")
            if s.turn != seat:
                raise IllegalActionError(f"it is not your turn (seat {s.turn} is to act)"
                                         if s.turn >= 0 else "nobody is to act now")
            for e in s.act(action):
                events.append({**{k: v for k, v in e.items() if k != "record"},
                               "view": s.view(seat)})
            _run_agents(live, events)
            live_games.commit(live)
            return _reply(_state(live, events))

    @app.post("/api/games/{gid}/advance")
    def advance(gid: str, request: Request):
        """The agents go on thinking (a reply said ``thinking``), for at most the request's
        time."""
        with _open(gid, request) as live:
            events: list = []
            _run_agents(live, events)
            live_games.commit(live)
            return _reply(_state(live, events))

    @app.post("/api/games/{gid}/next")
    def next_deal(gid: str, request: Request):
        with _open(gid, request) as live:
            s: PlaySession = live.session
            events: list = []
            for e in s.next_deal():
                events.append({**{k: v for k, v in e.items() if k != "record"},
                               "view": s.view(live.seat)})
            _run_agents(live, events)
            live_games.commit(live)
            return _reply(_state(live, events))

    @app.delete("/api/games/{gid}")
    def drop_game(gid: str, request: Request):
        _check_token(gid, request)
        live_games.drop([gid])
        if not kept.drop(gid):
            raise GameGone(f"no such game {gid!r}")
        return {"dropped": gid}

    @app.get("/api/games/{gid}/sheet")
    def sheet(gid: str, request: Request):
        with _open(gid, request) as live:
            s: PlaySession = live.session
            return {"points": s.deal_points, "records": s.records,
                    "side_names": s.view(None)["side_names"]}

    @app.post("/api/games/{gid}/analyse")
    async def analyse_game(gid: str, request: Request):
        _check_token(gid, request)
        data = await _body(request)

        def position():
            with _open(gid, request) as live:
                s: PlaySession = live.session
                if s.turn != live.seat:
                    raise IllegalActionError("analysis is for your own decisions: wait for "
                                             "your turn")
                return live.game, s.rules, s.st.copy()

        game, rules, st = await run_in_threadpool(position)
        return await run_in_threadpool(_analyse, game, rules, st, data)

    def _analyse(game, rules, st, data):
        # a search: in a worker process, where it holds up no other request
        return search.run(analyse_in_worker, game, rules, st, data.get("method", "solver"),
                          data.get("samples", 8), data.get("checkpoint"))

    def _replay_args(live: LiveGame) -> tuple:
        """What a worker makes game ``live`` again from, with the duplicate agent in the
        person's seat (experiments.web.search.duplicate_deals_in_worker)."""
        s: PlaySession = live.session
        specs = list(live.specs)
        specs[live.seat] = live.duplicate
        return live.game, s.rules, s.seed, s.item, actions_of(s.events), specs

    async def _replayed(step, gid: str, request: Request):
        """The reply of a duplicate replay. ``step(gid, request)`` (in a thread, the game's
        lock held) gives a reply and the worker jobs it still waits for; those are waited
        for, holding neither the game nor a thread, until none is left or the request's
        time is spent: then the reply (``thinking``) has status 202, and the same request
        again takes the jobs up where they stand."""
        from fastapi.responses import JSONResponse

        deadline = time.monotonic() + search.seconds
        while True:
            reply, waiting = await run_in_threadpool(step, gid, request)
            left = deadline - time.monotonic()
            if not waiting:
                return reply
            if left <= 0:
                return JSONResponse(reply, status_code=202)
            await wait_any(waiting, left)
            if any(search.died(job) for job in waiting):
                deadline = 0.0  # sent again once, then the reply: one try a request

    def _duplicate_step(gid: str, request: Request) -> tuple[dict, list]:
        with _open_duplicate(gid, request) as live:
            s: PlaySession = live.session
            seat = live.seat
            cache = live.cache.setdefault("dup_results", {})  # deal -> the agent's points
            jobs = live.cache.setdefault("dup_jobs", {})  # deals (a tuple) -> their job
            for _, points in search.collect(jobs):
                cache.update({k: p[seat] for k, p in points.items()})
            asked = {k for deals in jobs for k in deals}
            missing = [k for k in range(len(s.records)) if k not in cache and k not in asked]
            if missing:
                search.job(jobs, tuple(missing), duplicate_deals_in_worker,
                           *_replay_args(live), missing)
            if jobs:
                return {"thinking": True, "agent": live.duplicate, "seat": seat,
                        "deals_done": len(cache), "deals": len(s.records)}, list(jobs.values())
            rows = [{"deal": k, "you": s.deal_points[k][seat], "agent": cache[k]}
                    for k in range(len(s.records))]
            you = sum(r["you"] for r in rows)
            bot = sum(r["agent"] for r in rows)
            return {"agent": live.duplicate, "seat": seat, "deals": rows,
                    "total_you": you, "total_agent": bot}, []

    @app.get("/api/games/{gid}/duplicate")
    async def duplicate(gid: str, request: Request):
        # played in a worker (experiments.web.search): it holds up no other request
        return await _replayed(_duplicate_step, gid, request)

    def _duplicate_game_step(gid: str, request: Request) -> tuple[dict, list]:
        with _open_duplicate(gid, request) as live:
            s: PlaySession = live.session
            seat = live.seat
            if not s.over:
                raise IllegalActionError(
                    f"the whole game is replayed once yours is over ({len(s.records)} deals "
                    f"so far); /duplicate compares the deals played so far one by one")
            jobs = live.cache.setdefault("dup_game_jobs", {})
            for _, result in search.collect(jobs):
                live.cache["dup_game"] = result
            if "dup_game" not in live.cache:
                job = search.job(jobs, "game", duplicate_game_in_worker, *_replay_args(live),
                                 seat)
                return {"thinking": True, "agent": live.duplicate, "seat": seat}, [job]
            you = game_result(s, seat)
            bot = live.cache["dup_game"]
            view = s.kit.table_view(s.rules, s.st, None)
            return {"agent": live.duplicate, "seat": seat, "side_names": view["side_names"],
                    "you": you, "agent_game": bot,
                    "difference": you["margin"] - bot["margin"]}, []

    @app.get("/api/games/{gid}/duplicate-game")
    async def duplicate_whole_game(gid: str, request: Request):
        return await _replayed(_duplicate_game_step, gid, request)

    @app.get("/api/stats")
    def stats():
        """How full the table is and what the server holds in memory."""
        return {"games": kept.counts(), "max_games": kept.max_games,
                "idle_seconds": kept.idle_seconds, "in_memory": len(live_games),
                "max_in_memory": live_games.max_live, "restored": live_games.restored,
                "restored_at_start": live_games.at_start,
                "rss_mib": rss_mib(), "workers_rss_mib": [rss_mib(p) for p in search.pids()],
                "store": kept.path}

    # --- replay ---------------------------------------------------------------------------
    @app.get("/api/records")
    def record_files():
        # finished games of this table come first, as the root "games" (path: the game's id)
        finished = [{"root": GAMES_ROOT, "path": g["id"], "game": g["game"],
                     "deals": g["deals"], "finished": g["finished"],
                     "seats": ["person" if x is None else x for x in g["specs"]]}
                    for g in kept.finished(MAX_LISTED)]
        return {"roots": [GAMES_ROOT, *roots.roots], "files": finished + roots.record_files()}

    def _deals(root: str, path: str) -> list[dict]:
        if root == GAMES_ROOT:
            return kept.records(path)
        target = roots.resolve(root, path)
        st = target.stat()
        key = (str(target), st.st_mtime_ns, st.st_size)
        if key not in deals_cache:
            if len(deals_cache) > 8:
                deals_cache.pop(next(iter(deals_cache)))
            deals_cache[key] = read_deals(target)
        return deals_cache[key]

    def _frames(root, path, deal):
        deals = _deals(root, path)
        if type(deal) is not int or not 0 <= deal < len(deals):
            raise InvalidConfigError(f"deal must be 0..{len(deals) - 1}, got {deal!r}")
        rec = deals[deal]
        game, rules, frames = replay_frames(rec, f"{Path(path).name}, deal {deal}")
        return deals, rec, game, rules, frames

    @app.get("/api/replay")
    def replay(root: str = "runs", path: str = "", deal: int = 0):
        deals, rec, game, rules, frames = _frames(root, path, deal)
        steps = _steps(game, rules, frames)
        summary = [{"deal": i, "game": r.get("game"), "deal_no": r.get("deal"),
                    "result": r.get("recorded") or r.get("deal_scores"),
                    "what": r.get("contract") or r.get("trump") or r.get("void")}
                   for i, r in enumerate(deals)]
        return {"game": game, "deal": deal, "deals": summary, "record": rec, "steps": steps}

    @app.post("/api/replay/analyse")
    async def replay_analyse(request: Request):
        data = await _body(request)
        return await run_in_threadpool(_replay_analyse, data)

    def _replay_analyse(data: dict) -> dict:
        deals, rec, game, rules, frames = _frames(data.get("root", "runs"),
                                                  data.get("path", ""), data.get("deal", 0))
        step = data.get("step", 0)
        if type(step) is not int or not 0 <= step < len(frames):
            raise InvalidConfigError(f"step must be 0..{len(frames) - 1}, got {step!r}")
        out = _analyse(game, rules, frames[step][0], data)
        nxt = frames[step + 1][1] if step + 1 < len(frames) else None
        out["played"] = None if nxt is None else rules.game.action_name(nxt)
        return out

    # --- compare two agents of a tournament (experiments.web.compare) ----------------------
    @app.get("/api/perdeal")
    def per_deal_files():
        base = roots.roots.get("runs")
        out = []
        if base is not None and base.is_dir():
            real = base.resolve()
            for path in sorted(base.rglob("*.npy"))[:MAX_LISTED]:
                if not path.is_file() or real not in path.resolve().parents:
                    continue  # a symbolic link out is not listed
                rel = path.relative_to(base).as_posix()
                out.append({"path": rel, "bytes": path.stat().st_size,
                            "replayable": run_config(path) is not None})
        return {"files": out}

    def _per_deal(file: str):
        target = roots.resolve("runs", file, limit=MAX_PER_DEAL_BYTES)
        return target, read_rows(target, file), run_config(target)

    @app.get("/api/compare")
    def compare(file: str = "", pairing: int = 0, top: int = 10):
        target, rows, cfg = _per_deal(file)
        pairs = pairings_of(cfg)
        agents = None
        if cfg is not None and 0 <= pairing < len(pairs):
            summary = _json_or_none(target.parent.parent / "summary.json")
            try:  # the labels the run's table uses; else the specs
                agents = [str(x) for x in summary["pairings"][pairing]["agents"]]
            except (TypeError, KeyError, IndexError):
                agents = [str(cfg.agents[i]) for i in pairs[pairing]]
        return {"file": file, "pairing": pairing, "rows": len(rows),
                "pairings": sorted(int(x) for x in np.unique(rows["pairing"])),
                "agents": agents, "game": None if cfg is None else cfg.game,
                "replayable": cfg is not None and cfg.duplicate,
                "note": None if cfg is not None else (
                    "this per-deal file has no config beside it (FILE.json, or a run's "
                    "config.yaml) saying which agents, seed and rules made it: play the "
                    "tournament again with --per-deal, or with cardsim run (per_deal: "
                    "true), to replay its deals"),
                "deals": top_deals(rows, pairing, top)}

    @app.get("/api/compare/plays")
    async def compare_plays(file: str = "", pairing: int = 0, item: int = 0, deal: int = 0):
        _, rows, cfg = _per_deal(file)
        if cfg is None:
            raise InvalidConfigError(
                f"{file!r} has no tournament config beside it (FILE.json, or RUN/config.yaml "
                f"for a run's deals/*.npy): the agents, seed and rules to replay it are "
                f"unknown")
        mine = rows[(rows["pairing"] == pairing) & (rows["item"] == item)]
        if not len(mine):
            raise InvalidConfigError(f"item {item} of pairing {pairing} is not in {file!r}")
        out = await run_in_threadpool(replay_item, cfg, pairing, item)
        out["file_points"] = [float(x) for x in mine[0]["points"]]
        rules = cfg.make_rules()
        most = max(len(play["records"]) for play in out["plays"])
        if not 0 <= deal < most:  # whole games: the plays of an item may differ in length
            raise InvalidConfigError(f"deal must be 0..{most - 1}, got {deal!r}")
        out["deal"] = deal
        for play in out["plays"]:
            recs = play["records"]
            play["steps"] = None  # this play's game ended sooner
            if deal < len(recs):
                game, _, frames = replay_frames(recs[deal], f"item {item}, deal {deal}")
                play["steps"] = _steps(game, rules, frames)
        return out

    # --- leaderboard ----------------------------------------------------------------------
    @app.get("/api/leaderboard")
    def leaderboard():
        """Each table's kept ladder (experiments.tournaments.leaderboard): the standings the docs'
        leaderboard shows, strongest first."""
        from agents.presets import TABLES
        from experiments.tournaments import leaderboard as lb

        out = []
        for table in TABLES:
            data = lb.load(table)
            item = {"table": table, "title": lb.TITLES[table], "ladder": None}
            if data is not None:
                ref = data["reference"]
                rows = [{"spec": r["spec"], "presets": r["presets"],
                         "points": lb.fmt_points(r["points_per_deal"], r["ci95"]),
                         "versus": "0" if r["spec"] == ref else
                         lb.fmt_diff(lb.difference(data, r["spec"], ref)),
                         "us": lb.fmt_us(r["us_per_decision"])} for r in lb.standings(data)]
                item["ladder"] = {k: data[k] for k in ("deals", "seed", "date", "reference",
                                                       "config")}
                item["ladder"]["rows"] = rows
            out.append(item)
        return {"tables": out}

    @app.get("/api/runs")
    def list_runs():
        base = roots.roots.get("runs")
        out = []
        if base is not None and base.is_dir():
            for d in sorted(base.iterdir()):
                if not d.is_dir() or not (d / "meta.json").is_file():
                    continue
                item = {"name": d.name, "meta": _json_or_none(d / "meta.json"),
                        "table": _text_or_none(d / "table.txt"),
                        "plots": [p.relative_to(base).as_posix()
                                  for p in sorted(d.glob("plots/*.png"))]}
                summary = _json_or_none(d / "summary.json")
                if isinstance(summary, dict):
                    item["summary"] = {k: summary[k] for k in
                                       ("game", "agents", "deals", "ratings", "kind")
                                       if k in summary}
                out.append(item)
        return {"runs": out}

    @app.get("/api/runs/file")
    def run_file(path: str):
        target = roots.resolve("runs", path, limit=MAX_TEXT_BYTES * 8)
        if target.suffix != ".png":
            raise FileRefused(f"{path!r}: only a run's plots (PNG) are served")
        return FileResponse(target, media_type="image/png")

    return app


def model_cards(names: list[str]) -> list[dict]:
    """What the network menu shows of each zoo network: its table, what it is, and its
    measured strength (its lead over the heuristic, points a deal, with the 95% interval);
    each table's strongest first."""
    from agents.neural.zoo import card

    out = []
    for name in names:
        c = card(name)
        ev = c.get("evaluation") or {}
        versus = (ev.get("against") or {}).get("heuristic") or {}
        out.append({"name": name, "kind": c["kind"], "game": c["game"], "table": c["table"],
                    "summary": c.get("summary", ""),
                    "over_heuristic": versus.get("difference"),
                    "ci95": versus.get("ci95"), "deals": ev.get("deals"),
                    "us_per_decision": ev.get("us_per_decision")})
    return sorted(out, key=lambda m: (m["table"], m["over_heuristic"] is None,
                                      -(m["over_heuristic"] or 0)))


def rss_mib(pid: int | str = "self") -> float | None:
    """A process's resident memory in MiB (Linux ``/proc``; None elsewhere)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return None


def _steps(game: str, rules, frames: list) -> list[dict]:
    """The replay's steps of a deal's frames (experiments.web.files.replay_frames): the
    table with every hand open after each action, and who did what."""
    kit = rules.game
    steps = []
    for row, action in frames:
        view = kit.table_view(rules, row, None, True)
        view["game"] = game
        steps.append({"action": None if action is None else kit.action_name(action),
                      "seat": None, "view": view})
    for k in range(1, len(steps)):  # who acted: the seat to act in the frame before
        steps[k]["seat"] = steps[k - 1]["view"]["turn"]
    return steps


def _json_or_none(path: Path):
    try:
        if path.stat().st_size > MAX_TEXT_BYTES:
            return None
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _text_or_none(path: Path) -> str | None:
    try:
        if path.stat().st_size > MAX_TEXT_BYTES:
            return None
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


class ServeError(CardsimError):
    """The server cannot start: a busy port, an address it may not or cannot listen on."""


def listen(host: str, port: int):
    """A socket bound to ``host``:``port`` and listening; ``ServeError`` naming the port
    when it is busy (checked before anything says the server is up)."""
    import errno
    import socket

    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except (socket.gaierror, UnicodeError) as e:
        raise ServeError(f"cannot listen on {host!r}: not an address of this machine "
                         f"({e})") from None
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(2048)
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            raise ServeError(f"port {port} on {host} is busy: another program listens there "
                             f"(another cardsim serve?); choose another with --port") from None
        raise ServeError(f"cannot listen on {host}:{port}: {e.strerror}") from None
    return sock


def serve(host: str = "127.0.0.1", port: int = 8000, runs: str | None = "runs",
          records: list | None = None, store: str | None = None,
          max_games: int = MAX_GAMES, idle_seconds: float = IDLE_SECONDS,
          public: bool = False) -> None:
    """Run the app on uvicorn until interrupted. A ``host`` beyond this machine needs
    ``public`` (and a warning is printed)."""
    import sys

    from cardsim.errors import MissingDependencyError
    from experiments.web.guard import is_this_machine, public_warning

    try:
        import fastapi  # noqa: F401
        import uvicorn
    except ImportError as e:
        raise MissingDependencyError(f"cardsim serve needs the web extra: pip install "
                                     f"'cardsim[web]' ({e})") from None
    local = is_this_machine(host)
    if not local and not public:
        raise ServeError(f"--host {host} listens beyond this machine: add --public to allow "
                         f"it (the default, 127.0.0.1, serves this machine only)")
    sock = listen(host, port)
    try:
        if not local:
            print(public_warning(host, port), file=sys.stderr, flush=True)
        app = create_app(runs, records, store=store, max_games=max_games,
                         idle_seconds=idle_seconds)
        print(f"cardsim serve: http://{host}:{port}/  (runs: {runs}; games kept in "
              f"{app.state.store.path}; Ctrl-C stops)", flush=True)
        uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[sock])
    finally:
        sock.close()
