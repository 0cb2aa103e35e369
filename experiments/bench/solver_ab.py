"""The open-hand solvers of another commit against this tree's, in one run: the same
positions solved by both in turn (each solve timed in its worker's CPU time, so the machine's
swings and other processes fall on both alike), every root card valued, exact solves.

    python -m experiments.bench.solver_ab --against REV [--positions N] [--kinds K,K,...]

REV's ``cardsim/`` is taken out of git into a temporary folder and run in a worker process
of its own beside a worker of this tree; the positions are those of
``experiments.bench.search`` (random play, seed 1), made here and sent to both. Prints per
kind of position the median and 90th percentile of A (REV) and B (this tree) in ms, the
ratio of their nodes, and whether every value agreed. Debertz kinds come first, then Barbu's
trick contracts after 8 tricks (paranoid: one seat against three; and max-n); the Barbu
kinds of the solver's targets (paranoid from the first trick, max-n after 4 tricks) are
listed too but take seconds to minutes a position today, so they are not in the default.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
DEBERTZ_KINDS = (  # (label, game, rules or contract, cards played, max-n)
    ("2v2, first trick", "debertz", dict(players=4, teams=True), 0, 0),
    ("2v2, after two tricks", "debertz", dict(players=4, teams=True), 8, 0),
    ("4 players 1 against 3, first trick", "debertz", dict(players=4), 0, 0),
    ("4 players max-n, first trick", "debertz", dict(players=4), 0, 1),
    ("4 players, after two tricks", "debertz", dict(players=4), 8, 0),
    ("3 players, first trick", "debertz", dict(players=3), 0, 0),
    ("2 players, first trick", "debertz", dict(players=2), 0, 0),
    ("2 players, after two tricks", "debertz", dict(players=2), 4, 0),
    ("2v2, mid-round", "debertz", dict(players=4, teams=True), 13, 0),
)
BARBU_CONTRACTS = ("no_tricks", "no_queens", "no_last_two", "no_hearts", "no_king", "trumps")
BARBU_KINDS = tuple(
    (f"Barbu {name}, {model}, after {tricks} tricks", "barbu", name, 4 * tricks, maxn)
    for tricks, model, maxn in ((8, "paranoid", 0), (8, "max-n", 1), (0, "paranoid", 0),
                                (4, "max-n", 1))
    for name in BARBU_CONTRACTS)
KINDS = DEBERTZ_KINDS + BARBU_KINDS
DEFAULT_KINDS = len(DEBERTZ_KINDS) + 2 * len(BARBU_CONTRACTS)  # the kinds run by default


def worker() -> None:
    """A worker: reads JSON lines (``["rules", game, rules, maxn]``, then ``["solve",
    row]``) and answers each solve with ``[ms, values, nodes]``. Its ``cardsim`` is whichever
    comes first on its path."""
    import time

    from cardsim.barbu import layout as BL
    from cardsim.barbu import solve_nb as BV
    from cardsim.barbu.rules import BarbuRules
    from cardsim.debertz import engine_nb as E
    from cardsim.debertz import layout as L
    from cardsim.debertz import solve_nb as DV
    from cardsim.debertz.rules import DebertzRules

    tables = {"debertz": DV.new_table(), "barbu": BV.solver_table()}
    V, R, maxn = DV, None, 0
    for line in sys.stdin:
        cmd = json.loads(line)
        if cmd[0] == "rules":
            game, maxn = cmd[1], cmd[3]
            V = DV if game == "debertz" else BV
            R = (DebertzRules(**cmd[2]) if game == "debertz" else BarbuRules()).pack()
            tt = tables[game]
            pos = np.zeros(V.POSITION_WIDTH, dtype=np.int64)
            values = np.zeros(32 if game == "debertz" else 52, dtype=np.int64)
            print(json.dumps("ok"), flush=True)
            continue
        st = np.array(cmd[1], dtype=np.int64)
        if V is DV:
            V.position_of(st, R, E.side_of(st[L.TURN], R[L.R_TEAMS]), pos)
        else:
            V.position_of(st, R, st[BL.TURN], pos)
            pos[V.P_BUDGET] = 0
        pos[V.P_MAXN] = maxn
        values[:] = 0
        t = time.process_time()  # this worker's CPU time: the other processes' load aside
        V.solve_root(pos, tt, values)
        ms = (time.process_time() - t) * 1000
        print(json.dumps([ms, values.tolist(), int(pos[V.P_NODES])]), flush=True)


def start(cardsim_root: Path) -> subprocess.Popen:
    """A worker whose ``cardsim`` is the one under ``cardsim_root`` (its working folder, first
    on the path); ``experiments`` comes from this tree."""
    env = dict(os.environ, PYTHONPATH=f"{cardsim_root}{os.pathsep}{ROOT}")
    return subprocess.Popen([sys.executable, "-c",
                             "from experiments.bench.solver_ab import worker; worker()"],
                            cwd=cardsim_root, env=env, text=True, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE)


def ask(proc: subprocess.Popen, cmd):
    """Send ``cmd`` to a worker, return its answer."""
    proc.stdin.write(json.dumps(cmd) + "\n")
    proc.stdin.flush()
    return json.loads(proc.stdout.readline())


def old_tree(rev: str, into: Path) -> None:
    """``rev``'s ``cardsim/`` written under ``into``; raises SystemExit naming a bad REV."""
    archive = subprocess.run(["git", "archive", rev, "cardsim"], cwd=ROOT, capture_output=True)
    if archive.returncode != 0:
        raise SystemExit(f"--against {rev}: {archive.stderr.decode().strip()}")
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)


