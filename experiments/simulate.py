"""``cardsim simulate``: agents in every seat over many deals or games, on the compiled path.

The summary comes from the engine's integer statistics, so it is the same for any thread
count and whether or not hand records are written (the record path plays the same games in
batches and writes every deal).
"""

from __future__ import annotations

import time

import numpy as np
from tqdm import tqdm

from cardsim import rng_nb
from cardsim.errors import InvalidConfigError
from cardsim.records import RecordWriter
from cardsim.runtime import blocks_for, threads
from experiments.games import kinds_and_params, play_module, seat_agents

CHUNK = 1 << 18          # items per compiled call on the fast path (progress granularity)
HISTORY_BATCH = 2048     # games per batch when writing hand records


def _count(hands, games) -> tuple[int, bool]:
    if hands is not None and games is not None:
        raise InvalidConfigError("give either hands (deals) or games, not both")
    n = games if games is not None else (hands if hands is not None else 1000)
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InvalidConfigError(f"the number of hands or games must be a positive integer, "
                                 f"got {n!r}")
    return n, games is not None


def simulate(game: str, rules, agents=None, seed: int = 0, hands: int | None = None,
             games: int | None = None, n_threads: int = 1, history_path=None,
             progress: bool = False, first_item: int = 0, stats_out: list | None = None) -> dict:
    """Play ``hands`` deals (each a fresh game / hands-mode item) or ``games`` whole games
    with the given agents (one spec, one per side, or one per seat). Returns the summary.

    ``first_item`` offsets the items (a run split in chunks plays items lo..hi-1 of the
    same run); ``stats_out``, if given, receives the raw statistics array."""
    n, whole = _count(hands, games)
    if not (isinstance(seed, int) and 0 <= seed < 2**63):
        raise InvalidConfigError(f"seed must be an integer in 0..2**63-1, got {seed!r}")
    seated = seat_agents(agents, game, rules)
    kinds, params = kinds_and_params(seated)
    R = rules.pack()
    play = play_module(game)
    t0 = time.perf_counter()
    with threads(n_threads):
        if history_path is None:
            stats = None
            with tqdm(total=n, disable=not progress, unit="game" if whole else "deal") as bar:
                for lo in range(0, n, CHUNK):
                    k = min(CHUNK, n - lo)
                    part = play.simulate_agents(R, seed, first_item + lo, k, whole,
                                                blocks_for(k, n_threads), kinds, params)
                    stats = part if stats is None else stats + part
                    bar.update(k)
        else:
            stats = _with_history(game, rules, R, seed, first_item, n, whole, kinds, params,
                                  history_path, progress)
    seconds = time.perf_counter() - t0
    if stats_out is not None:
        stats_out.append(stats)
    summary = summarize_stats(game, stats, rules, seed, whole, seconds)
    summary["agents"] = [a.label for a in seated]
    if history_path is not None:
        summary["history"] = str(history_path)
    return summary


def summarize_stats(game, stats, rules, seed, whole, seconds) -> dict:
    """The game's readable summary of a statistics array."""
    if game == "debertz":
        from cardsim.debertz.summary import summarize

        return summarize(stats, rules, seconds)
    from cardsim.barbu.summary import summarize

    return summarize(stats, rules, seed, whole, seconds)


def _with_history(game, rules, R, seed, first, n, whole, kinds, params, path, progress):
    history = _debertz_history if game == "debertz" else _barbu_history
    return history(rules, R, seed, first, n, whole, kinds, params, path, progress)


def _debertz_history(rules, R, seed, first, n, whole, kinds, params, path, progress):
    from cardsim.debertz import layout as L
    from cardsim.debertz import simulate_nb as SN
    from cardsim.debertz.game import DebertzGame
    from cardsim.debertz.record import deal_record

    play = play_module("debertz")
    stats = np.zeros(SN.NUM_STATS, dtype=np.int64)
    with RecordWriter(path) as out, tqdm(total=n, disable=not progress) as bar:
        for lo in range(first, first + n, HISTORY_BATCH):
            k = min(HISTORY_BATCH, first + n - lo)
            game = DebertzGame(rules, batch=k, seed=seed, first_game=lo)
            rng = np.array([rng_nb.stream(seed, lo + i, SN.POLICY_KEY) for i in range(k)],
                           dtype=np.uint64)
            running = np.ones(k, dtype=bool)
            decisions = np.zeros(k, dtype=np.int64)
            while running.any():
                play.batch_play_deal(game.state, R, rng, decisions, kinds, params)
                for i in np.flatnonzero(running):
                    out.write(deal_record(game, i))
                SN.batch_deal_stats(game.state, R, running, stats)
                if whole:
                    running &= game.state[:, L.PHASE] != L.PH_GAME_OVER
                else:
                    running[:] = False
                SN.batch_next_deal(game.state, R)
            stats[SN.S_DECISIONS] += decisions.sum()
            bar.update(k)
    return stats


def _barbu_history(rules, R, seed, first, n, whole, kinds, params, path, progress):
    from cardsim.barbu import layout as L
    from cardsim.barbu import simulate_nb as S
    from cardsim.barbu.record import deal_record, to_json_line

    play = play_module("barbu")
    stats = np.zeros(S.NUM_STATS, dtype=np.int64)
    with RecordWriter(path) as out, tqdm(total=n, disable=not progress) as bar:
        for lo in range(first, first + n, HISTORY_BATCH):
            k = min(HISTORY_BATCH, first + n - lo)
            batch = np.zeros((k, L.STATE_WIDTH), dtype=np.int64)
            rng = np.zeros(k, dtype=np.uint64)
            taken = np.zeros(k, dtype=np.int64)
            S.batch_init(batch, R, seed, lo, whole, rng)
            lines = [[] for _ in range(k)]
            for _ in range(L.DEALS_PER_MATCH if whole else 1):
                taken[:] = 0
                play.batch_play_deal(batch, R, rng, taken, kinds, params)
                stats[S.S_DECISIONS] += int(taken.sum())
                S.batch_deal_stats(batch, stats, whole)
                for i in range(k):
                    lines[i].append(to_json_line(deal_record(batch[i], rules, seed)))
                if whole:
                    S.batch_next_deal(batch, R)
            for row in lines:  # records in (game, deal) order
                for line in row:
                    out.write_line(line)
            bar.update(k)
    return stats
