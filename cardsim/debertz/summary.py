"""Random-play simulation and benchmark of Debertz, as summaries the command line prints.

The statistics come from the compiled fast path (``simulate_nb``); with a history file the
same games are played in batches so that each deal can be written as a hand record, and the
summary is identical either way.
"""

from __future__ import annotations

import time

import numpy as np
from tqdm import tqdm

from cardsim import rng_nb
from cardsim.debertz import simulate_nb as SN
from cardsim.debertz.game import DebertzGame
from cardsim.debertz.record import deal_record
from cardsim.debertz.rules import DebertzRules
from cardsim.errors import InvalidConfigError
from cardsim.records import RecordWriter
from cardsim.runtime import blocks_for, peak_memory_mb, set_threads

HISTORY_BATCH = 2048


def summarize(stats: np.ndarray, rules: DebertzRules, seconds: float) -> dict:
    """A readable summary of the S_* statistics of a run."""
    played = max(int(stats[SN.S_PLAYED]), 1)
    sides = rules.sides
    out = {
        "game": "debertz",
        "rules_hash": rules.rules_hash(),
        "deals": int(stats[SN.S_DEALS]),
        "played_deals": int(stats[SN.S_PLAYED]),
        "void_deals": int(stats[SN.S_VOID]),
        "games_finished": int(stats[SN.S_GAMES]),
        "seconds": round(seconds, 3),
        "deals_per_s": round(stats[SN.S_DEALS] / seconds) if seconds > 0 else None,
        "decisions": int(stats[SN.S_DECISIONS]),
        "mean_round_points": [round(stats[SN.S_RP + s] / played, 3) for s in range(sides)],
        "mean_bidder_round_points": round(stats[SN.S_BIDDER_POINTS] / played, 3),
        "byte_rate": round(stats[SN.S_BYTE] / played, 5),
        "hanging_byte_rate": round(stats[SN.S_HANGING] / played, 5),
        "meld_frequency": {
            "terz": round(stats[SN.S_TERZ] / played, 5),
            "fifty": round(stats[SN.S_FIFTY] / played, 5),
            "debertz": round(stats[SN.S_DEBERTZ] / max(int(stats[SN.S_DEALS]), 1), 6),
            "bella": round(stats[SN.S_BELLA] / played, 5),
        },
        "points_endings": int(stats[SN.S_POINTS_END]),
        "wins_per_side": [int(stats[SN.S_WINS + s]) for s in range(sides)],
    }
    return out


def _check_counts(hands, games) -> tuple[int, bool]:
    if (hands is None) == (games is None):
        raise InvalidConfigError("give exactly one of hands (deals) or games")
    n = hands if hands is not None else games
    if not isinstance(n, int) or n < 1:
        raise InvalidConfigError(f"the number of hands or games must be a positive integer, got {n!r}")
    return n, games is not None


def simulate(rules: DebertzRules, seed: int = 0, hands: int | None = None,
             games: int | None = None, threads: int = 1, history_path=None,
             progress: bool = False) -> dict:
    """Random play for every seat: ``hands`` deals (each a fresh game) or ``games`` whole
    games. Returns the summary; writes hand records to ``history_path`` if given."""
    n, whole = _check_counts(hands, games)
    set_threads(threads)
    R = rules.pack()
    t0 = time.perf_counter()
    if history_path is None:
        stats = np.zeros(SN.NUM_STATS, dtype=np.int64)
        chunk = max(1, min(n, 1 << 18))
        with tqdm(total=n, disable=not progress, unit="game" if whole else "deal") as bar:
            for lo in range(0, n, chunk):
                k = min(chunk, n - lo)
                stats += SN.simulate_random(R, seed, lo, k, whole, blocks_for(k, threads))
                bar.update(k)
    else:
        stats = _simulate_with_history(rules, seed, n, whole, history_path, progress)
    return summarize(stats, rules, time.perf_counter() - t0)


def _simulate_with_history(rules, seed, n, whole, path, progress) -> np.ndarray:
    """The same games as the fast path, in batches, writing every deal as a record."""
    stats = np.zeros(SN.NUM_STATS, dtype=np.int64)
    with RecordWriter(path) as out, tqdm(total=n, disable=not progress) as bar:
        for lo in range(0, n, HISTORY_BATCH):
            k = min(HISTORY_BATCH, n - lo)
            game = DebertzGame(rules, batch=k, seed=seed, first_game=lo)
            rng = np.array([rng_nb.stream(seed, lo + i, SN.POLICY_KEY) for i in range(k)],
                           dtype=np.uint64)
            running = np.ones(k, dtype=bool)
            decisions = np.zeros(k, dtype=np.int64)
            while running.any():
                SN.batch_random_deal(game.state, game.R, rng, decisions)
                for i in np.flatnonzero(running):
                    out.write(deal_record(game, i))
                SN.batch_deal_stats(game.state, game.R, running, stats)
                if whole:
                    running &= game.state[:, SN.L.PHASE] != SN.L.PH_GAME_OVER
                else:
                    running[:] = False
                SN.batch_next_deal(game.state, game.R)
            stats[SN.S_DECISIONS] += decisions.sum()
            bar.update(k)
    return stats


def bench(rules: DebertzRules, hands: int = 1_000_000, threads: int = 1, seed: int = 0) -> dict:
    """Time the compiled random-play path over ``hands`` deals."""
    set_threads(threads)
    R = rules.pack()
    t0 = time.perf_counter()
    SN.simulate_random(R, seed, 0, 1, False, 1)  # compiles, or loads the cache
    compile_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    stats = SN.simulate_random(R, seed, 0, hands, False, blocks_for(hands, threads))
    seconds = time.perf_counter() - t0
    return {
        "game": "debertz",
        "players": rules.players,
        "teams": rules.teams,
        "hands": hands,
        "threads": threads,
        "seconds": round(seconds, 3),
        "hands_per_s": round(hands / seconds),
        "decisions_per_s": round(int(stats[SN.S_DECISIONS]) / seconds),
        "compile_s": round(compile_s, 3),
        "peak_memory_mb": round(peak_memory_mb(), 1),
    }
