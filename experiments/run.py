"""``cardsim run CONFIG.yaml``: an experiment in its own run directory, resumable.

The run directory (``runs/<name>-<time>/`` by default) holds:

    config.yaml      the resolved config (every default filled in)
    meta.json        rules hash, seed, git commit, package versions, start time
    chunks/          one .npz per finished chunk of work (written atomically)
    metrics.jsonl    one line per finished chunk: progress and the running estimate
    results.csv      the results table
    summary.json     everything the table shows, and more
    table.txt        the printed table
    plots/           PNGs: the score difference settling with its 95% band as deals
                     accumulate, and the score distributions (tournaments); mean points
                     per side (simulations)
    history/         hand records per chunk (simulations with history: true)

``cardsim run --resume DIR`` plays only the chunks that are missing; finished chunks are
never replayed, and the result equals that of an uninterrupted run.
"""

from __future__ import annotations

import csv
import io
import json
import platform
import subprocess
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import yaml
from tqdm import tqdm

import cardsim
from cardsim.errors import InvalidConfigError
from experiments.config import ExperimentConfig, config_from_dict, load_config, yaml_problem
from experiments.files import (atomic_save_npz, atomic_write_json, atomic_write_text,
                               check_output_folder)


def _git_commit() -> str | None:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                             cwd=Path(__file__).resolve().parent, timeout=10)
        return out.stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


def _meta(cfg: ExperimentConfig) -> dict:
    import numba

    return {
        "name": cfg.name,
        "kind": cfg.kind,
        "game": cfg.game,
        "rules_hash": cfg.make_rules().rules_hash(),
        "seed": cfg.seed,
        "git_commit": _git_commit(),
        "cardsim_version": cardsim.__version__,
        "numpy_version": np.__version__,
        "numba_version": numba.__version__,
        "python": platform.python_version(),
        "started": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }


def start_run(config_path, out_parent="runs", progress: bool = False):
    """Create a run directory for a config file and run it; returns (run_dir, result)."""
    cfg = load_config(config_path)
    check_output_folder(out_parent, "run folder (--out)")
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    run_dir = Path(out_parent) / f"{cfg.name}-{stamp}"
    k = 1
    while run_dir.exists():
        k += 1
        run_dir = Path(out_parent) / f"{cfg.name}-{stamp}-{k}"
    (run_dir / "chunks").mkdir(parents=True)
    atomic_write_text(run_dir / "config.yaml", yaml.safe_dump(cfg.to_dict(), sort_keys=False))
    atomic_write_json(run_dir / "meta.json", _meta(cfg))
    return run_dir, execute(run_dir, cfg, progress)


def resume_run(run_dir, progress: bool = False):
    """Continue an interrupted run; returns (run_dir, result)."""
    run_dir = Path(run_dir)
    path = run_dir / "config.yaml"
    if not path.is_file():
        raise InvalidConfigError(f"{run_dir} is not a run directory (no config.yaml)")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise InvalidConfigError(f"{path}: cannot be read back ({e.strerror})") from None
    except yaml.YAMLError as e:
        raise InvalidConfigError(f"{path}: not valid YAML ({yaml_problem(e)})") from None
    cfg = config_from_dict(data, where=str(path))
    (run_dir / "chunks").mkdir(exist_ok=True)
    return run_dir, execute(run_dir, cfg, progress)


def _load_chunk(path: Path) -> dict | None:
    """A finished chunk, or None if the file is unreadable (then it is played again)."""
    try:
        with np.load(path) as z:
            return {k: z[k] for k in z.files}
    except (OSError, ValueError, EOFError):
        return None


def execute(run_dir: Path, cfg: ExperimentConfig, progress: bool = False) -> dict:
    if cfg.kind == "tournament":
        return _run_tournament(run_dir, cfg, progress)
    return _run_simulation(run_dir, cfg, progress)


