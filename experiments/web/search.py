"""Agents that think for long (searches, networks) decide in worker processes, so that their
thinking holds up no other game of the server, and each request gives them a bounded time.

The engine's compiled kernels hold Python's interpreter lock while they run: a search in a
thread of the server would stop every other request for as long as it thinks. The random
and the heuristic agents decide in microseconds and stay in the server; any other agent (a
search, a network, an agent of the person's own package) is made in a worker process from
its spec and asked there, with a copy of the game's state row and generator. The values
of a position (experiments.play.analysis: the solver, pimc, a network) are worked out there too.

The duplicate replays (a game's deals, or the whole game, played again with an agent in the
person's seat: ``GET /api/games/{id}/duplicate``, ``.../duplicate-game``) are played in a
worker too, whatever the agents: the worker makes the game again from its seed and kept
actions. Such a job outlives its request: a reply after ``seconds`` says ``thinking`` and
the same request again takes the job up where it stands (``SearchPool.job``, ``collect``).

The workers run at a lower priority than the server (``WORKER_NICENESS``): on a busy
machine the quick requests of other games go first. A request waits for the agents until
the person is to act or its time (``seconds``) is spent. Then it replies with the moves
made so far and ``thinking: true``; a decision under way goes on in its worker and the
next request (``POST /api/games/{id}/advance``) takes it up where it stands.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import concurrent.futures.process
import multiprocessing
import os
import threading
import time

import numpy as np

FAST_AGENTS = ("random", "heuristic")  # agents that decide in the server's own process
AGENT_SECONDS = 5.0  # the agents' time in one request


class StillThinking(Exception):
    """The request's time for the agents ran out before the person's turn."""


def thinks_long(agent) -> bool:
    """Whether ``agent`` decides in a worker process."""
    return getattr(agent, "name", None) not in FAST_AGENTS


def default_workers() -> int:
    """One worker per core but one, left to the server: at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


WORKER_NICENESS = 10  # a worker yields the processor to the server's own requests


def _start_worker() -> None:
    try:
        os.nice(WORKER_NICENESS)
    except OSError:  # not allowed here: the same priority, still another process
        pass


_worker_agents: dict = {}  # in a worker: (game, rules, spec) -> agent
_analysis_agents: dict = {}  # in a worker: what experiments.play.analysis makes once


def _decide_in_worker(game: str, rules, spec: str, states: np.ndarray, rng: np.ndarray,
                      seat: int) -> tuple[int, int]:
    """In a worker: the action of the agent ``spec`` for ``seat``, and the generator after."""
    from agents.registry import make_agent
    from experiments.play.session import choose_action

    key = (game, rules, spec)
    if key not in _worker_agents:
        agent = make_agent(spec, game, rules)
        if hasattr(agent, "reset"):
            agent.reset(len(_worker_agents) + 1)
        _worker_agents[key] = agent
    action = choose_action(rules.game, _worker_agents[key], states, rules.pack(), rng, seat)
    return int(action), int(rng[0])


def analyse_in_worker(game: str, rules, st: np.ndarray, method: str, samples, checkpoint):
    """In a worker: the values of a position (experiments.play.analysis)."""
    from experiments.play.analysis import analyse

    return analyse(game, rules, st, method, samples=samples, checkpoint=checkpoint,
                   agents=_analysis_agents)


_seat_agents: dict = {}  # in a worker: the duplicate replays' agents, by table and spec


def _duplicate_setup(game: str, rules, seed: int, item: int, actions: list, specs: list):
    """In a worker: the game made again from its seed and the store's ``actions`` (nobody
    seated), and the replay's agents of ``specs`` (every seat)."""
    from experiments.play.session import make_seat_agents
    from experiments.web.sessions import replay

    nobody = [None] * rules.game.players(rules)
    session = replay(game, rules, seed, actions, nobody, item)
    return session, make_seat_agents(game, specs, _seat_agents, rules)


def duplicate_deals_in_worker(game: str, rules, seed: int, item: int, actions: list,
                              specs: list, deals: list) -> dict:
    """In a worker: each seat's points in each deal of ``deals`` played again from its start
    with the agents of ``specs`` (experiments.play.session.duplicate_deal), by deal."""
    from experiments.play.session import duplicate_deal

    session, agents = _duplicate_setup(game, rules, seed, item, actions, specs)
    return {k: duplicate_deal(session, k, agents)["points"] for k in deals}


def duplicate_game_in_worker(game: str, rules, seed: int, item: int, actions: list,
                             specs: list, seat: int) -> dict:
    """In a worker: the whole game played again with the agents of ``specs``
    (experiments.play.session.duplicate_game), as ``seat``'s side stands at its end
    (game_result)."""
    from experiments.play.session import duplicate_game, game_result

    session, agents = _duplicate_setup(game, rules, seed, item, actions, specs)
    return game_result(duplicate_game(session, agents), seat)


