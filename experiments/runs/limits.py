"""Limits on what a run may ask for: counts of deals or games, and threads.

Read by configs (``experiments.runs.config``), the command line, simulations and tournaments
alike; kept in a module of their own so that none of these imports another for them.
"""

from __future__ import annotations

from cardsim.errors import InvalidConfigError

# Counts that could not finish in any sane time are refused up front. At a few million
# compiled deals per second and thread, MAX_ITEMS["simulate"] deals is hours; a tournament
# plays every item once per seating pattern (up to 8) and pairing, keeping only per-chunk
# statistics (memory does not grow with the count), so a billion duplicate deals is hours.
MAX_ITEMS = {"simulate": 10**10, "tournament": 10**9, "study": 10**9}
MAX_THREADS = 256


def check_count(name: str, value, kind: str):
    """A positive number of deals or games within the limit of ``kind``; the error names
    ``name`` (a config key or a command-line option)."""
    limit = MAX_ITEMS[kind]
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidConfigError(f"{name} has invalid value {value!r}; allowed: a positive "
                                 f"integer")
    if value > limit:
        raise InvalidConfigError(f"{name} = {value:,} is more than a {kind} can play in "
                                 f"any sane time; allowed: 1..{limit:,} (split the work in "
                                 f"several runs)")
    return value
