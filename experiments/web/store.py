"""The browser table's games, kept in an embedded SQLite database (the standard library's
``sqlite3``), so that a restart or a crash of ``cardsim serve`` ends no game.

A game is kept as what makes it again: the game, its rules (every convention), the person's
seat, each seat's agent spec, the seed, and every action taken at the table in order (the
person's and the agents', ``NEXT_DEAL`` where the next deal was started). Playing those
actions again from the seed gives the same table, card for card; the agents' generator
state is kept too, so that they go on drawing where they stopped. A finished game also keeps
its hand records (docs/hand-records.md), listed for replay.

Each change is one transaction, committed before the server replies: a person's action and
the agents' moves that answered it are kept together or not at all. The database runs in
write-ahead-log mode with ``synchronous=NORMAL``: a killed process loses nothing committed
(a power cut may lose the last commits).

Only idle games are dropped: a game in progress that nobody touched for ``idle_seconds``.
The store holds at most ``max_games`` games in progress; a new game beyond that is refused
(``TableFull``) and no game in progress is ever dropped to make room. Finished games do not
count against that limit.

Each game has a token, given once to the person who created it; the store keeps only its
SHA-256 digest.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from cardsim.errors import CardsimError

NEXT_DEAL = -1          # an action entry that started the next deal (not an action id)
MAX_GAMES = 500         # games in progress at once
IDLE_SECONDS = 24 * 3600
MAX_RETRY_AFTER = 60    # games end all the time: ask again within a minute at the latest

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id            TEXT PRIMARY KEY,
    token_sha256  TEXT NOT NULL,
    game          TEXT NOT NULL,      -- debertz, barbu
    rules         TEXT NOT NULL,      -- JSON: every convention (Rules.to_dict)
    seat          INTEGER NOT NULL,   -- the person's seat
    specs         TEXT NOT NULL,      -- JSON: each seat's agent spec, null at the person's
    seed          INTEGER NOT NULL,
    duplicate     TEXT,               -- the duplicate agent's spec, or NULL
    created       REAL NOT NULL,      -- Unix seconds
    touched       REAL NOT NULL,      -- Unix seconds of the last request
    rng           TEXT NOT NULL,      -- the agents' generator state (decimal uint64)
    finished      REAL,               -- Unix seconds the game ended; NULL in progress
    records       TEXT                -- a finished game's hand records, JSON Lines
);
CREATE INDEX IF NOT EXISTS games_in_progress ON games (finished, touched);
CREATE TABLE IF NOT EXISTS actions (
    game_id  TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    n        INTEGER NOT NULL,        -- 0, 1, 2 ... in the order taken
    action   INTEGER NOT NULL,        -- an action id, or -1 (NEXT_DEAL)
    PRIMARY KEY (game_id, n)
) WITHOUT ROWID;
"""


class TableFull(CardsimError):
    """The store holds its most games in progress: a new game must wait."""

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


class GameGone(CardsimError):
    """No game of that id: it never was, it was dropped, or it was left idle."""


@dataclass
class KeptGame:
    """A game as the store keeps it."""

    id: str
    game: str
    rules: dict
    seat: int
    specs: list
    seed: int
    duplicate: str | None
    created: float
    touched: float
    rng: int
    finished: float | None
    actions: list[int]


def default_path(runs: str | None) -> str:
    """Where the store lives by default: ``cardsim-games.sqlite3`` beside the runs
    directory (in memory, gone at exit, without one)."""
    if runs is None:
        return ":memory:"
    return str(Path(runs).resolve().parent / "cardsim-games.sqlite3")


