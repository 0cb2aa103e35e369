"""Microseconds per decision of agents on one core, over the same positions.

    python -m experiments.tournaments.decision_cost --game debertz --players 2 \\
        --agents heuristic pimc:samples=16 neural:checkpoint=debertz-2p [--deals 12]
        [--seed 5001] [--rounds 3] [--json]

The positions are every decision with two or more legal actions of ``--deals`` deals of
random play (bids or contracts, doubles, the swap, card play at every trick:
``experiments.tournaments.strength_cost.decision_positions``). A compiled agent decides them
one at a time, as the table calls its policy. A Python agent (a network, ``pimc:beliefs=``) is timed
twice: one position per call (its latency for a single game, observation included) and all
the positions in one call (what a decision costs in a tournament, where the table asks it
for many games at once); it gets the observations with their engine rows, as at the table.
numba and torch run on one thread. With ``--rounds N`` every agent is timed N times, the
agents taking turns round after round, and each keeps its median: a machine whose speed swings
within minutes then slows every agent alike, and the ratios between them hold.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from agents.registry import make_agent
from cardsim import game_nb as G
from cardsim import games
from cardsim.games import Game
from cardsim.table import is_compiled
from experiments.tournaments.strength_cost import decision_positions, observed_positions


def compiled_us(agent, game: Game, R, states) -> float:
    """Mean microseconds of the compiled agent's decision over ``states``."""
    from agents.policies import SEARCH_POLICIES
    from cardsim.policy_nb import RANDOM

    tag = game.tag
    legal = [G.legal(tag, st, R) for st in states]
    rng = np.ones(1, dtype=np.uint64)
    params = agent.params
    if agent.kind == RANDOM:
        from cardsim.rng_nb import random_bit

        def decide(st, base, bits):
            return base + random_bit(bits, rng, 0)
    else:
        policy = next(p for p in SEARCH_POLICIES.policies if p.kind == agent.kind)
        act = policy.function(game.name)

        def decide(st, base, bits):
            return act(tag, params, st, R, base, bits, rng, 0)
    decide(states[0], *legal[0])  # compiled before the clock starts
    t = time.perf_counter()
    for st, (base, bits) in zip(states, legal):
        decide(st, base, bits)
    return (time.perf_counter() - t) * 1e6 / len(states)


def network_us(agent, kit: Game, R, states) -> tuple[float, float]:
    """A Python agent's microseconds per decision: one position per call (observation
    included), and per position of one call with them all."""
    from cardsim import rng_nb
    from cardsim.table import EngineRows, Observations

    tag = kit.tag
    rows = np.array(states)
    rng = np.array([rng_nb.stream(5, i, 0) for i in range(len(states))], dtype=np.uint64)
    obs = np.zeros((len(states), kit.obs_size), dtype=np.float32)

    def seen(lo, hi):  # what the table gives a Python agent: vectors and engine rows
        view = obs[lo:hi].view(Observations)
        view.engine = EngineRows(tag, rows, R, rng, np.arange(lo, hi, dtype=np.int64))
        return view

    legal = observed_positions(kit, R, states)[1]
    for i, st in enumerate(states):
        G.observe(tag, st, R, kit.turn(st), obs[i])
    # warmed up on every position: a path that only some positions take (a search's
    # kernels, a belief network's first forward) loads or compiles here, not in the timing
    agent.act(seen(0, len(states)), legal)
    t = time.perf_counter()
    for i, st in enumerate(states):
        G.observe(tag, st, R, kit.turn(st), obs[i])
        agent.act(seen(i, i + 1), legal[i:i + 1])
    single = (time.perf_counter() - t) * 1e6 / len(states)
    t = time.perf_counter()
    agent.act(seen(0, len(states)), legal)
    batched = (time.perf_counter() - t) * 1e6 / len(states)
    return single, batched


def measure(game: str, rules, specs: list[str], deals: int = 12, seed: int = 5001,
            rounds: int = 1) -> list[dict]:
    """One row per agent: its microseconds per decision (and a network's batched cost), the
    median of ``rounds`` timings taken in turns."""
    import numba

    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        import torch
    except ImportError:
        torch = None
    torch_threads = torch.get_num_threads() if torch else None
    if torch:
        torch.set_num_threads(1)
    try:
        states = decision_positions(rules.game, rules.pack(), deals, seed)
        rows = _rows(game, rules, specs, states, rounds)
    finally:  # the caller's thread counts back
        numba.set_num_threads(threads)
        if torch:
            torch.set_num_threads(torch_threads)
    for r in rows:
        r["positions"] = len(states)
        r["rounds"] = rounds
    return rows


def _rows(game: str, rules, specs: list[str], states, rounds: int) -> list[dict]:
    R = rules.pack()
    agents = [make_agent(spec, game, rules) for spec in specs]
    timings = [[] for _ in agents]  # per agent: (single, batched or None) of each round
    for _ in range(rounds):
        for agent, times in zip(agents, timings):
            if is_compiled(agent):
                times.append((compiled_us(agent, rules.game, R, states), None))
            else:
                times.append(network_us(agent, rules.game, R, states))
    rows = []
    for agent, times in zip(agents, timings):
        row = {"agent": agent.label, "us_per_decision": _median([t[0] for t in times])}
        if times[0][1] is not None:
            row["us_per_decision_batched"] = _median([t[1] for t in times])
        rows.append(row)
    return rows


def _median(values: list[float]) -> float:
    return float(np.median(values))


def main(argv=None) -> None:
    """Time each agent of ``--agents`` over the positions of ``--deals`` deals (options from
    ``argv``) and print microseconds per decision, one line per agent (a JSON list with
    ``--json``)."""
    ap = argparse.ArgumentParser(prog="python -m experiments.tournaments.decision_cost",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--game", default=games.GAMES[0], choices=games.GAMES)
    ap.add_argument("--players", type=int, help="a game with several table sizes: the seats")
    ap.add_argument("--teams", action="store_true", help="2 against 2, where the game has teams")
    ap.add_argument("--agents", nargs="+", required=True)
    ap.add_argument("--deals", type=int, default=12)
    ap.add_argument("--seed", type=int, default=5001)
    ap.add_argument("--rounds", type=int, default=1,
                    help="time every agent this many times, in turns; each keeps its median")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    kit = games.get(args.game)
    table = {}
    if len(kit.player_counts) > 1:
        table = {"players": args.players or min(kit.player_counts), "teams": args.teams}
    rules = kit.make_rules(conventions=table)
    if args.rounds < 1:
        ap.error(f"--rounds must be 1 or more, got {args.rounds}")
    rows = measure(args.game, rules, args.agents, args.deals, args.seed, args.rounds)
    if args.json:
        print(json.dumps(rows))
        return
    where = ", ".join(f"{k}={v}" for k, v in table.items() if v is not False)
    print(f"{kit.title}{f' ({where})' if where else ''}: {rows[0]['positions']} positions, "
          f"one core" + (f", median of {args.rounds} rounds" if args.rounds > 1 else ""))
    for r in rows:
        batched = (f"   {r['us_per_decision_batched']:10.1f} us batched"
                   if "us_per_decision_batched" in r else "")
        print(f"{r['agent']:40s} {r['us_per_decision']:12.1f} us/decision{batched}")


if __name__ == "__main__":
    main()
