"""The Debertz open-hand solver of another commit against this tree's, in one run: the same
positions solved by both in turn (the machine's swings fall on both alike), every root card
valued, exact solves.

    python -m experiments.bench.solver_ab --against REV [--positions N] [--kinds K,K,...]

REV's ``cardsim/`` is taken out of git into a temporary folder and run in a worker process
of its own beside a worker of this tree; the positions are those of
``experiments.bench.search`` (random play, seed 1), made here and sent to both. Prints per
kind of position the median and 90th percentile of A (REV) and B (this tree) in ms, the
ratio of their nodes, and whether every value agreed.
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
KINDS = (  # (label, rules, cards played, max-n)
    ("2v2, first trick", dict(players=4, teams=True), 0, 0),
    ("2v2, after two tricks", dict(players=4, teams=True), 8, 0),
    ("4 players 1 against 3, first trick", dict(players=4), 0, 0),
    ("4 players max-n, first trick", dict(players=4), 0, 1),
    ("4 players, after two tricks", dict(players=4), 8, 0),
    ("3 players, first trick", dict(players=3), 0, 0),
    ("2 players, first trick", dict(players=2), 0, 0),
    ("2 players, after two tricks", dict(players=2), 4, 0),
    ("2v2, mid-round", dict(players=4, teams=True), 13, 0),
)


def worker() -> None:
    """A worker: reads JSON lines (``["rules", kwargs, maxn]``, then ``["solve", row]``) and
    answers each solve with ``[ms, values, nodes]``. Its ``cardsim`` is whichever comes first
    on its path."""
    import time

    from cardsim.debertz import engine_nb as E
    from cardsim.debertz import layout as L
    from cardsim.debertz import solve_nb as V
    from cardsim.debertz.rules import DebertzRules

    tt = V.new_table()
    pos = np.zeros(V.POSITION_WIDTH, dtype=np.int64)
    values = np.zeros(32, dtype=np.int64)
    R, maxn = None, 0
    for line in sys.stdin:
        cmd = json.loads(line)
        if cmd[0] == "rules":
            R, maxn = DebertzRules(**cmd[1]).pack(), cmd[2]
            print(json.dumps("ok"), flush=True)
            continue
        st = np.array(cmd[1], dtype=np.int64)
        V.position_of(st, R, E.side_of(st[L.TURN], R[L.R_TEAMS]), pos)
        pos[V.P_MAXN] = maxn
        values[:] = 0
        t = time.perf_counter()
        V.solve_root(pos, tt, values)
        ms = (time.perf_counter() - t) * 1000
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
    from cardsim.debertz.rules import DebertzRules
    from experiments.bench.search import positions

    ap = argparse.ArgumentParser(prog="python -m experiments.bench.solver_ab",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--against", required=True, metavar="REV", help="the commit to compare")
    ap.add_argument("--positions", type=int, default=100, help="positions per kind")
    ap.add_argument("--kinds", default=",".join(map(str, range(len(KINDS)))),
                    help="which kinds, by number: " + "; ".join(
                        f"{k} {label}" for k, (label, *_) in enumerate(KINDS)))
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        old_tree(args.against, Path(folder))
        a, b = start(Path(folder)), start(ROOT)
        print(f"{'kind':36s} {'A med':>8s} {'A p90':>8s} {'B med':>8s} {'B p90':>8s} "
              f"{'nodes A/B':>9s}  same values", flush=True)
        for k in map(int, args.kinds.split(",")):
            label, kw, plays, maxn = KINDS[k]
            _, rows = positions(DebertzRules(**kw), args.positions + 1, plays)
            for p in (a, b):
                ask(p, ["rules", kw, maxn])
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
            print(f"{label:36s} {np.median(ta):8.2f} {np.percentile(ta, 90):8.2f} "
                  f"{np.median(tb):8.2f} {np.percentile(tb, 90):8.2f} "
                  f"{nodes[a] / max(1, nodes[b]):9.2f}  {same}", flush=True)
        for p in (a, b):
            p.stdin.close()
            p.wait()


if __name__ == "__main__":
    main()
