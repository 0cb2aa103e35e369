"""Progress of long work, on stderr: a bar on a terminal, a line every few percent elsewhere.

A bar redrawn in place is what a person at a terminal wants; in a log file (a background
run, ``nohup``, CI) it is either nothing or a wall of carriage returns. So commands pass a
``progress`` mode, chosen once from where stderr goes (``progress_mode``):

    "bar"     tqdm's bar (stderr is a terminal)
    "lines"   one line per ``LINE_STEP`` percent: ``tournament: 25% (250/1,000 items, 12 s)``
    None      nothing (``--json``, or a caller from Python that did not ask)

``progress_bar`` gives an object with tqdm's ``update``, ``set_postfix`` and context
manager for each mode, so the loops that report progress do not care which it is.
"""

from __future__ import annotations

import sys
import time

from tqdm import tqdm

LINE_STEP = 5          # percent between two progress lines when stderr is not a terminal


def progress_mode(quiet: bool = False, stream=None) -> str | None:
    """The progress mode for a command: None when ``quiet`` (e.g. ``--json``), "bar" when
    ``stream`` (default stderr) is a terminal, else "lines"."""
    if quiet:
        return None
    stream = sys.stderr if stream is None else stream
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):  # a closed or unusual stream
        tty = False
    return "bar" if tty else "lines"


def progress_bar(total: int, progress, unit: str, initial: int = 0, what: str = ""):
    """A progress reporter of ``total`` ``unit``\\ s in mode ``progress`` ("bar", "lines",
    None/False; True is taken as "bar", as the commands' older callers pass it)."""
    if progress == "lines":
        return LineProgress(total, unit, initial=initial, what=what)
    return tqdm(total=total, initial=initial, unit=unit, disable=not progress,
                desc=what or None)


class LineProgress:
    """tqdm's interface, printing one line each time the work passes another ``step``
    percent (and at the end), so a log shows how far a long run is without redrawing."""

    def __init__(self, total: int, unit: str, initial: int = 0, what: str = "",
                 step: int = LINE_STEP, stream=None):
        self.total, self.unit, self.n = int(total or 0), unit, int(initial)
        self.what, self.step = what or "progress", step
        self.stream = sys.stderr if stream is None else stream
        self.start = time.perf_counter()
        self.first = self.n          # where this process started (a resumed run's count)
        self.postfix = ""
        self.shown = self._bucket()

    def _bucket(self) -> int:
        """How many ``step``-percent marks the work has passed."""
        if self.total <= 0:
            return 0
        return min(self.n, self.total) * 100 // (self.total * self.step)

    def update(self, n: int = 1) -> None:
        """Count ``n`` more units done; print a line when another mark is passed."""
        self.n += int(n)
        bucket = self._bucket()
        if bucket > self.shown:
            self.shown = bucket
            self._line()

    def set_postfix(self, **values) -> None:
        """Values shown after the count on the next line (e.g. a training loss)."""
        self.postfix = ", ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                                 for k, v in values.items())

    def _line(self) -> None:
        pct = 100 * min(self.n, self.total) // max(self.total, 1)
        seconds = time.perf_counter() - self.start
        extra = f", {self.postfix}" if self.postfix else ""
        done = self.n - self.first
        if 0 < done and self.n < self.total:  # at this process's pace so far
            extra += f", about {_duration(seconds / done * (self.total - self.n))} left"
        print(f"{self.what}: {pct}% ({self.n:,}/{self.total:,} {self.unit}s, {seconds:.0f} s"
              f"{extra})", file=self.stream, flush=True)

    def close(self) -> None:
        """Nothing to release: the lines are already out (tqdm's interface)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _duration(seconds: float) -> str:
    """A time left, to the precision a person reads it: 40 s, 12 min, 3.5 h."""
    if seconds < 100:
        return f"{seconds:.0f} s"
    if seconds < 6000:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"
