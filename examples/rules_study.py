"""A rules study: how a convention changes the game. Here the share of deals the bidder
loses (a byte, D9.2) with 2, 3 and 4 players and two against two, for the heuristic in
every seat, with and without the obligatory bid of D4.

    python examples/rules_study.py [--hands N]
"""

import argparse

from cardsim.debertz.rules import DebertzRules
from experiments.runs.simulate import simulate

TABLES = {"2 players": dict(players=2), "3 players": dict(players=3),
          "4 players": dict(players=4), "2 against 2": dict(players=4, teams=True)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100000)
    args = parser.parse_args()
    print(f"{'table':<12} {'obligatory':>10} {'byte rate':>10} {'void deals':>11}")
    for name, table in TABLES.items():
        for obligatory in (True, False):
            rules = DebertzRules(**table, obligatory=obligatory)
            s = simulate("debertz", rules, agents=["heuristic"], hands=args.hands)
            print(f"{name:<12} {str(obligatory):>10} {s['byte_rate']:>10.4f} "
                  f"{s['void_deals'] / s['deals']:>11.4f}")


if __name__ == "__main__":
    main()
