// The card table: the seats around it (the viewer at the bottom, the others in playing
// order to the left, across and to the right), hidden hands as backs with their count, the
// trick in the middle with each card before the one who played it, and what the deal is
// about (bids, contract, trump, turn-up, doubles) beside it.

import { SUITS, backsEl, cardEl, cardLabel, suitEl } from "./cards.js";

const PLACES = { 2: ["south", "north"], 3: ["south", "west", "east"],
  4: ["south", "west", "north", "east"] };

export function place(seat, me, n) {
  return PLACES[n][(seat - Math.max(me, 0) + n) % n];
}

export function seatName(seat, me) { return seat === me ? "You" : "Seat " + seat; }

// who a seat is: "Seat 2 (heuristic)", "you"
export function who(view, seat, me) {
  if (seat === me) return "you";
  const label = view.labels && view.labels[seat];
  return "seat " + seat + (label ? " (" + label + ")" : "");
}

// the words on a decision's button; Barbu's doubles name the opponent (B6)
export function decisionText(name, view, me) {
  if (view.asking) {
    const them = who(view, view.asking[1], me);
    if (name === "double") return "Double " + them;
    if (name === "redouble") return "Redouble " + them;
    if (name === "no_double") return "No double on " + them;
  }
  const m = /^(.*)_([SHDC])$/.exec(name);
  if (m) return (m[1] === "name" ? "Trump" : m[1].replace(/_/g, " ")) + " " + SUITS[m[2]];
  const words = name.replace(/_/g, " ");
  return words[0].toUpperCase() + words.slice(1);
}

function seatBox(view, s, me, opts) {
  const d = document.createElement("div");
  d.className = "seat pos-" + place(s.seat, me, view.seats.length) +
    (view.turn === s.seat && !view.deal_over ? " to-act" : "");
  d.dataset.seat = s.seat;
  const head = document.createElement("div");
  head.className = "name";
  head.textContent = seatName(s.seat, me);
  const label = (opts.labels || view.labels || [])[s.seat];
  if (label && s.seat !== me) {
    const a = document.createElement("span");
    a.className = "agent";
    a.textContent = label;
    head.appendChild(a);
  }
  d.appendChild(head);
  const roles = [];
  if (view.side_names.length !== view.seats.length) roles.push(view.side_names[s.side]);
  if (view.dealer === s.seat) roles.push("dealer");
  if (view.bidder === s.seat) roles.push("bidder");
  if (view.declarer === s.seat) roles.push("declarer");
  if (view.turn === s.seat && !view.deal_over) roles.push("to act");
  const facts = document.createElement("div");
  facts.className = "facts";
  facts.textContent = [s.tricks + (s.tricks === 1 ? " trick" : " tricks"),
    s.points + " points", ...roles].join(" \u00b7 ");
  d.appendChild(facts);
  if (s.seat === me && !opts.handInFelt) return d;  // the person's hand is drawn below
  if (s.hand) {  // a hand the viewer may see (its own; every hand in a replay)
    const h = document.createElement("div");
    h.className = "hand";
    for (const c of s.hand) h.appendChild(cardEl(c, "span", true));
    d.appendChild(h);
  } else {
    d.appendChild(backsEl(s.cards));
  }
  return d;
}

function trickBox(view, me, showLast) {
  const n = view.seats.length;
  const box = document.createElement("div");
  box.className = "trick-area" + (showLast ? " last" : "");
  box.setAttribute("aria-label", showLast ? "the last trick" : "the trick");
  const cards = showLast && view.last_trick ? view.last_trick.cards : view.trick;
  for (const [seat, c] of cards) {
    const slot = document.createElement("div");
    slot.className = "slot pos-" + place(seat, me, n);
    slot.dataset.seat = seat;
    slot.appendChild(cardEl(c));
    box.appendChild(slot);
  }
  if (showLast) {
    const cap = document.createElement("div");
    cap.className = "caption";
    cap.textContent = view.last_trick
      ? "last trick, won by " + who(view, view.last_trick.winner, me) : "no trick yet";
    box.appendChild(cap);
  }
  return box;
}

function fact(label, content) {
  const d = document.createElement("div");
  d.className = "fact";
  const l = document.createElement("span");
  l.className = "label";
  l.textContent = label;
  d.appendChild(l);
  if (typeof content === "string") d.appendChild(document.createTextNode(content));
  else d.appendChild(content);
  return d;
}

// what the deal is about, in view beside the trick
function infoBox(view, me) {
  const box = document.createElement("div");
  box.className = "table-info";
  if (view.turnup) {
    const c = cardEl(view.turnup, "span", true);
    c.classList.add("turnup");
    box.appendChild(fact("Turn-up", c));
  }
  if (view.contract) box.appendChild(fact("Contract", view.contract.replace(/_/g, " ") +
    (view.declarer !== undefined && view.declarer !== null ? ", declared by " + who(view, view.declarer, me) : "")));
  if (view.trump) box.appendChild(fact("Trump", suitEl(view.trump)));
  if (view.start_rank) box.appendChild(fact("Starting rank", view.start_rank));
  if (view.bids && view.bids.length) {
    box.appendChild(fact("Bids", view.bids.map(([s, b]) => who(view, s, me) + " " +
      (SUITS[b] ? SUITS[b] : b)).join(", ")));
  }
  if (view.doubles && view.doubles.length) {
    box.appendChild(fact("Doubles", view.doubles.map(([a, b, k]) =>
      who(view, a, me) + " " + (k === "redouble" ? "redoubled " : "doubled ") + who(view, b, me)).join("; ")));
  }
  if (view.domino_rows) {
    const rows = document.createElement("div");
    rows.className = "domino";
    for (const [suit, cards] of Object.entries(view.domino_rows)) {
      const r = document.createElement("div");
      r.textContent = SUITS[suit] + " " + (cards.length ? cards.map(cardLabel).join(" ") : "(not open)");
      rows.appendChild(r);
    }
    box.appendChild(fact("Domino", rows));
  }
  box.appendChild(fact("Scores", view.side_names.map((n, i) => n + " " + view.scores[i]).join(", ") +
    (view.target ? " (target " + view.target + ")" : "")));
  const more = document.createElement("div");
  more.className = "lines";
  more.textContent = view.lines.join("; ");
  box.appendChild(more);
  return box;
}

// draw ``view`` into ``container``. opts: me (the seat at the bottom, -1 none), handInFelt (the bottom seat's hand drawn here too), showLast (the
// last trick instead of the current one), labels (who sits where, when the view has none),
// onLast (the "Last trick" button's handler; no button without it)
export function renderTable(container, view, opts) {
  opts = opts || {};
  const me = opts.me === undefined ? -1 : opts.me;
  container.innerHTML = "";
  const felt = document.createElement("div");
  felt.className = "felt seats-" + view.seats.length;
  for (const s of view.seats) felt.appendChild(seatBox(view, s, me, opts));
  const centre = document.createElement("div");
  centre.className = "centre";
  centre.appendChild(trickBox(view, me, !!opts.showLast));
  if (opts.onLast) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "last-trick-button";
    b.textContent = opts.showLast ? "Back to the trick" : "Last trick";
    b.disabled = !view.last_trick;
    b.title = "L";
    b.addEventListener("click", opts.onLast);
    centre.appendChild(b);
  }
  felt.appendChild(centre);
  container.appendChild(felt);
  container.appendChild(infoBox(view, me));
}
