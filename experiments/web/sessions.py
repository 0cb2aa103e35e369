"""The games a server holds in memory: each a ``PlaySession`` made from the store
(experiments.web.store) the first time it is asked for, and written back to it after every
change, before the reply.

Memory is bounded: at most ``max_live`` games stay in memory; beyond that the least recently
used one leaves memory, not the store, and is made again (its kept actions played anew) the
next time it is asked for. A game in the middle of a request never leaves memory, so there
is never a second copy of one game answering requests. As a server starts, the games in
progress are made again in the background, the most recently played last.
"""

from __future__ import annotations

import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from cardsim import games
from experiments.play.session import PlaySession
from experiments.web.store import NEXT_DEAL, GameGone, GameStore, KeptGame

MAX_LIVE = 200  # games in memory at once


class LiveGame:
    """One game in memory. ``lock`` is held by the request using it."""

    def __init__(self, gid: str):
        self.id = gid
        self.lock = threading.Lock()
        self.session: PlaySession | None = None
        self.kept: KeptGame | None = None
        self.events_kept = 0     # session.events written to the store
        self.actions_kept = 0    # actions written to the store
        self.finished_kept = False
        self.left = False        # left memory: whoever holds it must ask again
        self.cache: dict = {}    # what is worked out once (duplicate replays, their jobs)

    @property
    def seat(self) -> int:
        """The person's seat."""
        return self.kept.seat

    @property
    def specs(self) -> list:
        """The agent spec of each seat (None: the person's)."""
        return self.kept.specs

    @property
    def duplicate(self) -> str | None:
        """The spec of the agent that replays the person's seat, or None."""
        return self.kept.duplicate

    @property
    def game(self) -> str:
        """The game's name."""
        return self.kept.game


def actions_of(events: list[dict]) -> list[int]:
    """The store's actions of session events: each move's action id, ``NEXT_DEAL`` for a
    deal started by ``PlaySession.next_deal``."""
    out = []
    for e in events:
        if e["kind"] == "move":
            out.append(int(e["id"]))
        elif e["kind"] == "deal_start":
            out.append(NEXT_DEAL)
    return out


def replay(game: str, rules, seed: int, actions, agents: list, item: int = 0) -> PlaySession:
    """A session of ``game`` under ``rules`` with ``agents`` seated (``None``: nobody
    decides), the store's ``actions`` (experiments.web.store) played again from the seed."""
    session = PlaySession(game, rules, agents, seed=seed, item=item, pause_at_deal_end=True)
    for a in actions:
        if a == NEXT_DEAL:
            session.next_deal()
        else:
            session.apply_recorded(a)
    return session


def restore(kept: KeptGame, agents: list) -> PlaySession:
    """The session of kept game ``kept`` with ``agents`` seated: its actions played again
    from the seed."""
    rules = games.rules_of(kept.game, kept.rules)
    session = replay(kept.game, rules, kept.seed, kept.actions, agents)
    session.rng[0] = kept.rng
    return session


class LiveGames:
    """Games by id, made from ``store`` on demand with ``seat_agents(kept, rules)``."""

    def __init__(self, store: GameStore, seat_agents: Callable[[KeptGame], list],
                 max_live: int = MAX_LIVE):
        self.store = store
        self.seat_agents = seat_agents
        self.max_live = max_live
        self._live: OrderedDict[str, LiveGame] = OrderedDict()
        self._lock = threading.Lock()
        self.restored = 0  # games made again from the store (a restart, or memory's limit)
        self.at_start: dict | None = None  # the games made again as the server started

    def __len__(self) -> int:
        with self._lock:
            return len(self._live)

    @contextmanager
    def open(self, gid: str) -> Iterator[LiveGame]:
        """Game ``gid`` in memory, its lock held; ``GameGone`` when the store has no such
        game."""
        while True:
            with self._lock:
                live = self._live.get(gid)
                if live is None:
                    live = self._live[gid] = LiveGame(gid)
                self._live.move_to_end(gid)
            live.lock.acquire()
            if not live.left:
                break
            live.lock.release()  # it left memory meanwhile: take the new one
        try:
            if live.session is None:
                self._restore(live)
            self._leave_memory()
            yield live
        finally:
            live.lock.release()

    def adopt(self, gid: str, kept: KeptGame, session: PlaySession) -> LiveGame:
        """A new game's session, in memory from its start (nothing of it kept yet)."""
        live = LiveGame(gid)
        live.kept, live.session = kept, session
        with self._lock:
            self._live[gid] = live
        self._leave_memory()  # the newest game is the last to leave
        return live

    def restore_in_background(self, ids: list[str]) -> threading.Thread:
        """Make games ``ids`` again (least recently touched first; the last ``max_live``)
        in a thread, so that the first requests after a restart find them ready; a request
        for one meanwhile waits for it. ``at_start`` says how far it got."""
        ids = ids[-self.max_live:]
        self.at_start = {"games": len(ids), "restored": 0, "failed": 0, "seconds": None}

        def run():
            start = time.monotonic()
            for gid in ids:
                try:
                    with self.open(gid):
                        pass
                    self.at_start["restored"] += 1
                except Exception as e:  # noqa: BLE001 - said again when the game is asked for
                    self.at_start["failed"] += 1
                    print(f"cardsim serve: game {gid} could not be made again: {e}",
                          file=sys.stderr, flush=True)
            self.at_start["seconds"] = round(time.monotonic() - start, 2)

        thread = threading.Thread(target=run, name="restore games", daemon=True)
        thread.start()
        return thread

    def commit(self, live: LiveGame) -> None:
        """Write what happened in ``live`` since the last commit: its new actions, the
        agents' generator and, once the game is over, its hand records. Should the write
        fail, the game leaves memory so that the next request sees what the store holds."""
        s = live.session
        new = s.events[live.events_kept:]
        actions = actions_of(new)
        finished = s.over and not live.finished_kept
        try:
            self.store.append(live.id, live.actions_kept, actions, int(s.rng[0]),
                              s.records if finished else None)
        except BaseException:
            self.forget(live)
            raise
        live.events_kept = len(s.events)
        live.actions_kept += len(actions)
        live.finished_kept = live.finished_kept or finished

    def forget(self, live: LiveGame) -> None:
        """``live`` leaves memory (the caller holds its lock)."""
        live.left = True
        with self._lock:
            if self._live.get(live.id) is live:
                del self._live[live.id]

    def drop(self, gids) -> None:
        """Games dropped from the store leave memory too, unless in a request."""
        for gid in gids:
            with self._lock:
                live = self._live.get(gid)
            if live is not None and live.lock.acquire(blocking=False):
                try:
                    self.forget(live)
                finally:
                    live.lock.release()

    def _restore(self, live: LiveGame) -> None:
        try:
            kept = self.store.load(live.id)
        except GameGone:
            self.forget(live)
            raise
        session = restore(kept, self.seat_agents(kept))
        live.kept, live.session = kept, session
        live.events_kept = len(session.events)
        live.actions_kept = len(kept.actions)
        kept.actions = []  # in the session now; only their count was needed
        live.finished_kept = kept.finished is not None
        self.restored += 1

    def _leave_memory(self) -> None:
        """Beyond ``max_live``: the least recently used games not in a request leave."""
        with self._lock:
            if len(self._live) <= self.max_live:
                return
            candidates = list(self._live.values())
        for live in candidates:
            if len(self) <= self.max_live:
                return
            if live.lock.acquire(blocking=False):
                try:
                    self.forget(live)
                finally:
                    live.lock.release()
