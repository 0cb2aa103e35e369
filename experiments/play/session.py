"""One game at a table where people and agents sit: the engine of ``cardsim play`` (a game in
the terminal) and of ``cardsim serve`` (the browser table).

A ``PlaySession`` holds one game (Debertz) or match (Barbu) as an engine state row, the
agent of every seat (``None`` for a person) and what happened so far. People act through
``act(action)``, which accepts only a legal action of a person's seat; ``advance()`` lets
the agents decide until a person is to act, the deal ends (with ``pause_at_deal_end``) or
the game is over. Every move becomes an event (who did what, the trick it completed, the
deal's result), so a front end can show the agents' moves one by one. Each deal's hand
record (docs/hand-records.md) is kept, and the state row at each deal's start, so that
``duplicate_deal`` can play the same deal again with an agent in a person's seat.

Agents decide exactly as at the table (``cardsim.table``): compiled agents by their own
``act`` on the engine row, Python agents on the observation vector of their seat.
"""

from __future__ import annotations

import sys
import textwrap
import time
from collections.abc import Callable, Iterable
from typing import Any, TextIO

import numpy as np

from cardsim import game_nb
from cardsim.errors import IllegalActionError, InvalidConfigError
from cardsim.table import agent_label, check_agent_rules

PERSON = None  # a seat a person plays


def make_seat_agents(game: str, specs: Iterable, cache: dict | None = None, rules=None) -> list:
    """Agents for the given specs (``None`` stays ``None``: a person's seat) at the table of
    ``rules`` (which says what a preset means). One agent object per distinct spec string
    and table; ``cache`` keeps them across calls."""
    from agents.presets import table_of

    from agents.registry import make_agent

    cache = {} if cache is None else cache
    out = []
    for spec in specs:
        if spec is None:
            out.append(None)
            continue
        if isinstance(spec, str):
            key = (table_of(game, rules), spec.strip())
            if key not in cache:
                cache[key] = make_agent(spec, game, rules)
            out.append(cache[key])
        else:
            out.append(make_agent(spec, game, rules))
    return out


