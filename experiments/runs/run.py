"""``cardsim run CONFIG.yaml``: an experiment in its own run directory, resumable.

The run directory (``runs/<name>-<time>/`` by default) holds:

    config.yaml      the resolved config (every default filled in)
    meta.json        rules hash, seed, git commit, package versions, start time
    chunks/          one .npz per finished chunk of work (written atomically): a tournament
                     keeps the chunk's sufficient statistics (experiments.tournaments.tally), not
                     per-deal values, with its agents' decisions and timed microseconds,
                     and what the chunk was made with (checked on resume)
    deals/           per-deal results, one .npy per chunk (tournaments with per_deal: true)
    metrics.jsonl    one line per finished chunk: progress and the running estimate
                     (appended as chunks finish)
    results.csv      the results table (one row per agent; a tournament's with each agent's
                     decisions and microseconds per decision)
    pairings.csv     tournaments: the paired differences (per Barbu contract when forced)
    summary.json     everything the table shows, and more
    table.txt        the printed table
    plots/           PNGs: the score difference settling with its 95% band as deals
                     accumulate, the score distributions and strength against cost per
                     decision (tournaments); mean points per side (simulations)
    history/         hand records per chunk (simulations with history: true)

A study (``kind: study``, experiments.tournaments.study) keeps per chunk its sums per variant and
measure (``chunks/items-LO-HI.npz``), writes ``effects.csv`` (the paired differences, ranked),
``results.csv`` (every variant's means), a plot per measure and ``plots/effects.png``.

``cardsim run --resume DIR`` plays only the chunks that are missing (or damaged); finished
chunks are never replayed, and the result equals that of an uninterrupted run. It refuses a
config.yaml that differs from what the finished chunks were made with (seed, rules, agents,
kind, counts, chunk size), except for more deals or games, which extend the run.
"""

from __future__ import annotations

import csv
import io
import json
import sys
import time
from contextlib import closing
from pathlib import Path

import numpy as np
import yaml

from cardsim.errors import InvalidConfigError
from experiments.runs.config import ExperimentConfig, config_from_dict, load_config
from experiments.runs.schema import yaml_problem
from experiments.runs.files import (atomic_save_npz, atomic_write_bytes, atomic_write_json,
                               atomic_write_text, dumps_json, json_ready)
from experiments.runs.plots import pyplot, save_png
from experiments.runs.progress import progress_bar
from experiments.runs.rundir import (check_out_parent, config_to_resume, create_run_dir, read_meta,
                                run_meta, write_meta)
from experiments.runs.summary_text import format_summary


def _meta(cfg: ExperimentConfig) -> dict:
    return run_meta({"name": cfg.name, "kind": cfg.kind, "game": cfg.game,
                     "rules_hash": cfg.make_rules().rules_hash(), "seed": cfg.seed})


def start_run(config_path, out_parent="runs", progress: bool = False,
              ray: dict | None = None, executor=None):
    """Create a run directory for a config file and run it; returns (run_dir, result).
    ``ray``: play on Ray with these options (address, num_workers) over the config's own;
    ``executor``: an executor object instead of the one the config names."""
    return start_config(load_config(config_path), out_parent, progress, ray, executor)


def start_config(cfg: ExperimentConfig, out_parent="runs", progress: bool = False,
                 ray: dict | None = None, executor=None):
    """``start_run`` for a validated config object (``cardsim study`` builds one from its
    arguments); returns (run_dir, result)."""
    if ray is not None:
        cfg = cfg.with_ray(ray)
    check_out_parent(out_parent)
    run_dir = create_run_dir(out_parent, cfg.name, cfg.to_dict(), _meta(cfg), "chunks")
    return run_dir, execute(run_dir, cfg, progress, executor)


