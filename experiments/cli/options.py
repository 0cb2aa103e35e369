"""What the commands share: the parser's class and its one-line errors, argument types
(counts within limits, seeds, threads, ports), the options several commands take (rules,
Ray, --force, --debug) and what they resolve to (rules, an executor, the agents of a
person's table)."""

from __future__ import annotations

import argparse


class ArgumentError(Exception):
    """A bad command-line argument (reported in one line, exit status 2)."""


class Parser(argparse.ArgumentParser):
    """The parser of the command and of each subcommand: errors in one line."""
    # a function giving the help's closing text, called only when help is shown (its
    # imports cost nothing to the other commands)
    epilog_source = None

    def error(self, message):
        """One clear line (``ArgumentError``) instead of usage and message."""
        raise ArgumentError(message)

    def format_help(self):
        """The help, its closing text (``epilog_source``) made now."""
        if self.epilog_source is not None:
            self.epilog = self.epilog_source()
        return super().format_help()


def card_legend() -> str:
    """The card notation's legend (``cardsim play --help``)."""
    from experiments.play.session import card_legend as legend_of

    return legend_of(None)


def whole_number(text: str, low: int, high: int | None, what: str, outside: str) -> int:
    """``text`` as a whole number in ``low``..``high`` (None: no bound); else an argparse
    error: ``text`` is not ``what``, or ``outside`` (with the number after it)."""
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
    if v < low or (high is not None and v > high):
        raise argparse.ArgumentTypeError(f"{outside}, got {v}")
    return v


def positive(text: str) -> int:
    """An argparse type: a whole number >= 1."""
    return whole_number(text, 1, None, "an integer", "must be a positive integer")


def port_number(text: str) -> int:
    """An argparse type: a TCP port, 0..65535."""
    return whole_number(text, 0, 65535, "a port number", "a port is 0..65535")


def threads_arg(text: str) -> int:
    """An argparse type: threads, 1..``MAX_THREADS``."""
    from experiments.runs.limits import MAX_THREADS

    v = positive(text)
    if v > MAX_THREADS:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_THREADS}, got {v}")
    return v


def count_of(kind: str):
    """An argparse type: a positive count of deals or games within the limit of ``kind``."""
    def count(text: str) -> int:
        from cardsim.errors import InvalidConfigError
        from experiments.runs.limits import check_count

        v = positive(text)
        try:
            return check_count("the count", v, kind)
        except InvalidConfigError as e:
            raise argparse.ArgumentTypeError(str(e).replace("the count = ", "")) from None
    return count


def seed_arg(text: str) -> int:
    """An argparse type: a seed, 0..2**63-1."""
    return whole_number(text, 0, 2**63 - 1, "an integer", "must be in 0..2**63-1")


def debug_arg(p: argparse.ArgumentParser, default) -> None:
    """``--debug``: on an error, the traceback too."""
    p.add_argument("--debug", action="store_true", default=default,
                   help="on an error, print the traceback too (an agent's own included)")


def force_arg(p: argparse.ArgumentParser, flag: str) -> None:
    """``--force``: replace the file of ``flag`` if it exists."""
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


def ray_arg(p: argparse.ArgumentParser) -> None:
    """``--ray [ADDRESS]``: play the chunks on Ray."""
    # "" (the flag alone): Ray's own default, the local instance or a new one
    p.add_argument("--ray", nargs="?", const="", default=None, type=_ray_address,
                   metavar="ADDRESS", help="play the chunks on Ray: alone a local instance, "
                   "'auto' this machine's cluster, or HOST:PORT of the head")


def executor_of(args):
    """The executor the command line asks for: None (here, with --threads) or Ray."""
    if args.ray is None:
        return None
    if args.threads != 1:
        raise ArgumentError("--threads sets the threads of a local run; with --ray every "
                            "task plays with one thread and Ray runs as many as it has CPUs "
                            "(drop --threads)")
    from experiments.runs.executor import RayExecutor

    return RayExecutor(args.ray or None)


def rules_args(p: argparse.ArgumentParser) -> None:
    """``--players``, ``--teams`` and ``--rule NAME=VALUE``: the table's rules."""
    p.add_argument("--players", type=int, help="Debertz: 2, 3 or 4 players")
    p.add_argument("--teams", action="store_true", help="Debertz: 2 against 2 (4 players)")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                   help="set a convention of the rules file (repeatable)")


def resumable(args) -> dict | None:
    """For ``run`` and ``train``: a config file or ``--resume`` (one of them, ``--out`` only
    for a new run); the Ray options of ``--ray`` (None: not on Ray)."""
    if (args.config is None) == (args.resume is None):
        raise ArgumentError("give a config file or --resume RUN_DIR (not both)")
    if args.resume and args.out is not None:
        raise ArgumentError("--out names where new runs go; a resumed run stays in its "
                            "own directory (drop --out)")
    return None if args.ray is None else ({"address": args.ray} if args.ray else {})


def make_rules(game: str, players=None, teams=False, overrides=()):
    """The rules of ``--players``, ``--teams`` and ``--rule`` (experiments.runs.seating)."""
    from experiments.runs.seating import make_rules as rules_of

    return rules_of(game, players, teams, overrides)


def seat_agents(game: str, rules, specs: list[str], seat: int) -> list:
    """The agents of a table where a person sits in ``seat``: ``specs`` gives one agent for
    every other seat, or one per other seat in seat order."""
    from cardsim.errors import InvalidConfigError
    from experiments.play.session import make_seat_agents

    n = rules.game.players(rules)
    if not 0 <= seat < n:
        raise InvalidConfigError(f"--seat must be a seat 0..{n - 1}, got {seat}")
    others = n - 1
    if len(specs) not in (1, others):
        raise InvalidConfigError(f"--agents takes one agent for every other seat or one per "
                                 f"other seat ({others}); got {len(specs)}")
    per_seat = list(specs) * others if len(specs) == 1 else list(specs)
    per_seat.insert(seat, None)
    return make_seat_agents(game, per_seat, rules=rules)


def version() -> str:
    """cardsim's version."""
    import cardsim

    return cardsim.__version__
