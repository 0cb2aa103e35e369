"""Hand records as JSON Lines (docs/hand-records.md): the file handling both games share.

Writers write to a temporary file beside the target and rename it into place when closed,
so an interrupted run never leaves a half-written history under the final name.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

from cardsim.errors import HandRecordError


class RecordWriter:
    """Context manager writing one JSON object per line, atomically on close."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        self.tmp = self.path.with_name(self.path.name + ".tmp")
        self.count = 0
        self._file = None

    def __enter__(self) -> RecordWriter:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = open(self.tmp, "w", encoding="utf-8")
        except OSError as e:
            raise HandRecordError(f"cannot write hand records to {self.path}: {e}") from None
        return self

    def write(self, record: dict) -> None:
        """Write ``record`` (a hand record dict) as one compact JSON line."""
        self.write_line(json.dumps(record, separators=(",", ":"), ensure_ascii=False))

    def write_line(self, line: str) -> None:
        """Write one record already serialised as a JSON line (no newline)."""
        self._file.write(line)
        self._file.write("\n")
        self.count += 1

    def __exit__(self, exc_type, exc, tb) -> None:
        self._file.close()
        if exc_type is None:
            os.replace(self.tmp, self.path)
        # on an error the partial file stays as <name>.tmp for inspection


def read_records(path: str | os.PathLike) -> Iterator[dict]:
    """Hand records of a JSON Lines file, one dict per non-empty line.

    Args:
        path: the file ``--history`` or ``history: true`` wrote.

    Yields:
        Each record as a dict (docs/hand-records.md), in file order.

    Raises:
        HandRecordError: the file cannot be read, or a line is not a JSON object.
    """
    try:
        f = open(path, encoding="utf-8")
    except OSError as e:
        raise HandRecordError(f"cannot read hand records from {path}: {e}") from None
    with f:
        for lineno, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as e:
                raise HandRecordError(f"{path}, line {lineno}: not valid JSON ({e.msg})") from None
            if not isinstance(rec, dict):
                raise HandRecordError(f"{path}, line {lineno}: a record must be a JSON object")
            yield rec


def require(rec: dict, name: str, kind, where: str = "record"):
    """Field ``name`` of a record, checked to be of type ``kind`` (a type or tuple)."""
    if name not in rec:
        raise HandRecordError(f"{where}: missing field {name!r}")
    value = rec[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind in (int, (int,))):
        raise HandRecordError(f"{where}: field {name!r} has invalid value {value!r}")
    return value


def watch_steps(game, on_step) -> None:
    """Make ``game.step`` (a game class of the game face) report every action it applies:
    ``on_step(row_before, action_id, row_after)`` with copies of the state row. A replay
    given ``on_step`` calls this, so that a viewer can step through a recorded deal."""
    step = game.step

    def stepped(action, i: int = 0):
        before = game.state[i].copy()
        step(action, i)
        on_step(before, int(game.parse_action(action)), game.state[i].copy())

    game.step = stepped
