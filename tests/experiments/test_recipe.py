"""Training recipes (``cardsim train RECIPE.yaml``): every recipe of configs/recipes/ trains
its network at a tiny scale into one run directory with a model card; a recipe interrupted
inside its second stage resumes to the same network, byte for byte; --set and --scale are
checked and recorded; gates stop a recipe with their figures; patience stops a stage early."""

import contextlib
import io
import json
from pathlib import Path

import pytest
import torch
import yaml

from agents.neural import load_checkpoint
from agents.neural.zoo import card, checkpoint_path, file_sha256, model_names
from agents.registry import make_agent, parse_spec
from cardsim.errors import InvalidConfigError
from experiments.cli import main
from experiments.train import loop
from experiments.train.recipe_run import load_recipe, resume_recipe, start_recipe
from tests.experiments.killed_runs import train_until_killed

ROOT = Path(__file__).resolve().parents[2]
RECIPES = sorted((ROOT / "configs" / "recipes").glob("*.yaml"))
# a tiny scale: every budget x 0.001 (one or two iterations a stage), small batches, a few
# evaluation deals against the heuristic (the gates' opponent)
SCALE = "0.001"
TINY = ["num_games=32", "steps_per_iteration=40", "eval_deals=8", "hidden=[32]",
        "args.batch_size=256", "torch_threads=1", "numba_threads=1"]


def tiny_sets(path: Path) -> list[str]:
    """TINY, and per stage: the heuristic as the only evaluation opponent (search opponents
    would compile their table for a few deals), a belief network watching the heuristic.
    barbu-critic keeps its layers: its card's options seat the zoo's barbu-specialist in two
    contracts, which must be of the network's shape."""
    sets = [s for s in TINY if not (path.stem == "barbu-critic" and s.startswith("hidden"))]
    for stage in yaml.safe_load(path.read_text())["stages"]:
        config = yaml.safe_load((ROOT / stage["config"]).read_text())
        if config["algorithm"] == "beliefs":
            sets.append(f"{stage['name']}.args.behaviour=heuristic")
        else:
            sets.append(f"{stage['name']}.eval_opponents=[heuristic]")
    return sets


