"""Runs on Ray equal local runs: simulate, tournament and run on a local Ray instance
(2 CPUs, started once for the module) give the results a local run gives for the same seed;
a resumed Ray run equals an uninterrupted one; a chunk whose worker dies is played again;
a bad address or a missing ray package is one line and exit status 2."""

import csv
import functools
import io
import json
import os
import sys

import pytest
import yaml

from experiments.cli import main
from experiments.runs.executor import RayExecutor
from experiments.runs.run import resume_run, start_run
from tests.experiments.metrics import metrics_without_timings
from tests.experiments.untimed import TIMES, untimed, untimed_table

ray = pytest.importorskip("ray")

TIMING = ("seconds", "compile_s", "deals_per_s", "games_per_s", "table")
SIMULATION = {"name": "s", "kind": "simulate", "game": "debertz", "agents": ["heuristic"],
              "rules": {"players": 3}, "deals": 600, "chunk": 150, "history": True, "seed": 5}
TOURNAMENT = {"name": "t", "kind": "tournament", "game": "debertz",
              "agents": ["heuristic", "random"], "rules": {"players": 2}, "deals": 400,
              "chunk": 100, "per_deal": True, "seed": 3}


@pytest.fixture(scope="module")
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="error")
    yield
    ray.shutdown()


def _config(tmp_path, data, name):
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def _untimed(summary: dict) -> dict:
    """A summary less what depends on the clock (the same run takes other times; a
    tournament's agents, other microseconds per decision)."""
    return {k: v for k, v in untimed(summary).items() if k not in TIMING}


def _untimed_csv(text: str) -> list:
    rows = list(csv.reader(io.StringIO(text)))
    keep = [i for i, name in enumerate(rows[0]) if name not in TIMING + TIMES]
    return [[row[i] for i in keep] for row in rows]


def _same_run_directory(a, b, exact=("summary.json", "results.csv", "pairings.csv",
                                        "table.txt")):
    """What a run directory reports is the same: every result file, hand record and
    per-deal file (simulations: less the play times)."""
    for name in exact:
        if (a / name).exists() or (b / name).exists():
            if name == "summary.json":
                assert _untimed(json.loads((a / name).read_text())) == \
                    _untimed(json.loads((b / name).read_text()))
            elif name == "results.csv":
                assert _untimed_csv((a / name).read_text()) == _untimed_csv((b / name).read_text())
            elif name == "table.txt" and "µs/decision" in (a / name).read_text():
                assert untimed_table((a / name).read_text()) == \
                    untimed_table((b / name).read_text())
            elif name != "table.txt" or "seconds" not in (a / name).read_text():
                assert (a / name).read_bytes() == (b / name).read_bytes(), name
    for folder in ("history", "deals"):
        files = sorted(p.name for p in (a / folder).glob("*")) if (a / folder).exists() else []
        assert files == (sorted(p.name for p in (b / folder).glob("*"))
                         if (b / folder).exists() else [])
        for name in files:
            assert (a / folder / name).read_bytes() == (b / folder / name).read_bytes(), name


