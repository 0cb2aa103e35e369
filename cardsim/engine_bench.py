"""``cardsim bench``: the engine's compiled random-play path timed, for either game, against
its yardstick (cardsim.reference_nb: a minimal play-only loop of the same game, timed
alternately in the same run)."""

from __future__ import annotations

import time

from cardsim.errors import InvalidConfigError
from cardsim.random_play_nb import simulate_random
from cardsim.reference_nb import alternate, reference_deals
from cardsim.runtime import blocks_for, peak_memory_mb
from cardsim.runtime import threads as threads_for_run


def bench(game, rules, hands: int, threads: int, seed: int = 0) -> dict:
    """Deals per second of ``game``'s random play (every deal a fresh game, every decision
    random) under ``rules`` on ``threads`` numba threads, and of its play-only reference;
    ``engine_vs_reference``: the engine's rate as a share of the reference's.
    ``compile_s``: the first calls (compiling, or loading numba's cache);
    ``peak_memory_mb``: the process's peak resident set size."""
    if type(hands) is not int or hands <= 0:
        raise InvalidConfigError(f"hands must be a positive integer, got {hands!r}")
    R = rules.pack()
    players = game.players(rules)
    teams = bool(getattr(rules, "teams", False))
    decisions = game.stats.S_DECISIONS
    counted = [0, 0]  # deals and decisions the engine played

    def engine(first: int, n: int) -> None:
        stats = simulate_random(game.tag, R, seed, first, n, False, game.num_stats,
                                blocks_for(n, threads))
        counted[0] += n
        counted[1] += int(stats[decisions])

    def reference(first: int, n: int) -> None:
        reference_deals(game.name, players, teams, first, n, blocks_for(n, threads), seed)

    with threads_for_run(threads):
        t0 = time.perf_counter()
        engine(0, 1)
        reference(0, 1)
        compile_s = time.perf_counter() - t0
        counted[:] = [0, 0]
        engine_s, reference_s = alternate(engine, reference, hands)
    return {
        "game": game.name,
        "players": players,
        "teams": teams,
        "hands": counted[0],
        "threads": threads,
        "seconds": round(engine_s, 3),
        "hands_per_s": round(hands / engine_s),
        "decisions_per_s": round(counted[1] / engine_s),
        "reference_hands_per_s": round(hands / reference_s),
        "engine_vs_reference": round(reference_s / engine_s, 3),
        "compile_s": round(compile_s, 3),
        "peak_memory_mb": round(peak_memory_mb(), 1),
    }
