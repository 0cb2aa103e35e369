"""The ``cardsim`` command line.

    cardsim simulate GAME [--games N | --hands N] [--agents A [B ...]] [--players P] [--teams]
                          [--rule NAME=VALUE]... [--seed S] [--threads T | --ray [ADDRESS]]
                          [--history FILE [--force]] [--json]
    cardsim bench GAME [--hands N] [--threads T] [--players P] [--teams] [--json]
    cardsim tournament GAME --agents A B [C ...] [--deals N | --games N] [--no-duplicate]
                          [--by-contract] [--per-deal FILE.npy [--force]]
                          [--rule NAME=VALUE]... [--seed S] [--threads T | --ray [ADDRESS]]
                          [--json]
    cardsim study GAME --rule NAME=V1,V2[,...] [--rule NAME=V ...] [--agents A [B ...]]
                          [--skill STRONG WEAK | --no-skill] [--deals N | --games N] [--players P]
                          [--teams] [--seed S] [--threads T] [--per-deal] [--out DIR] [--json]
    cardsim run CONFIG.yaml [--out DIR] | cardsim run --resume RUN_DIR    [--ray [ADDRESS]]
    cardsim train CONFIG.yaml|RECIPE.yaml [--out DIR] [--set KEY=VALUE]... [--scale F]
                          | cardsim train --resume RUN_DIR  [--ray [ADDRESS]]
                          (a recipe whose stage fails its gate exits with status 3)
    cardsim play GAME [--agents A [B ...]] [--seat S] [--players P] [--teams]
                          [--rule NAME=VALUE]... [--seed S] [--deals N] [--delay SECONDS]
    cardsim serve [--host 127.0.0.1 [--public]] [--port 8000] [--runs DIR] [--records DIR]...
                          [--store FILE] [--max-games N] [--idle-minutes M]
    cardsim load [--url URL] [--players N] [--slow N] [--agent A] [--slow-agent A]
                          [--actions N] [--seconds S] [--think SECONDS] [--ramp SECONDS]
                          [--bad SHARE] [--restart] [--json]
    cardsim rules GAME        (every convention with its default)
    cardsim agents GAME [--players P] [--teams]   (the table's presets, then every agent)
    cardsim models [NAME] [--json]                (the model zoo; a network's card)
    cardsim leaderboard [TABLE ...] [--run | --ingest RUN_DIR ... | --cost | --write | --check]
    cardsim --version

GAME is debertz or barbu. An agent is one argument, ``name`` or ``name:key=value,key=value``
(see agents.registry); several agents are several arguments. Errors in arguments print one
line and exit with status 2 (``--debug``: with the traceback).

``--ray`` plays the chunks as tasks on a Ray cluster (experiments.runs.executor): ``--ray`` alone
joins the local Ray instance or starts one, ``--ray auto`` the cluster this machine belongs
to, ``--ray HOST:PORT`` the head at that address. Results are the same as a local run's.
"""

from __future__ import annotations

import argparse
import os
import sys

from cardsim.games import GAMES
from experiments.runs.files import dumps_json
from experiments.runs.progress import progress_mode
from experiments.runs.summary_text import print_summary


class ArgumentError(Exception):
    """A bad command-line argument (reported in one line, exit status 2)."""


class _Parser(argparse.ArgumentParser):
    # a function giving the help's closing text, called only when help is shown (its
    # imports cost nothing to the other commands)
    epilog_source = None

    def error(self, message):  # one clear line instead of usage + message
        raise ArgumentError(message)

    def format_help(self):
        if self.epilog_source is not None:
            self.epilog = self.epilog_source()
        return super().format_help()


def _card_legend() -> str:
    from experiments.play.session import card_legend

    return card_legend(None)


