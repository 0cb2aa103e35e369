"""``cardsim run``: an experiment described by a YAML file, new or resumed."""

from __future__ import annotations

from experiments.cli.options import ray_arg, resumable


def add(sub) -> None:
    """Its subcommand and options."""
    run = sub.add_parser("run", help="run an experiment described by a YAML file")
    run.add_argument("config", nargs="?", help="the YAML file")
    run.add_argument("--resume", metavar="RUN_DIR", help="continue an interrupted run")
    run.add_argument("--out", metavar="DIR", help="parent of run directories (default runs)")
    ray_arg(run)


def run(args, progress) -> int:
    """Start or resume the run of ``args`` and print its table and directory."""
    from experiments.runs.run import resume_run, start_run

    ray = resumable(args)
    if args.resume:
        run_dir, result = resume_run(args.resume, progress=progress, ray=ray)
    else:
        out = "runs" if args.out is None else args.out
        run_dir, result = start_run(args.config, out, progress=progress, ray=ray)
    print(result["table"])
    print(f"run directory: {run_dir}")
    return 0