def cli(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def recipe_runs(tmp_path_factory):
    """Every recipe trained at the tiny scale through the command line: name -> (exit
    status, stdout, stderr, run directory)."""
    runs = {}
    for path in RECIPES:
        out = tmp_path_factory.mktemp(path.stem)
        argv = ["train", str(path), "--out", str(out), "--scale", SCALE]
        for s in tiny_sets(path):
            argv += ["--set", s]
        code, stdout, stderr = cli(*argv)
        made = list(out.iterdir())
        runs[path.stem] = (code, stdout, stderr, made[0] if made else None)
    return runs


def recipe_stages(path: Path) -> list[dict]:
    return yaml.safe_load(path.read_text())["stages"]


def test_every_shipped_network_has_a_recipe_with_its_cards_stages():
    recipes = {p.stem for p in RECIPES}
    assert set(model_names()) <= recipes
    for name in model_names():
        path = ROOT / "configs" / "recipes" / f"{name}.yaml"
        data = yaml.safe_load(path.read_text())
        c = card(name)
        assert data["network"] == name
        # a network seated with another's weights (barbu-critic: barbu's) is made by the
        # recipe of those weights; its card's options name the rest
        weights = card(Path(c["weights"]).stem)
        assert [s["config"] for s in data["stages"]] == \
            [s["config"] for s in weights["recipe"]["stages"]], name
        # each stage as long as the one that made the shipped network
        resolved = load_recipe(path)
        assert [s["body"].get("iterations") for s in resolved["stages"]] == \
            [s["iterations"] for s in weights["recipe"]["stages"]], name
        own = parse_spec(f"neural:{data['options']}")[1] if data.get("options") else {}
        assert own == c["options"], name
        assert data["summary"] == c["summary"], name


@pytest.mark.parametrize("path", RECIPES, ids=lambda p: p.stem)
def test_every_recipe_trains_its_network_at_a_tiny_scale(recipe_runs, path):
    code, stdout, stderr, run_dir = recipe_runs[path.stem]
    assert code == 0, stderr[-2000:]
    stages = recipe_stages(path)
    # what will run is said first, with a line per stage; then the run directory
    lines = stderr.splitlines()
    assert lines[0].startswith(f"recipe {path.stem} (network ") and f"{len(stages)} stages" in \
        lines[0] and "--scale 0.001" in lines[0]
    assert [x.split()[0] for x in lines[1:1 + len(stages)]] == \
        [f"{k}-{s['name']}" for k, s in enumerate(stages, 1)]
    assert lines.index(f"run directory: {run_dir}") > len(stages)
    assert stdout.strip().splitlines()[-1] == f"run directory: {run_dir}"
    # one ordinary training run per stage, each from the network the stage before ended with
    before = None
    for k, stage in enumerate(stages, 1):
        folder = run_dir / "stages" / f"{k}-{stage['name']}"
        config = yaml.safe_load((folder / "config.yaml").read_text())
        assert config["init"] == (None if before is None else str(before.resolve()))
        assert (folder / "plots" / "learning_curve.png").is_file()
        before = folder / "checkpoints" / "latest.pt"
        evaluation = json.loads((folder / "evaluation.json").read_text())
        assert evaluation["stage"] == k and evaluation["deals"] == 8
        if config["algorithm"] != "beliefs":
            assert set(evaluation["against"]) == {"heuristic"}
        assert (folder / "gate.json").is_file() == ("gate" in stage)
    record = json.loads((run_dir / "stages.json").read_text())
    assert record["finished"] and [r["status"] for r in record["stages"]] == ["done"] * len(
        stages)
    assert all(r["gate"]["passed"] for r in record["stages"] if r["gate"])
    assert (run_dir / "plots" / "learning_curve.png").stat().st_size > 1000
    # the model card names the network, its stages those of the recipe
    made = json.loads((run_dir / "model-card.json").read_text())
    network = run_dir / made["checkpoint"]
    assert made["name"] == yaml.safe_load(path.read_text())["network"]
    assert made["sha256"] == file_sha256(network)
    assert [s["config"] for s in made["recipe"]["stages"]] == [s["config"] for s in stages]
    assert [s["init"] for s in made["recipe"]["stages"]] == \
        [None] + [s["name"] for s in made["recipe"]["stages"][:-1]]
    assert made["recipe"]["scale"] == 0.001 and made["recipe"]["sets"] == tiny_sets(path)
    last = load_checkpoint(before)["model"]
    final = load_checkpoint(network)
    assert "optimizer" not in final["training"]
    assert all(torch.equal(final["model"][k], v) for k, v in last.items())
    # it plays at once as neural:checkpoint=RUN (a belief network as pimc:beliefs=RUN)
    assert checkpoint_path(str(run_dir)) == network
    game = final["game"]
    if made["kind"] == "beliefs":
        from agents.neural.beliefs import load_beliefs
        from cardsim import games

        load_beliefs(str(run_dir), games.get(game))
    elif _seats_an_older_network(made, final):
        # barbu-critic's options seat the zoo's barbu-specialist, made before the observation
        # grew: refused in one line until barbu-specialist is trained again from its recipe
        with pytest.raises(InvalidConfigError, match="barbu-specialist is a distill network "
                                                     "of layers .* it must be of the kind"):
            make_agent(f"neural:checkpoint={run_dir}", game, _rules(final))
    else:
        agent = make_agent(f"neural:checkpoint={run_dir}", game, _rules(final))
        assert all(torch.equal(agent.net.state_dict()[k], v) for k, v in last.items())


def _seats_an_older_network(made: dict, final: dict) -> bool:
    """Whether a card's options name a zoo network that observes less than its own."""
    others = {v for k, v in made["options"].items() if k.startswith("checkpoint_")}
    return any(card(o)["network"]["obs_size"] != final["network"]["obs_size"]
               for o in others)


def _rules(data):
    from cardsim import games

    return games.get(data["game"]).rules_cls.from_dict(data["rules"])


def test_a_recipe_run_seats_its_network_with_its_cards_options_and_ships(recipe_runs,
                                                                         tmp_path):
    from experiments.train.ship import main as ship_main

    run_dir = recipe_runs["debertz-2v2-critic"][3]
    rules = _rules(load_checkpoint(run_dir / "network.pt"))
    agent = make_agent(f"neural:checkpoint={run_dir}", "debertz", rules)
    spelt = make_agent(f"neural:checkpoint={run_dir / 'network.pt'},prior=heuristic,margin=4",
                       "debertz", rules)
    assert agent.prior is not None and (agent.margins == spelt.margins).all()
    folder = tmp_path / "models"
    with contextlib.redirect_stdout(io.StringIO()):
        assert ship_main([str(run_dir), "mine", "--folder", str(folder)]) == 0
    shipped = json.loads((folder / "mine.json").read_text())
    made = json.loads((run_dir / "model-card.json").read_text())
    assert shipped["options"] == {"prior": "heuristic", "margin": 4} and shipped["kind"] == \
        "critic"
    assert shipped["recipe"]["stages"] == made["recipe"]["stages"]
    assert (folder / "mine.pt").read_bytes() == (run_dir / "network.pt").read_bytes()
    assert shipped["sha256"] == made["sha256"] and shipped["weights"] == "mine.pt"
    assert shipped["training"] == made["training"]


def test_resolved_recipe_records_the_scale_and_sets(recipe_runs):
    run_dir = recipe_runs["debertz-2p"][3]
    resolved = yaml.safe_load((run_dir / "recipe.yaml").read_text())
    assert resolved["scale"] == 0.001 and resolved["sets"] == tiny_sets(
        ROOT / "configs" / "recipes" / "debertz-2p.yaml")
    dmc, distill = resolved["stages"][:2]
    # 225 iterations, evaluations every 25 on 2,000 deals, at 0.001: rounded up; then --set
    assert dmc["config"]["iterations"] == 1 and dmc["config"]["eval_every"] == 1
    assert dmc["config"]["eval_deals"] == 8 and dmc["config"]["num_games"] == 32
    assert distill["starts_from"] == "stages/1-dmc" and distill["config"]["init"] is None
    assert distill["from"] == "configs/train/debertz_2p_distill.yaml"
    assert distill["gate"] == {"opponent": "heuristic", "not_worse_than": "previous",
                               "margin": 2.0}


def test_scale_multiplies_every_budget_rounded_up():
    path = ROOT / "configs" / "recipes" / "barbu-specialist.yaml"
    resolved = load_recipe(path, ["early-more.eval_deals=5"], "0.01")
    bodies = {s["name"]: s["body"] for s in resolved["stages"]}
    assert bodies["dmc"]["iterations"] == 18 and bodies["dmc"]["eval_every"] == 1  # 1800, 25
    assert bodies["dmc"]["eval_deals"] == 10                                     # 1,000
    early = bodies["early-more"]  # 400 iterations, 64 play-outs a label, 4 rollouts
    assert early["iterations"] == 4 and early["args"]["drawn_rollouts"] == 1
    assert early["args"]["rollouts"] == 1 and early["args"]["samples"] == 0  # 0: none
    assert early["eval_deals"] == 5  # a value set is taken as given
    assert load_recipe(path, [], "3")["stages"][0]["body"]["iterations"] == 5400
    # 0.07 is seven hundredths: 100 x 0.07 is 7, not 8
    inline = {"name": "r", "stages": [{"name": "a", "config": {
        "name": "a", "game": "debertz", "algorithm": "dmc", "iterations": 100}}]}
    from experiments.train.recipe import resolve_recipe

    assert resolve_recipe(inline, "r.yaml", (), "0.07")["stages"][0]["body"]["iterations"] == 7


def test_scale_reaches_a_label_budget_left_at_its_default():
    # beliefs draws 64 deals a position unless told: --scale 0.25 makes that 16, and a
    # budget whose default is 0 (none) is not written in
    from experiments.train.recipe import resolve_recipe

    inline = {"name": "r", "stages": [
        {"name": "b", "config": {"name": "b", "game": "debertz", "algorithm": "beliefs",
                                 "args": {"prior": "sampler"}}},
        {"name": "d", "config": {"name": "d", "game": "debertz", "algorithm": "distill"}}]}
    bodies = [s["body"] for s in resolve_recipe(inline, "r.yaml", (), "0.25")["stages"]]
    assert bodies[0]["args"] == {"prior": "sampler", "prior_draws": 16}
    assert "args" not in bodies[1]
    assert resolve_recipe(inline, "r.yaml", (), "0.01")["stages"][0]["body"]["args"][
        "prior_draws"] == 8  # kept at least 8


@pytest.mark.parametrize("argv, words", [
    (["--set", "itrations=3"], "unknown key 'itrations'; allowed: a stage name (dmc, distill)"),
    (["--set", "distill.epochs=3"], "unknown key 'epochs'; allowed: the keys name, game"),
    (["--set", "distill.gate.margin=3"], "'gate' takes no key inside it"),
    (["--set", "args.rollouts=2"], "two.yaml stage 1 (dmc), whose algorithm dmc takes no "
                                   "argument 'rollouts'"),
    (["--set", "distill.args.rollout=2"], "takes no argument 'rollout'; allowed: "
                                          "learning_rate, batch_size"),
    (["--set", "iterations=0"], "config key 'iterations' has invalid value 0"),
    (["--set", "iterations"], "--set takes KEY=VALUE"),
    (["--set", "hidden=[32"], "is not valid YAML"),
    (["--set", "iterations.x=1"], "'iterations' takes no key inside it"),
    (["--set", "distill.init=runs/x"], "init cannot be set: each stage after the first"),
    (["--set", "distill.gate={opponent: random, at_least: 0}"],
     "the gate's opponent 'random' is not among the stage's eval_opponents; allowed: "
     "heuristic"),
    (["--scale", "0"], "--scale takes a number > 0"),
    (["--scale", "much"], "--scale takes a number > 0"),
])
def test_bad_overrides_are_refused_naming_what_is_allowed(tmp_path, argv, words):
    path = two_stage_recipe(tmp_path)
    code, _, err = cli("train", str(path), "--out", str(tmp_path / "runs"), *argv)
    assert code == 2 and words in err, err
    assert err.strip().splitlines()[-1].startswith("cardsim: error:")
    assert not (tmp_path / "runs").exists()  # nothing was made


def two_stage_recipe(tmp_path, second: dict | None = None, gate=None, name="two") -> Path:
    """A recipe of two real stages (debertz-2p's DMC, then distillation), written in the
    recipes' folder layout so its configs are found from it."""
    folder = tmp_path / "configs" / "recipes"
    folder.mkdir(parents=True, exist_ok=True)
    for stem in ("debertz_2p_dmc", "debertz_2p_distill"):
        train = tmp_path / "configs" / "train" / f"{stem}.yaml"
        train.parent.mkdir(parents=True, exist_ok=True)
        train.write_text((ROOT / "configs" / "train" / f"{stem}.yaml").read_text())
    stages = [{"name": "dmc", "config": "configs/train/debertz_2p_dmc.yaml",
               "set": {"iterations": 2, "eval_every": 2}},
              {"name": "distill", "config": "configs/train/debertz_2p_distill.yaml",
               "set": {"iterations": 3, "eval_every": 0, **(second or {})}}]
    if gate:
        stages[1]["gate"] = gate
    path = folder / f"{name}.yaml"
    path.write_text(yaml.safe_dump({"name": name, "network": name, "stages": stages}))
    return path


TWO = TINY + ["eval_opponents=[heuristic]"]


def test_resume_inside_the_second_stage_gives_the_same_network_byte_for_byte(tmp_path,
                                                                              monkeypatch):
    path = two_stage_recipe(tmp_path)
    whole_dir, _ = start_recipe(path, tmp_path / "whole", TWO)

    saves = {"n": 0}
    real_save = loop.Trainer._save

    def killed_in_stage_two(self, evaluated):
        real_save(self, evaluated)
        if self.run_dir.name == "2-distill":
            saves["n"] += 1
            if saves["n"] == 1:  # after stage 2's first checkpoint, before its report
                raise KeyboardInterrupt

    monkeypatch.setattr(loop.Trainer, "_save", killed_in_stage_two)
    argv = ["train", str(path), "--out", str(tmp_path / "cut")]
    for s in TWO:
        argv += ["--set", s]
    code, _, err = cli(*argv)
    cut_dir = next((tmp_path / "cut").iterdir())
    assert code == 130 and f"cardsim train --resume {cut_dir}" in err
    monkeypatch.setattr(loop.Trainer, "_save", real_save)
    stage2 = cut_dir / "stages" / "2-distill"
    # no evaluation yet in stage 2 (eval_every 0): its curve and the recipe's were drawn
    # on the interrupt
    assert (stage2 / "plots" / "learning_curve.png").is_file()
    assert (cut_dir / "plots" / "learning_curve.png").is_file()
    assert not (cut_dir / "model-card.json").exists()
    # while it trains, the run means its newest stage's network
    assert checkpoint_path(str(cut_dir)) == stage2 / "checkpoints" / "latest.pt"
    assert [r["name"] for r in json.loads((cut_dir / "stages.json").read_text())["stages"]] \
        == ["dmc"]
    # a resume takes no overrides: they are the run's own
    code, _, err = cli("train", "--resume", str(cut_dir), "--set", "iterations=9")
    assert code == 2 and "a resumed run keeps the --set and --scale" in err
    code, out, err = cli("train", "--resume", str(cut_dir))
    assert code == 0, err
    assert "resuming stage 2/2 distill after iteration 1 of 3 (continuing with iteration 2)" \
        in err
    whole = load_checkpoint(whole_dir / "network.pt")["model"]
    cut = load_checkpoint(cut_dir / "network.pt")["model"]
    assert whole.keys() == cut.keys()
    assert all(whole[k].numpy().tobytes() == cut[k].numpy().tobytes() for k in whole)
    for run in (whole_dir, cut_dir):  # the same figures, iteration by iteration
        rows = [json.loads(x) for x in (run / "stages" / "2-distill" / "metrics.jsonl")
                .read_text().splitlines()]
        assert [m["iteration"] for m in rows] == [1, 2, 3]
    # killed after the stage's last checkpoint but before stages.json said so: the stage
    # is found finished, recorded, and the network is the same
    record = json.loads((cut_dir / "stages.json").read_text())
    record["stages"] = record["stages"][:1]
    (cut_dir / "stages.json").write_text(json.dumps(record))
    (cut_dir / "model-card.json").unlink()
    _, summary = resume_recipe(cut_dir)
    assert [r["name"] for r in summary["stages"]] == ["dmc", "distill"]
    again = load_checkpoint(cut_dir / "network.pt")["model"]
    assert all(torch.equal(again[k], whole[k]) for k in whole)


def test_a_failing_gate_stops_the_recipe_with_its_figures(tmp_path):
    gate = {"opponent": "heuristic", "at_least": 1000}
    path = two_stage_recipe(tmp_path, {"iterations": 1}, gate=gate)
    argv = ["train", str(path), "--out", str(tmp_path / "runs")]
    for s in TWO:
        argv += ["--set", s]
    code, out, err = cli(*argv)
    run_dir = next((tmp_path / "runs").iterdir())
    record = json.loads((run_dir / "stages.json").read_text())
    verdict = record["stages"][1]["gate"]
    assert code == 3 and not verdict["passed"] and record["stages"][1]["status"] == \
        "gate failed" and not record["finished"]
    line = err.strip().splitlines()[-1]
    assert line.startswith("cardsim: stage 2/2 distill failed its gate: stage 2 (distill) "
                           "against heuristic: ")
    assert f"{verdict['difference']:+.2f} points per deal" in line and \
        "below the gate's at_least +1000.00" in line and "2-distill" in line
    assert json.loads((run_dir / "stages" / "2-distill" / "gate.json").read_text()) == verdict
    assert not (run_dir / "model-card.json").exists() and out == ""


def test_not_worse_than_previous_compares_both_networks_on_the_same_deals():
    from experiments.train.gates import judge_gate

    gate = {"opponent": "heuristic", "not_worse_than": "previous", "margin": 1.0}
    figures = {"current": 2.0, "previous": 5.5, "change": -3.5, "ci95": 1.2, "deals": 1000}
    verdict = judge_gate(gate, "stage 3 (self)", {}, lambda: figures)
    assert not verdict["passed"]
    assert verdict["text"] == (
        "stage 3 (self) against heuristic: +2.00 points per deal, the previous stage +5.50 "
        "on the same 1,000 deals: a change of -3.50 (paired 95% interval +-1.20), worse "
        "than the gate's margin of 1.00")
    # an interval that reaches -margin passes: a gate fails only on evidence
    assert judge_gate(gate, "s", {}, lambda: {**figures, "ci95": 2.5})["passed"]


def test_the_gate_figures_of_a_finished_recipe_are_paired_on_its_evaluation(recipe_runs):
    # the stage's own figure in the gate is its final evaluation (the same deals), and the
    # previous stage's is that network's on those deals
    run_dir = recipe_runs["debertz-2p"][3]
    stages = json.loads((run_dir / "stages.json").read_text())["stages"]
    for before, now in zip(stages, stages[1:]):
        g = now["gate"]
        assert g["current"] == pytest.approx(now["evaluation"]["heuristic"]["difference"])
        assert g["change"] == pytest.approx(g["current"] - g["previous"])
        assert g["deals"] == 8 and g["passed"] == (g["change"] + g["ci95"] >= -g["margin"])


@pytest.mark.parametrize("gate, words", [
    ({"opponent": "heuristic", "not_worse_than": "previous"}, "the first stage has no "
                                                              "previous stage"),
    ({"opponent": "heuristic", "not_worse_than": "best"}, "allowed: previous"),
    ({"opponent": "heuristic"}, "exactly one of not_worse_than, at_least; got neither"),
    ({"opponent": "heuristic", "at_least": 0, "marign": 1}, "unknown gate key 'marign'"),
    ({"opponent": "heuristic", "at_least": "high"}, "allowed: a number of points per deal"),
])
def test_bad_gates_are_refused_naming_what_is_allowed(gate, words):
    from experiments.train.recipe import resolve_recipe

    body = {"name": "a", "game": "debertz", "algorithm": "dmc"}
    data = {"name": "r", "stages": [{"name": "a", "config": body, "gate": gate}]}
    with pytest.raises(InvalidConfigError, match="r.yaml stage 1 \\(a\\)") as e:
        resolve_recipe(data, "r.yaml")
    assert words in str(e.value)


def test_patience_stops_a_stage_early_and_a_resume_stops_there_too(tmp_path):
    # a learning rate too small to change the greedy play: every evaluation the same, none
    # better than the first, so 2 of them after it stop the stage at iteration 3 of 8
    body = {"name": "still", "game": "debertz", "rules": {"players": 2}, "algorithm": "dmc",
            "iterations": 8, "eval_every": 1, "patience": 2,
            "args": {"learning_rate": 1.0e-12}}
    path = tmp_path / "still.yaml"
    path.write_text(yaml.safe_dump({"name": "still", "stages": [{"name": "still",
                                                                  "config": body}]}))
    run_dir, summary = start_recipe(path, tmp_path / "runs", TWO)
    [record] = summary["stages"]
    assert record["iterations"] == 3 and record["of"] == 8
    assert record["early_stop"].startswith("stopped early at iteration 3: 2 evaluations "
                                           "against heuristic did not beat ")
    assert record["early_stop"].endswith("(iteration 1; patience 2)")
    rows = [json.loads(x) for x in (run_dir / "stages" / "1-still" / "metrics.jsonl")
            .read_text().splitlines()]
    assert [("early_stop" in m) for m in rows] == [False, False, True]
    _, again = resume_recipe(run_dir)
    assert again["stages"][0]["iterations"] == 3
    assert load_checkpoint(run_dir / "network.pt")["training"]["iteration"] == 3


def test_early_stop_counts_evaluations_without_a_new_best():
    from experiments.train.gates import early_stop

    def rows(*diffs):
        return [{"iteration": i + 1, "eval": {"h": {"difference": d}}} if d is not None
                else {"iteration": i + 1} for i, d in enumerate(diffs)]

    assert early_stop(rows(1, 2, 3), 1, "h") is None
    assert early_stop(rows(1, 3, None, 2), 1, "h").startswith("stopped early at iteration 4: "
                                                              "1 evaluations")
    assert early_stop(rows(1, 3, 2), 2, "h") is None
    assert early_stop(rows(1, 3, 2, 3), 2, "h").endswith("+3.00 points per deal (iteration 2; "
                                                         "patience 2)")
    assert early_stop(rows(5, 1, 1), 0, "h") is None


def test_a_training_config_takes_set_and_scale_too(tmp_path):
    config = tmp_path / "c.yaml"
    config.write_text(yaml.safe_dump({"name": "c", "game": "debertz", "rules": {"players": 2},
                                      "algorithm": "dmc", "iterations": 300,
                                      "eval_every": 100, "eval_deals": 800}))
    argv = ["train", str(config), "--out", str(tmp_path / "runs"), "--scale", "0.005"]
    for s in TWO:
        argv += ["--set", s]
    code, out, err = cli(*argv)
    assert code == 0, err
    assert err.splitlines()[0].startswith("training c (debertz): dmc, 2 iterations x 32 games")
    run_dir = next((tmp_path / "runs").iterdir())
    made = yaml.safe_load((run_dir / "config.yaml").read_text())
    assert made["iterations"] == 2 and made["eval_every"] == 1 and made["eval_deals"] == 8
    meta = json.loads((run_dir / "meta.json").read_text())
    assert meta["overrides"] == {"sets": TWO, "scale": "0.005"}
    code, _, err = cli("train", str(config), "--set", "args.rollouts=1", "--out",
                       str(tmp_path / "more"))
    assert code == 2 and "whose algorithm dmc takes no argument 'rollouts'" in err


def test_the_plan_is_said_before_torch_loads():
    # what will run comes within a second or two: reading the recipe and its overrides
    # loads no torch (its seconds come after the plan)
    import subprocess
    import sys

    script = ("import sys\n"
              "from experiments.train.plan import plan_lines\n"
              "from experiments.train.recipe_run import load_recipe\n"
              "r = load_recipe('configs/recipes/debertz-3p.yaml', ['num_games=8'], '0.5')\n"
              "print(plan_lines(r, 'runs/x/')[0])\n"
              "assert 'torch' not in sys.modules, 'torch loaded'\n")
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         cwd=ROOT, timeout=120)
    assert res.returncode == 0, res.stderr[-2000:]
    assert res.stdout.startswith("recipe debertz-3p (network debertz-3p): 6 stages, 278 "
                                 "iterations")


