"""``cardsim train RECIPE.yaml``: a recipe trained into one run directory, stage after stage,
resumable; it ends with the network and its model card.

    runs/<name>-<time>/
        recipe.yaml            the resolved recipe (experiments.train.recipe): each stage's
                               whole config, and the --scale and --set it was started with
        meta.json              git commit, versions, start time
        stages/1-NAME/         each stage an ordinary training run directory (config.yaml,
                               meta.json, checkpoints/, metrics.jsonl, plots/, tensorboard/),
                               and when it ends evaluation.json (its final evaluation) and,
                               where it has a gate, gate.json (the verdict with its figures)
        stages/2-NAME/ ...
        stages.json            the stages so far: iterations, decisions, seconds, final
                               evaluation, early stop and gate of each
        plots/learning_curve.png   every stage's loss and evaluations along the decisions
        network.pt             the final network: the last stage's checkpoint without its
                               optimizer (what a zoo network's .pt holds)
        model-card.json        its model card (experiments.train.card), ``checkpoint``:
                               network.pt; it plays at once as neural:checkpoint=RUN_DIR

A stage starts from the checkpoint the stage before ended with (its ``latest.pt``), so each
stage trains exactly as ``cardsim train`` would, and a stage's checkpoint after every
iteration makes the recipe resumable: ``cardsim train --resume RUN_DIR`` skips the stages
that ended, resumes the stage in progress at its last checkpoint and goes on, ending with the
same network, byte for byte, as a run never interrupted (same threads and device). A resume
takes its settings from ``recipe.yaml``, never from the recipe file again.

A stage's gate failing stops the run (``GateFailed``, with the figures); ``stages.json`` and
the stage's ``gate.json`` keep the verdict, and the stage's network stays in its folder.
"""

from __future__ import annotations

import json
from pathlib import Path

from cardsim.errors import InvalidConfigError
from experiments.runs.files import atomic_write_bytes, atomic_write_json
from experiments.runs.rundir import (check_out_parent, create_run_dir, make_run_dir, run_meta,
                                     working)
from experiments.runs.schema import read_yaml
from experiments.train.recipe import (check_recipe, is_recipe, recipe_yaml, read_resolved,
                                      resolve_recipe, stage_configs)

NETWORK_FILE = "network.pt"


def load_recipe(path, sets=(), scale=None) -> dict:
    """The resolved recipe of the recipe file ``path`` with ``--set`` texts ``sets`` and
    ``--scale`` ``scale`` (``experiments.train.recipe.resolve_recipe``); refuses a file that
    is not a recipe."""
    data = read_yaml(path)
    if not is_recipe(data):
        raise InvalidConfigError(f"{path} is not a recipe (no 'stages:' list)")
    return resolve_recipe(data, str(path), sets, scale)


def start_recipe(path, out_parent="runs", sets=(), scale=None, progress=False):
    """Train the recipe of file ``path`` into a new run directory under ``out_parent``;
    returns (run_dir, ``recipe_summary``). Every stage is validated before anything is
    made."""
    resolved = load_recipe(path, sets, scale)
    configs = check_recipe(resolved)
    check_out_parent(out_parent)
    meta = run_meta({"name": resolved["name"], "kind": "recipe",
                     "network": resolved["network"], "stages": len(configs)})
    run_dir = create_run_dir(out_parent, resolved["name"], recipe_yaml(resolved), meta,
                             "stages", config_file="recipe.yaml")
    if progress:
        _say(f"run directory: {run_dir}")
    return run_dir, _train_stages(run_dir, resolved, configs, progress)


def resume_recipe(run_dir, progress=False):
    """Continue a recipe's run where it stopped (module docstring); returns (run_dir,
    ``recipe_summary``)."""
    run_dir = Path(run_dir)
    path = run_dir / "recipe.yaml"
    if not path.is_file():
        raise InvalidConfigError(f"{run_dir} is not a recipe's run (no recipe.yaml)")
    working["run_dir"] = run_dir
    resolved = read_resolved(read_yaml(path), str(path))
    return run_dir, _train_stages(run_dir, resolved, stage_configs(resolved), progress)


def is_recipe_run(run_dir) -> bool:
    """Whether ``run_dir`` is a recipe's run (it holds ``recipe.yaml``)."""
    return (Path(run_dir) / "recipe.yaml").is_file()


