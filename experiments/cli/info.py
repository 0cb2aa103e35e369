"""What cardsim holds: ``cardsim rules`` (a game's conventions), ``cardsim agents`` (a
table's presets, then every agent), ``cardsim models`` (the model zoo) and ``cardsim
leaderboard`` (each table's ladder, kept as data)."""

from __future__ import annotations

from cardsim.games import GAMES
from experiments.cli.options import make_rules


def add(sub) -> None:
    """Its subcommands and options."""
    q = sub.add_parser("rules", help="list a game's conventions")
    q.add_argument("game", choices=GAMES)
    q = sub.add_parser("agents", help="a table's presets (spec, strength against pimc, cost), "
                                      "then every agent and its options")
    q.add_argument("game", choices=GAMES)
    q.add_argument("--players", type=int, choices=(2, 3, 4), help="Debertz: players (default 2)")
    q.add_argument("--teams", action="store_true", help="Debertz: 2 against 2")
    q = sub.add_parser("models", help="the model zoo: the shipped networks and their cards")
    q.add_argument("name", nargs="?", help="a network: show its model card")
    q.add_argument("--json", action="store_true")
    q = sub.add_parser("leaderboard", help="each table's ladder standings, from the kept "
                                           "results; --run reruns a ladder")
    q.add_argument("tables", nargs="*", metavar="TABLE",
                   help="debertz-2p, debertz-3p, debertz-4p, debertz-2v2, barbu (default all)")
    q.add_argument("--run", action="store_true",
                   help="run the tables' ladders (configs/ladder_*.yaml), keep their results "
                        "and rewrite the pages")
    q.add_argument("--ingest", nargs="+", metavar="RUN_DIR",
                   help="keep finished ladder runs' results and rewrite the pages")
    q.add_argument("--cost", action="store_true",
                   help="measure every kept agent's µs a decision again on this machine "
                        "(in turns, 5 rounds, medians) and rewrite the pages")
    q.add_argument("--write", action="store_true",
                   help="rewrite the pages and model cards from the kept results")
    q.add_argument("--check", action="store_true",
                   help="exit 1 where a page or card differs from the kept results")
    q.add_argument("--json", action="store_true")


def run(args, progress) -> int:
    """Print what ``args.command`` lists."""
    if args.command == "rules":
        from cardsim import games

        print(games.get(args.game).rules_cls.describe())
    elif args.command == "agents":
        from agents.presets import table_of
        from agents.registry import describe_agents
        from experiments.tournaments.leaderboard import describe_presets

        rules = make_rules(args.game, args.players, args.teams)
        print(describe_presets(table_of(args.game, rules)) + "\n")
        print(describe_agents(args.game))
    elif args.command == "models":
        from experiments.tournaments.models import main as models_main

        return models_main(args)
    else:
        from experiments.tournaments.leaderboard import main as leaderboard_main

        return leaderboard_main(args)
    return 0