# ---------------------------------------------------------------------------------------------
# tournaments
# ---------------------------------------------------------------------------------------------
def _run_tournament(run_dir: Path, cfg: ExperimentConfig, progress: bool) -> dict:
    from experiments.tournament import Tournament, format_table

    rules = cfg.make_rules()
    t = Tournament(cfg.game, rules, cfg.agents, deals=cfg.deals, games=cfg.games,
                   duplicate=cfg.duplicate, seed=cfg.seed, by_contract=cfg.by_contract)
    chunks = list(t.chunks(cfg.chunk))
    metrics = []
    t0 = time.perf_counter()
    with tqdm(total=len(chunks) and len(t.pairings) * t.items, disable=not progress,
              unit="item") as bar:
        for k, lo, hi in chunks:
            path = run_dir / "chunks" / f"pairing{k}-{lo}-{hi}.npz"
            data = _load_chunk(path) if path.exists() else None
            resumed = data is not None
            if data is None:
                result = t.play_chunk(k, lo, hi, cfg.threads)
                data = dict(zip(("points", "wins", "deals", "contracts"), result))
                atomic_save_npz(path, **data)
            t.add_chunk(k, tuple(data[key] for key in ("points", "wins", "deals", "contracts")
                                 if key in data))
            metrics.append(_chunk_metrics(t, k, lo, hi, resumed, time.perf_counter() - t0))
            atomic_write_text(run_dir / "metrics.jsonl",
                              "".join(json.dumps(m) + "\n" for m in metrics))
            bar.update(hi - lo)
    result = t.result()
    table = format_table(result)
    result["table"] = table
    atomic_write_json(run_dir / "summary.json", result)
    atomic_write_text(run_dir / "table.txt", table + "\n")
    atomic_write_text(run_dir / "results.csv", _tournament_csv(result))
    _tournament_plots(run_dir, t)
    return result


def _chunk_metrics(t, k, lo, hi, resumed, elapsed) -> dict:
    from experiments.stats import mean_ci

    p = t.pairings[k]
    pts = np.concatenate(p.points)
    diff, half = mean_ci(pts[:, 0] - pts[:, 1])
    return {"pairing": [t.labels[p.a], t.labels[p.b]], "lo": lo, "hi": hi,
            "items_so_far": int(pts.shape[0]), "difference": diff, "ci95": half,
            "resumed": resumed, "elapsed_s": round(elapsed, 3)}


def _tournament_csv(result: dict) -> str:
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["agent", "items", "points_per_deal", "ci95", "win_rate"])
    for r in result["agents"]:
        w.writerow([r["agent"], r["items"], f"{r['points_per_deal']:.4f}", f"{r['ci95']:.4f}",
                    "" if r["win_rate"] is None else f"{r['win_rate']:.4f}"])
    w.writerow([])
    w.writerow(["agent_a", "agent_b", "items", "difference", "ci95", "significant"])
    for p in result["pairings"]:
        w.writerow([*p["agents"], p["items"], f"{p['difference']:.4f}",
                    f"{p['difference_ci95']:.4f}", p["significant"]])
    return buf.getvalue()


def _figure():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig, path: Path) -> None:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    from experiments.files import atomic_write_bytes

    atomic_write_bytes(path, buf.getvalue())


def _tournament_plots(run_dir: Path, t) -> None:
    from experiments.stats import running_mean_ci

    plt = _figure()
    (run_dir / "plots").mkdir(exist_ok=True)
    unit = "games" if t.whole else "deals"
    fig, ax = plt.subplots(figsize=(7, 4))
    for p in t.pairings:
        pts = np.concatenate(p.points)
        n, mean, half = running_mean_ci(pts[:, 0] - pts[:, 1])
        ax.plot(n, mean, label=f"{t.labels[p.a]} - {t.labels[p.b]}")
        ax.fill_between(n, mean - half, mean + half, alpha=0.25)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel(f"duplicate {unit}" if t.duplicate else unit)
    ax.set_ylabel("difference in points per deal (95% band)")
    ax.set_title(f"{t.game}: score difference as {unit} accumulate")
    ax.legend()
    _save(fig, run_dir / "plots" / "difference.png")
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(7, 4))
    for i, label in enumerate(t.labels):
        series = [np.concatenate(p.points)[:, j] for p in t.pairings
                  for j, a in enumerate((p.a, p.b)) if a == i and p.points]
        if series:
            ax.hist(np.concatenate(series), bins=60, histtype="step", density=True, label=label)
    ax.set_xlabel("points per deal (mean over seating patterns)")
    ax.set_ylabel("density")
    ax.set_title(f"{t.game}: score distributions")
    ax.legend()
    _save(fig, run_dir / "plots" / "distribution.png")
    plt.close(fig)


