"""``cardsim simulate`` (agents in every seat, a summary) and ``cardsim bench`` (the
engine's compiled random-play path timed)."""

from __future__ import annotations

from cardsim.games import GAMES
from experiments.cli.options import (count_of, executor_of, force_arg, make_rules, ray_arg,
                                     rules_args, seed_arg, threads_arg)
from experiments.runs.summary_text import print_summary


def add(sub) -> None:
    """Its subcommands and options."""
    sim = sub.add_parser("simulate", help="agents in every seat (default random); a summary")
    sim.add_argument("game", choices=GAMES)
    count = sim.add_mutually_exclusive_group()
    count.add_argument("--hands", type=count_of("simulate"),
                       help="play N deals, each a fresh game")
    count.add_argument("--games", type=count_of("simulate"),
                       help="play N whole games (matches)")
    sim.add_argument("--agents", nargs="+", default=["random"], metavar="AGENT",
                     help="one agent for all seats, one per side or one per seat")
    rules_args(sim)
    sim.add_argument("--seed", type=seed_arg, default=0)
    sim.add_argument("--threads", type=threads_arg, default=1)
    ray_arg(sim)
    sim.add_argument("--history", metavar="FILE", help="write every deal as a hand record")
    force_arg(sim, "--history")
    sim.add_argument("--json", action="store_true", help="print one JSON object")

    bench = sub.add_parser("bench", help="time the engine's compiled random-play path")
    bench.add_argument("game", choices=GAMES)
    bench.add_argument("--hands", type=count_of("simulate"), default=1_000_000)
    bench.add_argument("--threads", type=threads_arg, default=1)
    rules_args(bench)
    bench.add_argument("--json", action="store_true")


def run(args, progress) -> int:
    """Play the simulation or the benchmark of ``args`` and print its summary."""
    rules = make_rules(args.game, args.players, args.teams, args.rule)
    if args.command == "bench":
        result = rules.game.bench(rules, hands=args.hands, threads=args.threads)
        print_summary(result, args.json)
        return 0
    from experiments.runs.simulate import simulate

    summary = simulate(args.game, rules, agents=args.agents, seed=args.seed,
                       hands=args.hands, games=args.games, n_threads=args.threads,
                       history_path=args.history, progress=progress,
                       executor=executor_of(args), overwrite=args.force)
    print_summary(summary, args.json)
    return 0
