"""``cardsim train``: a training config or a recipe of stages, new or resumed."""

from __future__ import annotations

import sys

from experiments.cli.options import ArgumentError, ray_arg, resumable


def add(sub) -> None:
    """Its subcommand and options."""
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
    ray_arg(train)


def run(args, progress) -> int:
    """``cardsim train``: a training config or a recipe (told apart by content: a recipe
    has a ``stages:`` list), new or resumed. What will run is said first, before torch
    loads; a recipe's failed gate exits with status 3."""
    from experiments.train.gates import GateFailed

    ray = resumable(args)
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