class PlaySession:
    """One game or match of ``game`` under ``rules`` with ``agents[seat]`` in each seat
    (``None``: a person). ``seed`` and ``item`` fix the deals exactly as a run's game
    ``item`` with that seed (cardsim.game_nb.init_item)."""

    def __init__(self, game, rules, agents: list, seed: int = 0, item: int = 0,
                 pause_at_deal_end: bool = True, start_row: np.ndarray | None = None):
        self.kit = rules.game
        if game not in (self.kit, self.kit.name):  # the rules decide; a mismatch is a slip
            raise InvalidConfigError(f"{self.kit.title} rules cannot play game {game!r}")
        self.game = self.kit.name
        self.rules = rules
        self.R = rules.pack()
        self.tag = self.kit.tag
        n = self.kit.players(rules)
        if len(agents) != n:
            raise InvalidConfigError(f"a {self.kit.title} table with these rules has {n} "
                                     f"seats; got {len(agents)} agents")
        self.agents = list(agents)
        check_agent_rules([a for a in self.agents if a is not None], rules)
        self.n_seats = n
        self.seed = int(seed)
        self.item = int(item)
        self.pause_at_deal_end = pause_at_deal_end
        self.states = np.zeros((1, self.kit.layout.STATE_WIDTH), dtype=np.int64)
        self.st = self.states[0]
        self.rng = np.array([np.random.default_rng([self.seed, self.item]).integers(1, 2**63)],
                            dtype=np.uint64)
        for k, a in enumerate({id(a): a for a in self.agents if a is not None}.values()):
            if hasattr(a, "reset"):
                a.reset(int((self.seed * 1_000_003 + self.item * 7919 + k) % 2**31))
        self.decide: Callable[[PlaySession, int], int | None] | None = None
        self.events: list[dict] = []     # every move and deal end of the game, in order
        self.records: list[dict] = []    # hand record of each deal ended
        self.deal_points: list[list[float]] = []  # per deal ended: each seat's points
        self.deal_starts: list[np.ndarray] = []   # state row at the start of each deal
        self.decisions = 0
        if start_row is not None:
            self.st[:] = start_row
        else:
            game_nb.init_item(self.tag, self.st, self.R, self.seed, self.item, True)
        self.deal_starts.append(self.st.copy())
        for e in self._settle():  # a first deal where nobody decides
            self._emit(e, None)

    # --- reading --------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        """Whether the game (match) is over."""
        return bool(game_nb.game_over(self.tag, self.st))

    @property
    def deal_over(self) -> bool:
        """Whether the current deal has ended (or the game is over)."""
        return bool(game_nb.deal_over(self.tag, self.st))

    @property
    def turn(self) -> int:
        """The seat to act, -1 when nobody is (a deal's end, the game's end)."""
        return -1 if self.deal_over else int(game_nb.turn(self.tag, self.st))

    @property
    def person_to_act(self) -> bool:
        """Whether a person's seat is to act."""
        return self.turn >= 0 and self.agents[self.turn] is None

    def legal_actions(self) -> list[int]:
        """Legal action ids of the seat to act (empty when nobody is)."""
        if self.turn < 0:
            return []
        base, bits = game_nb.legal(self.tag, self.st, self.R)
        bits = int(bits)
        return [int(base) + k for k in range(bits.bit_length()) if bits >> k & 1]

    def legal(self) -> list[dict]:
        """The legal actions as ``{"id", "name"}``, in id order."""
        return [{"id": a, "name": self.kit.action_name(a)} for a in self.legal_actions()]

    def view(self, seat: int | None, reveal: bool = False) -> dict:
        """The table as ``seat`` sees it (the game's ``table_view``), with the seats'
        agents' names and the legal actions when ``seat`` is to act."""
        out = self.kit.table_view(self.rules, self.st, seat, reveal)
        out["game"] = self.game
        out["labels"] = [("you" if seat == s else "person") if a is None else agent_label(a)
                         for s, a in enumerate(self.agents)]
        out["legal"] = self.legal() if self.turn >= 0 and self.turn == seat else []
        out["deals_ended"] = len(self.records)
        out["deal_over"] = self.deal_over
        out["game_over"] = self.over
        return out

    def agent_label(self, seat: int) -> str:
        """The name of the agent of ``seat`` in tables, or ``"person"``."""
        a = self.agents[seat]
        return "person" if a is None else agent_label(a)

    # --- acting ---------------------------------------------------------------------------
    def act(self, action) -> list[dict]:
        """A person's action (an id or an action name) for the seat to act; returns the
        events it caused. Raises IllegalActionError (and changes nothing) for anything but
        a legal action of a person's seat."""
        if self.turn < 0:
            raise IllegalActionError("nobody is to act: the deal or the game has ended")
        if not self.person_to_act:
            raise IllegalActionError(f"seat {self.turn} is played by "
                                     f"{self.agent_label(self.turn)!r}, not by a person")
        a = self.parse_action(action)
        return self._apply(a)

    def apply_recorded(self, action: int) -> list[dict]:
        """An action taken earlier at this table by whoever is to act (a person or an agent),
        applied again: how a kept game is made again (experiments.web.store). Raises
        IllegalActionError, changing nothing, when it is not legal here."""
        if self.turn < 0 or action not in self.legal_actions():
            raise IllegalActionError(f"the kept action {action!r} is not legal at this point "
                                     f"of the game (seat {self.turn} to act)")
        return self._apply(int(action))

    def parse_action(self, action) -> int:
        """An action id from an id or a name (``"QS"``, ``"pass"``), checked legal."""
        legal = self.legal_actions()
        names = {self.kit.action_name(a).lower(): a for a in legal}
        if isinstance(action, str) and action.strip().lower() in names:
            return names[action.strip().lower()]
        try:
            a = int(action)
        except (TypeError, ValueError):
            a = None
        if isinstance(action, bool) or a is None or a not in legal or \
                (isinstance(action, float) and not float(action).is_integer()):
            allowed = ", ".join(self.kit.action_name(x) for x in legal) or "none"
            raise IllegalActionError(f"action {action!r} is not legal for seat {self.turn} "
                                     f"now; legal actions: {allowed}")
        return a

    def advance(self, max_moves: int | None = None,
                on_event: Callable[[dict], None] | None = None) -> list[dict]:
        """Agents decide until a person is to act, the deal ends (``pause_at_deal_end``)
        or the game is over (or ``max_moves`` moves were made). Returns the events."""
        out: list[dict] = []
        moves = 0
        while not self.over and not (self.deal_over and self.pause_at_deal_end):
            if self.deal_over:
                out += self._next_deal(on_event)
                continue
            seat = self.turn
            agent = self.agents[seat]
            if agent is None or (max_moves is not None and moves >= max_moves):
                break
            a = self.agent_action(seat)
            out += self._apply(a, on_event)
            moves += 1
        return out

    def next_deal(self) -> list[dict]:
        """Start the next deal once the current one has ended (a paused table)."""
        if not self.deal_over or self.over:
            raise IllegalActionError("the next deal starts only once a deal has ended and "
                                     "the game is not over")
        return self._next_deal(None)

    def agent_action(self, seat: int) -> int:
        """The action the agent of ``seat`` (to act) chooses, checked legal. With
        ``decide`` set, ``decide(session, seat)`` chooses instead (an action id), or
        leaves it to the agent here by returning None."""
        agent = self.agents[seat]
        a = None if self.decide is None else self.decide(self, seat)
        if a is None:
            a = choose_action(self.kit, agent, self.states, self.R, self.rng, seat)
        legal = np.zeros(self.kit.num_actions, dtype=np.uint8)
        legal[self.legal_actions()] = 1
        if not (0 <= a < self.kit.num_actions and legal[a]):
            raise IllegalActionError(
                f"agent {agent_label(agent)!r} at seat {seat} chose action {a}, which is not "
                f"legal; legal actions: {self.kit.legal_names(legal)}")
        return a

    # --- internals ------------------------------------------------------------------------
    def _apply(self, a: int, on_event=None) -> list[dict]:
        seat = self.turn
        before = self.kit.table_view(self.rules, self.st, None)
        game_nb.apply_action(self.tag, self.st, self.R, a)
        self.decisions += 1
        event = {"kind": "move", "seat": seat, "id": a, "name": self.kit.action_name(a),
                 "phase": before["phase"], "deal": before["deal"]}
        if before.get("asking"):  # Barbu's doubles: the opponent the answer is about (B6)
            event["against"] = before["asking"][1]
        out = [event]
        after = self.kit.table_view(self.rules, self.st, None)
        if after["tricks_played"] > before["tricks_played"] and after["last_trick"]:
            out.append({"kind": "trick", "deal": before["deal"],
                        "number": after["tricks_played"], **after["last_trick"]})
        out += self._settle()
        for e in out:
            self._emit(e, on_event)
        return out

    def _emit(self, event: dict, on_event) -> None:
        event["index"] = len(self.events)
        self.events.append(event)
        if on_event is not None:
            on_event(event)

    def _settle(self) -> list[dict]:
        """At a deal's end: its record and points, and (not paused) the next deal."""
        out = []
        while self.deal_over and len(self.deal_points) < len(self.deal_starts):
            rewards = np.zeros(4, dtype=np.float64)
            game_nb.deal_rewards(self.tag, self.st, self.R, rewards)
            record = self._record()
            self.records.append(record)
            self.deal_points.append([float(x) for x in rewards[:self.n_seats]])
            out.append({"kind": "deal_end", "deal": len(self.records) - 1,
                        "points": self.deal_points[-1], "record": record,
                        "game_over": self.over,
                        "scores": self.kit.table_view(self.rules, self.st, None)["scores"]})
            if self.over or self.pause_at_deal_end:
                break
            game_nb.next_deal(self.tag, self.st, self.R)
            self.deal_starts.append(self.st.copy())
        return out

    def _next_deal(self, on_event) -> list[dict]:
        game_nb.next_deal(self.tag, self.st, self.R)
        self.deal_starts.append(self.st.copy())
        out = [{"kind": "deal_start", "deal": int(self.kit.table_view(
            self.rules, self.st, None)["deal"])}]
        out += self._settle()  # a deal where nobody decides (Debertz's four sevens)
        for e in out:
            self._emit(e, on_event)
        return out

    def _record(self) -> dict:
        import json

        return json.loads(self.kit.record_line(self.st, self.rules, self.seed))


