"""Strength against cost of the Debertz ``pimc`` agent: for each number of sampled deals K,
its points per deal against the heuristic (duplicate deals, paired 95% interval) beside the
milliseconds it spends per decision, written to a run directory with a plot.

    python -m experiments.strength_cost [--players 2] [--teams] [--samples 1,2,4,8,16,32]
        [--deals 400] [--seed 5000] [--threads 2] [--out runs]

Milliseconds per decision are timed on one core over the decisions of a fixed set of
positions (bidding and card play, every trick), apart from the tournament.
"""

from __future__ import annotations

import argparse
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from agents.debertz.pimc_nb import pimc_action
from agents.registry import make_agent
from cardsim.debertz import engine_nb as E
from cardsim.debertz import layout as L
from cardsim.debertz.rules import DebertzRules
from cardsim.rng_nb import random_bit
from experiments.files import atomic_write_json, check_output_folder
from experiments.tournament import tournament


def decision_positions(rules, count, seed):
    """Every decision of ``count`` deals of random play (bids, swaps, cards)."""
    R = rules.pack()
    rng = np.array([np.uint64(seed)], dtype=np.uint64)
    out = []
    for game in range(count):
        st = np.zeros(L.STATE_WIDTH, dtype=np.int64)
        E.init_game(st, R, seed, game)
        while st[L.PHASE] < L.PH_DEAL_END:
            mask = E.legal_mask(st, R)
            if mask & (mask - 1):
                out.append(st.copy())
            E.step(st, R, random_bit(mask, rng, 0))
    return R, out


def ms_per_decision(agent, R, states):
    rng = np.ones(1, dtype=np.uint64)
    params = agent.params
    pimc_action(states[0], R, E.legal_mask(states[0], R), params, rng, 0)  # compiled
    t = time.perf_counter()
    for st in states:
        pimc_action(st, R, E.legal_mask(st, R), params, rng, 0)
    return (time.perf_counter() - t) * 1000 / len(states)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    ap.add_argument("--teams", action="store_true")
    ap.add_argument("--samples", default="1,2,4,8,16,32")
    ap.add_argument("--deals", type=int, default=400)
    ap.add_argument("--seed", type=int, default=5000)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", default="runs")
    args = ap.parse_args(argv)
    rules = DebertzRules(players=args.players, teams=args.teams)
    ks = [int(k) for k in args.samples.split(",")]
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
    run_dir = check_output_folder(Path(args.out) / f"pimc-strength-cost-{stamp}", "run folder")
    run_dir.mkdir(parents=True, exist_ok=True)
    R, states = decision_positions(rules, 12, args.seed + 1)
    rows = []
    for k in ks:
        spec = f"pimc:samples={k}"
        ms = ms_per_decision(make_agent(spec, "debertz"), R, states)
        result = tournament("debertz", rules, [spec, "heuristic"], deals=args.deals,
                            seed=args.seed, n_threads=args.threads)
        diff = result["pairings"][0]
        rows.append({"samples": k, "ms_per_decision": ms, "difference": diff["difference"],
                     "ci95": diff["difference_ci95"], "deals": args.deals})
        print(f"K={k:3d}  {ms:8.2f} ms/decision  pimc - heuristic {diff['difference']:+7.2f} "
              f"± {diff['difference_ci95']:.2f} points per deal", flush=True)
        atomic_write_json(run_dir / "results.json",
                          {"rules": rules.to_dict(), "seed": args.seed, "rows": rows})
    plot(run_dir, rows, rules)
    print(f"run directory: {run_dir}")


def plot(run_dir, rows, rules):
    from experiments.run import _figure, _save

    plt = _figure()
    fig, ax = plt.subplots(figsize=(6, 4))
    ms = [r["ms_per_decision"] for r in rows]
    ax.errorbar(ms, [r["difference"] for r in rows], yerr=[r["ci95"] for r in rows],
                marker="o", capsize=3)
    for r in rows:
        ax.annotate(f"K={r['samples']}", (r["ms_per_decision"], r["difference"]),
                    textcoords="offset points", xytext=(5, 5), fontsize=8)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xscale("log")
    ax.set_xlabel("milliseconds per decision (one core)")
    ax.set_ylabel("pimc - heuristic, points per deal (95% CI)")
    ax.set_title(f"Debertz {rules.players} players{' in teams' if rules.teams else ''}: "
                 "strength against cost")
    _save(fig, run_dir / "strength_cost.png")


if __name__ == "__main__":
    main()
