"""``cardsim play``: a game in the terminal against agents."""

from __future__ import annotations

from cardsim.games import GAMES
from experiments.cli.options import (card_legend, make_rules, positive, rules_args, seat_agents,
                                     seed_arg)


def add(sub) -> None:
    """Its subcommand and options."""
    play = sub.add_parser("play", help="play a game in the terminal against agents")
    play.add_argument("game", choices=GAMES)
    play.add_argument("--agents", nargs="+", default=["heuristic"], metavar="AGENT",
                      help="the agents of the other seats: one for all, or one per other "
                           "seat in seat order (default heuristic)")
    play.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    rules_args(play)
    play.add_argument("--seed", type=seed_arg, default=0, help="fixes the deals")
    play.add_argument("--deals", type=positive, help="stop after N deals")
    play.add_argument("--delay", type=float, default=0.0,
                      help="seconds to wait after each agent's move (default 0)")
    play.epilog_source = card_legend


def run(args, progress) -> int:
    """Seat the person and the agents of ``args`` and play in the terminal."""
    from experiments.play.session import play_terminal

    rules = make_rules(args.game, args.players, args.teams, args.rule)
    agents = seat_agents(args.game, rules, args.agents, args.seat)
    play_terminal(args.game, rules, agents, args.seat, seed=args.seed, deals=args.deals,
                  delay=args.delay)
    return 0