def choose_action(kit, agent, states: np.ndarray, R: np.ndarray, rng: np.ndarray,
                  seat: int) -> int:
    """The action ``agent`` chooses for ``seat`` (to act) in the one-game batch
    ``states``, as at the table (cardsim.envs.single.opponent_action); ``rng``, the table's
    generator, moves on."""
    from cardsim.envs.single import opponent_action

    base, bits = game_nb.legal(kit.tag, states[0], R)
    legal = np.zeros(kit.num_actions, dtype=np.uint8)
    bits = int(bits)
    for k in range(bits.bit_length()):
        if bits >> k & 1:
            legal[int(base) + k] = 1
    obs = np.zeros(kit.obs_size, dtype=np.float32)
    kit.observer.observe(states[0], R, seat, obs)
    return opponent_action(agent, kit, states, R, rng, obs, legal)


def duplicate_deal(session: PlaySession, deal: int, seat_agents: list) -> dict:
    """Deal ``deal`` of ``session`` played again from its start with ``seat_agents`` in
    every seat (a person's seat taken by an agent): each seat's points and the record."""
    start = session.deal_starts[deal]
    other = PlaySession(session.game, session.rules, seat_agents, seed=session.seed,
                        item=session.item + 1_000_000 + deal, pause_at_deal_end=True,
                        start_row=start)
    other.advance()
    return {"points": other.deal_points[0], "record": other.records[0]}


