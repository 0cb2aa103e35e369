"""A Python agent of your own, in a duplicate tournament against the heuristic.

    python examples/custom_agent.py [--deals N]

The agent sees what every Python agent sees: a batch of observation vectors and legal masks.
"""

import argparse

import numpy as np

from cardsim.debertz.rules import DebertzRules
from experiments.tournaments.tournament import format_table, tournament


class LowestCard:
    """Bids and swaps like everybody's first option, plays its lowest legal card."""

    label = "lowest-card"

    def act(self, observations, legal_masks):
        # Debertz card ids are suit * 8 + rank: the lowest rank of any suit first
        rank = np.arange(legal_masks.shape[1]) % 8
        cost = np.where(legal_masks, rank, 99)
        return cost.argmin(axis=1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20000)
    args = parser.parse_args()
    result = tournament("debertz", DebertzRules(), [LowestCard(), "heuristic"],
                        deals=args.deals)
    print(format_table(result))


if __name__ == "__main__":
    main()