def _positive(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {v}")
    return v


def _port(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= v <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0..65535, got {v}")
    return v


def _threads(text: str) -> int:
    from experiments.runs.limits import MAX_THREADS

    v = _positive(text)
    if v > MAX_THREADS:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_THREADS}, got {v}")
    return v


def _count_of(kind: str):
    """An argparse type: a positive count of deals or games within the limit of ``kind``."""
    def count(text: str) -> int:
        from cardsim.errors import InvalidConfigError
        from experiments.runs.limits import check_count

        v = _positive(text)
        try:
            return check_count("the count", v, kind)
        except InvalidConfigError as e:
            raise argparse.ArgumentTypeError(str(e).replace("the count = ", "")) from None
    return count


def _seed(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if not 0 <= v < 2**63:
        raise argparse.ArgumentTypeError(f"must be in 0..2**63-1, got {v}")
    return v


def build_parser() -> argparse.ArgumentParser:
    """The ``cardsim`` command line's argument parser: one subcommand per job (simulate, bench,
    tournament, run, train, rules, agents), each with its options and help."""
    p = _Parser(prog="cardsim", description="Simulate, benchmark and compare agents in "
                                            "Debertz and Barbu.")
    p.add_argument("--version", action="version", version=f"cardsim {_version()}")
    _debug_arg(p, False)
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    sim = sub.add_parser("simulate", help="agents in every seat (default random); a summary")
    sim.add_argument("game", choices=GAMES)
    count = sim.add_mutually_exclusive_group()
    count.add_argument("--hands", type=_count_of("simulate"),
                       help="play N deals, each a fresh game")
    count.add_argument("--games", type=_count_of("simulate"),
                       help="play N whole games (matches)")
    sim.add_argument("--agents", nargs="+", default=["random"], metavar="AGENT",
                     help="one agent for all seats, one per side or one per seat")
    _rules_args(sim)
    sim.add_argument("--seed", type=_seed, default=0)
    sim.add_argument("--threads", type=_threads, default=1)
    _ray_arg(sim)
    sim.add_argument("--history", metavar="FILE", help="write every deal as a hand record")
    _force_arg(sim, "--history")
    sim.add_argument("--json", action="store_true", help="print one JSON object")

    bench = sub.add_parser("bench", help="time the engine's compiled random-play path")
    bench.add_argument("game", choices=GAMES)
    bench.add_argument("--hands", type=_count_of("simulate"), default=1_000_000)
    bench.add_argument("--threads", type=_threads, default=1)
    _rules_args(bench)
    bench.add_argument("--json", action="store_true")

    tour = sub.add_parser("tournament", help="compare agents on duplicate deals")
    tour.add_argument("game", choices=GAMES)
    tour.add_argument("--agents", nargs="+", required=True, metavar="AGENT")
    tcount = tour.add_mutually_exclusive_group()
    tcount.add_argument("--deals", type=_count_of("tournament"),
                        help="N duplicate deals (default 10000)")
    tcount.add_argument("--games", type=_count_of("tournament"),
                        help="N duplicate whole games / matches")
    tour.add_argument("--no-duplicate", action="store_true",
                      help="play each deal once, seats assigned in turn, instead of rotating")
    tour.add_argument("--by-contract", action="store_true",
                      help="Barbu: deal i plays contract i %% 7; results per contract")
    _rules_args(tour)
    tour.add_argument("--seed", type=_seed, default=0)
    tour.add_argument("--threads", type=_threads, default=1)
    _ray_arg(tour)
    tour.add_argument("--json", action="store_true")
    tour.add_argument("--per-deal", metavar="FILE.npy",
                      help="write every deal's result to a NumPy file "
                           "(experiments.tournaments.per_deal)")
    _force_arg(tour, "--per-deal")

    study = sub.add_parser("study", help="what house rules change: the same deals under "
                                         "every variant, paired differences")
    study.add_argument("game", choices=GAMES)
    study.add_argument("--rule", action="append", default=[], metavar="NAME=V1,V2",
                       help="a convention to vary over its values (two or more, by commas), "
                            "or to fix (one value); repeatable: every combination is played")
    study.add_argument("--agents", nargs="+", default=None, metavar="AGENT",
                       help="one agent for all seats, one per side or one per seat "
                            "(default heuristic)")
    skill = study.add_mutually_exclusive_group()
    skill.add_argument("--skill", nargs=2, metavar=("STRONG", "WEAK"),
                       help="the margin of STRONG over WEAK on duplicate deals under every "
                            "variant (default heuristic random)")
    skill.add_argument("--no-skill", action="store_true", help="leave the skill margin out")
    scount = study.add_mutually_exclusive_group()
    scount.add_argument("--deals", type=_count_of("study"),
                        help="deals per variant, each the first of a fresh game "
                             "(default 10000)")
    scount.add_argument("--games", type=_count_of("study"),
                        help="whole games (Barbu: matches) per variant instead: game-level "
                             "measures (length, wins by position)")
    study.add_argument("--players", type=int, help="Debertz: 2, 3 or 4 players")
    study.add_argument("--teams", action="store_true", help="Debertz: 2 against 2 (4 players)")
    study.add_argument("--seed", type=_seed, default=0)
    study.add_argument("--threads", type=_threads, default=1)
    study.add_argument("--per-deal", action="store_true",
                       help="keep every deal's measures in the run directory (deals/*.npy)")
    study.add_argument("--out", metavar="DIR", default="runs",
                       help="parent of the run directory (default runs)")
    study.add_argument("--json", action="store_true", help="print one JSON object")

    run = sub.add_parser("run", help="run an experiment described by a YAML file")
    run.add_argument("config", nargs="?", help="the YAML file")
    run.add_argument("--resume", metavar="RUN_DIR", help="continue an interrupted run")
    run.add_argument("--out", metavar="DIR", help="parent of run directories (default runs)")
    _ray_arg(run)

    train = sub.add_parser("train", help="train a neural agent by batched self-play: a "
                                         "training config, or a recipe of stages (YAML)")
    train.add_argument("config", nargs="?", help="a training config, or a recipe (a YAML "
                                                 "file with a stages: list, configs/recipes/)")
    train.add_argument("--resume", metavar="RUN_DIR", help="continue an interrupted run (a "
                                                           "config's or a recipe's)")
    train.add_argument("--out", metavar="DIR", help="parent of run directories (default runs)")
    train.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                       help="change a config value: iterations=10, args.learning_rate=0.001; "
                            "in a recipe STAGE.KEY=VALUE for one stage, KEY=VALUE for every "
                            "stage (repeatable)")
    train.add_argument("--scale", metavar="F", help="multiply every budget (iterations, "
                                                    "eval_every, eval_deals, label budgets) by "
                                                    "F, rounded up: 0.01 for a quick try-out")
    _ray_arg(train)

    play = sub.add_parser("play", help="play a game in the terminal against agents")
    play.add_argument("game", choices=GAMES)
    play.add_argument("--agents", nargs="+", default=["heuristic"], metavar="AGENT",
                      help="the agents of the other seats: one for all, or one per other "
                           "seat in seat order (default heuristic)")
    play.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    _rules_args(play)
    play.add_argument("--seed", type=_seed, default=0, help="fixes the deals")
    play.add_argument("--deals", type=_positive, help="stop after N deals")
    play.add_argument("--delay", type=float, default=0.0,
                      help="seconds to wait after each agent's move (default 0)")
    play.epilog_source = _card_legend

    serve = sub.add_parser("serve", help="the browser table: play, replay, analyse")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1: this machine only; "
                            "any other needs --public)")
    serve.add_argument("--public", action="store_true",
                       help="allow a --host beyond this machine (a warning is printed)")
    serve.add_argument("--port", type=_port, default=8000)
    serve.add_argument("--runs", default="runs", metavar="DIR",
                       help="run directories to list and read records from (default runs)")
    serve.add_argument("--records", action="append", default=[], metavar="DIR",
                       help="another directory whose hand-record files may be opened "
                            "(repeatable)")
    serve.add_argument("--store", metavar="FILE",
                       help="the games' SQLite file (default cardsim-games.sqlite3 beside "
                            "--runs): games in progress survive a restart")
    serve.add_argument("--max-games", type=_positive, default=500, metavar="N",
                       help="games in progress at once (default 500); beyond, a new game "
                            "is refused (503) until one ends or is left idle")
    serve.add_argument("--idle-minutes", type=_positive, default=24 * 60, metavar="M",
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
    load.add_argument("--actions", type=_positive, default=40, metavar="N",
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
    for q in sub.choices.values():  # --debug before or after the command
        _debug_arg(q, argparse.SUPPRESS)
    return p


def _debug_arg(p: argparse.ArgumentParser, default) -> None:
    p.add_argument("--debug", action="store_true", default=default,
                   help="on an error, print the traceback too (an agent's own included)")


def _force_arg(p: argparse.ArgumentParser, flag: str) -> None:
    # results are never overwritten unless asked: an existing file is refused without it
    p.add_argument("--force", action="store_true",
                   help=f"replace the {flag} file if it exists (refused otherwise)")


def _ray_address(text: str) -> str:
    from cardsim.errors import InvalidConfigError
    from experiments.runs.executor import check_address

    try:
        return check_address(text) if text else ""  # "": the flag alone
    except InvalidConfigError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _ray_arg(p: argparse.ArgumentParser) -> None:
    # "" (the flag alone): Ray's own default, the local instance or a new one
    p.add_argument("--ray", nargs="?", const="", default=None, type=_ray_address,
                   metavar="ADDRESS", help="play the chunks on Ray: alone a local instance, "
                   "'auto' this machine's cluster, or HOST:PORT of the head")


def _executor(args):
    """The executor the command line asks for: None (here, with --threads) or Ray."""
    if args.ray is None:
        return None
    if args.threads != 1:
        raise ArgumentError("--threads sets the threads of a local run; with --ray every "
                            "task plays with one thread and Ray runs as many as it has CPUs "
                            "(drop --threads)")
    from experiments.runs.executor import RayExecutor

    return RayExecutor(args.ray or None)


def _rules_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=int, help="Debertz: 2, 3 or 4 players")
    p.add_argument("--teams", action="store_true", help="Debertz: 2 against 2 (4 players)")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                   help="set a convention of the rules file (repeatable)")