async def wait_any(futures, seconds: float) -> None:
    """Until one of ``futures`` (concurrent.futures) is done or ``seconds`` have passed,
    holding neither the event loop nor a thread."""
    loop = asyncio.get_running_loop()
    woken = asyncio.Event()

    def wake(_future):
        try:
            loop.call_soon_threadsafe(woken.set)
        except RuntimeError:  # the loop has closed meanwhile: nobody waits any more
            pass

    for future in futures:
        future.add_done_callback(wake)
    try:
        await asyncio.wait_for(woken.wait(), max(0.0, seconds))
    except asyncio.TimeoutError:
        pass


class SearchPool:
    """Worker processes for the agents that think long (started on first use)."""

    def __init__(self, workers: int | None = None, seconds: float = AGENT_SECONDS):
        self.workers = workers or default_workers()
        self.seconds = seconds
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def _executor(self) -> concurrent.futures.ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                # spawn: a fork of a server with threads may copy a held lock
                self._pool = concurrent.futures.ProcessPoolExecutor(
                    self.workers, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_start_worker)
            return self._pool

    def pids(self) -> list[int]:
        """The workers' process ids (none before the first long decision)."""
        pool = self._pool
        return [] if pool is None else list(getattr(pool, "_processes", {}) or {})

    def close(self) -> None:
        """Stop the workers, cancelling what they have not started."""
        with self._lock:
            if self._pool is not None:
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = None

    def _submit(self, fn, *args) -> concurrent.futures.Future:
        """``fn(*args)`` sent to a worker. A pool whose worker died (killed, out of memory)
        takes no more work: a new one is started in its place."""
        try:
            return self._executor().submit(fn, *args)
        except concurrent.futures.process.BrokenProcessPool:
            self._drop_broken()
            return self._executor().submit(fn, *args)

    def _drop_broken(self) -> None:
        """Let a pool whose worker died go (the next job starts a new one); a pool that
        works, perhaps started meanwhile by another request, is kept with its jobs."""
        with self._lock:
            if self._pool is not None and getattr(self._pool, "_broken", False):
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = None

    def run(self, fn, *args):
        """``fn(*args)`` in a worker; its result (its exception raised here)."""
        return self._submit(fn, *args).result()

    def job(self, jobs: dict, key, fn, *args) -> concurrent.futures.Future:
        """``fn(*args)`` sent to a worker once: its future is kept in ``jobs`` under ``key``,
        so that the requests after one whose time ran out take it up (``collect``)."""
        if key not in jobs:
            jobs[key] = self._submit(fn, *args)
        return jobs[key]

    @staticmethod
    def died(future: concurrent.futures.Future) -> bool:
        """Whether the worker of job ``future`` died (or its pool was closed) before it
        ended."""
        return future.done() and (future.cancelled() or isinstance(
            future.exception(), concurrent.futures.process.BrokenProcessPool))

    @classmethod
    def collect(cls, jobs: dict):
        """``(key, result)`` of each job of ``jobs`` that is done, which leaves ``jobs``.
        One whose worker died leaves without a result, to be sent again; one that failed
        raises its exception here."""
        for key, future in list(jobs.items()):
            if not future.done():
                continue
            del jobs[key]
            if not cls.died(future):
                yield key, future.result()

    def decider(self, live, deadline: float):
        """``PlaySession.decide`` for one request of game ``live`` (experiments.web.sessions
        .LiveGame) ending at ``deadline`` (``time.monotonic()``): agents that think long
        decide in a worker; ``StillThinking`` once the deadline passes."""

        def decide(session, seat: int):
            agent = session.agents[seat]
            if not thinks_long(agent):
                return None  # decided here, at once, whatever the time
            if time.monotonic() >= deadline:
                raise StillThinking
            key = (session.decisions, seat)
            pending = live.cache.get("pending")
            if pending is None or pending[0] != key:
                future = self._submit(
                    _decide_in_worker, session.game, session.rules, live.specs[seat],
                    session.states.copy(), session.rng.copy(), seat)
                pending = live.cache["pending"] = (key, future)
            try:
                action, rng = pending[1].result(timeout=max(0.0, deadline - time.monotonic()))
            except concurrent.futures.TimeoutError:
                raise StillThinking from None
            except (concurrent.futures.process.BrokenProcessPool,
                    concurrent.futures.CancelledError):
                self._drop_broken()  # its worker died: the decision is asked again, of a new one
                raise StillThinking from None
            finally:
                if pending[1].done():
                    live.cache.pop("pending", None)
            session.rng[0] = rng
            return action

        return decide
