"""``cardsim train``: tiny-budget runs of every ready config, the learners on toy targets,
checkpoints, resume after an interruption, and config errors."""

import json
from pathlib import Path

import numpy as np
import pytest
import torch
import yaml

from agents.neural import ActionHeadNet, NeuralAgent, load_checkpoint
from agents.neural.zoo import checkpoint_path
from agents.registry import make_agent
from cardsim import games
from cardsim.errors import InvalidConfigError
from experiments.cli import main
from experiments.train.config import load_config
from experiments.train.dmc import DMC, DMCArgs
from experiments.train.episodes import EpisodeBuffer, Samples
from experiments.train.loop import resume_training, start_training
from experiments.train.ppo import PPO, PPOArgs
from tests.experiments.killed_runs import train_until_killed
from tests.experiments.metrics import metrics_without_timings
from tests.experiments.toy_targets import learn_linear_action_values

CONFIGS = sorted((Path(__file__).resolve().parents[2] / "configs" / "train").glob("*.yaml"))
TINY = dict(num_games=64, steps_per_iteration=40, iterations=2, hidden=[32], eval_every=2,
            eval_deals=16, torch_threads=1, numba_threads=1)


def tiny_config(tmp_path, base: dict | Path, **over) -> Path:
    data = yaml.safe_load(base.read_text()) if isinstance(base, Path) else dict(base)
    data.update(TINY)
    data.pop("init", None)  # a shipped network's layers are not the tiny ones
    # search opponents would compile their table for a tiny evaluation: left to their tests
    data["eval_opponents"] = [o for o in data.get("eval_opponents", ["random"])
                              if not str(o).startswith(("pimc", "ismcts"))] or ["random"]
    if data["algorithm"] == "beliefs":  # watched play: the heuristic, no evaluation games
        data["eval_opponents"] = []
        data.setdefault("args", {})["behaviour"] = "heuristic"
    data.update(over)
    args = data.setdefault("args", {})
    for key in ("batch_size", "minibatch_size"):
        if key in args or key == ("minibatch_size" if data["algorithm"] == "ppo" else
                                  "batch_size"):
            args[key] = 512
    path = tmp_path / "tiny.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def test_ready_configs_cover_both_games_and_algorithms():
    configs = [load_config(p, check_init=False) for p in CONFIGS]  # a stage's init: its run
    seen = {(c.game, c.algorithm) for c in configs}
    assert seen == {("debertz", "dmc"), ("debertz", "ppo"), ("barbu", "dmc"), ("barbu", "ppo"),
                    ("debertz", "distill"), ("barbu", "distill"), ("debertz", "beliefs"),
                    ("barbu", "beliefs")}
    assert any(c.rules.get("teams") for c in configs)


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.name)
def test_ready_config_trains_on_a_tiny_budget(path, tmp_path):
    base = yaml.safe_load(path.read_text())
    # DMC and distill learn from finished deals only (those still running when an iteration
    # ends are dropped): with the network in every Barbu seat one deal takes about 57 steps
    every_seat = base.get("opponents") is None and base["algorithm"] in ("dmc", "distill")
    steps = 80 if base["game"] == "barbu" and every_seat else TINY["steps_per_iteration"]
    config = tiny_config(tmp_path, path, steps_per_iteration=steps)
    run_dir, summary = start_training(config, tmp_path / "runs")
    lines = [json.loads(x) for x in (run_dir / "metrics.jsonl").read_text().splitlines()]
    assert [m["iteration"] for m in lines] == [1, 2]
    # compiling is timed apart from the first iteration, not in its rate
    assert lines[0]["compile_s"] >= 0 and "compile_s" not in lines[1]
    assert summary["decisions"] == 2 * 64 * steps and summary["samples"] > 0
    opponents = yaml.safe_load(config.read_text())["eval_opponents"]
    assert set(lines[-1]["eval"]) == set(opponents)
    if opponents:
        e = lines[-1]["eval"][opponents[0]]
        assert np.isfinite(e["difference"]) and e["ci95"] > 0
    assert (run_dir / "plots" / "learning_curve.png").stat().st_size > 1000
    assert (run_dir / "checkpoints" / "iter-000002.pt").is_file()
    cfg = yaml.safe_load((run_dir / "config.yaml").read_text())
    meta = json.loads((run_dir / "meta.json").read_text())
    assert cfg["algorithm"] == meta["algorithm"] and meta["rules_hash"]
    if cfg["algorithm"] == "distill":  # card play was labelled by the solver
        assert all(0 < m["labelled"] < m["decisions"] for m in lines)
    data = load_checkpoint(run_dir / "checkpoints" / "latest.pt")
    assert data["training"]["counts"]["decisions"] == summary["decisions"]
    assert data["training"]["config"] == cfg and data["net"].hidden == (32,)
    if cfg["algorithm"] == "beliefs":  # a belief network: pimc draws its deals by it
        from agents.neural.beliefs import load_beliefs

        assert all(m["loss"] > 0 and m["uniform"] > 0 for m in lines)
        # learnt over the sampler's chances: their own cross-entropy is reported beside
        prior = cfg["args"].get("prior") == "sampler"
        assert all((m.get("sampler", 0) > 0) == prior for m in lines)
        load_beliefs(str(run_dir), games.get(cfg["game"]))
        return
    # the checkpoint plays wherever agents do
    NeuralAgent(cfg["game"], {"checkpoint": str(run_dir / "checkpoints/latest.pt")})