def make_rules(game: str, players=None, teams=False, overrides=()):
    """The rules of ``--players``, ``--teams`` and ``--rule`` (experiments.runs.seating)."""
    from experiments.runs.seating import make_rules as rules_of

    return rules_of(game, players, teams, overrides)


def seat_agents(game: str, rules, specs: list[str], seat: int) -> list:
    """The agents of a table where a person sits in ``seat``: ``specs`` gives one agent for
    every other seat, or one per other seat in seat order."""
    from cardsim import games
    from cardsim.errors import InvalidConfigError
    from experiments.play.session import make_seat_agents

    n = games.get(game).players(rules)
    if not 0 <= seat < n:
        raise InvalidConfigError(f"--seat must be a seat 0..{n - 1}, got {seat}")
    others = n - 1
    if len(specs) not in (1, others):
        raise InvalidConfigError(f"--agents takes one agent for every other seat or one per "
                                 f"other seat ({others}); got {len(specs)}")
    per_seat = list(specs) * others if len(specs) == 1 else list(specs)
    per_seat.insert(seat, None)
    return make_seat_agents(game, per_seat, rules=rules)


def run(args) -> int:
    """Carry out the parsed command ``args``: print its result (text, or JSON with ``--json``) and
    return the exit status (0). Errors propagate to ``main``."""
    if getattr(args, "threads", 1) > (os.cpu_count() or 1):
        # numba fixes its thread pool size on import; allow what was asked for
        os.environ.setdefault("NUMBA_NUM_THREADS", str(args.threads))
    progress = progress_mode(quiet=getattr(args, "json", False))
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
    elif args.command == "leaderboard":
        from experiments.tournaments.leaderboard import main as leaderboard_main

        return leaderboard_main(args)
    elif args.command == "simulate":
        from experiments.runs.simulate import simulate

        rules = make_rules(args.game, args.players, args.teams, args.rule)
        summary = simulate(args.game, rules, agents=args.agents, seed=args.seed,
                           hands=args.hands, games=args.games, n_threads=args.threads,
                           history_path=args.history, progress=progress,
                           executor=_executor(args), overwrite=args.force)
        print_summary(summary, args.json)
    elif args.command == "bench":
        from cardsim import games

        rules = make_rules(args.game, args.players, args.teams, args.rule)
        result = games.get(args.game).bench(rules, hands=args.hands, threads=args.threads)
        print_summary(result, args.json)
    elif args.command == "tournament":
        from experiments.tournaments.tournament import format_table, tournament

        rules = make_rules(args.game, args.players, args.teams, args.rule)
        result = tournament(args.game, rules, args.agents, deals=args.deals, games=args.games,
                            duplicate=not args.no_duplicate, seed=args.seed,
                            n_threads=args.threads, progress=progress,
                            by_contract=args.by_contract, per_deal=args.per_deal,
                            executor=_executor(args), overwrite=args.force)
        print(dumps_json(result) if args.json else format_table(result))
    elif args.command == "study":
        return _study(args, progress)
    elif args.command == "play":
        from experiments.play.session import play_terminal

        rules = make_rules(args.game, args.players, args.teams, args.rule)
        agents = seat_agents(args.game, rules, args.agents, args.seat)
        play_terminal(args.game, rules, agents, args.seat, seed=args.seed, deals=args.deals,
                      delay=args.delay)
    elif args.command == "load":
        from experiments.web.load import main as load_main

        return load_main(args)
    elif args.command == "serve":
        from experiments.web.app import serve

        serve(args.host, args.port, runs=args.runs, records=args.records, store=args.store,
              max_games=args.max_games, idle_seconds=args.idle_minutes * 60,
              public=args.public)
    elif args.command in ("run", "train"):
        if (args.config is None) == (args.resume is None):
            raise ArgumentError("give a config file or --resume RUN_DIR (not both)")
        if args.resume and args.out is not None:
            raise ArgumentError("--out names where new runs go; a resumed run stays in its "
                                "own directory (drop --out)")
        ray = None if args.ray is None else ({"address": args.ray} if args.ray else {})
        if args.command == "train":
            return _train(args, progress, ray)
        from experiments.runs.run import resume_run, start_run

        if args.resume:
            run_dir, result = resume_run(args.resume, progress=progress, ray=ray)
        else:
            out = "runs" if args.out is None else args.out
            run_dir, result = start_run(args.config, out, progress=progress, ray=ray)
        print(result["table"])
        print(f"run directory: {run_dir}")
    return 0


