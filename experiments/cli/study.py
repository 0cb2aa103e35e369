"""``cardsim study``: what house rules change, the same deals under every variant."""

from __future__ import annotations

from cardsim.games import GAMES
from experiments.cli.options import ArgumentError, count_of, make_rules, seed_arg, threads_arg
from experiments.runs.files import dumps_json


def add(sub) -> None:
    """Its subcommand and options."""
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
    scount.add_argument("--deals", type=count_of("study"),
                        help="deals per variant, each the first of a fresh game "
                             "(default 10000)")
    scount.add_argument("--games", type=count_of("study"),
                        help="whole games (Barbu: matches) per variant instead: game-level "
                             "measures (length, wins by position)")
    study.add_argument("--players", type=int, help="Debertz: 2, 3 or 4 players")
    study.add_argument("--teams", action="store_true", help="Debertz: 2 against 2 (4 players)")
    study.add_argument("--seed", type=seed_arg, default=0)
    study.add_argument("--threads", type=threads_arg, default=1)
    study.add_argument("--per-deal", action="store_true",
                       help="keep every deal's measures in the run directory (deals/*.npy)")
    study.add_argument("--out", metavar="DIR", default="runs",
                       help="parent of the run directory (default runs)")
    study.add_argument("--json", action="store_true", help="print one JSON object")


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
        name, values = parse_rule_values(base.game, text)
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


def run(args, progress) -> int:
    """Play the study of ``args`` into a run directory and print its table (or JSON)."""
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
