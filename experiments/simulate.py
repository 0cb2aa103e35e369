"""``cardsim simulate``: agents in every seat over many deals or games, on the compiled path.

The summary comes from the engine's integer statistics, so it is the same for any thread
count and whether or not hand records are written (the record path plays the same games in
batches and writes every deal).
"""

from __future__ import annotations

import time

import numpy as np
from tqdm import tqdm

from cardsim import games as game_contracts
from cardsim.errors import InvalidConfigError
from cardsim.records import RecordWriter
from cardsim.table import Table
from experiments.config import check_count
from experiments.files import check_output_file
from experiments.games import seat_agents, seating_of

CHUNK = 1 << 18          # items per table call (progress granularity)


def _count(hands, games) -> tuple[int, bool]:
    if hands is not None and games is not None:
        raise InvalidConfigError("give either hands (deals) or games, not both")
    n = games if games is not None else (hands if hands is not None else 1000)
    check_count("the number of games" if games is not None else "the number of hands", n,
                "simulate")
    return n, games is not None


def simulate(game: str, rules, agents=None, seed: int = 0, hands: int | None = None,
             games: int | None = None, n_threads: int = 1, history_path=None,
             progress: bool = False, first_item: int = 0, stats_out: list | None = None) -> dict:
    """Play ``hands`` deals (each a fresh game / hands-mode item) or ``games`` whole games
    with the given agents (one spec, one per side, or one per seat). Returns the summary.

    ``first_item`` offsets the items (a run split in chunks plays items lo..hi-1 of the
    same run); ``stats_out``, if given, receives the raw statistics array."""
    if history_path is not None:
        check_output_file(history_path, "history file")
    n, whole = _count(hands, games)
    if not (isinstance(seed, int) and 0 <= seed < 2**63):
        raise InvalidConfigError(f"seed must be an integer in 0..2**63-1, got {seed!r}")
    seated = seat_agents(agents, game, rules)
    seating = seating_of(seated)
    table = Table(game, rules)
    contract = table.game
    history = None if history_path is None else (
        lambda row: contract.record_line(row, rules, seed))
    compile_s = None
    if seating.all_compiled:
        # One item played and thrown away compiles the loop (or loads numba's cache), so
        # the play time below is play alone. Python agents are left out: an extra item
        # would move their own random generators.
        t0 = time.perf_counter()
        table.simulate(seating, seed, first_item, 1, whole, n_threads, history=history,
                       write=None if history is None else (lambda line: None))
        compile_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    with tqdm(total=n, disable=not progress, unit="game" if whole else "deal") as bar:
        if history_path is None:
            stats = np.zeros(contract.num_stats, dtype=np.int64)
            for lo in range(0, n, CHUNK):
                k = min(CHUNK, n - lo)
                stats += table.simulate(seating, seed, first_item + lo, k, whole, n_threads)
                bar.update(k)
        else:
            with RecordWriter(history_path) as out:
                stats = table.simulate(seating, seed, first_item, n, whole, n_threads,
                                       history=history, write=out.write_line)
            bar.update(n)
    seconds = time.perf_counter() - t0
    if stats_out is not None:
        stats_out.append(stats)
    summary = summarize_stats(game, stats, rules, seed, whole, seconds)
    summary["compile_s"] = None if compile_s is None else round(compile_s, 3)
    summary["agents"] = [getattr(a, "label", type(a).__name__) for a in seated]
    if history_path is not None:
        summary["history"] = str(history_path)
    return summary


def summarize_stats(game, stats, rules, seed, whole, seconds) -> dict:
    """The game's readable summary of a statistics array."""
    return game_contracts.get(game).summarize(stats, rules, seed, whole, seconds)
