"""Strength against cost of the ``pimc`` agent (Debertz or Barbu): for each number of sampled
deals K, its points per deal against the heuristic (duplicate deals, paired 95% interval)
beside the milliseconds it spends per decision, written to a run directory with a plot.

    python -m experiments.tournaments.strength_cost [--game debertz] [--players 2] [--teams]
        [--samples 1,2,4,8,16,32] [--options nodes=3000] [--deals 400] [--seed 5000]
        [--threads 2] [--out runs]

Barbu is played by contract (deal i plays contract i % 7; the results per contract are kept
too). ``--options`` adds agent options to every K (``nodes=3000,rollouts=64``).
Barbu ``pimc`` solves the drawn deals only in the last ``solve`` tricks (4) and plays the
first ones out on ``rollouts`` deals whatever K; ``--options solve=13`` solves every trick.
Milliseconds per decision are timed on one core over the decisions of a fixed set of
positions (every decision of a few deals of random play: bids or contract choices, doubles,
card play at every trick), apart from the tournament.
"""

from __future__ import annotations

import argparse
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from agents.registry import make_agent
from cardsim import game_nb as G
from cardsim import games
from cardsim.games import Game
from cardsim.rng_nb import random_bit
from experiments.runs.files import atomic_write_json, check_output_folder
from experiments.tournaments.tournament import tournament


def decision_positions(game: Game, R, count, seed):
    """Every decision (two or more legal actions) of ``count`` deals of random play: bids or
    contract choices, doubles, the swap, card play at every trick."""
    rng = np.array([np.uint64(seed)], dtype=np.uint64)
    states = []
    for item in range(count):
        st = np.zeros(game.layout.STATE_WIDTH, dtype=np.int64)
        G.init_item(game.tag, st, R, seed, item, False)
        while not G.deal_over(game.tag, st):
            base, bits = G.legal(game.tag, st, R)
            if bits & (bits - 1):
                states.append(st.copy())
            G.step(game.tag, st, R, base + random_bit(bits, rng, 0))
    return states


def observed_positions(kit: Game, R, states):
    """What a Python agent is handed for each of ``states``: the observation of the seat to
    act (float32, (n, observation size)) and the legal actions (bool, (n, actions))."""
    obs = np.zeros((len(states), kit.obs_size), dtype=np.float32)
    legal = np.zeros((len(states), kit.num_actions), dtype=np.bool_)
    for i, st in enumerate(states):
        G.observe(kit.tag, st, R, kit.turn(st), obs[i])
        base, bits = G.legal(kit.tag, st, R)
        legal[i, [base + b for b in range(64) if bits >> b & 1]] = True
    return obs, legal


def pimc_decision(game: Game):
    """The game's compiled ``pimc`` policy as ``decide(st, R, base, bits, params, rng)``."""
    from agents.policies import PIMC

    act = PIMC.function(game.name)
    tag = game.tag
    return lambda st, R, base, bits, params, rng: act(tag, params, st, R, base, bits, rng, 0)


def ms_per_decision(agent, game: Game, R, states):
    """Milliseconds the compiled pimc ``agent`` spends per decision over the positions ``states``
    (rules ``R``), on the calling thread, after one call that compiles."""
    decide = pimc_decision(game)
    tag = game.tag
    rng = np.ones(1, dtype=np.uint64)
    legal = [G.legal(tag, st, R) for st in states]
    decide(states[0], R, *legal[0], agent.params, rng)  # compiled
    t = time.perf_counter()
    for st, (base, bits) in zip(states, legal):
        decide(st, R, base, bits, agent.params, rng)
    return (time.perf_counter() - t) * 1000 / len(states)


def main(argv=None):
    """Measure strength against cost for each K of ``--samples`` (module docstring; options from
    ``argv``): time each pimc agent, play it against the heuristic, and write ``results.json``
    (after each K) and ``strength_cost.png`` to a new run directory under ``--out``."""
    ap = argparse.ArgumentParser(prog="python -m experiments.tournaments.strength_cost",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--game", default=games.GAMES[0], choices=games.GAMES)
    ap.add_argument("--players", type=int, help="a game with several table sizes: the seats")
    ap.add_argument("--teams", action="store_true", help="2 against 2, where the game has teams")
    ap.add_argument("--samples", default="1,2,4,8,16,32")
    ap.add_argument("--options", default="", help="more pimc options, e.g. nodes=3000")
    ap.add_argument("--deals", type=int, default=400)
    ap.add_argument("--seed", type=int, default=5000)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", default="runs")
    args = ap.parse_args(argv)
    ks = [int(k) for k in args.samples.split(",")]
    game = games.get(args.game)
    by_contract = bool(game.item_labels)  # results by contract (Barbu)
    table = {}
    if len(game.player_counts) > 1:
        table = {"players": args.players or min(game.player_counts), "teams": args.teams}
    elif args.players is not None or args.teams:
        ap.error(f"{game.title} is played by {game.player_counts[0]}: no --players or --teams")
    rules = game.make_rules(conventions=table)
    title = (f"{game.title}, by contract" if by_contract else
             f"{game.title} {game.players(rules)} players"
             f"{' in teams' if getattr(rules, 'teams', False) else ''}")
    R = rules.pack()
    states = decision_positions(game, R, 12, args.seed + 1)
    extra = f",{args.options}" if args.options else ""
    make_agent(f"pimc:samples=1{extra}", args.game)  # a bad option fails before any run
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
    run_dir = check_output_folder(Path(args.out) / f"pimc-strength-cost-{args.game}-{stamp}",
                                  "run folder")
    run_dir.mkdir(parents=True, exist_ok=True)
    rows = []
    for k in ks:
        spec = f"pimc:samples={k}{extra}"
        ms = ms_per_decision(make_agent(spec, args.game), game, R, states)
        result = tournament(args.game, rules, [spec, "heuristic"], deals=args.deals,
                            seed=args.seed, n_threads=args.threads, by_contract=by_contract)
        diff = result["pairings"][0]
        row = {"samples": k, "spec": spec, "ms_per_decision": ms,
               "difference": diff["difference"], "ci95": diff["difference_ci95"],
               "deals": args.deals}
        if by_contract:
            row["by_contract"] = diff["by_contract"]
        rows.append(row)
        print(f"K={k:3d}  {ms:8.2f} ms/decision  pimc - heuristic {diff['difference']:+7.2f} "
              f"± {diff['difference_ci95']:.2f} points per deal", flush=True)
        atomic_write_json(run_dir / "results.json",
                          {"game": args.game, "rules": rules.to_dict(), "seed": args.seed,
                           "rows": rows})
    plot(run_dir, rows, title)
    print(f"run directory: {run_dir}")


def plot(run_dir, rows, title):
    """Write ``strength_cost.png`` to ``run_dir``: each K's points per deal against the heuristic
    with its 95% interval, over milliseconds per decision (log scale); ``title`` names the game."""
    from experiments.runs.plots import pyplot, save_png

    plt = pyplot()
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
    ax.set_title(f"{title}: strength against cost")
    save_png(fig, run_dir / "strength_cost.png")


if __name__ == "__main__":
    main()
