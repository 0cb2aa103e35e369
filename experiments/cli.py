"""The ``cardsim`` command line.

    cardsim simulate debertz [--games N | --hands N] [--players P] [--teams]
                             [--rule NAME=VALUE]... [--seed S] [--threads T]
                             [--history FILE] [--json]
    cardsim bench debertz [--hands N] [--threads T] [--players P] [--teams] [--json]
    cardsim rules debertz           (lists every convention with its default)

Errors in arguments print one line and exit with status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

GAMES = ("debertz",)


class ArgumentError(Exception):
    """A bad command-line argument (reported in one line, exit status 2)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one clear line instead of usage + message
        raise ArgumentError(message)


def _positive(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {v}")
    return v


def _seed(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if not 0 <= v < 2**63:
        raise argparse.ArgumentTypeError(f"must be in 0..2**63-1, got {v}")
    return v


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="cardsim", description="Simulate and benchmark Debertz and Barbu.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    sim = sub.add_parser("simulate", help="random play for every seat; prints a summary")
    sim.add_argument("game", choices=GAMES)
    count = sim.add_mutually_exclusive_group()
    count.add_argument("--hands", type=_positive, help="play N deals, each a fresh game")
    count.add_argument("--games", type=_positive, help="play N whole games to their end")
    _rules_args(sim)
    sim.add_argument("--seed", type=_seed, default=0)
    sim.add_argument("--threads", type=_positive, default=1)
    sim.add_argument("--history", metavar="FILE", help="write every deal as a hand record")
    sim.add_argument("--json", action="store_true", help="print one JSON object")

    bench = sub.add_parser("bench", help="time the compiled random-play path")
    bench.add_argument("game", choices=GAMES)
    bench.add_argument("--hands", type=_positive, default=1_000_000)
    bench.add_argument("--threads", type=_positive, default=1)
    _rules_args(bench)
    bench.add_argument("--json", action="store_true")

    rules = sub.add_parser("rules", help="list the conventions of a game with their defaults")
    rules.add_argument("game", choices=GAMES)
    return p


def _rules_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=int, help="Debertz: 2, 3 or 4 players")
    p.add_argument("--teams", action="store_true", help="Debertz: 2 against 2 (4 players)")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                   help="set a convention of the rules file (repeatable)")


def _rules(args):
    from cardsim.debertz.rules import DebertzRules

    base = {}
    if args.players is not None:
        base["players"] = args.players
    if args.teams:
        base["teams"] = True
        base.setdefault("players", 4)
    return DebertzRules.from_overrides(args.rule, base)


def _print_summary(summary: dict, as_json: bool) -> None:
    if as_json:
        print(json.dumps(summary))
        return
    width = max(len(k) for k in summary)
    for key, value in summary.items():
        if isinstance(value, dict):
            value = ", ".join(f"{k} {v}" for k, v in value.items())
        elif isinstance(value, list):
            value = " ".join(str(v) for v in value)
        print(f"{key:<{width}}  {value}")


def run(args) -> int:
    if getattr(args, "threads", 1) > (os.cpu_count() or 1):
        # numba fixes its thread pool size on import; allow what was asked for
        os.environ.setdefault("NUMBA_NUM_THREADS", str(args.threads))
    if args.command == "rules":
        from cardsim.debertz.rules import DebertzRules

        print(DebertzRules.describe())
        return 0
    from cardsim.debertz import summary as debertz

    rules = _rules(args)
    if args.command == "simulate":
        hands = args.hands if args.games is None and args.hands is not None else None
        games = args.games
        if hands is None and games is None:
            hands = 1000
        summary = debertz.simulate(rules, seed=args.seed, hands=hands, games=games,
                                   threads=args.threads, history_path=args.history,
                                   progress=not args.json and sys.stderr.isatty())
        if args.history:
            summary["history"] = args.history
        _print_summary(summary, args.json)
    elif args.command == "bench":
        _print_summary(debertz.bench(rules, hands=args.hands, threads=args.threads), args.json)
    return 0


def main(argv=None) -> int:
    from cardsim.errors import CardsimError

    try:
        args = build_parser().parse_args(argv)
        return run(args)
    except (ArgumentError, CardsimError) as e:
        print(f"cardsim: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("cardsim: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