# --- the stages ------------------------------------------------------------------------------
def _train_stages(run_dir: Path, resolved: dict, configs: list, progress) -> dict:
    from experiments.train.loop import train_device, train_meta

    records = _read_records(run_dir)
    n = len(configs)
    for k, (stage, cfg) in enumerate(zip(resolved["stages"], configs), 1):
        if k <= len(records) and records[k - 1]["status"] == "done":
            continue
        del records[k - 1:]  # a stage run again (a failed gate) is recorded again
        if k > 1:  # the network the stage before ended with, wherever the run lies now
            cfg.init = str((run_dir / resolved["stages"][k - 2]["folder"] / "checkpoints" /
                            "latest.pt").resolve())
        stage_dir = run_dir / stage["folder"]
        label = f"stage {k}/{n} {stage['name']}"
        fresh = not (stage_dir / "checkpoints" / "latest.pt").exists()
        make_run_dir(stage_dir, cfg.to_dict(), train_meta(cfg, {"recipe": resolved["name"],
                                                           "stage": k}), "checkpoints")
        if progress and fresh:
            _say(f"{label}: {cfg.algorithm}, {cfg.iterations:,} iteration"
                 f"{'' if cfg.iterations == 1 else 's'}, in {stage_dir}")
        from experiments.train.loop import train_in

        try:
            summary = train_in(stage_dir, cfg, train_device(cfg), progress, label,
                               free_keys=("init",))
        finally:  # at the stage's end, and on an interrupt: the recipe so far
            _plot_recipe(run_dir, resolved, k, cfg)
        record = _finish_stage(run_dir, resolved, configs, k, summary)
        records.append(record)
        _write_records(run_dir, resolved, records)
        if record["status"] != "done":
            from experiments.train.gates import GateFailed

            raise GateFailed(f"{label} failed its gate: {record['gate']['text']}; the run "
                             f"stops here (stages.json; the stage's network: "
                             f"{stage_dir / 'checkpoints' / 'latest.pt'})")
    model = _write_network(run_dir, resolved, records)
    return recipe_summary(run_dir, records, model)


def _finish_stage(run_dir: Path, resolved: dict, configs: list, k: int, summary: dict) -> dict:
    """A stage that ended: its final evaluation (``evaluation.json``) and gate
    (``gate.json``), and its record for ``stages.json``."""
    stage, cfg = resolved["stages"][k - 1], configs[k - 1]
    stage_dir = run_dir / stage["folder"]
    metrics = _metrics(stage_dir)
    evaluated = next((m for m in reversed(metrics) if "eval" in m), None)
    evaluation = {"stage": k, "name": stage["name"],
                  "iteration": evaluated["iteration"] if evaluated else None,
                  "deals": cfg.eval_deals, "seed": cfg.seed,
                  "against": evaluated["eval"] if evaluated else {}}
    atomic_write_json(stage_dir / "evaluation.json", evaluation)
    record = {"stage": k, "name": stage["name"], "folder": stage["folder"],
              "algorithm": cfg.algorithm, "iterations": summary["iterations"],
              "of": cfg.iterations, "early_stop": summary["early_stop"],
              "decisions": summary["decisions"], "seconds": round(summary["seconds"], 1),
              "evaluation": evaluation["against"], "gate": None, "status": "done"}
    gate = stage.get("gate")
    if gate:
        verdict = _judge(run_dir, resolved, configs, k, gate, evaluation["against"])
        atomic_write_json(stage_dir / "gate.json", verdict)
        record["gate"] = verdict
        if not verdict["passed"]:
            record["status"] = "gate failed"
    return record


def _judge(run_dir, resolved, configs, k, gate, evaluation) -> dict:
    from agents.neural.checkpoint import load_checkpoint
    from experiments.train.gates import judge_gate, paired_change

    cfg = configs[k - 1]
    here = f"stage {k} ({resolved['stages'][k - 1]['name']})"

    def compare():
        rules = cfg.make_rules()

        def net(j):
            path = run_dir / resolved["stages"][j - 1]["folder"] / "checkpoints" / "latest.pt"
            return load_checkpoint(path, cfg.game, rules)["net"]

        return paired_change(cfg.game, rules, net(k), net(k - 1), gate["opponent"],
                             cfg.eval_deals, cfg.seed, cfg.numba_threads)

    return judge_gate(gate, here, evaluation, compare)


def _metrics(stage_dir: Path) -> list[dict]:
    path = stage_dir / "metrics.jsonl"
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]