def resume_run(run_dir, progress: bool = False, ray: dict | None = None, executor=None):
    """Continue an interrupted run; returns (run_dir, result). Refuses (InvalidConfigError,
    one line) a run whose config.yaml no longer matches what its finished chunks were made
    with, except for more deals or games, which extend the run. ``ray`` and ``executor``
    as for ``start_run`` (a run may be resumed anywhere: results do not depend on it)."""
    run_dir = Path(run_dir)
    path = config_to_resume(run_dir)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise InvalidConfigError(f"{path}: cannot be read back ({e.strerror})") from None
    except yaml.YAMLError as e:
        raise InvalidConfigError(f"{path}: not valid YAML ({yaml_problem(e)})") from None
    cfg = config_from_dict(data, where=str(path))
    if ray is not None:
        cfg = cfg.with_ray(ray)
    check_resume(run_dir, cfg)
    (run_dir / "chunks").mkdir(exist_ok=True)
    if read_meta(run_dir) is None:  # damaged: the chunks vouch for the config (checked)
        write_meta(run_dir, _meta(cfg))
    return run_dir, execute(run_dir, cfg, progress, executor)


# ---------------------------------------------------------------------------------------------
# what a run is made with: recorded in every chunk, checked on resume
# ---------------------------------------------------------------------------------------------
MADE_WITH_META = ("kind", "game", "rules_hash", "seed")  # also in meta.json


def made_with(cfg: ExperimentConfig) -> dict:
    """Everything a chunk's content depends on (not threads: results do not depend on them).
    ``items`` may grow on resume; everything else must stay."""
    from agents.registry import parse_spec

    out = {"kind": cfg.kind, "game": cfg.game, "rules_hash": cfg.make_rules().rules_hash(),
           "seed": cfg.seed,
           "agents": [[name, dict(sorted(opts.items()))]
                      for name, opts in map(parse_spec, cfg.agents)],
           "unit": "games" if cfg.games is not None else "deals",
           "items": cfg.games if cfg.games is not None else cfg.deals, "chunk": cfg.chunk}
    if cfg.kind == "tournament":
        out.update(duplicate=cfg.duplicate, by_contract=cfg.by_contract)
    if cfg.kind == "study":
        out.update(vary=cfg.vary, skill=cfg.skill, rules=cfg.make_rules().to_dict())
    return out


def _chunk_made_with(path: Path) -> dict | None | str:
    """A chunk file's record of what it was made with; None for a chunk written before
    chunks recorded it; "damaged" when unreadable (it is then played again)."""
    try:
        with np.load(path) as z:
            if "made_with" not in z.files:
                return None
            made = json.loads(str(z["made_with"]))
        return made if isinstance(made, dict) else "damaged"
    except Exception:  # noqa: BLE001 - any unreadable file is a damaged chunk
        return "damaged"


def _difference(field: str, was, now) -> str:
    return f"{field} was {was!r} and config.yaml now says {now!r}"


def check_resume(run_dir: Path, cfg: ExperimentConfig) -> None:
    """Refuse, in one line, to resume ``run_dir`` with a config that differs from what its
    meta.json and finished chunks were made with. More items only extend the run."""
    now = made_with(cfg)
    meta = read_meta(run_dir)
    changes = []
    if meta is not None:
        changes += [_difference(f, meta[f], now[f]) for f in MADE_WITH_META
                    if f in meta and meta[f] != now[f]]
    for path in sorted((run_dir / "chunks").glob("*.npz")) if not changes else ():
        made = _chunk_made_with(path)
        if made == "damaged":
            continue
        if made is None:  # an older chunk: meta.json holds what it was made with
            if meta is None:
                raise InvalidConfigError(
                    f"{run_dir}: meta.json is missing or damaged, so the finished chunks "
                    f"cannot be checked against config.yaml; start a new run")
            continue
        for f, was in made.items():
            if f == "items" and made.get("unit") == now["unit"] and now[f] >= was:
                continue  # more deals or games: the run is extended
            if now.get(f) != was:
                changes.append(_difference(f, was, now.get(f)))
        if changes:
            break
    if changes:
        raise InvalidConfigError(
            f"cannot resume {run_dir}: its finished work was made with other settings "
            f"({changes[0]}); restore config.yaml or start a new run "
            f"(only deals or games may grow)")