def duplicate_game(session: PlaySession, seat_agents: list) -> PlaySession:
    """The whole game (Barbu: match) of ``session`` played again from its first deal with
    ``seat_agents`` in every seat (a person's seat taken by an agent), to its end. Its deals
    are the same cards as the session's deal for deal (a deal's cards come from the seed, the
    game and the deal's number, cardsim.game_nb.next_deal), however differently it goes."""
    other = PlaySession(session.game, session.rules, seat_agents, seed=session.seed,
                        item=session.item + 2_000_000, pause_at_deal_end=False,
                        start_row=session.deal_starts[0])
    other.advance()
    return other


def game_result(session: PlaySession, seat: int) -> dict:
    """How ``seat``'s side stands in ``session``: the sides' scores, its side, its margin
    over the best other side (above zero: ahead, at the end a won game) and each deal's
    points of the seat."""
    view = session.kit.table_view(session.rules, session.st, None)
    side = view["seats"][seat]["side"]
    scores = view["scores"]
    others = [v for k, v in enumerate(scores) if k != side]
    return {"scores": scores, "side": side, "margin": scores[side] - max(others),
            "deals": len(session.records), "over": session.over,
            "points": [p[seat] for p in session.deal_points]}


# --- the terminal game ----------------------------------------------------------------------
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def card_legend(game: str) -> str:
    """How the terminal writes cards, for ``game`` (both games when None)."""
    from cardsim.cards import BARBU_DECK, DEBERTZ_DECK

    decks = {"debertz": DEBERTZ_DECK, "barbu": BARBU_DECK}
    ranks = "; ".join(f"{d.name} {' '.join(d.ranks)}" for g, d in decks.items()
                      if game in (None, g))
    return (f"Cards are written rank then suit. Ranks: {ranks} (T is the ten). Suits: "
            + ", ".join(f"{k} {v}" for k, v in SUIT_NAMES.items())
            + ". TH is the ten of hearts, QS the queen of spades. A trick is listed "
              "seat:card in the order played (1:JS is seat 1's jack of spades).")


def _who(seat: int, you: int, labels: list[str] | None = None) -> str:
    if seat == you:
        return "you"
    return f"seat {seat}" + (f" ({labels[seat]})" if labels else "")


def move_words(event: dict, you: int) -> str:
    """A move as the terminal prints it: Barbu's doubles name the opponent."""
    name = event["name"]
    target = event.get("against")
    if target is None:
        return name
    them = "you" if target == you else f"seat {target}"
    return {"double": f"doubles {them}", "redouble": f"redoubles {them}",
            "no_double": f"does not double {them}"}.get(name, f"{name} ({them})")


def choice_words(name: str, target: int | None, you: int) -> str:
    """A legal action in the prompt; a double says against whom."""
    if target is None:
        return name
    them = "you" if target == you else f"seat {target}"
    return {"double": f"double {them}", "redouble": f"redouble {them}",
            "no_double": f"no_double {them}"}.get(name, name)


def deal_words(event: dict, view: dict, you: int) -> str:
    """The result of a deal in words: who played in what and whether it was made or beaten
    (a byte), each side's points, the scores."""
    rec = event["record"]
    number = event["deal"] + 1
    names = view["side_names"]
    sides = [s["side"] for s in view["seats"]]
    scores = ", ".join(f"{n} {v}" for n, v in zip(names, event["scores"]))
    if view["game"] == "barbu":
        what = rec["contract"].replace("_", " ")
        if rec.get("trump"):
            what += f" ({SUIT_NAMES[rec['trump']]} trump)"
        pts = ", ".join(f"{_who(k, you)} {p:+g}" for k, p in enumerate(event["points"]))
        return (f"deal {number} over: {what}, declared by {_who(rec['declarer'], you)}; "
                f"points {pts}; scores {scores}")
    if rec.get("void"):
        why = "four sevens dealt" if rec["void"] == "four_sevens" else "everybody passed"
        return f"deal {number} over: void ({why}), dealt again; scores {scores}"
    bidder = rec["bidder"]
    side = sides[bidder]
    got = rec["round_points"]
    best_other = max(v for k, v in enumerate(got) if k != side)
    trump = SUIT_NAMES.get(rec.get("trump"), rec.get("trump"))
    head = f"deal {number} over: {_who(bidder, you)} played in {trump}"
    if rec.get("end") == "debertz":
        verdict = "and the game ends with a debertz"
    elif rec.get("byte") == "byte":
        verdict = f"and was beaten, a byte: {got[side]} card points to {best_other}"
    elif rec.get("byte") == "hanging":
        verdict = (f"and was held level, a hanging byte: {got[side]} card points each; "
                   f"the bidder's points wait in the pot")
    else:
        verdict = f"and made it: {got[side]} card points to {best_other}"
    if rec.get("end") == "points":
        verdict += " (a side reached the target before the last trick)"
    recorded = ", ".join(f"{n} {v:+g}" for n, v in zip(names, rec["recorded"]))
    return f"{head} {verdict}; recorded {recorded}; scores {scores}"


