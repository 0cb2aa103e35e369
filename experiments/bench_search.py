"""Speed of the Debertz search parts: hidden-card samples per second and open-hand solve
times, in positions of random play, on one core.

    python -m experiments.bench_search [--positions N] [--samples K]

Prints one line per position kind: samples/s of ``sample_nb.draw_deal`` (one thread), and the
median and 90th percentile of ``solve_nb.solve_root`` (every root card valued, exact).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from cardsim.barbu import actions as BA
from cardsim.barbu import engine_nb as BE
from cardsim.barbu import layout as BL
from cardsim.debertz import engine_nb as E
from cardsim.debertz import layout as L
from cardsim.debertz import sample_nb as S
from cardsim.debertz import solve_nb as V
from cardsim.debertz.rules import DebertzRules
from cardsim.rng_nb import random_bit

CASES = (  # (label, rules, cards played in the deal)
    ("4 players, 2v2, first trick", dict(players=4, teams=True), 0),
    ("4 players, 2v2, after two tricks", dict(players=4, teams=True), 8),
    ("4 players, first trick", dict(players=4), 0),
    ("4 players, after two tricks", dict(players=4), 8),
    ("3 players, first trick", dict(players=3), 0),
    ("2 players, first trick", dict(players=2), 0),
    ("2 players, after two tricks", dict(players=2), 4),
    ("4 players, 2v2, mid-round", dict(players=4, teams=True), 13),
)


def barbu_positions(rules, count, contract, plays, seed=1):
    """``count`` Barbu positions of random play (random trump or starting rank, doubles and
    cards) with ``plays`` entries in the plays log (cards, and Domino passes) in the first
    deal of a match, the contract forced (a list of state rows), and the packed rules."""
    R = rules.pack()
    rng = np.array([np.uint64(54321 + seed)], dtype=np.uint64)
    out = []
    game = 0
    while len(out) < count:
        st = np.zeros(BL.STATE_WIDTH, dtype=np.int64)
        BE.init_game(st, R, seed, game)
        game += 1
        BE.step(st, R, BA.CONTRACT + contract)
        while st[BL.PHASE] < BL.PH_DEAL_END:
            if st[BL.PHASE] == BL.PH_PLAY and st[BL.N_PLAYS] == plays:
                out.append(st.copy())
                break
            base, bits = BE.legal_mask(st, R)
            BE.step(st, R, base + random_bit(bits, rng, 0))
    return R, out


def positions(rules, count, plays, seed=1):
    """``count`` positions of random play with ``plays`` cards played in the first deal of a
    game (a list of state rows), and the packed rules."""
    R = rules.pack()
    rng = np.array([np.uint64(12345 + seed)], dtype=np.uint64)
    out = []
    game = 0
    while len(out) < count:
        st = np.zeros(L.STATE_WIDTH, dtype=np.int64)
        E.init_game(st, R, seed, game)
        game += 1
        while st[L.PHASE] < L.PH_DEAL_END:
            if st[L.PHASE] == L.PH_PLAY and st[L.N_PLAYS] == plays:
                out.append(st.copy())
                break
            E.step(st, R, random_bit(E.legal_mask(st, R), rng, 0))
    return R, out


@njit(cache=True)
def draw_many(states, R, count, rng):
    """``count`` deals for the seat to act in each position; returns the draws taken."""
    kn = np.zeros(S.KNOWLEDGE_WIDTH, dtype=np.int64)
    ways = S.new_ways()
    held = np.zeros(4, dtype=np.int64)
    buf = np.empty(32, dtype=np.int64)
    draws = 0
    for g in range(states.shape[0]):
        S.knowledge(states[g], R, states[g, L.TURN], kn)
        S.count_completions(kn, ways)
        for _ in range(count):
            draws += S.draw_deal(states[g], R, kn, ways, rng, 0, held, buf)
    return draws


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--samples", type=int, default=2000, help="samples per position")
    args = ap.parse_args(argv)
    tt = V.new_table()
    pos = np.zeros(V.POSITION_WIDTH, dtype=np.int64)
    values = np.zeros(32, dtype=np.int64)
    rng = np.ones(1, dtype=np.uint64)
    for label, kw, plays in CASES:
        R, P = positions(DebertzRules(**kw), args.positions, plays)
        P = np.array(P)
        draw_many(P[:1], R, 1, rng)  # compile outside the timing
        t = time.perf_counter()
        draws = draw_many(P, R, args.samples, rng)
        rate = len(P) * args.samples / (time.perf_counter() - t)
        times = []
        for st in P:
            V.position_of(st, R, E.side_of(st[L.TURN], R[L.R_TEAMS]), pos)
            t = time.perf_counter()
            V.solve_root(pos, tt, values)
            times.append((time.perf_counter() - t) * 1000)
        times = np.array(times[1:])  # the first solve compiles
        print(f"{label:34s} samples/s {rate:>10,.0f} (draws per sample "
              f"{draws / (len(P) * args.samples):.2f})  solve ms: median "
              f"{np.median(times):.2f}  p90 {np.percentile(times, 90):.2f}", flush=True)


if __name__ == "__main__":
    main()