def _load_chunk(path: Path) -> dict | None:
    """A finished chunk's arrays, or None if the file is missing or unreadable (then it is
    played again)."""
    if not path.exists():
        return None
    try:
        with np.load(path) as z:
            return {k: z[k] for k in z.files}
    except Exception:  # noqa: BLE001 - a damaged file of any kind is played again
        return None


def _damaged(path: Path) -> None:
    print(f"cardsim: chunk {path.name} is damaged; playing it again", file=sys.stderr)


def execute(run_dir: Path, cfg: ExperimentConfig, progress: bool = False,
            executor=None) -> dict:
    """Play what is missing of the run in ``run_dir`` and write its results. ``executor``
    (experiments.runs.executor): where the chunks are played; default the one the config names
    (``executor: local`` with ``threads``, or ``executor: ray``)."""
    from experiments.runs.executor import executor_for

    if executor is None:
        executor = executor_for(cfg.executor, cfg.ray, cfg.threads)
    if cfg.kind == "tournament":
        return _run_tournament(run_dir, cfg, progress, executor)
    if cfg.kind == "study":
        return _run_study(run_dir, cfg, progress, executor)
    return _run_simulation(run_dir, cfg, progress, executor)


def _played(executor, play, context, todo: list):
    """(task, result) of every task of ``todo`` as ``executor`` finishes them; the executor
    is not started (no Ray connection is made) when nothing is left to play."""
    if not todo:
        return
    with executor as ex:
        yield from ex.map(play, context, todo)


class _MetricsLog:
    """metrics.jsonl: one line per finished chunk, appended and flushed as chunks finish
    (rewriting the whole file per chunk would cost O(chunks^2)); started afresh by every
    execution, so a line cut short by a crash is rewritten on resume."""

    def __init__(self, path: Path):
        self.file = open(path, "w", encoding="utf-8")

    def write(self, line: dict) -> None:
        self.file.write(dumps_json(line) + "\n")
        self.file.flush()

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.file.close()


# ---------------------------------------------------------------------------------------------
# tournaments
# ---------------------------------------------------------------------------------------------
def _run_tournament(run_dir: Path, cfg: ExperimentConfig, progress: bool, executor) -> dict:
    from experiments.tournaments.per_deal import save_rows
    from experiments.tournaments.tournament import Tournament, format_table, play_chunk_tally

    rules = cfg.make_rules()
    t = Tournament(cfg.game, rules, cfg.agents, deals=cfg.deals, games=cfg.games,
                   duplicate=cfg.duplicate, seed=cfg.seed, by_contract=cfg.by_contract)
    made = np.array(json.dumps(made_with(cfg)))
    chunks = list(t.chunks(cfg.chunk))
    if cfg.per_deal:
        (run_dir / "deals").mkdir(exist_ok=True)

    def files(k, lo, hi):
        name = f"pairing{k}-{lo}-{hi}"
        return run_dir / "chunks" / f"{name}.npz", run_dir / "deals" / f"{name}.npy"

    t0 = time.perf_counter()
    with progress_bar(len(chunks) and len(t.pairings) * t.items, progress, "item",
                      what="run") as bar, _MetricsLog(run_dir / "metrics.jsonl") as metrics:
        todo = []
        for k, lo, hi in chunks:  # finished chunks are read back, the others played
            path, rows_path = files(k, lo, hi)
            tally = _tally_of(t, k, lo, hi, _load_chunk(path)) if path.exists() else None
            if path.exists() and tally is None:
                _damaged(path)
            if tally is not None and cfg.per_deal and not rows_path.exists():
                tally = None  # per-deal rows asked for and missing: play the chunk again
            if tally is None:
                todo.append((k, lo, hi))
                continue
            t.add_chunk(k, tally)
            metrics.write(_chunk_metrics(t, k, lo, hi, True, time.perf_counter() - t0))
            bar.update(hi - lo)
        # each chunk is kept as soon as it finishes, in whatever order the executor ends them
        # (tallies merge in any order to the same result)
        with closing(_played(executor, play_chunk_tally, (t, cfg.per_deal), todo)) as done:
            for (k, lo, hi), (tally, rows) in done:
                path, rows_path = files(k, lo, hi)
                if rows is not None:
                    save_rows(rows_path, rows)
                atomic_save_npz(path, made_with=made, **tally.to_arrays())
                t.add_chunk(k, tally)
                metrics.write(_chunk_metrics(t, k, lo, hi, False, time.perf_counter() - t0))
                bar.update(hi - lo)
    result = t.result()
    table = format_table(result)
    if cfg.decision_cost:
        result["decision_cost"] = _decision_costs(cfg, rules, t.labels)
        table += "\n" + _cost_lines(result["decision_cost"])
    result["table"] = table
    atomic_write_json(run_dir / "summary.json", result)
    atomic_write_text(run_dir / "table.txt", table + "\n")
    atomic_write_text(run_dir / "results.csv", _tournament_csv(result))
    atomic_write_text(run_dir / "pairings.csv", _pairings_csv(result))
    _tournament_plots(run_dir, t)
    _strength_cost_plot(run_dir, result)
    return json_ready(result)