def test_dmc_fits_known_action_values():
    # Q(s, a) = s . w_a on random states: the loss falls by far from its start
    def every_action_legal(rng, obs, q):
        a = rng.integers(0, 5, 512)
        return Samples(obs, np.ones((512, 5), bool), a, q[np.arange(512), a],
                       np.zeros(512, np.float32))

    _, losses, _, _ = learn_linear_action_values(
        lambda net: DMC(net, DMCArgs(learning_rate=0.003, batch_size=512), torch.device("cpu")),
        every_action_legal)
    assert np.mean(losses[-20:]) < 0.05 * np.mean(losses[:5])


def test_more_epochs_learn_the_same_samples_again_in_shuffled_passes():
    # A fixed set of 1,000 samples learnt from once, then in 4 passes: the first pass is the
    # same (its loss too), each later pass takes ceil(1000 / 256) more steps in a fresh
    # order, and the network fits those samples better; the same generator, the same net.
    rng = np.random.default_rng(2)
    w = rng.normal(size=(20, 5)).astype(np.float32)
    obs = rng.random((1000, 20), dtype=np.float32)
    a = rng.integers(0, 5, 1000)
    samples = Samples(obs, np.ones((1000, 5), bool), a, (obs @ w)[np.arange(1000), a],
                      np.zeros(1000, np.float32))

    def learnt(epochs, seed=0):
        torch.manual_seed(0)
        net = ActionHeadNet(20, 5, (64,))
        dmc = DMC(net, DMCArgs(learning_rate=0.003, batch_size=256, epochs=epochs),
                  torch.device("cpu"))
        out = dmc.learn_samples([samples], np.random.default_rng(seed))
        with torch.no_grad():
            q = net(torch.from_numpy(obs)).gather(1, torch.from_numpy(a)[:, None])
        return out, float(((q.squeeze(1).numpy() - samples.ret) ** 2).mean()), net

    once, fit_once, _ = learnt(1)
    four, fit_four, net = learnt(4)
    assert once == {"samples": 1000, "updates": 4, "loss": once["loss"]}
    assert four["samples"] == 1000 and four["updates"] == 16
    assert four["loss"] == once["loss"]            # the first pass: samples not yet learnt
    assert four["last_pass_loss"] < 0.8 * four["loss"]
    assert fit_four < 0.5 * fit_once
    again = learnt(4)[2]
    other = learnt(4, seed=1)[2]
    weights = list(net.parameters())
    assert all(torch.equal(x, y) for x, y in zip(weights, again.parameters()))
    assert not all(torch.equal(x, y) for x, y in zip(weights, other.parameters()))


