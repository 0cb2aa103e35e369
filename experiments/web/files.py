"""The files the browser table may read: hand-record files and run directories under the
directories it was given, and nothing else.

A path from the browser is relative to one of those roots. Refused, each with a clear
message: an absolute path, a ``..`` component, a path that leaves its root once symbolic
links are followed, a missing file, a file over ``MAX_RECORD_BYTES``, and a record file that
is not JSON Lines of hand records (``HandRecordError``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path, PurePosixPath

from cardsim import games
from cardsim.errors import CardsimError, HandRecordError

MAX_RECORD_BYTES = 32 * 2**20     # a record file read for a replay
MAX_TEXT_BYTES = 2 * 2**20        # a run's table or csv shown as text
MAX_LISTED = 500                  # files listed per root
RECORD_SUFFIXES = (".jsonl", ".json", ".ndjson")


class FileRefused(CardsimError):
    """A path the server does not read (outside its directories, too big, not there)."""


class Roots:
    """The directories the server reads, by name (``runs``, ``records1``, ...)."""

    def __init__(self, runs: str | os.PathLike | None, records: list = ()):
        self.roots: dict[str, Path] = {}
        if runs is not None:
            self.roots["runs"] = Path(runs)
        for k, d in enumerate(records, 1):
            self.roots[f"records{k}" if k > 1 else "records"] = Path(d)

    def resolve(self, root: str, rel: str, limit: int | None = None) -> Path:
        """The file ``rel`` under root ``root``, checked (see the module doc string); files
        over ``limit`` bytes (default ``MAX_RECORD_BYTES``) are refused."""
        limit = MAX_RECORD_BYTES if limit is None else limit
        if root not in self.roots:
            raise FileRefused(f"no directory named {root!r}; directories: "
                              f"{', '.join(self.roots) or 'none'}")
        if not isinstance(rel, str) or not rel or "\x00" in rel:
            raise FileRefused("give the path of a file under the directory")
        parts = PurePosixPath(rel.replace("\\", "/"))
        if parts.is_absolute() or rel.startswith(("/", "\\")) or ":" in parts.parts[0]:
            raise FileRefused(f"{rel!r}: an absolute path is refused; give a path under "
                              f"{root}")
        if ".." in parts.parts:
            raise FileRefused(f"{rel!r}: '..' is refused; give a path under {root}")
        base = self.roots[root].resolve()
        target = (base / Path(*parts.parts)).resolve()
        if target != base and base not in target.parents:
            raise FileRefused(f"{rel!r} leads outside {root} (a symbolic link out)")
        if not target.is_file():
            raise FileRefused(f"{rel!r}: no such file under {root}")
        size = target.stat().st_size
        if size > limit:
            raise FileRefused(f"{rel!r} is {size} bytes; files over {limit} bytes are not "
                              f"read")
        return target

    def record_files(self) -> list[dict]:
        """Hand-record files under every root, at most ``MAX_LISTED`` each: files of a record
        suffix whose first line is a hand record (a run's ``metrics.jsonl`` is not one)."""
        out = []
        for name, root in self.roots.items():
            if not root.is_dir():
                continue
            base = root.resolve()
            found = 0
            for path in sorted(root.rglob("*")):
                if found >= MAX_LISTED:
                    break
                if path.suffix not in RECORD_SUFFIXES or not path.is_file():
                    continue
                if path.name in ("meta.json", "summary.json", "state.json"):
                    continue
                real = path.resolve()
                if base not in real.parents:
                    continue  # a symbolic link out is not listed
                if not starts_with_record(path):
                    continue
                out.append({"root": name, "path": path.relative_to(root).as_posix(),
                            "bytes": path.stat().st_size})
                found += 1
        return out


def starts_with_record(path: Path, limit: int = 2**20) -> bool:
    """Whether the first line of ``path`` (read up to ``limit`` bytes) is a hand record of
    one of the games: the listing's check, cheap beside reading the whole file."""
    try:
        with open(path, "rb") as f:
            line = f.readline(limit)
        rec = json.loads(line)
    except (OSError, ValueError):
        return False
    return isinstance(rec, dict) and any(rec.get("format") == f"cardsim-{g}/1"
                                         for g in games.GAMES)


def read_deals(path: Path) -> list[dict]:
    """The hand records of a file (JSON Lines); HandRecordError naming the line otherwise."""
    deals = []
    with open(path, encoding="utf-8", errors="strict") as f:
        try:
            lines = list(f)
        except UnicodeDecodeError:
            raise HandRecordError(f"{path.name}: not a text file of hand records") from None
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as e:
            raise HandRecordError(f"{path.name}, line {lineno}: not valid JSON "
                                  f"({e.msg})") from None
        if not isinstance(rec, dict):
            raise HandRecordError(f"{path.name}, line {lineno}: a record must be a JSON "
                                  f"object")
        game_of(rec, f"{path.name}, line {lineno}")
        deals.append(rec)
    if not deals:
        raise HandRecordError(f"{path.name}: holds no hand records")
    return deals


def game_of(rec: dict, where: str) -> str:
    """The game of a record, from its ``format`` (``cardsim-debertz/1``)."""
    fmt = rec.get("format")
    for g in games.GAMES:
        if fmt == f"cardsim-{g}/1":
            return g
    raise HandRecordError(f"{where}: field 'format' is {fmt!r}; hand records have "
                          + " or ".join(repr(f"cardsim-{g}/1") for g in games.GAMES))


def replay_frames(rec: dict, where: str = "record") -> tuple[str, object, list]:
    """(game, rules, frames) of a recorded deal: frame 0 is the deal's start, frame k the
    state after the k-th action; each ``(row, action or None)``."""
    game = game_of(rec, where)
    steps: list = []

    def on_step(before, action, after):
        if not steps:
            steps.append((before, None))
        steps.append((after, action))

    try:
        rules = games.rules_of(game, rec.get("rules") or {})
        rules.game.records.replay(rec, on_step=on_step)
    except HandRecordError:
        raise
    except (CardsimError, ValueError, TypeError, KeyError, IndexError, AttributeError) as e:
        raise HandRecordError(f"{where}: cannot be replayed: {e}") from None
    if not steps:
        raise HandRecordError(f"{where}: a deal without any decision (void) has nothing to "
                              f"step through")
    return game, rules, steps
