// Playing at the table: the person's hand and decisions, the agents' moves shown one by
// one, agents that think long waited for, keyboard play, the deal's end and the duplicate
// comparisons.

import { $, api, show } from "./api.js";
import { cardEl, isCard } from "./cards.js";
import { clearSheet, drawSheet } from "./sheet.js";
import { decisionText, renderTable, who } from "./table.js";
import { paintValues } from "./values.js";

let GAME = null;        // the last state from the server: {id, seat, view, events, thinking}
let BUSY = false;       // agents' moves being shown, or a request under way: no clicks
let SHOW_LAST = false;  // the last trick shown instead of the current one
// this browser's game, taken up again after a reload, a closed tab or a server's restart
const STORED = "cardsim-game";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function currentGame() { return GAME; }

export function forget() {
  localStorage.removeItem(STORED);
  GAME = null;
}

export function remember(id, token) {
  localStorage.setItem(STORED, JSON.stringify({ id, token }));
}

export function stored() {
  try { return JSON.parse(localStorage.getItem(STORED) || "null"); } catch (e) { return null; }
}

// a new game: an empty table and score sheet, then the server's first state
export async function begin(state) {
  SHOW_LAST = false;
  clearSheet();
  $("table").hidden = false;
  await receive(state);
}

async function receive(state) {
  BUSY = true;
  GAME = state;
  const pace = +$("pace").value;
  for (const e of state.events) {
    draw(e.view, true);
    if (e.kind === "move" && e.seat === state.seat) continue;
    if (pace > 0 && (e.kind === "move" || e.kind === "trick")) await sleep(pace);
  }
  draw(state.view, true);
  if (state.thinking) {  // agents that think long: ask the server to let them go on
    const next = await api("POST", "/api/games/" + state.id + "/advance");
    return receive(next);
  }
  BUSY = false;
  draw(state.view, false);
  if (state.view.deal_over) await drawSheet(GAME).catch((e) => show(e.message));
  document.body.dataset.ready = "1";
}

function decisions(view, busy) {
  return busy ? [] : view.legal;
}

function draw(view, busy) {
  const me = GAME.seat;
  renderTable($("felt"), view, { me, showLast: SHOW_LAST, onLast: toggleLast });
  const legal = decisions(view, busy);
  const legalNames = new Set(legal.map((a) => a.name));
  let key = 0;
  const keyed = [];
  // the other decisions as buttons, then the hand: every card, only legal ones clickable
  const acts = $("actions");
  acts.innerHTML = "";
  for (const a of legal) {
    if (isCard(a.name)) continue;
    const b = document.createElement("button");
    b.className = "action";
    b.dataset.action = a.name;
    b.textContent = decisionText(a.name, view, me);
    b.addEventListener("click", () => act(a.id));
    acts.appendChild(b);
    keyed.push(b);
  }
  const hand = $("hand");
  hand.innerHTML = "";
  const mine = view.seats[me];
  for (const c of mine.hand || []) {
    const b = cardEl(c, "button");
    const ok = legalNames.has(c);
    b.disabled = !ok;
    if (ok) {
      b.classList.add("legal");
      const id = legal.find((a) => a.name === c).id;
      b.addEventListener("click", () => act(id));
      keyed.push(b);
    }
    hand.appendChild(b);
  }
  for (const b of keyed) {  // keys 1-9 choose, in the order shown
    if (++key > 9) break;
    b.dataset.key = key;
    const k = document.createElement("kbd");
    k.textContent = key;
    b.appendChild(k);
  }
  let status;
  if (view.game_over) status = "Game over.";
  else if (view.deal_over) status = "The deal is over.";
  else if (legal.length) status = "Your turn (" + view.phase.replace(/_/g, " ") + ")" +
    (view.asking ? ": double " + who(view, view.asking[1], me) + ", or not" : "") + ".";
  else status = who(view, view.turn, me).replace(/^seat/, "Seat") + " is thinking\u2026";
  $("status").textContent = status;
  $("status").dataset.phase = view.phase;
  document.querySelectorAll("#analysis-bar button.analyse").forEach((b) => { b.disabled = !legal.length; });
  if (!$("checkpoint").value) $("an-network").disabled = true;
  $("analysis-note").textContent = "";
  $("deal-end").hidden = !(view.deal_over && !busy);
  $("next-deal").hidden = view.game_over;
  $("compare-deals").hidden = !GAME.duplicate;
  $("compare-game").hidden = !(GAME.duplicate && view.game_over);
}

function toggleLast() {
  if (!GAME) return;
  SHOW_LAST = !SHOW_LAST;
  draw(GAME.view, BUSY);
}