def test_ppo_learns_the_rewarded_legal_action():
    # a bandit: action (state id mod 3) pays 1; action 4 is never legal. Sampling from the
    # policy, the share of rewarded choices rises from about 1/4 towards 1.
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    net = ActionHeadNet(3, 5, (32,), value_head=True)
    ppo = PPO(net, PPOArgs(learning_rate=0.01, minibatch_size=256, entropy_coef=0.0),
              torch.device("cpu"))
    legal = np.ones((1024, 5), bool)
    legal[:, 4] = False

    def rewarded_share():
        ids = rng.integers(0, 3, 1024)
        obs = np.eye(3, dtype=np.float32)[ids]
        a, logp = ppo.choose(obs, legal, rng)
        assert legal[np.arange(1024), a].all()
        return obs, a, logp, (a == ids).astype(np.float32)

    first = rewarded_share()[3].mean()
    for _ in range(30):
        obs, a, logp, ret = rewarded_share()
        t = {"obs": torch.from_numpy(obs), "legal": torch.from_numpy(legal),
             "action": torch.from_numpy(a), "ret": torch.from_numpy(ret),
             "extra": torch.from_numpy(logp.astype(np.float32))}
        with torch.no_grad():
            old_value = net.forward_with_value(t["obs"])[1]
        for lo in range(0, 1024, 256):
            ppo._update(t, old_value, torch.arange(lo, lo + 256))
    assert first < 0.4 and rewarded_share()[3].mean() > 0.9


def test_episode_buffer_returns_each_decision_its_seats_deal_score():
    buf = EpisodeBuffer(2, 4, 3, 2)
    legal = np.ones((2, 2), bool)
    for t, seats in enumerate(([0, 1], [1, 0], [0, 1])):
        buf.record(np.full((2, 3), t, np.float32), legal, np.array(seats), np.array([t, t]))
        done = np.array([t == 1, t == 2])
        rewards = np.zeros((2, 4), np.float32)
        rewards[done] = [5, -5, 0, 0]
        out = buf.finish(rewards, done)
        if t == 1:  # game 0's deal ended after two decisions: seat 0 then seat 1
            assert out.ret.tolist() == [5, -5] and out.obs[:, 0].tolist() == [0, 1]
        if t == 2:  # game 1: seats 1, 0, 1; game 0's new deal is still running
            assert out.ret.tolist() == [-5, 5, -5] and out.action.tolist() == [0, 1, 2]
    assert buf.length.tolist() == [1, 0]


@pytest.mark.parametrize("algorithm, args", [("dmc", {}), ("distill", {}), ("beliefs", {}),
                                             ("distill", {"epochs": 2})], ids=str)
def test_resume_after_an_interruption_gives_the_uninterrupted_result(tmp_path, monkeypatch,
                                                                     algorithm, args):
    from experiments.train import loop

    base = dict(name="t", game="debertz", rules={"players": 2}, algorithm=algorithm, seed=3,
                eval_opponents=["random"], args={"batch_size": 512, **args})
    # with an opponent pool: from iteration 2 half the games meet an earlier checkpoint
    # (a belief network does not play: it watches the heuristic)
    config = tiny_config(tmp_path, base, iterations=3, eval_every=1,
                         pool_share=0.0 if algorithm == "beliefs" else 0.5)
    whole_dir, whole = start_training(config, tmp_path / "whole")

    saves = {"n": 0}
    real_save = loop.Trainer._save

    def crash_after_two(self, evaluated):
        real_save(self, evaluated)
        saves["n"] += 1
        if saves["n"] == 2:  # killed after the second checkpoint, before its report
            raise KeyboardInterrupt

    monkeypatch.setattr(loop.Trainer, "_save", crash_after_two)
    with pytest.raises(KeyboardInterrupt):
        start_training(config, tmp_path / "cut")
    monkeypatch.setattr(loop.Trainer, "_save", real_save)
    cut_dir = next((tmp_path / "cut").iterdir())
    # a half-written checkpoint beside the last good one changes nothing
    (cut_dir / "checkpoints" / ".latest.pt.tmp").write_bytes(b"partial")
    assert len((cut_dir / "metrics.jsonl").read_text().splitlines()) == 1
    _, resumed = resume_training(cut_dir)

    lines = metrics_without_timings
    assert lines(cut_dir) == lines(whole_dir)
    rows = lines(whole_dir)
    assert "pool_opponent" not in rows[0]
    if algorithm != "beliefs":
        assert rows[1]["pool_opponent"] == "iter-000001.pt"
        assert rows[2]["pool_opponent"] in ("iter-000001.pt", "iter-000002.pt")
        # the pool's decisions are played, not learnt from
        assert rows[1]["samples"] < 0.85 * rows[0]["samples"]
    a = load_checkpoint(whole_dir / "checkpoints" / "latest.pt")["model"]
    b = load_checkpoint(cut_dir / "checkpoints" / "latest.pt")["model"]
    assert all(torch.equal(a[k], b[k]) for k in a)
    assert resumed["decisions"] == whole["decisions"]