# timings per agent, taken in turns, each agent keeping its median
# (experiments.tournaments.decision_cost)
COST_ROUNDS = 3


def _decision_costs(cfg: ExperimentConfig, rules, labels) -> list[dict]:
    """Each agent's microseconds per decision on one core (experiments.tournaments.decision_cost),
    under its label in the tournament. Measured again on a resumed run: a time, not a
    result."""
    from experiments.tournaments.decision_cost import measure

    rows = measure(cfg.game, rules, cfg.agents, rounds=COST_ROUNDS)
    for label, row in zip(labels, rows):
        row["agent"] = label
    return rows


def _cost_lines(costs: list[dict]) -> str:
    lines = [f"microseconds per decision, one core ({costs[0]['positions']} positions):"]
    for r in costs:
        batched = r.get("us_per_decision_batched")
        lines.append(f"  {r['agent']:40s} {r['us_per_decision']:12.1f}"
                     + (f"   ({batched:.1f} in a batch)" if batched is not None else ""))
    return "\n".join(lines)


def _legend_label(agent: str, width: int = 110) -> str:
    """An agent's label wrapped at its options' commas, to fit a legend's line width."""
    lines, line = [], ""
    for part in agent.split(","):
        piece = part if not line else "," + part
        if line and len(line) + len(piece) > width:
            lines.append(line + ",")
            line = part
        else:
            line += piece
    return "\n".join(lines + [line])


def _strength_cost_plot(run_dir: Path, result: dict) -> None:
    """Each agent's points per deal (95% interval) against its microseconds per decision:
    measured on fixed positions when the config asks for ``decision_cost`` (a network at its
    batched cost, as the table plays it), else as played in the tournament. Agents without a
    positive time (none timed) are left out; no plot when none is left."""
    if "decision_cost" in result:
        cost = {r["agent"]: r.get("us_per_decision_batched", r["us_per_decision"])
                for r in result["decision_cost"]}
        xlabel = "microseconds per decision (one core; networks batched)"
    else:
        cost = {r["agent"]: r["us_per_decision"] for r in result["agents"]}
        xlabel = "microseconds per decision, as played in the tournament"
    rows = [r for r in result["agents"] if (cost.get(r["agent"]) or 0) > 0]
    if not rows:
        return
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 4))
    for row in rows:  # named in a legend: agents of like cost and strength overlap
        ax.errorbar([cost[row["agent"]]], [row["points_per_deal"]], yerr=[row["ci95"] or 0],
                    marker="o", capsize=3, linestyle="none", label=_legend_label(row["agent"]))
    # below the axes: a searched network's options run to a few hundred characters
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.18))
    ax.set_xscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(f"points per {result['unit']} against the field (95%)")
    ax.set_title(f"{result['game']}: strength against cost")
    save_png(fig, run_dir / "plots" / "strength_cost.png")
    plt.close(fig)


