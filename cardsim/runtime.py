"""Process-level helpers shared by the simulation front ends: threads, timing, memory."""

from __future__ import annotations

import os
import resource
import sys

from cardsim.errors import InvalidConfigError


def set_threads(threads: int) -> int:
    """Use ``threads`` numba threads; an error names the allowed range."""
    import numba

    limit = numba.config.NUMBA_NUM_THREADS
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= limit:
        raise InvalidConfigError(
            f"threads must be between 1 and {limit} on this machine, got {threads} "
            f"(set NUMBA_NUM_THREADS to allow more)")
    numba.set_num_threads(threads)
    return threads


class threads:
    """Context manager: run with ``n`` numba threads, then restore the previous count."""

    def __init__(self, n: int):
        import numba

        self.old = numba.get_num_threads()
        set_threads(n)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        import numba

        numba.set_num_threads(self.old)


def blocks_for(n_items: int, threads: int) -> int:
    """Work blocks for a parallel loop: several per thread for balance, never more than items.
    Results never depend on this number."""
    return max(1, min(n_items, threads * 64))


def peak_memory_mb() -> float:
    """Peak resident memory of this process so far, in MiB."""
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024


# Benchmarks print the host's load beside their figures: this host's speed depends on it.
def load_before(note: str = "") -> None:
    """Print the load average and the CPU count before a benchmark (``note`` after them)."""
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs{note}")


def load_after() -> None:
    """Print the load average after a benchmark."""
    print(f"load average after: {os.getloadavg()[0]:.2f}")