RESUME_EDITS = [
    ({"iterations": 1}, "config key 'iterations' was 2"),
    ({"hidden": [64]}, "config key 'hidden' was [32]"),
    ({"rules": {"players": 3}}, "config key 'rules.players' was 2"),
    ({"algorithm": "ppo", "args": {}}, "config key 'algorithm' was 'dmc'"),
    ({"args": {"batch_size": 512, "epsilon": 0.2}}, "config key 'args.epsilon' was 0.05"),
    ({"seed": 5}, "config key 'seed'"),
    ({"eval_opponents": ["heuristic"]}, "config key 'eval_opponents'"),
]


def test_resume_refuses_an_edited_config_naming_the_key(tmp_path, capsys):
    base = dict(name="t", game="debertz", rules={"players": 2}, algorithm="dmc",
                eval_opponents=["random"], args={"batch_size": 512})
    run_dir, _ = start_training(tiny_config(tmp_path, base), tmp_path / "runs")
    path = run_dir / "config.yaml"
    made = yaml.safe_load(path.read_text())
    checkpoint = (run_dir / "checkpoints" / "latest.pt").read_bytes()
    for change, words in RESUME_EDITS:
        path.write_text(yaml.safe_dump({**made, **change}))
        with pytest.raises(InvalidConfigError, match="cannot resume") as e:
            resume_training(run_dir)
        assert words in str(e.value) and "only iterations may grow" in str(e.value)
        assert main(["train", "--resume", str(run_dir)]) == 2
        assert words in capsys.readouterr().err
        assert (run_dir / "checkpoints" / "latest.pt").read_bytes() == checkpoint
    # written out, a default is no change; more iterations extend the run (and its name,
    # device, threads and executor may change: where it runs, not what it learns)
    path.write_text(yaml.safe_dump({**made, "rules": {"players": 2, "target": 501},
                                    "iterations": 3, "name": "renamed"}))
    _, summary = resume_training(run_dir)
    assert summary["iterations"] == 3
    rows = [json.loads(x) for x in (run_dir / "metrics.jsonl").read_text().splitlines()]
    assert [m["iteration"] for m in rows] == [1, 2, 3]
    # floats in metrics.jsonl are rounded like every other JSON output
    floats = [v for m in rows for v in m.values() if isinstance(v, float)]
    assert floats and all(v == float(f"{v:.6g}") for v in floats)


@pytest.mark.parametrize("change, words", [
    ({"epochs": 2}, "unknown config key 'epochs'"),
    ({"args": {"epoch": 2}}, "unknown dmc argument 'epoch'"),
    ({"args": {"epochs": 0}}, "epochs must be a whole number in 1..64, got 0"),
    ({"args": {"epochs": 2.5}}, "allowed: int"),
    ({"args": {"epsilon": 2.0}}, "epsilon must be in [0, 1]"),
    ({"args": {"batch_size": "many"}}, "allowed: int"),
    ({"algorithm": "a2c"}, "allowed: dmc, ppo, distill"),
    ({"algorithm": "distill", "args": {"samples": -2}}, "samples must be in 0..4096"),
    ({"algorithm": "beliefs", "eval_opponents": [], "args": {"prior": "oracle"}},
     "prior must be one of none, sampler, got 'oracle'"),
    ({"algorithm": "beliefs", "eval_opponents": [], "args": {"prior_draws": 2}},
     "prior_draws must be 8..4096, got 2"),
    ({"device": "tpu"}, "allowed: cpu, cuda"),
    ({"hidden": [0]}, "positive layer widths"),
    ({"pool_share": 1.5}, "allowed: a number in [0, 1]"),
    ({"eval_opponents": ["nobody"]}, "unknown debertz agent 'nobody'"),
])
def test_bad_configs_are_refused_naming_the_key(tmp_path, capsys, change, words):
    base = dict(name="t", game="debertz", rules={"players": 2}, algorithm="dmc")
    base.update(change)
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(base))
    with pytest.raises(InvalidConfigError) as e:
        load_config(path)
    assert words in str(e.value) and str(path) in str(e.value)
    assert main(["train", str(path), "--out", str(tmp_path)]) == 2
    # the line saying what would run (printed before the config is checked), then the error
    # in one line
    plan, error = capsys.readouterr().err.strip().splitlines()
    assert plan.startswith("training t (debertz): ")
    assert error.startswith("cardsim: error: ") and words in error
    assert not any(p.is_dir() for p in tmp_path.iterdir())  # no run directory was made