def test_a_recipe_must_start_from_nothing(tmp_path):
    from experiments.train.recipe import resolve_recipe

    body = {"name": "a", "game": "debertz", "algorithm": "dmc", "init": "debertz-2p"}
    data = {"name": "r", "stages": [{"name": "a", "config": body}]}
    with pytest.raises(InvalidConfigError, match="names a network, but a recipe makes its "
                                                 "network from nothing"):
        resolve_recipe(data, "r.yaml")
    # the later stages' init (a retired network's name) is replaced by the stage before
    resolved = load_recipe(ROOT / "configs" / "recipes" / "barbu.yaml")
    assert [s["body"].get("init") for s in resolved["stages"]] == [None] * 7
    assert [s["starts_from"] for s in resolved["stages"][:3]] == [None, "stages/1-dmc",
                                                                  "stages/2-distill"]


def test_the_docs_table_of_recipes_gives_the_cards_times():
    page = (ROOT / "docs" / "training.md").read_text()
    section = page[page.index("## Recipes"):page.index("### The run directory")]
    rows = {}
    for line in section.splitlines():
        if line.startswith("| `"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            rows[cells[0].strip("`")] = cells[2]
    assert set(rows) == {p.stem for p in RECIPES}
    for name, time in rows.items():
        if name not in model_names():
            assert time == "not yet measured", name
            continue
        # the time of the stages the recipe trains: those of the network whose weights it is
        seconds = card(Path(card(name)["weights"]).stem)["training"]["seconds"]
        assert time == f"{seconds / 3600:.1f} h", name


def test_the_docs_recipe_is_a_valid_recipe():
    from experiments.train.recipe import check_recipe, resolve_recipe

    page = (ROOT / "docs" / "training.md").read_text()
    section = page[page.index("## Recipes"):]
    block = section[section.index("```yaml") + 7:section.index("```", section.index("```yaml")
                                                               + 7)]
    resolved = resolve_recipe(yaml.safe_load(block), str(ROOT / "configs" / "recipes" /
                                                          "doc.yaml"))
    [dmc, distill] = check_recipe(resolved)
    assert distill.eval_every == 20 and distill.init is None
    assert resolved["stages"][1]["gate"]["margin"] == 2


def test_a_recipe_killed_with_sigkill_in_its_second_stage_resumes_to_the_same_network(
        tmp_path):
    # a real crash: the recipe's process is killed once stage 2 has a checkpoint on disk;
    # the resume loses at most the iterations after it and ends with the network of a run
    # never interrupted, byte for byte
    path = two_stage_recipe(tmp_path, second={"iterations": 4})
    argv = [str(path)] + [a for s in TWO for a in ("--set", s)]
    cut_dir = train_until_killed(argv, tmp_path / "cut",
                                 "*/stages/2-distill/checkpoints/latest.pt", 300, cwd=tmp_path)
    stage2 = cut_dir / "stages" / "2-distill"
    kept = load_checkpoint(stage2 / "checkpoints" / "latest.pt")["training"]["iteration"]
    assert 1 <= kept < 4 and not (cut_dir / "network.pt").exists()
    resume_recipe(cut_dir)
    whole_dir, _ = start_recipe(path, tmp_path / "whole", TWO)
    rows = [json.loads(x) for x in (stage2 / "metrics.jsonl").read_text().splitlines()]
    assert [m["iteration"] for m in rows] == [1, 2, 3, 4]
    whole = load_checkpoint(whole_dir / "network.pt")["model"]
    cut = load_checkpoint(cut_dir / "network.pt")["model"]
    assert whole.keys() == cut.keys()
    assert all(whole[k].numpy().tobytes() == cut[k].numpy().tobytes() for k in whole)
    assert json.loads((cut_dir / "model-card.json").read_text())["checkpoint"] == "network.pt"