def _tally_of(t, k: int, lo: int, hi: int, data: dict | None):
    """The tally of stored chunk lo..hi-1 of pairing k: written as a tally, or (run
    directories from before tallies) as per-item arrays; None if unusable."""
    from experiments.tournaments.tally import ChunkTally

    if data is None:
        return None
    try:
        if "format" in data:
            tally = ChunkTally.from_arrays(data)
            groups = len(t.pairings[k].tally.moments)
            return tally if (tally.lo, tally.hi, len(tally.count)) == (lo, hi, groups) else None
        return t.tally_chunk(k, lo, hi, tuple(data[key] for key in
                                              ("points", "wins", "deals", "contracts")
                                              if key in data))
    except (KeyError, ValueError, TypeError, IndexError):
        return None


def _chunk_metrics(t, k, lo, hi, resumed, elapsed) -> dict:
    from experiments.tournaments.tally import DIFF

    p = t.pairings[k]
    diff, half = p.tally.moments[0][DIFF].mean_ci()
    return {"pairing": [t.labels[p.a], t.labels[p.b]], "lo": lo, "hi": hi,
            "items_so_far": p.tally.n, "difference": diff, "ci95": half,
            "resumed": resumed, "elapsed_s": round(elapsed, 3)}


def _tournament_csv(result: dict) -> str:
    """``results.csv``: one row per agent."""
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["agent", "items", "points_per_deal", "ci95", "win_rate", "decisions",
                "us_per_decision"])
    for r in result["agents"]:
        w.writerow([r["agent"], r["items"], _cell(r["points_per_deal"]), _cell(r["ci95"]),
                    _cell(r["win_rate"]), "" if r["decisions"] is None else r["decisions"],
                    _cell(r["us_per_decision"])])
    return buf.getvalue()


def _pairings_csv(result: dict) -> str:
    """``pairings.csv``: one row per pairing (contract ``all``), then with Barbu contracts
    forced one row per pairing and contract."""
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["agent_a", "agent_b", "contract", "items", "points_a", "points_b",
                "difference", "ci95", "significant"])
    for p in result["pairings"]:
        a, b = p["agents"]
        w.writerow([a, b, "all", p["items"], _cell(p["mean_points"][0]),
                    _cell(p["mean_points"][1]), _cell(p["difference"]),
                    _cell(p["difference_ci95"]), p["significant"]])
        for row in p.get("by_contract") or []:
            half = row["difference_ci95"]
            w.writerow([a, b, row["contract"], row["items"], _cell(row["mean_points"][0]),
                        _cell(row["mean_points"][1]), _cell(row["difference"]), _cell(half),
                        half is not None and abs(row["difference"]) > half])
    return buf.getvalue()


def _cell(x) -> str:
    """A CSV number with 4 decimals; empty where there is none (an interval of one item)."""
    return "" if x is None else f"{x:.4f}"


