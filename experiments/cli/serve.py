"""``cardsim serve`` (the browser table) and ``cardsim load`` (many players at once
against it: requests, statuses, time per action, memory)."""

from __future__ import annotations

from experiments.cli.options import port_number, positive


def add(sub) -> None:
    """Its subcommands and options."""
    serve = sub.add_parser("serve", help="the browser table: play, replay, analyse")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1: this machine only; "
                            "any other needs --public)")
    serve.add_argument("--public", action="store_true",
                       help="allow a --host beyond this machine (a warning is printed)")
    serve.add_argument("--port", type=port_number, default=8000)
    serve.add_argument("--runs", default="runs", metavar="DIR",
                       help="run directories to list and read records from (default runs)")
    serve.add_argument("--records", action="append", default=[], metavar="DIR",
                       help="another directory whose hand-record files may be opened "
                            "(repeatable)")
    serve.add_argument("--store", metavar="FILE",
                       help="the games' SQLite file (default cardsim-games.sqlite3 beside "
                            "--runs): games in progress survive a restart")
    serve.add_argument("--max-games", type=positive, default=500, metavar="N",
                       help="games in progress at once (default 500); beyond, a new game "
                            "is refused (503) until one ends or is left idle")
    serve.add_argument("--idle-minutes", type=positive, default=24 * 60, metavar="M",
                       help="a game in progress left alone this long is dropped "
                            "(default 1440: a day)")

    load = sub.add_parser("load", help="many players at once against the browser table's "
                                       "server: requests, statuses, time per action, memory")
    load.add_argument("--url", help="a running cardsim serve (default: start one, warm it "
                                    "up, stop it at the end)")
    load.add_argument("--players", type=int, default=100, metavar="N",
                      help="players against --agent (default 100), at the tables in turn")
    load.add_argument("--slow", type=int, default=0, metavar="N",
                      help="more players, against --slow-agent (default 0)")
    load.add_argument("--agent", default="heuristic", help="the other seats (default "
                                                           "heuristic)")
    load.add_argument("--slow-agent", default="pimc",
                      help="the other seats of the --slow players (default pimc)")
    load.add_argument("--actions", type=positive, default=40, metavar="N",
                      help="moves per player (default 40)")
    load.add_argument("--seconds", type=float, default=300.0,
                      help="stop after this long at the latest (default 300)")
    load.add_argument("--think", type=float, default=1.0, metavar="SECONDS",
                      help="a player's mean wait between moves (default 1; 0: none)")
    load.add_argument("--ramp", type=float, default=5.0, metavar="SECONDS",
                      help="the players arrive over this long (default 5; 0: all at once)")
    load.add_argument("--bad", type=float, default=0.1,
                      help="share of bad requests (default 0.1)")
    load.add_argument("--seed", type=int, default=0)
    load.add_argument("--restart", action="store_true",
                      help="then kill the server (SIGKILL), start it again and read back "
                           "every game in progress")
    load.add_argument("--json", action="store_true")


def run(args, progress) -> int:
    """Serve the browser table, or put it under load."""
    if args.command == "load":
        from experiments.web.load import main as load_main

        return load_main(args)
    from experiments.web.app import serve

    serve(args.host, args.port, runs=args.runs, records=args.records, store=args.store,
          max_games=args.max_games, idle_seconds=args.idle_minutes * 60, public=args.public)
    return 0