def study_config(args):
    """The ``kind: study`` experiment config of ``cardsim study``'s arguments (validated)."""
    from experiments.runs.config import config_from_dict
    from experiments.tournaments.study import parse_rule_values

    if not args.rule:
        raise ArgumentError("a study varies at least one convention: give --rule NAME=V1,V2 "
                            "(cardsim rules GAME lists them)")
    base = make_rules(args.game, args.players, args.teams)  # checks --players / --teams
    fixed, vary = {}, {}
    if args.players is not None or args.teams:
        fixed.update(players=base.players, teams=base.teams)
    for text in args.rule:
        name, values = parse_rule_values(args.game, text)
        if name in vary or name in fixed:
            raise ArgumentError(f"{name!r} is given twice (by --rule, --players or --teams); "
                                f"give each convention once, its values separated by commas")
        if len(values) == 1:
            fixed[name] = values[0]
        else:
            vary[name] = values
    if not vary:
        raise ArgumentError("a study varies at least one convention: give two or more "
                            "values, e.g. --rule NAME=V1,V2")
    tag = "-".join(vary)
    data = {"name": f"study-{args.game}-{tag}"[:80], "kind": "study", "game": args.game,
            "rules": fixed, "vary": vary, "agents": list(args.agents or ["heuristic"]),
            "skill": False if args.no_skill else (list(args.skill) if args.skill else None),
            "deals": args.deals if args.games is None else None, "games": args.games,
            "seed": args.seed, "threads": args.threads,
            "per_deal": args.per_deal}
    return config_from_dict(data, where="cardsim study")


