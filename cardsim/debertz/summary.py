"""Debertz statistics as readable summaries, and the benchmark of the engine's compiled
random-play fast path (``simulate_nb``). Simulations with agents: ``experiments.runs.simulate``."""

from __future__ import annotations

import time

import numpy as np

from cardsim.debertz import simulate_nb as SN
from cardsim.debertz.rules import DebertzRules
from cardsim.runtime import blocks_for, peak_memory_mb
from cardsim.runtime import threads as threads_for_run


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


def bench(rules: DebertzRules, hands: int = 1_000_000, threads: int = 1, seed: int = 0) -> dict:
    """Time the compiled random-play path over ``hands`` deals."""
    R = rules.pack()
    with threads_for_run(threads):
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