def test_train_command_prints_the_summary_and_resumes(tmp_path, capsys):
    base = dict(name="t", game="debertz", rules={"players": 2}, algorithm="ppo",
                eval_opponents=["random"])
    path = tiny_config(tmp_path, base, iterations=1)
    assert main(["train", str(path), "--out", str(tmp_path / "runs")]) == 0
    out = capsys.readouterr().out
    assert "ppo: 1 iterations" in out and "network - random" in out
    run_dir = out.strip().splitlines()[-1].split(": ", 1)[1]
    assert main(["train", "--resume", run_dir]) == 0  # finished: nothing more to do
    assert "ppo: 1 iterations" in capsys.readouterr().out
    assert main(["train", str(path), "--resume", run_dir]) == 2


def test_readme_training_config_is_valid():
    from experiments.train.config import config_from_dict

    # the config shown on the training page of the docs is debertz_2p_dmc.yaml
    page = (Path(__file__).resolve().parents[2] / "docs" / "training.md").read_text()
    section = page[page.index("## Training configs"):]
    block = section[section.index("```yaml") + 7:section.index("```", section.index("```yaml")
                                                               + 7)]
    cfg = config_from_dict(yaml.safe_load(block))
    assert cfg.to_dict() == load_config(CONFIGS[[p.name for p in CONFIGS]
                                                .index("debertz_2p_dmc.yaml")]).to_dict()


def test_resume_after_kill_9(tmp_path):
    # a real crash: the training process is killed (SIGKILL) once its first checkpoint is
    # on disk; the resumed run reports every iteration once, in order, to the end
    base = dict(name="k", game="debertz", rules={"players": 2}, algorithm="dmc",
                eval_opponents=["random"])
    config = tiny_config(tmp_path, base, iterations=6, eval_every=3, steps_per_iteration=200)
    run_dir = train_until_killed([str(config)], tmp_path / "runs", "*/checkpoints/latest.pt",
                                 120)
    before = load_checkpoint(run_dir / "checkpoints" / "latest.pt")["training"]["iteration"]
    _, summary = resume_training(run_dir)
    rows = [json.loads(x) for x in (run_dir / "metrics.jsonl").read_text().splitlines()]
    assert 1 <= before < 6 and [m["iteration"] for m in rows] == [1, 2, 3, 4, 5, 6]
    assert summary["decisions"] == 6 * 64 * 200


def test_tensorboard_event_files_with_the_real_package(tmp_path):
    """With the rl extra (tensorboard installed), the run's scalars are real event files
    that TensorBoard reads back, PPO's entropy and value loss among them."""
    pytest.importorskip("tensorboard")
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    from experiments.train.loop import _tensorboard

    metrics = [{"total_decisions": 100 * k, "loss": 1.0 / k, "policy_loss": 0.5,
                "value_loss": 0.25 * k, "entropy": 2.0 - k / 10, "decisions_per_s": 1000.0,
                "eval": {"heuristic": {"difference": float(k)}}} for k in (1, 2)]
    _tensorboard(tmp_path, metrics)
    _tensorboard(tmp_path, metrics)  # a resumed run rewrites: no step twice
    events = EventAccumulator(str(tmp_path / "tensorboard"))
    events.Reload()
    assert {"train/loss", "train/entropy", "train/value_loss",
            "eval/heuristic"} <= set(events.Tags()["scalars"])
    assert [(e.step, e.value) for e in events.Scalars("train/entropy")] == [
        (100, pytest.approx(1.9)), (200, pytest.approx(1.8))]


@pytest.mark.parametrize("algorithm", ["dmc", "ppo"])
def test_tensorboard_scalars_when_the_package_is_there(tmp_path, monkeypatch, algorithm):
    # tensorboard is optional: a stand-in SummaryWriter records what the run writes
    import sys
    import types

    written = []

    class Writer:
        def __init__(self, folder):
            self.folder = folder

        def add_scalar(self, tag, value, step):
            written.append((tag, value, step))

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            Path(self.folder).mkdir(parents=True, exist_ok=True)

    monkeypatch.setitem(sys.modules, "torch.utils.tensorboard",
                        types.SimpleNamespace(SummaryWriter=Writer))
    base = dict(name="t", game="debertz", rules={"players": 2}, algorithm=algorithm,
                eval_opponents=["random"])
    run_dir, summary = start_training(tiny_config(tmp_path, base), tmp_path / "runs")
    assert (run_dir / "tensorboard").is_dir()
    tags = {t for t, _, _ in written}
    assert {"train/loss", "train/decisions_per_s", "eval/random"} <= tags
    if algorithm == "ppo":  # its loss terms, apart
        assert {"train/entropy", "train/value_loss", "train/policy_loss"} <= tags
    assert max(s for _, _, s in written) == summary["decisions"]


