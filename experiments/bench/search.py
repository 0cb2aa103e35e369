"""Speed of the search parts of both games: hidden-card samples per second and open-hand
solve times, in positions of random play, on one core.

    python -m experiments.bench.search [--game debertz|barbu|both] [--positions N]
                                       [--samples K] [--nodes N]

Prints one line per position kind: samples/s of ``sample_nb.draw_deal`` (one thread), and the
median and 90th percentile of ``solve_nb.solve_root`` (every root card valued). Debertz
solves are exact. Barbu: per trick contract after 0, 4 and 8 tricks; solves after 8 tricks
are exact, earlier ones are far beyond an exact solve with four 13-card hands and use the
pimc agent's default budget (``--nodes`` per root card); ``--exact-after-4`` solves the
positions after 4 tricks exactly too (seconds to a minute each).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from cardsim.barbu import actions as BA
from cardsim.barbu import engine_nb as BE
from cardsim.barbu import layout as BL
from cardsim.barbu import solve_nb as BV
from cardsim.barbu.face_nb import GAME as BARBU
from cardsim.barbu.rules import BarbuRules
from cardsim.deal_split_nb import count_completions, new_ways
from cardsim.debertz import engine_nb as E
from cardsim.debertz import layout as L
from cardsim.debertz import solve_nb as V
from cardsim.debertz.face_nb import GAME as DEBERTZ
from cardsim.debertz.rules import DebertzRules
from cardsim.game_nb import turn
from cardsim.jit import NO_REFCOUNT, WITH_REFCOUNT
from cardsim.rng_nb import random_bit
from cardsim.sample_nb import draw_deal, knowledge, knowledge_width, scratch_size

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
    return R, _played_to(BE, BL, R, count, plays, seed, 54321 + seed, _barbu_random,
                         first=BA.CONTRACT + contract)


def positions(rules, count, plays, seed=1):
    """``count`` positions of random play with ``plays`` cards played in the first deal of a
    game (a list of state rows), and the packed rules."""
    R = rules.pack()
    return R, _played_to(E, L, R, count, plays, seed, 12345 + seed, _debertz_random)


def _debertz_random(st, R, rng):
    return random_bit(E.legal_mask(st, R), rng, 0)


def _barbu_random(st, R, rng):
    base, bits = BE.legal_mask(st, R)
    return base + random_bit(bits, rng, 0)


def _played_to(engine, layout, R, count, plays, seed, rng_seed, random_action, first=None):
    """The first ``count`` games of run ``seed`` of an engine (its module and state layout)
    whose first deal, played at random (``random_action(st, R, rng)``, the generator from
    ``rng_seed``; ``first``: an action taken first), reaches play with ``plays`` entries in
    its plays log: that state row of each."""
    rng = np.array([np.uint64(rng_seed)], dtype=np.uint64)
    out = []
    game = 0
    while len(out) < count:
        st = np.zeros(layout.STATE_WIDTH, dtype=np.int64)
        engine.init_game(st, R, seed, game)
        game += 1
        if first is not None:
            engine.step(st, R, first)
        while st[layout.PHASE] < layout.PH_DEAL_END:
            if st[layout.PHASE] == layout.PH_PLAY and st[layout.N_PLAYS] == plays:
                out.append(st.copy())
                break
            engine.step(st, R, random_action(st, R, rng))
    return out


@njit(cache=True, **WITH_REFCOUNT)
def draw_for_turns(game, states, R, count, rng):
    """``count`` deals of ``game`` (its tag) for the seat to act in each position; returns the
    draws taken. What is timed is the drawing (``sample_nb.draw_deal``): the knowledge row
    and its counts are made once per position into buffers reused from one to the next, and
    no deal is written out as a state row."""
    kn = np.zeros(knowledge_width(game), dtype=np.int64)
    held = np.zeros(4, dtype=np.int64)
    buf = np.empty(scratch_size(game), dtype=np.int64)
    return draw_into(game, states, R, count, rng, kn, new_ways(), held, buf)


# Without reference counting (cardsim.jit): with it, each draw through the tag's pieces paid
# atomic count updates on the arrays it is handed (measured: 10-45% more time per draw).
@njit(cache=True, **NO_REFCOUNT)
def draw_into(game, states, R, count, rng, kn, ways, held, buf):
    """``draw_for_turns``' loop, with its buffers given."""
    draws = 0
    for g in range(states.shape[0]):
        knowledge(game, states[g], R, turn(game, states[g]), kn)
        count_completions(kn, ways)
        for _ in range(count):
            draws += draw_deal(game, states[g], R, kn, ways, rng, 0, held, buf)
    return draws