def _tournament_plots(run_dir: Path, t) -> None:
    """The settling difference (at the prefix lengths of experiments.tournaments.tally.CURVE_GRID
    and at the end) and the score distributions (the first SAMPLE_ITEMS items of each pairing)."""
    from experiments.tournaments.tally import DIFF, SAMPLE_ITEMS

    plt = pyplot()
    (run_dir / "plots").mkdir(exist_ok=True)
    unit = "games" if t.whole else "deals"
    fig, ax = plt.subplots(figsize=(7, 4))
    for p in t.pairings:
        curve = [c for c in p.tally.curve if c[2] is not None]
        final = (p.tally.n, *p.tally.moments[0][DIFF].mean_ci())
        if final[2] is not None and (not curve or curve[-1][0] < final[0]):
            curve.append(final)
        if not curve:
            continue
        n, mean, half = (np.array(x, dtype=np.float64) for x in zip(*curve))
        ax.plot(n, mean, label=f"{t.labels[p.a]} - {t.labels[p.b]}")
        ax.fill_between(n, mean - half, mean + half, alpha=0.25)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel(f"duplicate {unit}" if t.duplicate else unit)
    ax.set_ylabel("difference in points per deal (95% band)")
    ax.set_title(f"{t.game}: score difference as {unit} accumulate")
    if ax.get_lines()[1:]:  # beyond the zero line: no band for runs of a single item
        ax.legend()
    save_png(fig, run_dir / "plots" / "difference.png")
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(7, 4))
    for i, label in enumerate(t.labels):
        series = [p.tally.sample[:, j] for p in t.pairings
                  for j, a in enumerate((p.a, p.b)) if a == i and p.tally.sample is not None]
        if series:
            ax.hist(np.concatenate(series), bins=60, histtype="step", density=True, label=label)
    ax.set_xlabel("points per deal (mean over seating patterns)")
    ax.set_ylabel("density")
    ax.set_title(f"{t.game}: score distributions"
                 + (f" (first {SAMPLE_ITEMS:,} {unit} of each pairing)"
                    if t.items > SAMPLE_ITEMS else ""))
    ax.legend()
    save_png(fig, run_dir / "plots" / "distribution.png")
    plt.close(fig)


# ---------------------------------------------------------------------------------------------
# rules studies
# ---------------------------------------------------------------------------------------------
def _run_study(run_dir: Path, cfg: ExperimentConfig, progress: bool, executor) -> dict:
    from experiments.runs.config import study_of
    from experiments.tournaments.study import (StudyTally, effects_csv, format_table,
                                               play_study_chunk,
                                   study_plots, variants_csv)

    study = study_of(cfg)
    made = np.array(json.dumps(made_with(cfg)))
    chunks = list(study.chunks(cfg.chunk))
    if cfg.per_deal:
        (run_dir / "deals").mkdir(exist_ok=True)

    def files(lo, hi):
        name = f"items-{lo}-{hi}"
        return run_dir / "chunks" / f"{name}.npz", run_dir / "deals" / f"{name}.npy"

    def line(lo, hi, resumed, t0):
        return {"lo": lo, "hi": hi, "items_so_far": study.n, "resumed": resumed,
                "elapsed_s": round(time.perf_counter() - t0, 3)}

    t0 = time.perf_counter()
    with progress_bar(study.items, progress, study.unit[:-1], what="study") as bar, \
            _MetricsLog(run_dir / "metrics.jsonl") as metrics:
        todo = []
        for lo, hi in chunks:  # finished chunks are read back, the others played
            path, values_path = files(lo, hi)
            data = _load_chunk(path)
            tally = None
            if data is not None:
                try:
                    tally = StudyTally.from_arrays(data, study.shape)
                    tally = tally if (tally.lo, tally.hi) == (lo, hi) else None
                except (KeyError, ValueError, TypeError):
                    tally = None
            if path.exists() and tally is None:
                _damaged(path)
            if tally is not None and cfg.per_deal and not values_path.exists():
                tally = None  # per-deal values asked for and missing: play the chunk again
            if tally is None:
                todo.append((lo, hi))
                continue
            study.add(tally)
            metrics.write(line(lo, hi, True, t0))
            bar.update(hi - lo)
        with closing(_played(executor, play_study_chunk, (study, cfg.per_deal), todo)) as done:
            for (lo, hi), (tally, values) in done:
                path, values_path = files(lo, hi)
                if values is not None:
                    buf = io.BytesIO()
                    np.save(buf, values)
                    atomic_write_bytes(values_path, buf.getvalue())
                atomic_save_npz(path, made_with=made, **tally.to_arrays())
                study.add(tally)
                metrics.write(line(lo, hi, False, t0))
                bar.update(hi - lo)
    result = study.result()
    result["seconds"] = round(time.perf_counter() - t0, 3)
    result["table"] = format_table(result)
    atomic_write_json(run_dir / "summary.json", result)
    atomic_write_text(run_dir / "table.txt", result["table"] + "\n")
    atomic_write_text(run_dir / "effects.csv", effects_csv(result))
    atomic_write_text(run_dir / "results.csv", variants_csv(result))
    study_plots(run_dir, result)
    return json_ready(result)