def token_digest(token: str) -> str:
    """What the store keeps of a game's token: its SHA-256, never the token itself."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class GameStore:
    """Games in progress and finished games in one SQLite file (``":memory:"``: none)."""

    def __init__(self, path: str = ":memory:", max_games: int = MAX_GAMES,
                 idle_seconds: float = IDLE_SECONDS, clock=time.time):
        if max_games < 1:
            raise ValueError(f"max_games must be at least 1, got {max_games}")
        if idle_seconds <= 0:
            raise ValueError(f"idle_seconds must be above 0, got {idle_seconds}")
        self.path = path
        self.max_games = max_games
        self.idle_seconds = idle_seconds
        self.clock = clock
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        # one connection shared by the server's threads, one statement at a time
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None,
                                   timeout=30)
        self._lock = threading.Lock()
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(SCHEMA)

    def close(self) -> None:
        """Close the database (its last transaction is already committed)."""
        with self._lock:
            self._db.close()

    # --- writing --------------------------------------------------------------------------
    def create(self, game: str, rules: dict, seat: int, specs: list, seed: int,
               duplicate: str | None) -> tuple[str, str]:
        """Keep a new game in progress (no action yet); returns ``(id, token)``. Idle games
        are dropped first; ``TableFull`` when the store still holds ``max_games`` games in
        progress."""
        gid = secrets.token_hex(8)
        token = secrets.token_urlsafe(24)
        now = self.clock()
        self.drop_idle()
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            count, oldest = self._db.execute(
                "SELECT count(*), min(touched) FROM games WHERE finished IS NULL").fetchone()
            if count >= self.max_games:
                wait = oldest + self.idle_seconds - now
                retry = max(1, min(MAX_RETRY_AFTER, int(wait) + 1))
                raise TableFull(
                    f"the table holds {count} games in progress, its most (--max-games); a "
                    f"place frees when a game ends or is left idle for "
                    f"{self.idle_seconds / 60:g} minutes: try again in {retry} s", retry)
            self._db.execute(
                "INSERT INTO games (id, token_sha256, game, rules, seat, specs, seed, "
                "duplicate, created, touched, rng) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (gid, token_digest(token), game, json.dumps(rules), seat, json.dumps(specs),
                 seed, duplicate, now, now, "0"))
        return gid, token

    def append(self, gid: str, first: int, actions: list[int], rng: int,
               records: list[dict] | None = None) -> None:
        """Keep ``actions`` as the game's actions ``first``, ``first + 1``, ... with the
        agents' generator state after them, in one transaction; ``records`` (the hand
        records) when the game is now over. ``GameGone`` when the game is not kept."""
        now = self.clock()
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            if records is None:
                cur = self._db.execute("UPDATE games SET touched = ?, rng = ? WHERE id = ?",
                                       (now, str(rng), gid))
            else:
                lines = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records)
                cur = self._db.execute(
                    "UPDATE games SET touched = ?, rng = ?, finished = ?, records = ? "
                    "WHERE id = ?", (now, str(rng), now, lines, gid))
            if cur.rowcount != 1:
                raise GameGone(f"no such game {gid!r}")
            self._db.executemany("INSERT INTO actions (game_id, n, action) VALUES (?, ?, ?)",
                                 [(gid, first + k, a) for k, a in enumerate(actions)])

    def touch(self, gid: str) -> None:
        """A request for the game: its idle clock starts again."""
        with self._lock:
            self._db.execute("UPDATE games SET touched = ? WHERE id = ?", (self.clock(), gid))

    def drop(self, gid: str) -> bool:
        """Forget game ``gid``; whether it was kept."""
        with self._lock, self._db:
            return self._db.execute("DELETE FROM games WHERE id = ?", (gid,)).rowcount == 1

    def drop_idle(self) -> list[str]:
        """Drop the games in progress left idle for ``idle_seconds``; their ids."""
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            return self._drop_idle(self.clock())

    def _drop_idle(self, now: float) -> list[str]:
        cutoff = now - self.idle_seconds
        ids = [r[0] for r in self._db.execute(
            "SELECT id FROM games WHERE finished IS NULL AND touched < ?", (cutoff,))]
        if ids:
            self._db.execute("DELETE FROM games WHERE finished IS NULL AND touched < ?",
                             (cutoff,))
        return ids

    # --- reading --------------------------------------------------------------------------
    def load(self, gid: str) -> KeptGame:
        """Game ``gid`` with its actions; ``GameGone`` when it is not kept."""
        with self._lock:
            row = self._db.execute(
                "SELECT id, game, rules, seat, specs, seed, duplicate, created, touched, rng, "
                "finished FROM games WHERE id = ?", (gid,)).fetchone()
            if row is None:
                raise GameGone(f"no such game {gid!r}")
            actions = [a for (a,) in self._db.execute(
                "SELECT action FROM actions WHERE game_id = ? ORDER BY n", (gid,))]
        return KeptGame(row[0], row[1], json.loads(row[2]), row[3], json.loads(row[4]),
                        row[5], row[6], row[7], row[8], int(row[9]), row[10], actions)

    def token_matches(self, gid: str, token: str) -> bool:
        """Whether ``token`` is game ``gid``'s (``GameGone`` when it is not kept)."""
        with self._lock:
            row = self._db.execute("SELECT token_sha256 FROM games WHERE id = ?",
                                   (gid,)).fetchone()
        if row is None:
            raise GameGone(f"no such game {gid!r}")
        return hmac.compare_digest(row[0], token_digest(token))

    def in_progress(self) -> list[str]:
        """The ids of the games in progress, least recently touched first."""
        with self._lock:
            return [r[0] for r in self._db.execute(
                "SELECT id FROM games WHERE finished IS NULL ORDER BY touched")]

    def finished(self, limit: int) -> list[dict]:
        """The finished games, the latest first: id, game, seats' specs, when, deals."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, game, specs, seat, finished, length(records) - "
                "length(replace(records, char(10), '')) FROM games WHERE finished IS NOT NULL "
                "ORDER BY finished DESC LIMIT ?", (limit,)).fetchall()
        return [{"id": r[0], "game": r[1], "specs": json.loads(r[2]), "seat": r[3],
                 "finished": r[4], "deals": r[5]} for r in rows]

    def records(self, gid: str) -> list[dict]:
        """The hand records of finished game ``gid``; ``GameGone`` otherwise."""
        with self._lock:
            row = self._db.execute("SELECT records FROM games WHERE id = ? AND finished IS "
                                   "NOT NULL", (gid,)).fetchone()
        if row is None:
            raise GameGone(f"no finished game {gid!r}")
        return [json.loads(line) for line in row[0].splitlines() if line]

    def counts(self) -> dict:
        """Games in progress and finished games kept."""
        with self._lock:
            going, done = self._db.execute(
                "SELECT sum(finished IS NULL), sum(finished IS NOT NULL) FROM games"
            ).fetchone()
        return {"in_progress": going or 0, "finished": done or 0}
