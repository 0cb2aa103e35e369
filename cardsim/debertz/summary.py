"""Debertz statistics as readable summaries (the engine's benchmark: cardsim.engine_bench).
Simulations with agents: ``experiments.runs.simulate``."""

from __future__ import annotations


import numpy as np

from cardsim.debertz import simulate_nb as SN
from cardsim.debertz.rules import DebertzRules


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