def _read_records(run_dir: Path) -> list[dict]:
    try:
        data = json.loads((run_dir / "stages.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return list(data.get("stages") or []) if isinstance(data, dict) else []


def _write_records(run_dir: Path, resolved: dict, records: list[dict]) -> None:
    atomic_write_json(run_dir / "stages.json", {
        "recipe": resolved["name"], "network": resolved["network"],
        "stages_in_recipe": len(resolved["stages"]), "stages": records,
        "finished": len(records) == len(resolved["stages"]) and all(
            r["status"] == "done" for r in records)})


# --- the end: the network and its card ---------------------------------------------------
def _write_network(run_dir: Path, resolved: dict, records: list[dict]) -> dict:
    """``network.pt`` (the last stage's network without its optimizer) and
    ``model-card.json``, whose stages are the recipe's, each from the one before."""
    from agents.neural.checkpoint import load_checkpoint
    from agents.registry import parse_spec
    from experiments.train.card import bare_checkpoint, model_card, stage_record, this_machine

    stages, before = [], None
    for stage in resolved["stages"]:
        training = load_checkpoint(run_dir / stage["folder"] / "checkpoints" /
                                   "latest.pt")["training"]
        record = stage_record(training, _config_name(resolved, stage))
        record["init"] = before  # the stage before, by its run's name (None: from nothing)
        stages.append(record)
        before = record["name"]
    last = run_dir / resolved["stages"][-1]["folder"] / "checkpoints" / "latest.pt"
    data, blob = bare_checkpoint(last)
    options = parse_spec(f"neural:{resolved['options']}")[1] if resolved["options"] else {}
    last_config = data["training"]["config"]
    machine = this_machine(last_config["device"], last_config["numba_threads"])
    model = model_card(resolved["network"], data, NETWORK_FILE, blob, stages, options,
                       resolved["summary"] or f"trained by the recipe {resolved['name']}",
                       machine)
    model["checkpoint"] = NETWORK_FILE
    model["recipe"].update(source=resolved["source"], scale=resolved["scale"],
                           sets=resolved["sets"])
    atomic_write_bytes(run_dir / NETWORK_FILE, blob)
    atomic_write_json(run_dir / "model-card.json", model)
    load_checkpoint(run_dir / NETWORK_FILE, game=data["game"])  # what was written loads
    return model


def _config_name(resolved: dict, stage: dict) -> str:
    """The config a stage came from, as a card names it: its file, or the recipe's stage."""
    if stage["config"] and stage["config"] != "inline":
        return stage["config"]
    return f"{resolved['source']} (stage {stage['name']})"


def recipe_summary(run_dir: Path, records: list[dict], model: dict | None) -> dict:
    """What a recipe's run did: its directory, each stage's record, the network's file."""
    return {"run": str(run_dir), "stages": records,
            "checkpoint": str(run_dir / model["checkpoint"]) if model else None,
            "decisions": sum(r["decisions"] for r in records),
            "seconds": round(sum(r["seconds"] for r in records), 1)}


def format_recipe_summary(s: dict) -> str:
    """``recipe_summary`` as the lines the command line prints: one per stage (iterations,
    decisions, its final evaluation, early stop, gate), then the network and how to seat it."""
    lines = []
    for r in s["stages"]:
        evals = "; ".join(f"- {o} {e['difference']:+.2f}" + (
            f" +-{e['ci95']:.2f}" if e["ci95"] is not None else "")
                          for o, e in (r["evaluation"] or {}).items())
        line = (f"{r['stage']}-{r['name']}: {r['algorithm']}, {r['iterations']:,} of "
                f"{r['of']:,} iterations, {r['decisions']:,} decisions, {r['seconds']:.0f} s"
                + (f"; network {evals}" if evals else ""))
        if r["early_stop"]:
            line += f"; {r['early_stop']}"
        if r["gate"]:
            line += f"; gate {'passed' if r['gate']['passed'] else 'FAILED'}"
        lines.append(line)
    lines.append(f"network: {s['checkpoint']} (plays as neural:checkpoint="
                 f"{s['run']}; add it to the zoo: python -m experiments.train.ship "
                 f"{s['run']} NAME)")
    return "\n".join(lines)


# --- what a person watches -----------------------------------------------------------------
def _plot_recipe(run_dir: Path, resolved: dict, k: int, cfg) -> None:
    """The recipe's learning curve: the stages up to stage ``k`` (its config ``cfg``), from
    their metrics, one after the other along the decisions."""
    from experiments.train.loop import write_learning_curve

    rows, starts, offset = [], [], 0
    for j, stage in enumerate(resolved["stages"][:k], 1):
        metrics = _metrics(run_dir / stage["folder"])
        starts.append((offset, f"{j}-{stage['name']}"))
        for m in metrics:
            rows.append({**m, "total_decisions": offset + m["total_decisions"]})
        if metrics:
            offset += metrics[-1]["total_decisions"]
    write_learning_curve(run_dir, cfg, rows, title=f"recipe {resolved['name']}: loss",
                         stages=starts)


def _say(text: str) -> None:
    import sys

    print(text, file=sys.stderr, flush=True)