# --- one clear line, exit 2 (no cluster needed) --------------------------------------------
def test_missing_ray_package_is_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails as if not installed
    code = main(["simulate", "debertz", "--hands", "10", "--ray"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "pip install 'cardsim[ray]'" in err


@pytest.mark.parametrize("address, words", [
    ("127.0.0.1:1", "cannot reach a Ray cluster at 127.0.0.1:1"),
    ("no address", "Ray address 'no address' is not valid; allowed: auto, HOST:PORT"),
])
def test_a_bad_address_is_one_line(tmp_path, capsys, address, words):
    code = main(["tournament", "debertz", "--agents", "random", "random", "--deals", "10",
                 "--ray", address])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and words in err and "Traceback" not in err


def test_ray_options_in_a_config_are_checked(tmp_path, capsys):
    for change, words in (({"executor": "dask"}, "allowed: local, ray"),
                          ({"ray": {"address": "auto"}}, "read with executor: ray only"),
                          ({"executor": "ray", "ray": {"workers": 2}}, "unknown key 'workers'"),
                          ({"executor": "ray", "ray": {"num_workers": 0}}, "num_workers")):
        path = _config(tmp_path, {**SIMULATION, **change}, "bad")
        assert main(["run", str(path), "--out", str(tmp_path / "runs")]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and words in err


# --- on a local Ray instance ---------------------------------------------------------------
def test_simulation_run_on_ray_equals_the_local_run(tmp_path, cluster):
    local, _ = start_run(_config(tmp_path, SIMULATION, "s"), tmp_path / "local")
    code = main(["run", str(_config(tmp_path, SIMULATION, "s")), "--out",
                 str(tmp_path / "ray"), "--ray"])
    assert code == 0
    on_ray = next((tmp_path / "ray").iterdir())
    assert yaml.safe_load((on_ray / "config.yaml").read_text())["executor"] == "ray"
    _same_run_directory(local, on_ray)
    assert len(list((on_ray / "history").glob("*.jsonl"))) == 4


def test_tournament_run_on_ray_equals_the_local_run_and_resumes(tmp_path, cluster):
    local, _ = start_run(_config(tmp_path, TOURNAMENT, "t"), tmp_path / "local")

    class Interrupted(RayExecutor):  # the run stops after 3 chunks are kept
        def map(self, *args, **kw):
            for n, item in enumerate(super().map(*args, **kw)):
                if n == 3:
                    raise KeyboardInterrupt
                yield item

    with pytest.raises(KeyboardInterrupt):
        start_run(_config(tmp_path, TOURNAMENT, "t"), tmp_path / "ray", executor=Interrupted())
    run_dir = next((tmp_path / "ray").iterdir())
    assert len(list((run_dir / "chunks").glob("*.npz"))) == 3
    resume_run(run_dir, ray={})
    metrics = [json.loads(line) for line in (run_dir / "metrics.jsonl").read_text().splitlines()]
    assert sum(m["resumed"] for m in metrics) == 3 and len(metrics) == 4
    _same_run_directory(local, run_dir)


def test_a_chunk_whose_worker_dies_is_played_again(tmp_path, cluster):
    flag = tmp_path / "died"

    def die_once(play, context, task, n_threads):
        if task == (150, 300) and not flag.exists():
            flag.touch()
            os._exit(1)  # the worker process dies with its task
        return play(context, task, n_threads)

    class DyingOnce(RayExecutor):
        def map(self, play, *args, **kw):
            return super().map(functools.partial(die_once, play), *args, **kw)

    local, _ = start_run(_config(tmp_path, SIMULATION, "s"), tmp_path / "local")
    on_ray, _ = start_run(_config(tmp_path, SIMULATION, "s"), tmp_path / "ray",
                          executor=DyingOnce())
    assert flag.exists()
    _same_run_directory(local, on_ray)


def test_simulate_and_tournament_commands_on_ray_equal_local(tmp_path, capsys, cluster,
                                                             monkeypatch):
    from experiments.runs import simulate

    monkeypatch.setattr(simulate, "TASK_CHUNK", 200)  # several tasks, hand records in order
    outputs = {}
    for where, extra in (("local", []), ("ray", ["--ray"])):
        assert main(["simulate", "debertz", "--hands", "500", "--agents", "heuristic",
                     "--seed", "9", "--history", str(tmp_path / f"{where}.jsonl"), "--json",
                     *extra]) == 0
        summary = json.loads(capsys.readouterr().out)
        assert main(["tournament", "debertz", "--agents", "heuristic", "random", "random",
                     "--deals", "300", "--seed", "9", "--per-deal",
                     str(tmp_path / f"{where}.npy"), "--json", *extra]) == 0
        del summary["history"]  # the file's name
        outputs[where] = (_untimed(summary), untimed(json.loads(capsys.readouterr().out)))
    assert outputs["ray"] == outputs["local"]
    for ext in ("jsonl", "npy"):
        assert (tmp_path / f"ray.{ext}").read_bytes() == (tmp_path / f"local.{ext}").read_bytes()


# --- training: DMC's self-play actors on Ray -------------------------------------------------
TRAIN = dict(name="t", game="debertz", rules={"players": 2}, algorithm="dmc", seed=3,
             num_games=64, steps_per_iteration=40, iterations=3, hidden=[32], eval_every=1,
             eval_deals=16, torch_threads=1, numba_threads=1, eval_opponents=["random"],
             pool_share=0.5, args={"batch_size": 512}, executor="ray",
             ray={"num_workers": 2, "weights_every": 2})


def test_training_on_ray_resumes_to_the_uninterrupted_network(tmp_path, cluster, monkeypatch):
    import torch

    from agents.neural import load_checkpoint
    from experiments.train import loop

    config = _config(tmp_path, TRAIN, "train")
    whole_dir, whole = loop.start_training(config, tmp_path / "whole")
    assert whole["decisions"] == 3 * 64 * 40 and whole["samples"] > 0

    saves = {"n": 0}
    real_save = loop.Trainer._save

    def crash_after_two(self, evaluated):
        real_save(self, evaluated)
        saves["n"] += 1
        if saves["n"] == 2:  # stopped after the second checkpoint
            raise KeyboardInterrupt

    monkeypatch.setattr(loop.Trainer, "_save", crash_after_two)
    with pytest.raises(KeyboardInterrupt):
        loop.start_training(config, tmp_path / "cut")
    monkeypatch.setattr(loop.Trainer, "_save", real_save)
    cut_dir = next((tmp_path / "cut").iterdir())
    resumed_dir, resumed = loop.resume_training(cut_dir)

    lines = metrics_without_timings
    assert lines(cut_dir) == lines(whole_dir)
    assert lines(whole_dir)[1]["pool_opponent"] == "iter-000001.pt"
    a = load_checkpoint(whole_dir / "checkpoints" / "latest.pt")["model"]
    b = load_checkpoint(cut_dir / "checkpoints" / "latest.pt")["model"]
    assert all(torch.equal(a[k], b[k]) for k in a)
    assert resumed["decisions"] == whole["decisions"]


def test_training_on_ray_needs_dmc(tmp_path, capsys):
    config = _config(tmp_path, {**TRAIN, "executor": "local", "ray": None,
                                "algorithm": "ppo", "args": {}}, "ppo")
    assert main(["train", str(config), "--out", str(tmp_path / "runs"), "--ray"]) == 2
    # the line saying what would run (before the config is checked), then the error
    plan, error = capsys.readouterr().err.strip().splitlines()
    assert plan.startswith("training t (debertz): ppo, ") and "allowed with ray: dmc" in error


def test_a_self_play_actor_that_dies_is_restarted_and_its_share_played_again(
        tmp_path, cluster, monkeypatch):
    import torch

    from agents.neural import load_checkpoint
    from experiments.train import loop, ray_selfplay

    config = _config(tmp_path, {**TRAIN, "iterations": 2, "pool_share": 0.0}, "train")
    _, whole = loop.start_training(config, tmp_path / "whole")
    flag = tmp_path / "died"

    class DyingOnce(ray_selfplay.SelfPlayActor):
        def play(self, weights, version, iteration, index, *args):
            if iteration == 1 and index == 1 and not flag.exists():
                flag.touch()
                os._exit(1)  # the actor's process dies in the middle of an iteration
            return super().play(weights, version, iteration, index, *args)

    monkeypatch.setattr(ray_selfplay, "SelfPlayActor", DyingOnce)
    run_dir, again = loop.start_training(config, tmp_path / "again")
    assert flag.exists() and again["decisions"] == whole["decisions"]
    a = load_checkpoint(next((tmp_path / "whole").iterdir()) / "checkpoints" / "latest.pt")
    b = load_checkpoint(run_dir / "checkpoints" / "latest.pt")
    assert all(torch.equal(a["model"][k], b["model"][k]) for k in a["model"])


# --- start-up: a new worker loads the compiled kernels, it does not compile them again ----------
def test_a_new_worker_loads_the_kernels_from_the_cache_instead_of_compiling(cluster):
    from experiments.cli import make_rules
    from experiments.runs.executor import _play_remote
    from experiments.runs.simulate import SimulationJob, play_simulation_chunk, simulate

    rules = make_rules("debertz")
    simulate("debertz", rules, ["heuristic"], 1, hands=10)  # the cache is warm from here on
    new_worker_each_call = ray.remote(num_cpus=1, max_calls=1)(_play_remote)
    job = ray.put((play_simulation_chunk, SimulationJob("debertz", rules, ["heuristic"], 1,
                                                        False)))
    result, compiled_s = ray.get(new_worker_each_call.remote(job, (0, 50)))
    assert result["stats"].sum() > 0 and compiled_s == 0.0

    def compile_a_new_kernel(context, task, n_threads):  # the measure's control (sent by value)
        import numba

        return numba.njit(lambda x: x + task[0])(1)

    control = ray.put((compile_a_new_kernel, None))
    value, compiled_s = ray.get(new_worker_each_call.remote(control, (2, 3)))
    assert value == 3 and compiled_s > 0.0


def test_a_ray_simulation_reports_what_its_workers_compiled(tmp_path, capsys, cluster):
    assert main(["simulate", "debertz", "--hands", "300", "--agents", "heuristic", "--json",
                 "--ray"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["compile_s"] == 0.0  # the kernels came from the cache (compiled above)


def test_on_one_machine_the_first_task_is_played_here_and_the_rest_on_workers(cluster):
    """The workers of a one-machine cluster share its compiled cache: the first task is
    played by the driver (compiling once), the others by the workers."""
    def where(context, task, n_threads):  # sent by value
        return os.getpid()

    with RayExecutor() as ex:
        pids = [pid for _, pid in ex.map(where, None, [(k, k + 1) for k in range(5)],
                                         ordered=True)]
    assert pids[0] == os.getpid() and all(pid != os.getpid() for pid in pids[1:])
    assert ex.first_result_s is not None and ex.compile_s == 0.0
