"""``cardsim simulate``: agents in every seat over many deals or games, on the compiled path.

The summary comes from the engine's integer statistics, so it is the same for any thread
count and whether or not hand records are written (the record path plays the same games in
batches and writes every deal).
"""

from __future__ import annotations

import tempfile
import time
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from cardsim.errors import InvalidConfigError
from cardsim.records import RecordWriter
from cardsim.table import Table
from experiments.runs.limits import check_count
from experiments.runs.files import check_output_file
from experiments.runs.seating import seat_agents, seating_of
from experiments.runs.progress import progress_bar

CHUNK = 1 << 18          # items per table call (progress granularity)
# items per task with an executor: 1,000,000 Debertz deals in 16 tasks kept 2 Ray CPUs
# within 5-11% of local threads (python -m experiments.bench.ray), where 4 tasks of CHUNK
# left a CPU idle at the end; smaller tasks would cost the driver more merges on a cluster
TASK_CHUNK = 1 << 16


def _count(hands, games) -> tuple[int, bool]:
    if hands is not None and games is not None:
        raise InvalidConfigError("give either hands (deals) or games, not both")
    n = games if games is not None else (hands if hands is not None else 1000)
    check_count("the number of games" if games is not None else "the number of hands", n,
                "simulate")
    return n, games is not None


def simulate(game: str, rules, agents=None, seed: int = 0, *, hands: int | None = None,
             games: int | None = None, n_threads: int = 1, history_path=None,
             progress: bool = False, first_item: int = 0, stats_out: list | None = None,
             executor=None, chunk: int | None = None, overwrite: bool = False) -> dict:
    """Play ``hands`` deals (each a fresh game / hands-mode item) or ``games`` whole games
    with the given agents (one spec, one per side, or one per seat). Returns the summary.

    ``first_item`` offsets the items (a run split in chunks plays items lo..hi-1 of the
    same run); ``stats_out``, if given, receives the raw statistics array. ``executor``
    (experiments.runs.executor) plays the items in chunks of ``chunk`` items (default
    ``TASK_CHUNK``)
    elsewhere, e.g. on Ray; the summary is the same. An existing ``history_path`` is
    refused unless ``overwrite``.

    Args:
        game: ``"debertz"`` or ``"barbu"``.
        rules: the game's rules object (``DebertzRules(...)``, ``BarbuRules(...)``).
        agents: agent specs or agent objects: one for every seat, one per side, or one per
            seat; None plays random in every seat.
        seed: the run's seed; the same seed plays the same deals on any thread count.
        hands: deals to play, each starting a fresh game (give ``hands`` or ``games``).
        games: whole games (Barbu: 28-deal matches) to play.
        n_threads: numba threads of a local run.
        history_path: a file to write every deal's hand record to (JSON Lines).

    Returns:
        The summary: a dict of the statistics ``cardsim simulate --json`` prints (per game:
        mean points per side, byte and meld rates, or scores per contract), with
        ``seconds``, ``compile_s`` and ``agents``.

    Raises:
        InvalidConfigError: a bad seed, count, agent, seating or output path (one line
            naming it).
        AgentError: a Python agent raised an exception.
        IllegalActionError: a Python agent chose an illegal action.
    """
    if history_path is not None:
        check_output_file(history_path, "history file", overwrite)
    n, whole = _count(hands, games)
    if not (isinstance(seed, int) and 0 <= seed < 2**63):
        raise InvalidConfigError(f"seed must be an integer in 0..2**63-1, got {seed!r}")
    seated = seat_agents(agents, game, rules)
    if executor is not None:
        job = SimulationJob(game, rules, agents, seed, whole, history_path is not None)
        return _simulate_on(executor, job, n, first_item, chunk or TASK_CHUNK, history_path,
                            progress, stats_out,
                            [getattr(a, "label", type(a).__name__) for a in seated])
    seating = seating_of(seated)
    table = Table(rules.game, rules)
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
    with progress_bar(n, progress, "game" if whole else "deal", what="simulate") as bar:
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
    summary = summarize_stats(stats, rules, seed, whole, seconds)
    summary["compile_s"] = None if compile_s is None else round(compile_s, 3)
    summary["agents"] = [getattr(a, "label", type(a).__name__) for a in seated]
    if history_path is not None:
        summary["history"] = str(history_path)
    return summary


