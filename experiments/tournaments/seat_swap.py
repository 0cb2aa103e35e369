"""Where an agent gains or loses: one seat's decisions of chosen phases played by an agent in
a table of another, against that other agent in the same seat, on the same deals.

    python -m experiments.tournaments.seat_swap --contract trumps \\
        --agent neural:checkpoint=barbu --base heuristic \\
        [--phases play] [--tricks 10 13] [--deals 100] [--seed 7000] [--json]
    python -m experiments.tournaments.seat_swap --agent pimc --base heuristic \
        --phases contract double
    python -m experiments.tournaments.seat_swap --game debertz --players 3 \\
        --agent pimc:samples=8,nodes=20000 --base neural:checkpoint=debertz-3p \\
        [--phases play] [--tricks 1 3] [--deals 100] [--seed 7000] [--json]

Each deal is played with ``--base`` in every seat and phase, then once for each seat s with
``--agent`` deciding seat s's decisions in ``--phases`` and ``--base`` everywhere else
(``--tricks FIRST LAST``: only its card play in those tricks, numbered from 1). The
differences of seat s's results between the two are paired by deal and seat, so they
isolate what the agent's own decisions of those phases change: not its partners' or
opponents', and not the luck of the cards.

- Barbu with ``--contract``: deal i is the first of a match of seed ``--seed + i`` with the
  contract forced (B2: every contract is open at the first deal). Without it, the declarer
  chooses: deal i is item i of a tournament of single deals of seed ``--seed`` (``cardsim
  tournament barbu`` without ``--by-contract``: deal i % 28 of match i // 28, the
  contracts already played and the doubles owed drawn). Phases ``contract`` (the
  declarer's choice; without ``--contract`` only), ``double``, ``trump``, ``start_rank``,
  ``play`` (card play); results the seat's tricks and deal score (B7), for the declarer and
  for the others, and with the contracts chosen, for each contract the base chose.
- Debertz (``--players 2|3|4``, ``--teams``): deal i is the first deal of game
  ``--seed + i``; phases ``bid`` (both rounds, D4), ``swap`` (the seven, D5), ``play``;
  results the tricks of the seat's side, the points recorded for its side (D9.2-D9.4: what a
  tournament counts) and those less the other sides' mean (a seat that makes the others
  lose gains too), for the side that took the bid in the base's play and for the others.

The study is a diagnostic, played one decision at a time from Python (about 100 deals of
four seats in a minute); strength is measured by ``cardsim tournament``.
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from agents.registry import make_agent
from cardsim import game_nb, games
from cardsim.games import Game
from cardsim.barbu import actions as A
from cardsim.barbu.game import BarbuGame
from cardsim.debertz.game import DebertzGame
from cardsim.debertz.rules import DebertzRules
from cardsim.errors import InvalidConfigError
from cardsim.table import EngineRows, Observations
from experiments.tournaments.stats import mean_ci

# the study's phases of each game, and the engine's phase names each covers
PHASES = {"barbu": ("contract", "play", "double", "trump", "start_rank"),
          "debertz": ("bid", "swap", "play")}
ENGINE_PHASES = {"barbu": {p: p for p in PHASES["barbu"]},
                 "debertz": {"bid1": "bid", "bid2": "bid", "swap": "swap", "play": "play"}}


class Seat:
    """An agent deciding one engine row at a time, from the observations a table gives."""

    def __init__(self, spec: str, seed: int, kit: Game, rules=None):
        self.agent = make_agent(spec, kit.name, rules)
        self.agent.reset(seed)
        if rules is not None and hasattr(self.agent, "check_rules"):
            self.agent.check_rules(rules)
        self.label = spec
        self.tag = kit.tag
        self.obs = np.zeros((1, kit.obs_size), dtype=np.float32)

    def act(self, game, rng: np.ndarray) -> int:
        """The agent's action for the seat to act in ``game`` (a ``BarbuGame`` or
        ``DebertzGame`` of one row; generator ``rng``)."""
        game_nb.observe(self.tag, game.st, game.R, game.turn(), self.obs[0])
        view = self.obs.view(Observations)
        view.engine = EngineRows(self.tag, game.state, game.R, rng, np.zeros(1, np.int64))
        return int(self.agent.act(view, game.legal_mask()[None])[0])


class BarbuDeals:
    """Barbu's deals of the study: the first deal of match ``seed + i`` with ``contract``
    forced, or (``contract`` None) item ``i`` of a tournament of single deals of ``seed``,
    the declarer choosing; per seat its tricks and deal score (B7), the declarer's seat
    apart."""

    game, groups, columns, last_trick = "barbu", ("declarer", "others"), ("tricks", "score"), 13
    seats, rules = 4, None

    def __init__(self, contract: str | None):
        if contract is not None and contract not in A.CONTRACT_NAMES:
            raise InvalidConfigError(f"unknown contract {contract!r}; contracts: "
                                     f"{', '.join(A.CONTRACT_NAMES)}")
        self.contract = contract
        # a forced contract leaves no choice of contract to swap
        self.phases = tuple(p for p in PHASES["barbu"] if not (contract and p == "contract"))

    def start(self, seed: int, i: int) -> BarbuGame:
        """Deal ``i`` of the study of ``seed``, waiting for its first decision to play."""
        if self.contract is None:
            return BarbuGame.single_deal(i, seed=seed)
        game = BarbuGame(seed=seed + i)
        while game.phase() == "contract":
            game.step(game.legal_actions()[game.legal_action_names().index(self.contract)])
        return game

    def label(self, game) -> str | None:
        """The contract ``game`` played, where the declarer chose it (None where forced)."""
        return None if self.contract else game.contract

    @staticmethod
    def trick(game) -> int:
        """The number of the trick in play, from 1."""
        return sum(game.tricks_won) + 1

    @staticmethod
    def measure(alone, swapped, s) -> tuple:
        """Seat ``s``: (declarer?, tricks and deal score of ``swapped`` less ``alone``'s)."""
        return (swapped.declarer == s, swapped.tricks_won[s] - alone.tricks_won[s],
                swapped.deal_scores[s] - alone.deal_scores[s])


class DebertzDeals:
    """Debertz's deals of the study: the first deal of game ``seed``; per seat its side's
    tricks, recorded points (D9.2-D9.4) and those over the other sides' mean, the side that
    took the bid in the base's play apart."""

    game, groups = "debertz", ("bidders", "others")
    columns = ("tricks", "score", "over_others")
    phases = PHASES["debertz"]

    def __init__(self, contract, players: int, teams: bool):
        if contract is not None:
            raise InvalidConfigError("contract is Barbu's; Debertz has none to force")
        self.rules = DebertzRules(players=players, teams=teams)
        self.seats, self.last_trick = self.rules.players, self.rules.tricks

    def start(self, seed: int, i: int) -> DebertzGame:
        """Game ``seed + i`` at its first deal."""
        return DebertzGame(self.rules, seed=seed + i)

    @staticmethod
    def label(game) -> None:
        """Debertz's deals are not told apart by contract."""
        return None

    @staticmethod
    def trick(game) -> int:
        """The number of the trick in play, from 1."""
        return game.field("trick_no") + 1

    def side(self, seat: int) -> int:
        """The side of ``seat`` (its partnership at 2 against 2)."""
        return seat % 2 if self.rules.teams else seat

    def results(self, game) -> tuple[np.ndarray, np.ndarray]:
        """Per side: tricks taken and points recorded."""
        won = np.asarray(game.field("tricks_won"), dtype=np.float64)[:self.rules.players]
        tricks = won[0::2] + won[1::2] if self.rules.teams else won
        return tricks, np.asarray(game.field("recorded"), dtype=np.float64)[:self.rules.sides]

    def measure(self, alone, swapped, s) -> tuple:
        """Seat ``s``: (its side took the bid in ``alone``?, the side's tricks, recorded
        points and points over the other sides' mean in ``swapped`` less ``alone``'s)."""
        (tricks0, points0), (tricks1, points1) = self.results(alone), self.results(swapped)
        bidder, k = alone.field("bidder"), self.side(s)
        d = points1 - points0
        return (bidder >= 0 and self.side(bidder) == k, tricks1[k] - tricks0[k], d[k],
                d[k] - (d.sum() - d[k]) / (self.rules.sides - 1))


def play_deal(deals, seed: int, i: int, base: Seat, agent: Seat | None, seat: int,
              phases: tuple, tricks: tuple):
    """Deal ``i`` of the study of ``seed`` over ``deals`` (``BarbuDeals``, ``DebertzDeals``)
    played to its end, ``agent`` deciding seat ``seat``'s decisions in ``phases`` (card play
    only in tricks ``tricks``, first and last; None: ``base`` everywhere)."""
    game = deals.start(seed, i)
    # the same generator for both plays of a deal
    rng = np.array([seed + i], dtype=np.uint64)
    covered = ENGINE_PHASES[deals.game]
    while game.phase() in covered:
        mine = agent is not None and game.turn() == seat and covered[game.phase()] in phases
        if mine and game.phase() == "play":
            mine = tricks[0] <= deals.trick(game) <= tricks[1]
        game.step((agent if mine else base).act(game, rng))
    return game


def seat_swap(contract: str | None, agent: str, base: str, phases=None, deals: int = 100,
              seed: int = 7000, tricks: tuple | None = None, game: str = "barbu",
              players: int = 2, teams: bool = False) -> dict:
    """Seat-level differences (agent's decisions − base's), with 95% intervals paired by
    deal and seat, overall and for the declarer's (Barbu) or the bidding side's (Debertz)
    seats and the others': tricks and deal score (Barbu; ``contract`` one of its seven, or
    None: the declarer chooses, and the result has each contract the base chose too), or
    the side's tricks, recorded points and recorded points over the other sides' mean
    (Debertz with ``players``, ``teams``; ``contract`` None). ``phases`` None: all the
    study's; ``tricks`` None: every trick."""
    if game not in PHASES:
        raise InvalidConfigError(f"unknown game {game!r}; games: {', '.join(PHASES)}")
    table = BarbuDeals(contract) if game == "barbu" else DebertzDeals(contract, players, teams)
    phases = tuple(table.phases if phases is None else phases)
    unknown = [p for p in phases if p not in table.phases]
    if unknown or not phases:
        forced = " (the contract is forced)" if "contract" in unknown and contract else ""
        raise InvalidConfigError(f"phases must be among {', '.join(table.phases)}{forced}, "
                                 f"got {', '.join(phases) or 'none'}")
    last = table.last_trick
    tricks = tuple((1, last) if tricks is None else tricks)
    if len(tricks) != 2 or not 1 <= tricks[0] <= tricks[1] <= last:
        raise InvalidConfigError(f"tricks must be FIRST LAST with 1 <= FIRST <= LAST <= "
                                 f"{last}, got {' '.join(map(str, tricks))}")
    if type(deals) is not int or deals < 1:
        raise InvalidConfigError(f"deals must be a positive integer, got {deals!r}")
    kit = games.get(game)
    base_seat = Seat(base, seed, kit, table.rules)
    agent_seat = Seat(agent, seed, kit, table.rules)
    rows = []  # per deal and seat: (first group?, each column's difference)
    labels = []  # per deal and seat: the contract the base chose (None where forced)
    for i in range(deals):
        alone = play_deal(table, seed, i, base_seat, None, -1, phases, tricks)
        for s in range(table.seats):
            swapped = play_deal(table, seed, i, base_seat, agent_seat, s, phases, tricks)
            rows.append(table.measure(alone, swapped, s))
            labels.append(table.label(alone))
    rows = np.array(rows, dtype=np.float64)
    labels = np.array(labels, dtype=object)

    def summary(mask):
        out = {"seats": int(mask.sum())}
        for k, name in enumerate(table.columns):
            out[name], out[f"{name}_ci95"] = mean_ci(rows[mask, 1 + k])
        return out

    first = rows[:, 0] == 1
    result = {"game": game, "contract": contract, "agent": agent, "base": base,
              "phases": list(phases), "tricks": list(tricks), "deals": deals, "seed": seed,
              "all": summary(np.ones(len(rows), bool)), table.groups[0]: summary(first),
              table.groups[1]: summary(~first)}
    if game == "debertz":
        result.update(players=table.rules.players, teams=table.rules.teams)
    elif contract is None:  # each contract the base chose, in the engine's order
        result["contracts"] = {c: summary(labels == c) for c in A.CONTRACT_NAMES
                               if (labels == c).any()}
    return result


def main(argv=None) -> int:
    """The command line (see the module's docstring); 2 on bad input."""
    parser = argparse.ArgumentParser(prog="python -m experiments.tournaments.seat_swap",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="barbu", help=", ".join(PHASES))
    parser.add_argument("--contract", help="Barbu, forced at every deal (default: the "
                                           "declarer chooses): " + ", ".join(A.CONTRACT_NAMES))
    parser.add_argument("--players", type=int, default=2, help="Debertz: 2, 3 or 4")
    parser.add_argument("--teams", action="store_true", help="Debertz: 2 against 2")
    parser.add_argument("--agent", required=True)
    parser.add_argument("--base", default="heuristic")
    parser.add_argument("--phases", nargs="+",
                        help="; ".join(f"{g}: {', '.join(p)}" for g, p in PHASES.items()))
    parser.add_argument("--tricks", type=int, nargs=2, metavar=("FIRST", "LAST"),
                        help="card play only in these tricks")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        result = seat_swap(args.contract, args.agent, args.base, args.phases, args.deals,
                           args.seed, args.tricks, args.game, args.players, args.teams)
    except InvalidConfigError as e:
        parser.exit(2, f"error: {e}\n")
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(headline(result, args.tricks is None))
    rows = [(key, result[key]) for key in ("all", "declarer", "bidders", "others")
            if key in result]
    rows += [(f"  {c}", r) for c, r in result.get("contracts", {}).items()]
    for key, r in rows:
        line = (f"  {key:13s} {r['seats']:5d} seats   tricks {r['tricks']:+.2f} ± "
                f"{r['tricks_ci95']:.2f}   ")
        if args.game == "barbu":
            line += f"deal score {r['score']:+.2f} ± {r['score_ci95']:.2f}"
        else:
            line += (f"points {r['score']:+.2f} ± {r['score_ci95']:.2f}   over others "
                     f"{r['over_others']:+.2f} ± {r['over_others_ci95']:.2f}")
        print(line)
    return 0


def headline(result: dict, every_trick: bool) -> str:
    """The study's first line: what played which seat's decisions, on which deals."""
    tricks = result["tricks"]
    when = "" if every_trick else f" (tricks {tricks[0]}-{tricks[1]})"
    if result["game"] == "barbu":
        where, seats = result["contract"] or "barbu, contracts chosen", 4
    else:
        seats = result["players"]
        where = "debertz " + ("2 against 2" if result["teams"] else f"{seats} players")
    return (f"{where}: {result['agent']} deciding one seat's {', '.join(result['phases'])}"
            f"{when} among {result['base']}, − {result['base']} in that seat "
            f"({result['deals']} deals x {seats} seats, seed {result['seed']})")


if __name__ == "__main__":
    raise SystemExit(main())