def test_ship_adds_a_bare_checkpoint_and_its_model_card_to_the_zoo(tmp_path, capsys):
    from agents.neural.zoo import file_sha256
    from experiments.train.ship import main as ship_main

    player = next(p for p in CONFIGS if load_config(p, check_init=False).algorithm
                  not in ("beliefs",))
    base = yaml.safe_load(player.read_text())
    run_dir, _ = start_training(tiny_config(tmp_path, base, iterations=1, eval_every=1),
                                tmp_path / "runs")
    folder = tmp_path / "models"
    assert ship_main([str(run_dir), "tiny", "--folder", str(folder), "--options",
                      "prior=heuristic,margin=2", "--summary", "a tiny test"]) == 0
    data = load_checkpoint(folder / "tiny.pt")
    full = load_checkpoint(run_dir / "checkpoints" / "latest.pt")
    assert "optimizer" not in data["training"] and data["training"]["iteration"] == 1
    for k, v in full["model"].items():
        assert torch.equal(data["model"][k], v)
    card = json.loads((folder / "tiny.json").read_text())
    assert card["name"] == "tiny" and card["kind"] == "critic" and card["summary"] == "a tiny test"
    assert card["options"] == {"prior": "heuristic", "margin": 2}
    assert card["sha256"] == file_sha256(folder / "tiny.pt") and card["weights"] == "tiny.pt"
    assert card["rules_hash"] == data["rules_hash"] and card["game"] == base["game"]
    [stage] = card["recipe"]["stages"]
    assert stage["iterations"] == 1 and stage["decisions"] == full["training"]["counts"][
        "decisions"] and stage["config"].endswith("config.yaml")
    capsys.readouterr()
    assert ship_main([str(tmp_path), "tiny", "--folder", str(folder)]) == 2
    assert "not a training run directory" in capsys.readouterr().err
    assert ship_main([str(run_dir), "a/b", "--folder", str(folder)]) == 2
    # a name already in the zoo is kept unless --force
    shipped = {p.name: p.read_bytes() for p in folder.iterdir()}
    capsys.readouterr()
    assert ship_main([str(run_dir), "tiny", "--folder", str(folder)]) == 2
    err = capsys.readouterr().err
    assert "tiny.pt already exists" in err and "--force" in err
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == shipped
    assert ship_main([str(run_dir), "tiny", "--folder", str(folder), "--force"]) == 0
    assert json.loads((folder / "tiny.json").read_text())["options"] == {}
    assert sorted(p.name for p in folder.iterdir()) == ["tiny.json", "tiny.pt"]
    # a run directory as a neural agent's checkpoint: its latest.pt, named by a label
    agent = make_agent(f"neural:checkpoint={run_dir},label=mine", base["game"])
    assert agent.label == "mine"
    for k, v in full["model"].items():
        assert torch.equal(agent.net.state_dict()[k], v)


def test_learning_curve_panels_keep_their_labels_apart():
    from experiments.train.config import config_from_dict
    from experiments.train.loop import learning_curve_figure

    cfg = config_from_dict(dict(name="a-long-run-name", game="debertz", algorithm="ppo"))
    metrics = [{"total_decisions": 10**6 * i, "loss": 1.0 / i, "value_loss": 2.0 / i,
                "entropy": 1.5, "eval": {"heuristic": {"difference": -3.0 + i,
                                                       "ci95": 1.2}}} for i in range(1, 6)]
    fig = learning_curve_figure(cfg, metrics)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    left, right = (ax.get_tightbbox(renderer) for ax in fig.axes[:2])
    assert left.x1 <= right.x0  # labels, ticks and titles of one panel clear of the other
    assert [t.get_text() for t in fig.axes[0].get_legend().get_texts()] == \
        ["loss", "value loss", "entropy"]