def _study(args, progress: bool) -> int:
    from experiments.runs.run import start_config

    cfg = study_config(args)
    run_dir, result = start_config(cfg, args.out, progress=progress)
    if args.json:
        result = {k: v for k, v in result.items() if k != "table"}
        result["run_dir"] = str(run_dir)
        print(dumps_json(result))
    else:
        print(result["table"])
        print(f"run directory: {run_dir}")
    return 0


def _train(args, progress: bool, ray: dict | None) -> int:
    """``cardsim train``: a training config or a recipe (told apart by content: a recipe
    has a ``stages:`` list), new or resumed. What will run is said first, before torch
    loads; a recipe's failed gate exits with status 3."""
    from experiments.train.gates import GateFailed

    if args.resume and (args.set or args.scale is not None):
        raise ArgumentError("a resumed run keeps the --set and --scale it was started with "
                            "(recorded in its directory); drop them, or start a new run")
    recipe = _is_recipe(args)
    if recipe and ray is not None:
        raise ArgumentError("--ray trains a training config's DMC self-play on Ray; a recipe's "
                            "stages train here (drop --ray)")
    if args.config and progress:
        _say_plan(args, recipe)
    try:
        if recipe:
            return _train_recipe(args, progress)
    except GateFailed as e:
        print(f"cardsim: {' '.join(str(e).split())}", file=sys.stderr)
        return 3
    from experiments.train.loop import format_summary, resume_training, start_training

    if args.resume:
        run_dir, summary = resume_training(args.resume, progress=progress, ray=ray)
    else:
        out = "runs" if args.out is None else args.out
        run_dir, summary = start_training(args.config, out, progress=progress, ray=ray,
                                          sets=args.set, scale=args.scale)
    print(format_summary(summary))
    print(f"run directory: {run_dir}")
    return 0


