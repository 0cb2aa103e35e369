"""``cardsim tournament``: agents compared on duplicate deals, paired intervals."""

from __future__ import annotations

from cardsim.games import GAMES
from experiments.cli.options import (count_of, executor_of, force_arg, make_rules, ray_arg,
                                     rules_args, seed_arg, threads_arg)
from experiments.runs.files import dumps_json


def add(sub) -> None:
    """Its subcommand and options."""
    tour = sub.add_parser("tournament", help="compare agents on duplicate deals")
    tour.add_argument("game", choices=GAMES)
    tour.add_argument("--agents", nargs="+", required=True, metavar="AGENT")
    tcount = tour.add_mutually_exclusive_group()
    tcount.add_argument("--deals", type=count_of("tournament"),
                        help="N duplicate deals (default 10000)")
    tcount.add_argument("--games", type=count_of("tournament"),
                        help="N duplicate whole games / matches")
    tour.add_argument("--no-duplicate", action="store_true",
                      help="play each deal once, seats assigned in turn, instead of rotating")
    tour.add_argument("--by-contract", action="store_true",
                      help="Barbu: deal i plays contract i %% 7; results per contract")
    rules_args(tour)
    tour.add_argument("--seed", type=seed_arg, default=0)
    tour.add_argument("--threads", type=threads_arg, default=1)
    ray_arg(tour)
    tour.add_argument("--json", action="store_true")
    tour.add_argument("--per-deal", metavar="FILE.npy",
                      help="write every deal's result to a NumPy file "
                           "(experiments.tournaments.per_deal)")
    force_arg(tour, "--per-deal")


def run(args, progress) -> int:
    """Play the tournament of ``args`` and print its table (or JSON)."""
    from experiments.tournaments.tournament import format_table, tournament

    rules = make_rules(args.game, args.players, args.teams, args.rule)
    result = tournament(args.game, rules, args.agents, deals=args.deals, games=args.games,
                        duplicate=not args.no_duplicate, seed=args.seed,
                        n_threads=args.threads, progress=progress,
                        by_contract=args.by_contract, per_deal=args.per_deal,
                        executor=executor_of(args), overwrite=args.force)
    print(dumps_json(result) if args.json else format_table(result))
    return 0