def test_init_starts_from_a_checkpoints_network_and_refuses_another(tmp_path):
    from experiments.train.loop import Trainer

    base = dict(name="t", game="debertz", rules={"players": 2}, algorithm="dmc",
                eval_opponents=["random"])
    run_dir, _ = start_training(tiny_config(tmp_path, base, iterations=1), tmp_path / "runs")
    saved = run_dir / "checkpoints" / "latest.pt"
    config = tiny_config(tmp_path, {**base, "algorithm": "distill"}, init=str(saved), seed=9)
    cfg = load_config(config)
    trainer = Trainer(tmp_path, cfg, torch.device("cpu"))
    start = load_checkpoint(saved)["model"]
    assert all(torch.equal(start[k], v) for k, v in trainer.net.state_dict().items())
    for over, words in (({"hidden": [16]}, "holds a network"),
                        ({"rules": {"players": 3}}, "other rules"),
                        ({"init": str(tmp_path / "none.pt")}, "no such file")):
        bad = tiny_config(tmp_path, base, **{"init": str(saved), **over})
        with pytest.raises(InvalidConfigError, match="config key 'init'.*" + words):
            load_config(bad)


def test_init_with_a_larger_hidden_grows_the_checkpoints_network(tmp_path):
    from experiments.train.loop import Trainer

    base = dict(name="t", game="debertz", rules={"players": 2}, algorithm="dmc",
                eval_opponents=["random"])
    run_dir, _ = start_training(tiny_config(tmp_path, base, iterations=1), tmp_path / "runs")
    saved = run_dir / "checkpoints" / "latest.pt"
    config = tiny_config(tmp_path, {**base, "algorithm": "distill"}, init=str(saved),
                         hidden=[48, 32])
    trainer = Trainer(tmp_path, load_config(config), torch.device("cpu"))
    start = load_checkpoint(saved)["net"]
    assert trainer.net.hidden == (48, 32)
    obs = torch.rand(100, start.obs_size) * (torch.rand(100, start.obs_size) < 0.1)
    with torch.no_grad():
        assert torch.allclose(trainer.net(obs), start(obs), atol=1e-5)
    bad = tiny_config(tmp_path, base, init=str(saved), hidden=[32, 16])
    with pytest.raises(InvalidConfigError, match="config key 'init'.*at least 32 units"):
        load_config(bad)


def test_init_from_a_network_made_before_pieces_were_appended(tmp_path):
    """A shipped network made for the observation before its trick pieces: the run's network
    reads the whole vector and computes, before training, what the checkpoint did."""
    from experiments.train.loop import Trainer

    start = load_checkpoint(checkpoint_path("debertz-2p"))["net"]
    kit = games.get("debertz")
    assert start.obs_size < kit.obs_size
    base = dict(name="t", game="debertz", rules={"players": 2}, algorithm="distill",
                eval_opponents=["random"])
    config = tiny_config(tmp_path, base, init="debertz-2p",
                         hidden=list(start.hidden))
    trainer = Trainer(tmp_path, load_config(config), torch.device("cpu"))
    assert trainer.net.obs_size == kit.obs_size
    obs = torch.rand(100, kit.obs_size) * (torch.rand(100, kit.obs_size) < 0.1)
    with torch.no_grad():
        assert torch.allclose(trainer.net(obs), start(obs), atol=1e-4)


def test_resume_check_leaves_where_a_run_trains_free():
    from experiments.train.config import config_from_dict
    from experiments.train.loop import check_resume

    made = config_from_dict(dict(name="t", game="debertz", algorithm="dmc")).to_dict()
    older = {k: v for k, v in made.items() if k != "pool_share"}  # before the key existed
    for edit in ({"torch_threads": 1, "numba_threads": 1}, {"device": "cpu", "name": "u"},
                 {"executor": "ray", "ray": {"num_workers": 3}}, {"iterations": 500}):
        cfg = config_from_dict({**made, **edit})
        check_resume(Path("run"), cfg, {"config": made})
        check_resume(Path("run"), cfg, {"config": older})
    check_resume(Path("run"), cfg, {})  # a checkpoint without the record: not checked
    ray_run = dict(made, executor="ray", ray={"num_workers": 2})
    with pytest.raises(InvalidConfigError, match="'ray.num_workers' was 2"):
        check_resume(Path("run"), config_from_dict(dict(ray_run, ray={"num_workers": 4})),
                     {"config": ray_run})
