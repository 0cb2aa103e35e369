"""Where a Barbu agent gains or loses: one seat's decisions of chosen phases played by an
agent in a table of another, against that other agent in the same seat, on the same deals.

    python -m experiments.seat_swap --contract trumps \\
        --agent neural:checkpoint=barbu-distill-netall --base heuristic \\
        [--phases play] [--tricks 10 13] [--deals 100] [--seed 7000] [--json]

Each deal is the first of a match of seed ``--seed + i`` with the contract forced (B2:
every contract is open at the first deal). It is played twice for each seat s: once with
``--base`` in every seat and phase, once with ``--agent`` deciding seat s's decisions in
``--phases`` (``play``: card play; ``double``; ``trump``; ``start_rank``; all by default) and
``--base`` everywhere else (``--tricks FIRST LAST``: only its card play in those tricks,
numbered 1 to 13). The differences of seat s's tricks and deal score (B7) between
the two are paired by deal and seat, so they isolate what the agent's own decisions of
those phases change: not its partners' or opponents', and not the luck of the cards. The
study is a diagnostic, played one decision at a time from Python (about 100 deals of
four seats in a minute); strength is measured by ``cardsim tournament``.
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from agents.registry import make_agent
from cardsim import games
from cardsim.barbu import actions as A
from cardsim.barbu import observe_nb
from cardsim.barbu.game import BarbuGame
from cardsim.errors import InvalidConfigError
from cardsim.table import EngineRows, Observations
from experiments.stats import mean_ci

PHASES = ("play", "double", "trump", "start_rank")


class Seat:
    """An agent deciding one engine row at a time, from the observations a table gives."""

    def __init__(self, spec: str, seed: int):
        self.agent = make_agent(spec, "barbu")
        self.agent.reset(seed)
        self.label = spec
        self.tag = games.get("barbu").tag
        self.obs = np.zeros((1, observe_nb.OBS_SIZE), dtype=np.float32)

    def act(self, game: BarbuGame, rng: np.ndarray) -> int:
        """The agent's action for the seat to act in ``game`` (generator ``rng``)."""
        observe_nb.observe(game.st, game.R, game.turn(), self.obs[0])
        view = self.obs.view(Observations)
        view.engine = EngineRows(self.tag, game.state, game.R, rng, np.zeros(1, np.int64))
        return int(self.agent.act(view, game.legal_mask()[None])[0])


def play_deal(seed: int, contract: str, base: Seat, agent: Seat | None, seat: int,
              phases: tuple, tricks: tuple = (1, 13)) -> BarbuGame:
    """The first deal of match ``seed`` with ``contract`` forced, ``agent`` deciding seat
    ``seat``'s decisions in ``phases`` (card play only in tricks ``tricks``, first and
    last; None: ``base`` everywhere)."""
    game = BarbuGame(seed=seed)
    rng = np.array([seed], dtype=np.uint64)  # the same generator for both plays of a deal
    while not game.is_deal_over:
        if game.phase() == "contract":
            names = game.legal_action_names()
            game.step(game.legal_actions()[names.index(contract)])
            continue
        mine = agent is not None and game.turn() == seat and game.phase() in phases
        if mine and game.phase() == "play":
            mine = tricks[0] <= sum(game.tricks_won) + 1 <= tricks[1]
        game.step((agent if mine else base).act(game, rng))
    return game


def seat_swap(contract: str, agent: str, base: str, phases=PHASES, deals: int = 100,
              seed: int = 7000, tricks: tuple = (1, 13)) -> dict:
    """Seat-level differences (agent's decisions − base's) of tricks and deal score, with
    95% intervals paired by deal and seat, overall and for the declarer's seat and the
    others'."""
    if contract not in A.CONTRACT_NAMES:
        raise InvalidConfigError(f"unknown contract {contract!r}; contracts: "
                                 f"{', '.join(A.CONTRACT_NAMES)}")
    unknown = [p for p in phases if p not in PHASES]
    if unknown or not phases:
        raise InvalidConfigError(f"phases must be among {', '.join(PHASES)}, got "
                                 f"{', '.join(phases) or 'none'}")
    if len(tricks) != 2 or not 1 <= tricks[0] <= tricks[1] <= 13:
        raise InvalidConfigError(f"tricks must be FIRST LAST with 1 <= FIRST <= LAST <= 13, "
                                 f"got {' '.join(map(str, tricks))}")
    if type(deals) is not int or deals < 1:
        raise InvalidConfigError(f"deals must be a positive integer, got {deals!r}")
    base_seat, agent_seat = Seat(base, seed), Seat(agent, seed)
    rows = []  # (declarer?, tricks difference, score difference)
    for i in range(deals):
        alone = play_deal(seed + i, contract, base_seat, None, -1, phases)
        for s in range(4):
            swapped = play_deal(seed + i, contract, base_seat, agent_seat, s, tuple(phases),
                                tuple(tricks))
            rows.append((swapped.declarer == s,
                         swapped.tricks_won[s] - alone.tricks_won[s],
                         swapped.deal_scores[s] - alone.deal_scores[s]))
    table = np.array(rows, dtype=np.float64)

    def summary(mask):
        tricks, score = mean_ci(table[mask, 1]), mean_ci(table[mask, 2])
        return {"seats": int(mask.sum()), "tricks": tricks[0], "tricks_ci95": tricks[1],
                "score": score[0], "score_ci95": score[1]}

    declarer = table[:, 0] == 1
    return {"contract": contract, "agent": agent, "base": base, "phases": list(phases),
            "tricks": list(tricks), "deals": deals, "seed": seed, "all": summary(np.ones(len(table), bool)),
            "declarer": summary(declarer), "others": summary(~declarer)}


def main(argv=None) -> int:
    """The command line (see the module's docstring); 2 on bad input."""
    parser = argparse.ArgumentParser(prog="python -m experiments.seat_swap",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--contract", required=True, help=", ".join(A.CONTRACT_NAMES))
    parser.add_argument("--agent", required=True)
    parser.add_argument("--base", default="heuristic")
    parser.add_argument("--phases", nargs="+", default=list(PHASES), help=", ".join(PHASES))
    parser.add_argument("--tricks", type=int, nargs=2, default=[1, 13],
                        metavar=("FIRST", "LAST"), help="card play only in these tricks")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        result = seat_swap(args.contract, args.agent, args.base, tuple(args.phases),
                           args.deals, args.seed, tuple(args.tricks))
    except InvalidConfigError as e:
        parser.exit(2, f"error: {e}\n")
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    when = "" if args.tricks == [1, 13] else f" (tricks {args.tricks[0]}-{args.tricks[1]})"
    print(f"{args.contract}: {args.agent} deciding one seat's {', '.join(args.phases)}{when} "
          f"among {args.base}, − {args.base} in that seat ({args.deals} deals x 4 seats, "
          f"seed {args.seed})")
    for key in ("all", "declarer", "others"):
        r = result[key]
        print(f"  {key:9s} {r['seats']:5d} seats   tricks {r['tricks']:+.2f} ± "
              f"{r['tricks_ci95']:.2f}   deal score {r['score']:+.2f} ± {r['score_ci95']:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
