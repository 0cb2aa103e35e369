"""The ``cardsim`` command line: one module a command (``simulate`` and ``bench``,
``tournament``, ``study``, ``run``, ``train``, ``play``, ``serve`` and ``load``, ``info``: rules,
agents, models, leaderboard), each adding its subcommand (``add``) and carrying it out
(``run``); what they share is in ``options``.

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
import importlib
import os
import sys

from experiments.cli.options import (ArgumentError, Parser, debug_arg, make_rules,  # noqa: F401
                                     seat_agents, version)
from experiments.runs.progress import progress_mode

# each command's module (experiments.cli.NAME), in the order of the help
COMMANDS = {"simulate": "simulate", "bench": "simulate", "tournament": "tournament",
            "study": "study", "run": "run", "train": "train", "play": "play", "serve": "serve",
            "load": "serve", "rules": "info", "agents": "info", "models": "info",
            "leaderboard": "info"}


def _module(name: str):
    return importlib.import_module(f"experiments.cli.{name}")


def build_parser() -> argparse.ArgumentParser:
    """The ``cardsim`` command line's argument parser: one subcommand per job, each with its
    options and help (added by its module)."""
    p = Parser(prog="cardsim", description="Simulate, benchmark and compare agents in "
                                           "Debertz and Barbu.")
    p.add_argument("--version", action="version", version=f"cardsim {version()}")
    debug_arg(p, False)
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser)
    for name in dict.fromkeys(COMMANDS.values()):
        _module(name).add(sub)
    for q in sub.choices.values():  # --debug before or after the command
        debug_arg(q, argparse.SUPPRESS)
    return p


def run_command(args) -> int:
    """Carry out the parsed command ``args``: print its result (text, or JSON with ``--json``) and
    return the exit status (0). Errors propagate to ``main``."""
    if getattr(args, "threads", 1) > (os.cpu_count() or 1):
        # numba fixes its thread pool size on import; allow what was asked for
        os.environ.setdefault("NUMBA_NUM_THREADS", str(args.threads))
    progress = progress_mode(quiet=getattr(args, "json", False))
    return _module(COMMANDS[args.command]).run(args, progress)


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
        code = run_command(args)
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
