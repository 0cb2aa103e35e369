"""One line on stderr while numba compiles, so that a first run does not wait in silence.

A command's first run compiles its kernels (seconds to minutes; later runs load them from the
cache, cardsim.compile_cache). Wrapping the work in ``compiling("the Debertz table for
heuristic, random")`` prints, only when something is actually compiled (numba's compile event
fires on a cache miss, not on a cache load)::

    compiling the Debertz table for heuristic, random (first run only)... 48 s

The line is opened at the first compilation and closed with its seconds when the outermost
compilation ends; later compilations in the same block add a line of their own. Nested blocks
print only the outermost's text.
"""

from __future__ import annotations

import sys
import threading
import time
from contextlib import contextmanager

_active = threading.local()


class _Notice:
    """numba compile-event listener that writes the notice (one per ``compiling`` block)."""

    def __init__(self, what: str, stream):
        self.what = what
        self.stream = stream
        self.depth = 0
        self.started = 0.0
        self.total = 0.0

    def on_start(self):
        if self.depth == 0:
            self.started = time.perf_counter()
            self._write(f"compiling {self.what} (first run only)... ")
        self.depth += 1

    def on_end(self):
        self.depth -= 1
        if self.depth == 0:
            seconds = time.perf_counter() - self.started
            self.total += seconds
            self._write(f"{seconds:.0f} s\n")

    def _write(self, text: str) -> None:
        if self.stream is None:  # quiet: only counting
            return
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # a closed stream never stops the work
            pass


@contextmanager
def compiling(what: str, stream=None, quiet: bool = False):
    """Within the block, announce numba compilations as compiling ``what``; yields the
    notice (``.total``: seconds spent compiling, 0.0 when everything came from the cache).
    ``quiet``: count the seconds and print nothing (nor let blocks inside print)."""
    if getattr(_active, "notice", None) is not None:  # an outer block announces
        yield _active.notice
        return
    try:
        from numba.core import event
    except ImportError:
        yield _Notice(what, None)
        return
    notice = _Notice(what, None if quiet else stream if stream is not None else sys.stderr)

    class Listener(event.Listener):
        def on_start(self, ev):
            notice.on_start()

        def on_end(self, ev):
            notice.on_end()

    _active.notice = notice
    try:
        with event.install_listener("numba:compile", Listener()):
            yield notice
    finally:
        _active.notice = None
