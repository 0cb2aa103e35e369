"""``cardsim serve``: the browser table, an ASGI app (FastAPI) with a JSON API and one static
page (``experiments/web/static``: plain HTML, CSS and JavaScript, no build step).

The API (every error is a JSON object ``{"error": message}`` with a 4xx status, never a
traceback):

    GET    /api/meta                         games, table sizes, agents, conventions
    POST   /api/games                        a new game: {game, players, teams, seat,
                                             agents, seed, rules, duplicate}
    GET    /api/games/{id}                   the table as the person's seat sees it
    POST   /api/games/{id}/act               {action}: the person's move, then the agents'
    POST   /api/games/{id}/next              the next deal
    POST   /api/games/{id}/analyse           {method, samples, checkpoint}: action values
    GET    /api/games/{id}/duplicate         each deal replayed with an agent in your seat
    GET    /api/games/{id}/duplicate-game    once the game is over: the whole game (match)
                                             replayed with that agent in your seat
    DELETE /api/games/{id}                   the game is dropped
    GET    /api/records                      hand-record files under the directories
    GET    /api/replay?root=&path=&deal=     a recorded deal, step by step, all hands open
    POST   /api/replay/analyse               {root, path, deal, step, method, ...}
    GET    /api/runs                         run directories under --runs, their tables
    GET    /api/runs/file?path=              a plot (PNG) of a run
    GET    /api/perdeal                      per-deal files (.npy) under --runs
    GET    /api/compare?file=&pairing=&top=  the deals where a pairing's agents differed
                                             most (experiments.web.compare)
    GET    /api/compare/plays?file=&pairing=&item=&deal=
                                             every play of that duplicate deal, replayed

Games live in memory, at most ``MAX_GAMES`` at once; the least recently used one is dropped
beyond that, and any game left alone for ``IDLE_SECONDS``. The server reads only files
under the directories it was given (experiments.web.files). It only calls what the command
line calls: the engine, the agents (agents.registry) and the solver's labels.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections import OrderedDict
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

STATIC = Path(__file__).parent / "static"
MAX_GAMES = 64
IDLE_SECONDS = 30 * 60
MAX_EVENTS_PER_CALL = 2000  # a guard: agents stop after this many moves in one call


class GameStore:
    """Games by id: least recently used dropped beyond ``max_games``, idle ones after
    ``idle_seconds``."""

    def __init__(self, max_games: int = MAX_GAMES, idle_seconds: float = IDLE_SECONDS):
        self.max_games = max_games
        self.idle_seconds = idle_seconds
        self._games: OrderedDict[str, dict] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, entry: dict) -> str:
        """Keep a new game; returns its id."""
        gid = uuid.uuid4().hex[:16]
        entry["lock"] = threading.Lock()
        entry["touched"] = time.monotonic()
        with self._lock:
            self._games[gid] = entry
            self._expire()
        return gid

    def get(self, gid: str) -> dict:
        """The game ``gid``, now the most recently used; KeyError when it is gone."""
        with self._lock:
            self._expire()
            entry = self._games.get(gid)
            if entry is None:
                raise KeyError(gid)
            self._games.move_to_end(gid)
            entry["touched"] = time.monotonic()
            return entry

    def drop(self, gid: str) -> bool:
        """Free game ``gid``; whether it was there."""
        with self._lock:
            return self._games.pop(gid, None) is not None

    def __len__(self) -> int:
        with self._lock:
            self._expire()
            return len(self._games)

    def _expire(self) -> None:
        now = time.monotonic()
        for gid in [g for g, e in self._games.items()
                    if now - e["touched"] > self.idle_seconds]:
            del self._games[gid]
        while len(self._games) > self.max_games:
            self._games.popitem(last=False)


def _bad(message: str, status: int = 400):
    from fastapi.responses import JSONResponse

    return JSONResponse({"error": " ".join(str(message).split())}, status_code=status)


def create_app(runs: str | None = "runs", records: list | None = None,
               max_games: int = MAX_GAMES, idle_seconds: float = IDLE_SECONDS):
    """The ASGI app. ``runs``: the run directories' parent; ``records``: other directories
    whose hand-record files may be opened."""
    from fastapi import FastAPI
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import FileResponse
    from starlette.concurrency import run_in_threadpool
    from starlette.exceptions import HTTPException as StarletteHTTPException

    from agents.registry import agent_names
    from experiments.analysis import METHODS, analyse
    from experiments.games import make_rules
    from experiments.play import (PlaySession, duplicate_deal, duplicate_game,
                                  game_result, make_seat_agents)

    app = FastAPI(title="cardsim", docs_url=None, redoc_url=None, openapi_url=None)
    store = GameStore(max_games, idle_seconds)
    roots = Roots(runs, list(records or []))
    agent_cache: dict = {}
    analysis_agents: dict = {}
    deals_cache: dict = {}
    app.state.store = store
    app.state.roots = roots

    @app.exception_handler(CardsimError)
    async def _cardsim_error(request: Request, exc: CardsimError):
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

    def _entry(gid: str) -> dict:
        try:
            return store.get(gid)
        except KeyError:
            raise FileRefused(f"no such game {gid!r} (it ended, or was left idle and freed); "
                              f"start a new one") from None

    def _state(entry: dict, events: list | None = None) -> dict:
        s: PlaySession = entry["session"]
        return {"id": entry["id"], "seat": entry["seat"], "view": s.view(entry["seat"]),
                "events": events or [], "duplicate": entry["duplicate"] is not None}

    def _run_agents(entry: dict, events: list) -> None:
        s: PlaySession = entry["session"]
        seat = entry["seat"]

        def snap(e):
            e = {k: v for k, v in e.items() if k != "record"}
            e["view"] = s.view(seat)
            events.append(e)

        s.advance(max_moves=MAX_EVENTS_PER_CALL, on_event=snap)

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
        from agents.presets import TABLES, preset_names

        presets = {t: preset_names(t) for t in TABLES}  # the seat menus' named players
        return {"games": out, "checkpoints": checkpoints, "methods": list(METHODS),
                "presets": presets}

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
            entry = {"session": session, "seat": seat, "duplicate": duplicate,
                     "specs": per_seat, "game": game}
            entry["id"] = store.add(entry)
            events: list = []
            with entry["lock"]:
                _run_agents(entry, events)
                return _state(entry, events)

        return await run_in_threadpool(start)

    @app.get("/api/games/{gid}")
    def get_game(gid: str):
        entry = _entry(gid)
        with entry["lock"]:
            return _state(entry)

    @app.post("/api/games/{gid}/act")
    async def act(gid: str, request: Request):
        data = await _body(request)
        entry = _entry(gid)
        if "action" not in data:
            raise IllegalActionError("give the action: {\"action\": id or name}")
        return await run_in_threadpool(_act, entry, data)

    def _act(entry: dict, data: dict) -> dict:
        with entry["lock"]:
            s: PlaySession = entry["session"]
            events: list = []
            seat = entry["seat"]
            if s.turn != seat:
                raise IllegalActionError(f"it is not your turn (seat {s.turn} is to act)"
                                         if s.turn >= 0 else "nobody is to act now")
            action = data["action"]
            if isinstance(action, bool) or not isinstance(action, (int, str)):
                raise IllegalActionError(f"action must be an id or a name, got {action!r}")

            def snap(e):
                e = {k: v for k, v in e.items() if k != "record"}
                e["view"] = s.view(seat)
                events.append(e)

            for e in s.act(action):
                snap(e)
            _run_agents(entry, events)
            return _state(entry, events)

    @app.post("/api/games/{gid}/next")
    def next_deal(gid: str):
        entry = _entry(gid)
        with entry["lock"]:
            s: PlaySession = entry["session"]
            events: list = []
            for e in s.next_deal():
                events.append({**{k: v for k, v in e.items() if k != "record"},
                               "view": s.view(entry["seat"])})
            _run_agents(entry, events)
            return _state(entry, events)

    @app.delete("/api/games/{gid}")
    def drop_game(gid: str):
        if not store.drop(gid):
            raise FileRefused(f"no such game {gid!r}")
        return {"dropped": gid}

    @app.get("/api/games/{gid}/sheet")
    def sheet(gid: str):
        entry = _entry(gid)
        with entry["lock"]:
            s: PlaySession = entry["session"]
            return {"points": s.deal_points, "records": s.records,
                    "side_names": s.view(None)["side_names"]}

    @app.post("/api/games/{gid}/analyse")
    async def analyse_game(gid: str, request: Request):
        data = await _body(request)
        entry = _entry(gid)
        with entry["lock"]:
            s: PlaySession = entry["session"]
            if s.turn != entry["seat"]:
                raise IllegalActionError("analysis is for your own decisions: wait for your "
                                         "turn")
            st = s.st.copy()
        return await run_in_threadpool(_analyse, entry["game"], s.rules, st, data)

    def _analyse(game, rules, st, data):
        method = data.get("method", "solver")
        samples = data.get("samples", 8)
        return analyse(game, rules, st, method, samples=samples,
                       checkpoint=data.get("checkpoint"), agents=analysis_agents)

    def _duplicate_entry(gid: str) -> dict:
        entry = _entry(gid)
        if not entry["duplicate"]:
            raise InvalidConfigError("this game was not started in duplicate mode")
        return entry

    def _duplicate_agents(entry: dict) -> list:
        """The game's agents with the duplicate agent in the person's seat."""
        specs = list(entry["specs"])
        specs[entry["seat"]] = entry["duplicate"]
        return make_seat_agents(entry["game"], specs, agent_cache,
                                entry["session"].rules)

    @app.get("/api/games/{gid}/duplicate")
    def duplicate(gid: str):
        entry = _duplicate_entry(gid)
        with entry["lock"]:
            s: PlaySession = entry["session"]
            seat = entry["seat"]
            cache = entry.setdefault("dup_results", {})
            agents = _duplicate_agents(entry)
            rows = []
            for k in range(len(s.records)):
                if k not in cache:
                    cache[k] = duplicate_deal(s, k, agents)["points"][seat]
                rows.append({"deal": k, "you": s.deal_points[k][seat], "agent": cache[k]})
            you = sum(r["you"] for r in rows)
            bot = sum(r["agent"] for r in rows)
            return {"agent": entry["duplicate"], "seat": seat, "deals": rows,
                    "total_you": you, "total_agent": bot}

    @app.get("/api/games/{gid}/duplicate-game")
    def duplicate_whole_game(gid: str):
        entry = _duplicate_entry(gid)
        with entry["lock"]:
            s: PlaySession = entry["session"]
            seat = entry["seat"]
            if not s.over:
                raise IllegalActionError(
                    f"the whole game is replayed once yours is over ({len(s.records)} deals "
                    f"so far); /duplicate compares the deals played so far one by one")
            if "dup_game" not in entry:
                other = duplicate_game(s, _duplicate_agents(entry))
                entry["dup_game"] = game_result(other, seat)
            you = game_result(s, seat)
            bot = entry["dup_game"]
            view = s.kit.table_view(s.rules, s.st, None)
            return {"agent": entry["duplicate"], "seat": seat, "side_names": view["side_names"],
                    "you": you, "agent_game": bot, "difference": you["margin"] - bot["margin"]}

    # --- replay ---------------------------------------------------------------------------
    @app.get("/api/records")
    def record_files():
        return {"roots": list(roots.roots), "files": roots.record_files()}

    def _deals(root: str, path: str) -> list[dict]:
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
        out["played"] = None if nxt is None else games.get(game).action_name(nxt)
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
        """Each table's kept ladder (experiments.leaderboard): the standings the docs'
        leaderboard shows, strongest first."""
        from agents.presets import TABLES
        from experiments import leaderboard as lb

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


def _steps(game: str, rules, frames: list) -> list[dict]:
    """The replay's steps of a deal's frames (experiments.web.files.replay_frames): the
    table with every hand open after each action, and who did what."""
    kit = games.get(game)
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


def serve(host: str = "127.0.0.1", port: int = 8000, runs: str | None = "runs",
          records: list | None = None) -> None:
    """Run the app on uvicorn until interrupted."""
    from cardsim.errors import MissingDependencyError

    try:
        import fastapi  # noqa: F401
        import uvicorn
    except ImportError as e:
        raise MissingDependencyError(f"cardsim serve needs the web extra: pip install "
                                     f"'cardsim[web]' ({e})") from None
    import uvicorn

    app = create_app(runs, records)
    print(f"cardsim serve: http://{host}:{port}/  (runs: {runs}; Ctrl-C stops)", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")