# ---------------------------------------------------------------------------------------------
# simulations
# ---------------------------------------------------------------------------------------------
def _run_simulation(run_dir: Path, cfg: ExperimentConfig, progress: bool, executor) -> dict:
    from experiments.runs.simulate import SimulationJob, play_simulation_chunk, summarize_stats

    rules = cfg.make_rules()
    whole = cfg.games is not None
    n = cfg.games if whole else cfg.deals
    total = np.zeros(rules.game.num_stats, dtype=np.int64)
    seconds = 0.0
    made = np.array(json.dumps(made_with(cfg)))
    width = total.shape[0]
    if cfg.history:
        (run_dir / "history").mkdir(exist_ok=True)

    def files(lo, hi):
        return (run_dir / "chunks" / f"items-{lo}-{hi}.npz",
                run_dir / "history" / f"{lo:012d}.jsonl" if cfg.history else None)

    with progress_bar(n, progress, "item", what="run") as bar, \
            _MetricsLog(run_dir / "metrics.jsonl") as metrics:
        todo = []
        for lo in range(0, n, cfg.chunk):  # finished chunks are read back, the others played
            hi = min(n, lo + cfg.chunk)
            path, hist = files(lo, hi)
            data = _load_chunk(path)
            if data is not None and (data.get("stats", np.zeros(0)).shape != (width,)
                                     or data.get("seconds", np.zeros(1)).shape != ()):
                data = None
            if path.exists() and data is None:
                _damaged(path)
            if data is not None and hist is not None and not hist.exists():
                data = None  # hand records asked for and missing: play the chunk again
            if data is None:
                todo.append((lo, hi))
                continue
            total += data["stats"]
            seconds += float(data["seconds"])
            metrics.write({"lo": lo, "hi": hi, "resumed": True,
                           "seconds": float(data["seconds"])})
            bar.update(hi - lo)
        job = SimulationJob(cfg.game, rules, cfg.agents, cfg.seed, whole, cfg.history)
        # each chunk is kept as soon as it finishes, in any order
        with closing(_played(executor, play_simulation_chunk, job, todo)) as done:
            for (lo, hi), part in done:
                path, hist = files(lo, hi)
                if hist is not None:
                    atomic_write_bytes(hist, part["history"])
                data = {"stats": part["stats"], "seconds": np.array(part["seconds"])}
                atomic_save_npz(path, made_with=made, **data)
                total += data["stats"]
                seconds += float(data["seconds"])
                metrics.write({"lo": lo, "hi": hi, "resumed": False,
                               "seconds": float(data["seconds"])})
                bar.update(hi - lo)
    summary = summarize_stats(total, rules, cfg.seed, whole, seconds)
    summary["agents"] = cfg.agents
    summary["table"] = format_summary(summary)
    atomic_write_json(run_dir / "summary.json", summary)
    atomic_write_text(run_dir / "table.txt", summary["table"] + "\n")
    flat = [(k, v) for k, v in summary.items() if not isinstance(v, (dict, list)) and k != "table"]
    out = io.StringIO()
    csv.writer(out).writerows([[k for k, _ in flat], [v for _, v in flat]])
    atomic_write_text(run_dir / "results.csv", out.getvalue())
    _simulation_plot(run_dir, summary)
    return json_ready(summary)


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
    plt = pyplot()
    (run_dir / "plots").mkdir(exist_ok=True)
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.bar(labels, values)
    ax.set_ylabel(ylabel)
    ax.set_title(f"{summary['game']}: {summary.get('deals', 0):,} deals")
    save_png(fig, run_dir / "plots" / "points.png")
    plt.close(fig)