def _is_recipe(args) -> bool:
    from experiments.runs.schema import read_yaml
    from experiments.train.recipe import is_recipe
    from experiments.train.recipe_run import is_recipe_run

    if args.resume:
        return is_recipe_run(args.resume)
    return is_recipe(read_yaml(args.config))


def _say_plan(args, recipe: bool) -> None:
    """The lines saying what will run (stages, budgets, where it writes), printed before
    the seconds of loading torch and checking every stage."""
    from experiments.runs.schema import read_yaml
    from experiments.train.overrides import overridden_config
    from experiments.train.plan import config_plan_line, plan_lines
    from experiments.train.recipe_run import load_recipe

    out = "runs" if args.out is None else args.out
    if recipe:
        resolved = load_recipe(args.config, args.set, args.scale)
        lines = plan_lines(resolved, f"{out}/{resolved['name']}-<time>/")
    else:
        body = overridden_config(read_yaml(args.config), args.config, args.set, args.scale,
                                 check_args=False)
        lines = [config_plan_line(body, out)]
    print("\n".join(lines), file=sys.stderr, flush=True)


def _train_recipe(args, progress: bool) -> int:
    from experiments.train.recipe_run import format_recipe_summary, resume_recipe, start_recipe

    if args.resume:
        run_dir, summary = resume_recipe(args.resume, progress=progress)
    else:
        out = "runs" if args.out is None else args.out
        run_dir, summary = start_recipe(args.config, out, args.set, args.scale, progress)
    print(format_recipe_summary(summary))
    print(f"run directory: {run_dir}")
    return 0


def _version() -> str:
    import cardsim

    return cardsim.__version__


def interrupted_note(args) -> str:
    """What an interrupted command kept, true for the command (``args`` None: interrupted
    while parsing)."""
    from experiments.runs.rundir import working

    command = getattr(args, "command", None)
    run_dir = working["run_dir"]
    if command in ("run", "train", "study") and run_dir is not None:
        kept = "checkpoints up to the last one written" if command == "train" else (
            "finished chunks")
        again = "train" if command == "train" else "run"
        return f"{kept} are kept in {run_dir}: cardsim {again} --resume {run_dir}"
    if command in ("run", "train", "study"):
        return "nothing was started"
    if command in ("simulate", "tournament"):
        return (f"nothing is kept (a {command} writes its results, --history and --per-deal "
                f"files only when it finishes); cardsim run keeps finished chunks and "
                f"resumes")
    return "nothing to keep"


def main(argv=None) -> int:
    """The ``cardsim`` console script: parse ``argv`` (None: ``sys.argv``) and run the command.
    Returns the exit status: 0 on success, 2 for a usage or cardsim error (printed as one line; a
    traceback with ``--debug``), 1 when the output pipe closed, 130 on an interrupt."""
    from cardsim.errors import CardsimError

    from experiments.runs.rundir import working

    args = None
    working["run_dir"] = None
    try:
        args = build_parser().parse_args(argv)
        code = run(args)
        sys.stdout.flush()  # a closed pipe shows here, not at exit
        return code
    except (ArgumentError, CardsimError) as e:
        if getattr(args, "debug", False):
            import traceback

            traceback.print_exception(e, file=sys.stderr)
        print(f"cardsim: error: {' '.join(str(e).split())}", file=sys.stderr)  # one line
        return 2
    except BrokenPipeError:
        # the reader went away (``cardsim ... | head``): stop quietly. Python would report
        # the pipe again when it flushes stdout at exit, so stdout goes to /dev/null first.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except KeyboardInterrupt:
        print(f"cardsim: interrupted; {interrupted_note(args)}", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