def draw_many(states, R, count, rng):
    """``draw_for_turns`` in Debertz positions."""
    return draw_for_turns(DEBERTZ, states, R, count, rng)


def barbu_draw_many(states, R, count, rng):
    """``draw_for_turns`` in Barbu positions."""
    return draw_for_turns(BARBU, states, R, count, rng)


def barbu_main(args):
    """Print Barbu's figures: samples per second in No Tricks, No Hearts, Trumps and Domino after
    0, 4 and 8 tricks (Domino: plays), then solve times in every trick contract (exact after 8
    tricks, and after 4 with ``args.exact_after_4``; else ``args.nodes`` per root card; max-n or
    paranoid by ``args.maxn``)."""
    rng = np.ones(1, dtype=np.uint64)
    rules = BarbuRules()
    print("Barbu samples/s (seat to act, one thread):", flush=True)
    for contract in (BA.NO_TRICKS, BA.NO_HEARTS, BA.TRUMPS, BA.DOMINO):
        for tricks in (0, 4, 8):
            R, P = barbu_positions(rules, args.positions, contract, 4 * tricks, seed=tricks)
            P = np.array(P)
            barbu_draw_many(P[:1], R, 1, rng)  # compile outside the timing
            t = time.perf_counter()
            barbu_draw_many(P, R, args.samples, rng)
            rate = len(P) * args.samples / (time.perf_counter() - t)
            what = "plays" if contract == BA.DOMINO else "tricks"
            print(f"  {BA.CONTRACT_NAMES[contract]:12s} after {tricks} {what:6s} "
                  f"samples/s {rate:>10,.0f}", flush=True)
    model = "max-n" if args.maxn else "paranoid"
    print(f"Barbu solve_root ms, {model}, all root cards (exact after 8 tricks, else "
          f"{args.nodes} nodes per root card):", flush=True)
    tt = BV.solver_table()
    pos = np.zeros(BV.POSITION_WIDTH, dtype=np.int64)
    values = np.zeros(52, dtype=np.int64)
    for contract in range(BA.NUM_CONTRACTS):
        if contract == BA.DOMINO:
            continue  # played out by rollouts, not solved
        line = f"  {BA.CONTRACT_NAMES[contract]:12s}"
        for tricks in (0, 4, 8):
            exact = tricks == 8 or (tricks == 4 and args.exact_after_4)
            R, P = barbu_positions(rules, args.positions + 1, contract, 4 * tricks, seed=tricks)
            times = []
            for st in P:
                BV.position_of(st, R, st[BL.TURN], pos)
                pos[BV.P_BUDGET] = 0 if exact else args.nodes
                pos[BV.P_MAXN] = args.maxn
                t = time.perf_counter()
                BV.solve_root(pos, tt, values)
                times.append((time.perf_counter() - t) * 1000)
            times = np.array(times[1:])  # the first solve compiles
            line += (f"  after {tricks}{'' if exact else ' (budget)'}: median "
                     f"{np.median(times):.1f} p90 {np.percentile(times, 90):.1f}")
        print(line, flush=True)


def main(argv=None):
    """Run the benchmark of the module docstring for ``--game`` (options from ``argv``) and print
    one line per kind of position."""
    ap = argparse.ArgumentParser(prog="python -m experiments.bench.search",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=("debertz", "barbu", "both"), default="both")
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--samples", type=int, default=2000, help="samples per position")
    ap.add_argument("--nodes", type=int, default=20000,
                    help="Barbu: node budget per root card before 8 tricks")
    ap.add_argument("--exact-after-4", action="store_true",
                    help="Barbu: solve the positions after 4 tricks exactly")
    ap.add_argument("--maxn", type=int, choices=(0, 1), default=1,
                    help="Barbu: 1 solves max-n (pimc's default), 0 paranoid")
    args = ap.parse_args(argv)
    if args.game in ("barbu", "both"):
        barbu_main(args)
    if args.game == "barbu":
        return
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