def summarize_stats(stats, rules, seed, whole, seconds) -> dict:
    """The readable summary of a statistics array of the game of ``rules``."""
    return rules.game.summarize(stats, rules, seed, whole, seconds)


@dataclass(frozen=True)
class SimulationJob:
    """What every chunk of a simulation shares, wherever it is played (experiments.runs.executor):
    a chunk task is the pair (lo, hi) of its items."""

    game: str
    rules: object
    agents: list
    seed: int
    whole: bool
    history: bool = False


def play_simulation_chunk(job: SimulationJob, task, n_threads: int = 1) -> dict:
    """Items lo..hi-1 of a simulation: the statistics array, the play time and (with
    ``job.history``) the chunk's hand records as the bytes of a JSON Lines file, written
    by the driver (a Ray worker may not share its disk)."""
    lo, hi = task
    got: list = []
    history = None
    with tempfile.TemporaryDirectory(prefix="cardsim-chunk-") as tmp:
        path = Path(tmp) / "history.jsonl" if job.history else None
        part = simulate(job.game, job.rules, job.agents, job.seed,
                        hands=None if job.whole else hi - lo,
                        games=hi - lo if job.whole else None, n_threads=n_threads,
                        history_path=path, first_item=lo, stats_out=got)
        if path is not None:
            history = path.read_bytes()
    return {"stats": got[0], "seconds": part["seconds"], "history": history}


def _simulate_on(executor, job: SimulationJob, n: int, first_item: int, chunk: int,
                 history_path, progress: bool, stats_out, labels) -> dict:
    """``simulate`` with the chunks played by ``executor``; hand records are one file in
    item order, so they are taken in order."""
    t0 = time.perf_counter()
    stats = np.zeros(job.rules.game.num_stats, dtype=np.int64)
    tasks = [(lo, min(first_item + n, lo + chunk))
             for lo in range(first_item, first_item + n, chunk)]
    with progress_bar(n, progress, "game" if job.whole else "deal", what="simulate") as bar, \
            (RecordBytes(history_path) if history_path is not None else nullcontext()) as out, \
            executor as ex:
        for (lo, hi), part in ex.map(play_simulation_chunk, job, tasks,
                                     ordered=history_path is not None):
            stats += part["stats"]
            if history_path is not None:
                out.write(part["history"])
            bar.update(hi - lo)
    seconds = time.perf_counter() - t0
    if stats_out is not None:
        stats_out.append(stats)
    summary = summarize_stats(stats, job.rules, job.seed, job.whole, seconds)
    # paid by the workers, inside the play time: on Ray, their compiling seconds summed
    # (0.0 when every worker loaded the kernels from the cache)
    compiled = getattr(executor, "compile_s", None)
    summary["compile_s"] = None if compiled is None else round(compiled, 3)
    summary["agents"] = labels
    if history_path is not None:
        summary["history"] = str(history_path)
    return summary


class RecordBytes:
    """A hand-record file made of chunks' JSON Lines bytes, in order; it appears under its
    name only when complete (written beside it and renamed)."""

    def __init__(self, path):
        self.path = Path(path)
        self.tmp = self.path.with_name(self.path.name + ".tmp")

    def __enter__(self):
        self.file = open(self.tmp, "wb")
        return self

    def write(self, data: bytes) -> None:
        """Append a chunk's JSON Lines bytes ``data`` (chunks in item order)."""
        self.file.write(data)

    def __exit__(self, exc_type, *_):
        self.file.close()
        if exc_type is None:
            self.tmp.replace(self.path)