# ---------------------------------------------------------------------------------------------
# simulations
# ---------------------------------------------------------------------------------------------
def _run_simulation(run_dir: Path, cfg: ExperimentConfig, progress: bool) -> dict:
    from experiments.cli import format_summary
    from experiments.simulate import simulate, summarize_stats

    rules = cfg.make_rules()
    whole = cfg.games is not None
    n = cfg.games if whole else cfg.deals
    total = None
    metrics = []
    seconds = 0.0
    if cfg.history:
        (run_dir / "history").mkdir(exist_ok=True)
    with tqdm(total=n, disable=not progress, unit="item") as bar:
        for lo in range(0, n, cfg.chunk):
            hi = min(n, lo + cfg.chunk)
            path = run_dir / "chunks" / f"items-{lo}-{hi}.npz"
            data = _load_chunk(path) if path.exists() else None
            resumed = data is not None
            if data is None:
                got: list = []
                hist = run_dir / "history" / f"{lo:012d}.jsonl" if cfg.history else None
                part = simulate(cfg.game, rules, cfg.agents, cfg.seed,
                                hands=None if whole else hi - lo, games=hi - lo if whole else None,
                                n_threads=cfg.threads, history_path=hist, first_item=lo,
                                stats_out=got)
                data = {"stats": got[0], "seconds": np.array(part["seconds"])}
                atomic_save_npz(path, **data)
            total = data["stats"] if total is None else total + data["stats"]
            seconds += float(data["seconds"])
            metrics.append({"lo": lo, "hi": hi, "resumed": resumed,
                            "seconds": float(data["seconds"])})
            atomic_write_text(run_dir / "metrics.jsonl",
                              "".join(json.dumps(m) + "\n" for m in metrics))
            bar.update(hi - lo)
    summary = summarize_stats(cfg.game, total, rules, cfg.seed, whole, seconds)
    summary["agents"] = cfg.agents
    summary["table"] = format_summary(summary)
    atomic_write_json(run_dir / "summary.json", summary)
    atomic_write_text(run_dir / "table.txt", summary["table"] + "\n")
    flat = [(k, v) for k, v in summary.items() if not isinstance(v, (dict, list)) and k != "table"]
    out = io.StringIO()
    csv.writer(out).writerows([[k for k, _ in flat], [v for _, v in flat]])
    atomic_write_text(run_dir / "results.csv", out.getvalue())
    _simulation_plot(run_dir, summary)
    return summary


def _simulation_plot(run_dir: Path, summary: dict) -> None:
    values = summary.get("mean_round_points")
    if values is None:  # Barbu: mean deal score of the declarer per contract
        contracts = summary.get("contracts") or {}
        labels = list(contracts)
        values = [contracts[c]["mean_deal_score"] or 0.0 for c in labels]
        ylabel = "declarer's mean deal score"
    else:
        labels = [f"side {s}" for s in range(len(values))]
        ylabel = "mean round points per deal"
    plt = _figure()
    (run_dir / "plots").mkdir(exist_ok=True)
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.bar(labels, values)
    ax.set_ylabel(ylabel)
    ax.set_title(f"{summary['game']}: {summary.get('deals', 0):,} deals")
    _save(fig, run_dir / "plots" / "points.png")
    plt.close(fig)