def main(argv=None) -> None:
    """Time the solver of ``--against`` (A) against this tree's (B), kind by kind."""
    from cardsim.barbu import actions as BA
    from cardsim.barbu.rules import BarbuRules
    from cardsim.debertz.rules import DebertzRules
    from experiments.bench.search import barbu_positions, positions

    ap = argparse.ArgumentParser(prog="python -m experiments.bench.solver_ab",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--against", required=True, metavar="REV", help="the commit to compare")
    ap.add_argument("--positions", type=int, default=100, help="positions per kind")
    ap.add_argument("--kinds", default=",".join(map(str, range(DEFAULT_KINDS))),
                    help="which kinds, by number: " + "; ".join(
                        f"{k} {label}" for k, (label, *_) in enumerate(KINDS)))
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        old_tree(args.against, Path(folder))
        a, b = start(Path(folder)), start(ROOT)
        print(f"{'kind':44s} {'A med':>8s} {'A p90':>8s} {'B med':>8s} {'B p90':>8s} "
              f"{'nodes A/B':>9s}  same values", flush=True)
        for k in map(int, args.kinds.split(",")):
            label, game, kw, plays, maxn = KINDS[k]
            if game == "debertz":
                _, rows = positions(DebertzRules(**kw), args.positions + 1, plays)
            else:
                contract = BA.CONTRACT_NAMES.index(kw)
                _, rows = barbu_positions(BarbuRules(), args.positions + 1, contract, plays,
                                          seed=plays // 4)
            for p in (a, b):
                ask(p, ["rules", game, kw, maxn])
                ask(p, ["solve", rows[0].tolist()])  # compiles (or loads) outside the timing
            ms = {a: [], b: []}
            nodes = {a: 0, b: 0}
            same = True
            for i, st in enumerate(rows[1:]):
                answers = {}
                for p in ((a, b) if i % 2 == 0 else (b, a)):  # in turn: neither always first
                    answers[p] = ask(p, ["solve", st.tolist()])
                    ms[p].append(answers[p][0])
                    nodes[p] += answers[p][2]
                same &= answers[a][1] == answers[b][1]
            ta, tb = np.array(ms[a]), np.array(ms[b])
            print(f"{label:44s} {np.median(ta):8.2f} {np.percentile(ta, 90):8.2f} "
                  f"{np.median(tb):8.2f} {np.percentile(tb, 90):8.2f} "
                  f"{nodes[a] / max(1, nodes[b]):9.2f}  {same}", flush=True)
        for p in (a, b):
            p.stdin.close()
            p.wait()


if __name__ == "__main__":
    main()