async function act(id) {
  if (BUSY || !GAME) return;
  BUSY = true;
  show("");
  document.querySelectorAll("#hand button, #actions button").forEach((b) => { b.disabled = true; });
  try {
    SHOW_LAST = false;
    await receive(await api("POST", "/api/games/" + GAME.id + "/act", { action: id }));
  } catch (e) {
    show(e.message);
    BUSY = false;
    if (GAME) draw(GAME.view, false);
  }
}

async function nextDeal() {
  if (!GAME || BUSY || $("deal-end").hidden || $("next-deal").hidden) return;
  try {
    $("compare-result").textContent = "";
    SHOW_LAST = false;
    await receive(await api("POST", "/api/games/" + GAME.id + "/next"));
  } catch (e) { show(e.message); }
}

// keyboard play: 1-9 a decision, arrows along the legal cards (Enter plays the focused
// one), L the last trick, N the next deal
function onKey(ev) {
  if ($("play").hidden || !GAME || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.target.closest && ev.target.closest("input, select, textarea")) return;
  const k = ev.key;
  if (/^[1-9]$/.test(k)) {
    const b = document.querySelector('#actions button[data-key="' + k + '"], #hand button[data-key="' + k + '"]');
    if (b && !b.disabled) { ev.preventDefault(); b.click(); }
  } else if (k === "ArrowLeft" || k === "ArrowRight") {
    const cards = [...document.querySelectorAll("#hand button.legal:not(:disabled)")];
    if (!cards.length) return;
    ev.preventDefault();
    const at = cards.indexOf(document.activeElement);
    const to = at < 0 ? 0 : (at + (k === "ArrowRight" ? 1 : cards.length - 1)) % cards.length;
    cards[to].focus();
  } else if (k === "l" || k === "L") {
    toggleLast();
  } else if (k === "n" || k === "N") {
    nextDeal();
  }
}

function signed(x) { return (x > 0 ? "+" : "") + x; }

// a duplicate replay is played in a worker; a reply that says "thinking" (status 202) came
// before it ended: the same request again waits on for it
async function replayed(path) {
  const url = "/api/games/" + GAME.id + path;
  for (;;) {
    const r = await api("GET", url);
    if (!r.thinking) return r;
    if (r.deals) $("compare-result").textContent = "Replaying the deals\u2026 (" + r.deals_done + " of " + r.deals + ")";
  }
}

export function wirePlay() {
  document.addEventListener("keydown", onKey);
  $("next-deal").addEventListener("click", nextDeal);
  $("compare-deals").addEventListener("click", async () => {
    $("compare-result").textContent = "Replaying the deals\u2026";
    try {
      const r = await replayed("/duplicate");
      const rows = r.deals.map((d) => "deal " + (d.deal + 1) + ": you " + d.you + ", " + r.agent + " " + d.agent).join("; ");
      $("compare-result").textContent = rows + ". Total: you " + r.total_you + ", " + r.agent + " " + r.total_agent + ".";
    } catch (e) { $("compare-result").textContent = ""; show(e.message); }
  });
  $("compare-game").addEventListener("click", async () => {
    $("compare-result").textContent = "Replaying the whole game\u2026";
    try {
      const r = await replayed("/duplicate-game");
      const line = (name, g) => name + ": " + g.scores.map((v, k) => r.side_names[k] + " " + v).join(", ") +
        " in " + g.deals + " deals (your side " + signed(g.margin) + ")";
      const verdict = r.difference > 0 ? "You did " + r.difference + " better than " + r.agent + "."
        : r.difference < 0 ? r.agent + " did " + (-r.difference) + " better than you." : "Level with " + r.agent + ".";
      $("compare-result").textContent = line("You", r.you) + "; " + line(r.agent + " in your seat", r.agent_game) + ". " + verdict;
      document.body.dataset.gameCompared = r.difference;
    } catch (e) { $("compare-result").textContent = ""; show(e.message); }
  });
  document.querySelectorAll("#analysis-bar button.analyse").forEach((b) => b.addEventListener("click", async () => {
    if (!GAME) return;
    $("analysis-note").textContent = "computing\u2026";
    try {
      const r = await api("POST", "/api/games/" + GAME.id + "/analyse",
        { method: b.dataset.method, samples: 8, checkpoint: $("checkpoint").value || null });
      paintValues(r, $("hand"), $("actions"), null);
      $("analysis-note").textContent = r.method + (r.best ? ": best " + r.best : "") + (r.note ? " (" + r.note + ")" : "");
      $("analysis-note").dataset.done = r.method;
    } catch (e) { $("analysis-note").textContent = ""; show(e.message); }
  }));
}