def _card_text(view: dict, you: int) -> list[str]:
    lines = []
    for s in view["seats"]:
        if s["hand"] is not None:
            lines.append(f"  your hand (seat {s['seat']}): {' '.join(s['hand'])}")
    trick = " ".join(f"{s}:{c}" for s, c in view["trick"]) or "-"
    lines.append(f"  trick: {trick}")
    lines.append("  " + "; ".join(view["lines"]))
    lines.append("  taken: " + ", ".join(f"seat {s['seat']} {s['tricks']} tricks "
                                          f"{s['points']} points" for s in view["seats"]))
    lines.append("  scores: " + ", ".join(f"{n} {v}" for n, v in zip(view["side_names"],
                                                                     view["scores"])))
    if view.get("asking"):
        lines.append(f"  you answer about {_who(view['asking'][1], you)}: double them, or not")
    return lines


def play_terminal(game: str, rules, agents: list, seat: int, seed: int = 0,
                  deals: int | None = None, stdin: TextIO | None = None,
                  stdout: TextIO | None = None, delay: float = 0.0) -> PlaySession:
    """The terminal game: the person in ``seat`` types the number (or name) of a legal
    action; after every move the trick and the scores are shown. Ends when the game is
    over, after ``deals`` deals, or at the end of the input (EOF, ``quit``)."""
    stdin = stdin or sys.stdin
    out = stdout or sys.stdout
    session = PlaySession(game, rules, agents, seed=seed, pause_at_deal_end=False)
    labels = [session.agent_label(s) if s != seat else "you" for s in range(session.n_seats)]
    print(f"{session.kit.title}: " + ", ".join(f"seat {s} {n}" for s, n in enumerate(labels))
          + f"; seed {seed}", file=out)
    print(textwrap.fill(card_legend(game), width=88), file=out)

    def show(event: dict) -> None:
        if event["kind"] == "move":
            print(f"{_who(event['seat'], seat, labels)}: {move_words(event, seat)}", file=out)
            if delay:
                out.flush()
                time.sleep(delay)
        elif event["kind"] == "trick":
            cards = " ".join(f"{s}:{c}" for s, c in event["cards"])
            print(f"trick {event['number']}: {cards}, won by seat {event['winner']}", file=out)
        elif event["kind"] == "deal_end":
            print(deal_words(event, session.view(None), seat), file=out)

    def deals_done() -> bool:
        return deals is not None and len(session.records) >= deals

    while not session.over and not deals_done():
        # agents move until the person is to act (deal ends go on by themselves)
        while not session.over and not deals_done() and not session.person_to_act:
            session.advance(max_moves=1, on_event=show)
        if session.over or deals_done():
            break
        view = session.view(seat)
        for line in _card_text(view, seat):
            print(line, file=out)
        legal = session.legal()
        target = view["asking"][1] if view.get("asking") else None
        print("  your move: " + "  ".join(f"[{k + 1}] {choice_words(a['name'], target, seat)}"
                                         for k, a in enumerate(legal)), file=out)
        while True:
            print("> ", end="", file=out)
            out.flush()
            line = stdin.readline()
            if not line or line.strip().lower() in ("q", "quit", "exit"):
                print("\ngame left", file=out)
                return session
            text = line.strip()
            choice: Any = text
            if text.isdigit() and 1 <= int(text) <= len(legal):
                choice = legal[int(text) - 1]["id"]
            seen = len(session.events)
            try:
                session.act(choice)
            except IllegalActionError as e:
                print(f"  not legal: {text!r}; type a number 1-{len(legal)} or an action "
                      f"name ({e})", file=out)
                continue
            break
        for e in session.events[seen:]:
            show(e)
    if session.over:
        final = session.view(seat)
        print("game over; scores: " + ", ".join(f"{n} {v}" for n, v in
                                                zip(final["side_names"], final["scores"])),
              file=out)
    return session
