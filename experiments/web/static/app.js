// The cardsim table: plain JavaScript over the JSON API of experiments/web/app.py.
"use strict";

const $ = (id) => document.getElementById(id);
const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
let META = null;
let GAME = null;        // the last state from the server: {id, seat, view, events}
let BUSY = false;       // agents' moves being shown: no clicks
let REPLAY = null;      // {root, path, deal, steps, game}

function show(msg) {
  const m = $("message");
  m.textContent = msg || "";
  m.hidden = !msg;
}

let TOKEN = null;       // the game's token: only its holder may see or play the game

async function api(method, url, body) {
  const opts = { method, headers: {} };
  if (TOKEN && url.startsWith("/api/games/")) opts.headers.Authorization = "Bearer " + TOKEN;
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(url, opts);
  let data = null;
  try { data = await res.json(); } catch (e) { data = { error: "the server sent no JSON" }; }
  if (!res.ok) throw new Error(data && data.error ? data.error : res.statusText);
  return data;
}

function cardLabel(c) {
  const r = c[0] === "T" ? "10" : c[0];
  return r + (SUITS[c[1]] || c[1]);
}

function cardEl(c, tag, small) {
  const el = document.createElement(tag || "span");
  el.className = "card" + (small ? " small" : "") + ("HD".includes(c[1]) ? " red" : "");
  el.textContent = cardLabel(c);
  el.dataset.card = c;
  return el;
}

function isCard(name) { return /^[2-9TJQKA][SHDC]$/.test(name); }

// --- tabs -------------------------------------------------------------------------------
document.querySelectorAll("button.tab").forEach((b) => b.addEventListener("click", () => {
  document.querySelectorAll("button.tab").forEach((x) => x.classList.toggle("active", x === b));
  document.querySelectorAll("section.panel").forEach((s) => { s.hidden = s.id !== b.dataset.tab; });
  show("");
  if (b.dataset.tab === "replay") loadRecordFiles();
  if (b.dataset.tab === "runs") loadRuns();
  if (b.dataset.tab === "compare") loadPerDealFiles();
}));

// --- set-up -----------------------------------------------------------------------------
async function loadMeta() {
  META = await api("GET", "/api/meta");
  const g = $("game");
  for (const [name, info] of Object.entries(META.games)) {
    const o = document.createElement("option");
    o.value = name; o.textContent = info.title;
    g.appendChild(o);
  }
  for (const sel of [$("checkpoint"), $("rcheckpoint")]) {
    for (const c of META.checkpoints) {
      const o = document.createElement("option");
      o.value = c; o.textContent = c;
      sel.appendChild(o);
    }
  }
  const params = new URLSearchParams(location.search);
  if (params.get("game")) g.value = params.get("game");
  if (params.get("pace") !== null) $("pace").value = params.get("pace");
  g.addEventListener("change", setupSeats);
  $("players").addEventListener("change", setupSeats);
  setupSeats();
}

// the seat menus: the table's named players, then every agent of the game
function fillAgentMenu() {
  const game = $("game").value, size = tableSize();
  const table = game !== "debertz" ? game
    : size.teams ? "debertz-2v2" : `debertz-${size.players}p`;
  const menu = $("agent-menu");
  menu.innerHTML = "";
  const names = [...(META.presets[table] || []), ...META.games[game].agents];
  for (const name of [...new Set(names)]) {
    const o = document.createElement("option");
    o.value = name;
    menu.appendChild(o);
  }
}

function tableSize() {
  const info = META.games[$("game").value];
  if (info.player_counts.length === 1) return { players: info.player_counts[0], teams: false };
  const v = $("players").value;
  return v === "2v2" ? { players: 4, teams: true } : { players: +v, teams: false };
}

function setupSeats() {
  const info = META.games[$("game").value];
  $("players-label").hidden = info.player_counts.length === 1;
  const n = tableSize().players;
  const s = $("seat");
  const keep = +s.value || 0;
  s.innerHTML = "";
  for (let i = 0; i < n; i++) {
    const o = document.createElement("option");
    o.value = i; o.textContent = "seat " + i;
    s.appendChild(o);
  }
  s.value = Math.min(keep, n - 1);
  fillAgentMenu();
  checkpointFor($("checkpoint"), $("game").value);
}

$("setup").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  show("");
  const size = tableSize();
  const rules = {};
  for (const pair of $("conventions").value.split(/[\s,]+/).filter(Boolean)) {
    const [k, v] = pair.split("=");
    rules[k] = v === undefined ? "" : v;
  }
  const body = {
    game: $("game").value, players: size.players, teams: size.teams, seat: +$("seat").value,
    agents: $("agents").value.trim().split(/\s+/).filter(Boolean), seed: +$("seed").value || 0,
    rules,
  };
  if ($("duplicate").value.trim()) body.duplicate = $("duplicate").value.trim();
  if (GAME) api("DELETE", "/api/games/" + GAME.id).catch(() => {});
  GAME = null;
  try {
    $("start").disabled = true;
    const state = await api("POST", "/api/games", body);
    TOKEN = state.token;
    $("table").hidden = false;
    await receive(state);
  } catch (e) {
    show(e.message);
  } finally {
    $("start").disabled = false;
  }
});

// --- the table --------------------------------------------------------------------------
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function receive(state) {
  BUSY = true;
  GAME = state;
  const pace = +$("pace").value;
  for (const e of state.events) {
    if (e.kind === "move" && e.seat === state.seat) { drawTable(e.view, state.seat, true); continue; }
    drawTable(e.view, state.seat, true);
    if (pace > 0 && (e.kind === "move" || e.kind === "trick")) await sleep(pace);
  }
  BUSY = false;
  drawTable(state.view, state.seat, false);
  if (state.view.deal_over) await drawSheet();
  document.body.dataset.ready = "1";
}

function seatName(view, s, mySeat) {
  const label = view.labels[s];
  return s === mySeat ? "You (seat " + s + ")" : "Seat " + s + " \u2014 " + label;
}

function drawSeats(container, view, mySeat, reveal) {
  container.innerHTML = "";
  for (const s of view.seats) {
    const d = document.createElement("div");
    d.className = "seat" + (view.turn === s.seat ? " to-act" : "");
    d.dataset.seat = s.seat;
    const name = document.createElement("div");
    name.className = "name";
    name.textContent = view.labels ? seatName(view, s.seat, mySeat) : "Seat " + s.seat;
    d.appendChild(name);
    const facts = document.createElement("div");
    let text = s.cards + " cards, " + s.tricks + " tricks, " + s.points + " points";
    if (view.side_names.length !== view.seats.length) text += " (" + view.side_names[s.side] + ")";
    if (view.dealer === s.seat) text += ", dealer";
    if (view.declarer === s.seat) text += ", declarer";
    if (view.bidder === s.seat) text += ", bidder";
    facts.textContent = text;
    d.appendChild(facts);
    if (s.hand && (reveal || s.seat !== mySeat)) {
      const h = document.createElement("div");
      h.className = "hand";
      for (const c of s.hand) h.appendChild(cardEl(c, "span", true));
      d.appendChild(h);
    }
    container.appendChild(d);
  }
}

function drawCentre(view, trickEl, lastEl, infoEl) {
  trickEl.innerHTML = "";
  for (const [seat, c] of view.trick) {
    const p = document.createElement("div");
    p.className = "played";
    p.appendChild(cardEl(c));
    p.appendChild(document.createTextNode("seat " + seat));
    trickEl.appendChild(p);
  }
  if (view.domino_rows) {
    const rows = document.createElement("div");
    rows.className = "domino";
    for (const [suit, cards] of Object.entries(view.domino_rows)) {
      const r = document.createElement("div");
      r.textContent = SUITS[suit] + " " + (cards.length ? cards.map(cardLabel).join(" ") : "(not open)");
      rows.appendChild(r);
    }
    trickEl.appendChild(rows);
  }
  lastEl.innerHTML = "";
  if (view.last_trick) {
    lastEl.appendChild(document.createTextNode("last trick: "));
    for (const [seat, c] of view.last_trick.cards) lastEl.appendChild(cardEl(c, "span", true));
    lastEl.appendChild(document.createTextNode(" won by seat " + view.last_trick.winner));
  }
  const lines = [...view.lines];
  if (view.bids && view.bids.length) lines.push("bids: " + view.bids.map(([s, b]) => s + ":" + b).join(" "));
  if (view.doubles && view.doubles.length) lines.push("doubles: " + view.doubles.map(([a, b, k]) => a + "\u2192" + b + " " + k).join(", "));
  lines.push("scores: " + view.side_names.map((n, i) => n + " " + view.scores[i]).join(", ")
             + (view.target ? " (target " + view.target + ")" : ""));
  infoEl.innerHTML = "";
  for (const l of lines) {
    const d = document.createElement("div");
    d.textContent = l;
    infoEl.appendChild(d);
  }
}

function drawTable(view, mySeat, busy) {
  drawSeats($("seats"), view, mySeat, false);
  drawCentre(view, $("trick"), $("last-trick"), $("info"));
  const legal = busy ? [] : view.legal;
  const legalNames = new Set(legal.map((a) => a.name));
  // the hand: every card, only legal ones clickable
  const hand = $("hand");
  hand.innerHTML = "";
  const me = view.seats[mySeat];
  for (const c of me.hand || []) {
    const b = cardEl(c, "button");
    const ok = legalNames.has(c);
    b.disabled = !ok;
    if (ok) {
      b.classList.add("legal");
      const id = legal.find((a) => a.name === c).id;
      b.addEventListener("click", () => act(id));
    }
    hand.appendChild(b);
  }
  // the other decisions as buttons
  const acts = $("actions");
  acts.innerHTML = "";
  for (const a of legal) {
    if (isCard(a.name)) continue;
    const b = document.createElement("button");
    b.className = "action";
    b.dataset.action = a.name;
    b.textContent = a.name.replace(/_/g, " ");
    b.addEventListener("click", () => act(a.id));
    acts.appendChild(b);
  }
  let status;
  if (view.game_over) status = "Game over.";
  else if (view.deal_over) status = "The deal is over.";
  else if (legal.length) status = "Your turn (" + view.phase.replace("_", " ") + ")" + (view.asking ? ": answer about seat " + view.asking[1] : "") + ".";
  else status = "Seat " + view.turn + " is thinking\u2026";
  $("status").textContent = status;
  $("status").dataset.phase = view.phase;
  document.querySelectorAll("#analysis-bar button").forEach((b) => { b.disabled = !legal.length; });
  $("analysis-note").textContent = "";
  const end = $("deal-end");
  end.hidden = !(view.deal_over && !busy);
  $("next-deal").hidden = view.game_over;
  $("compare-deals").hidden = !(GAME && GAME.duplicate);
  $("compare-game").hidden = !(GAME && GAME.duplicate && view.game_over);
}

async function act(id) {
  if (BUSY || !GAME) return;
  BUSY = true;
  show("");
  document.querySelectorAll("#hand button, #actions button").forEach((b) => { b.disabled = true; });
  try {
    const state = await api("POST", "/api/games/" + GAME.id + "/act", { action: id });
    await receive(state);
  } catch (e) {
    show(e.message);
    BUSY = false;
    if (GAME) drawTable(GAME.view, GAME.seat, false);
  }
}

$("next-deal").addEventListener("click", async () => {
  if (!GAME || BUSY) return;
  try {
    $("compare-result").textContent = "";
    await receive(await api("POST", "/api/games/" + GAME.id + "/next"));
  } catch (e) { show(e.message); }
});

$("compare-deals").addEventListener("click", async () => {
  try {
    const r = await api("GET", "/api/games/" + GAME.id + "/duplicate");
    const rows = r.deals.map((d) => "deal " + (d.deal + 1) + ": you " + d.you + ", " + r.agent + " " + d.agent).join("; ");
    $("compare-result").textContent = rows + ". Total: you " + r.total_you + ", " + r.agent + " " + r.total_agent + ".";
  } catch (e) { show(e.message); }
});

function signed(x) { return (x > 0 ? "+" : "") + x; }

$("compare-game").addEventListener("click", async () => {
  $("compare-result").textContent = "Replaying the whole game\u2026";
  try {
    const r = await api("GET", "/api/games/" + GAME.id + "/duplicate-game");
    const line = (who, g) => who + ": " + g.scores.map((v, k) => r.side_names[k] + " " + v).join(", ") +
      " in " + g.deals + " deals (your side " + signed(g.margin) + ")";
    const verdict = r.difference > 0 ? "You did " + r.difference + " better than " + r.agent + "."
      : r.difference < 0 ? r.agent + " did " + (-r.difference) + " better than you." : "Level with " + r.agent + ".";
    $("compare-result").textContent = line("You", r.you) + "; " + line(r.agent + " in your seat", r.agent_game) + ". " + verdict;
    document.body.dataset.gameCompared = r.difference;
  } catch (e) { $("compare-result").textContent = ""; show(e.message); }
});

async function drawSheet() {
  try {
    const r = await api("GET", "/api/games/" + GAME.id + "/sheet");
    const t = $("sheet");
    t.innerHTML = "";
    const head = document.createElement("tr");
    head.innerHTML = "<th>deal</th>" + GAME.view.seats.map((s) => "<th>seat " + s.seat + "</th>").join("");
    t.appendChild(head);
    r.points.forEach((pts, k) => {
      const tr = document.createElement("tr");
      tr.innerHTML = "<td>" + (k + 1) + "</td>" + pts.map((p) => "<td>" + p + "</td>").join("");
      t.appendChild(tr);
    });
    const last = r.records[r.records.length - 1];
    if (last) {
      const what = last.contract || (last.trump ? "trump " + last.trump : last.void || "");
      const res = last.recorded || last.deal_scores;
      $("deal-result").textContent = "Deal " + r.records.length + " (" + what + "): " + (res ? res.join(" / ") : last.end) + (last.byte ? " (" + last.byte + ")" : "");
    }
  } catch (e) { show(e.message); }
}

// --- analysis ---------------------------------------------------------------------------
function checkpointFor(sel, game) {
  // a network of the game being analysed (shipped names start with the game's name)
  if (!sel.value.startsWith(game)) {
    const o = [...sel.options].find((x) => x.value.startsWith(game));
    if (o) sel.value = o.value;
  }
  return sel.value || null;
}

function paintValues(r, handEl, actionsEl, played) {
  handEl.querySelectorAll(".value").forEach((x) => x.remove());
  actionsEl.querySelectorAll(".action-value").forEach((x) => x.remove());
  handEl.querySelectorAll(".best, .played-choice").forEach((x) => x.classList.remove("best", "played-choice"));
  for (const [name, v] of Object.entries(r.values)) {
    if (v === null) continue;
    let el = handEl.querySelector('[data-card="' + name + '"]') || actionsEl.querySelector('[data-action="' + name + '"]');
    if (!el) continue;
    const badge = document.createElement("span");
    badge.className = isCard(name) ? "value" : "action-value";
    badge.textContent = (Math.round(v * 10) / 10).toString();
    el.style.position = "relative";
    el.appendChild(badge);
    if (name === r.best) el.classList.add("best");
  }
  if (played) {
    const el = handEl.querySelector('[data-card="' + played + '"]') || actionsEl.querySelector('[data-action="' + played + '"]');
    if (el) el.classList.add("played-choice");
  }
}

document.querySelectorAll("#analysis-bar button.analyse").forEach((b) => b.addEventListener("click", async () => {
  if (!GAME) return;
  $("analysis-note").textContent = "computing\u2026";
  try {
    const r = await api("POST", "/api/games/" + GAME.id + "/analyse",
      { method: b.dataset.method, samples: 8, checkpoint: checkpointFor($("checkpoint"), GAME.view.game) });
    paintValues(r, $("hand"), $("actions"), null);
    $("analysis-note").textContent = r.method + (r.best ? ": best " + r.best : "") + (r.note ? " (" + r.note + ")" : "");
    $("analysis-note").dataset.done = r.method;
  } catch (e) { $("analysis-note").textContent = ""; show(e.message); }
}));

// --- replay -----------------------------------------------------------------------------
async function loadRecordFiles() {
  try {
    const r = await api("GET", "/api/records");
    const sel = $("record-file");
    sel.innerHTML = "";
    for (const f of r.files) {
      const o = document.createElement("option");
      o.value = JSON.stringify([f.root, f.path]);
      o.textContent = f.root + "/" + f.path;
      sel.appendChild(o);
    }
    if (!r.files.length) show("No hand-record files under " + r.roots.join(", ") + " (write some with cardsim simulate --history FILE).");
    await loadDeals(0);
  } catch (e) { show(e.message); }
}

async function loadDeals(deal) {
  if (!$("record-file").value) return;
  const [root, path] = JSON.parse($("record-file").value);
  const r = await api("GET", "/api/replay?" + new URLSearchParams({ root, path, deal }));
  const sel = $("record-deal");
  sel.innerHTML = "";
  for (const d of r.deals) {
    const o = document.createElement("option");
    o.value = d.deal;
    o.textContent = "deal " + d.deal + " (game " + d.game + ", " + (d.what || "") + ")";
    sel.appendChild(o);
  }
  sel.value = deal;
  return r;
}

$("record-file").addEventListener("change", () => loadDeals(0).catch((e) => show(e.message)));

$("open-record").addEventListener("click", async () => {
  show("");
  try {
    const [root, path] = JSON.parse($("record-file").value);
    const deal = +$("record-deal").value || 0;
    const r = await api("GET", "/api/replay?" + new URLSearchParams({ root, path, deal }));
    REPLAY = { root, path, deal, steps: r.steps, game: r.game };
    $("replay-view").hidden = false;
    $("step").max = r.steps.length - 1;
    $("step").value = 0;
    $("record-json").textContent = JSON.stringify(r.record);
    drawStep();
  } catch (e) { show(e.message); }
});

function drawStep() {
  const k = +$("step").value;
  const s = REPLAY.steps[k];
  const next = REPLAY.steps[k + 1];
  $("step-label").textContent = "step " + k + " of " + (REPLAY.steps.length - 1) +
    (s.action ? " \u2014 seat " + s.seat + " played " + s.action : " \u2014 the deal") +
    (next ? "; next: seat " + next.seat + " " + next.action : "");
  const t = $("replay-table");
  t.innerHTML = "";
  const seats = document.createElement("div");
  seats.id = "replay-seats";
  drawSeats(seats, s.view, -1, true);
  const trick = document.createElement("div"); trick.className = "trick";
  const last = document.createElement("div");
  const info = document.createElement("div"); info.className = "info";
  drawCentre(s.view, trick, last, info);
  t.append(seats, trick, last, info);
  $("ranalysis").textContent = "";
}

$("step").addEventListener("input", drawStep);
for (const [id, f] of [["first-step", () => 0], ["prev-step", (k) => k - 1], ["next-step", (k) => k + 1],
  ["last-step", () => REPLAY.steps.length - 1]]) {
  $(id).addEventListener("click", () => {
    if (!REPLAY) return;
    const k = Math.max(0, Math.min(REPLAY.steps.length - 1, f(+$("step").value)));
    $("step").value = k;
    drawStep();
  });
}

document.querySelectorAll("button.ranalyse").forEach((b) => b.addEventListener("click", async () => {
  if (!REPLAY) return;
  $("ranalysis").textContent = "computing\u2026";
  try {
    const r = await api("POST", "/api/replay/analyse", {
      root: REPLAY.root, path: REPLAY.path, deal: REPLAY.deal, step: +$("step").value,
      method: b.dataset.method, samples: 8, checkpoint: checkpointFor($("rcheckpoint"), REPLAY.game) });
    const k = +$("step").value;
    const turn = REPLAY.steps[k].view.turn;
    const seatEl = document.querySelector('#replay-seats .seat[data-seat="' + turn + '"] .hand') || document.createElement("div");
    paintValues(r, seatEl, document.createElement("div"), r.played);
    const vals = Object.entries(r.values).map(([n, v]) => n + " " + (v === null ? "\u2013" : v)).join(", ");
    $("ranalysis").textContent = r.method + ": " + vals + (r.played ? "; played " + r.played : "") + (r.note ? " (" + r.note + ")" : "");
    $("ranalysis").dataset.done = r.method;
  } catch (e) { $("ranalysis").textContent = ""; show(e.message); }
}));

// --- compare two agents of a tournament ------------------------------------------------
async function loadPerDealFiles() {
  try {
    const r = await api("GET", "/api/perdeal");
    const sel = $("cmp-file");
    sel.innerHTML = "";
    for (const f of r.files) {
      const o = document.createElement("option");
      o.value = f.path;
      o.textContent = f.path + (f.replayable ? "" : " (listing only)");
      sel.appendChild(o);
    }
    if (!r.files.length) show("No per-deal files under --runs (cardsim run with per_deal: true, or cardsim tournament --per-deal FILE.npy).");
  } catch (e) { show(e.message); }
}

$("cmp-list").addEventListener("click", async () => {
  show("");
  $("cmp-plays").hidden = true;
  try {
    const file = $("cmp-file").value;
    const r = await api("GET", "/api/compare?" + new URLSearchParams({
      file, pairing: +$("cmp-pairing").value || 0, top: +$("cmp-top").value || 10 }));
    const [a, b] = r.agents || ["agent a", "agent b"];
    $("cmp-note").textContent = r.rows + " rows; pairing " + r.pairing + ": " + a + " \u2212 " + b +
      (r.note ? " \u2014 " + r.note : "; click a deal to open both plays");
    const t = $("cmp-deals");
    t.innerHTML = "";
    const head = document.createElement("tr");
    for (const h of ["item", "difference", a, b]) {
      const th = document.createElement("th"); th.textContent = h; head.appendChild(th);
    }
    t.appendChild(head);
    for (const d of r.deals) {
      const tr = document.createElement("tr");
      tr.dataset.item = d.item;
      for (const v of [d.item, (d.difference > 0 ? "+" : "") + d.difference.toFixed(1),
        d.points[0].toFixed(1), d.points[1].toFixed(1)]) {
        const td = document.createElement("td"); td.textContent = v; tr.appendChild(td);
      }
      if (r.replayable) {
        tr.className = "pick";
        tr.addEventListener("click", () => openPlays(file, r.pairing, d.item, tr));
      }
      t.appendChild(tr);
    }
  } catch (e) { show(e.message); }
});

async function openPlays(file, pairing, item, tr, deal) {
  show("");
  deal = deal || 0;
  document.querySelectorAll("#cmp-deals tr.open").forEach((x) => x.classList.remove("open"));
  tr.classList.add("open");
  $("cmp-head").textContent = "replaying item " + item + "\u2026";
  $("cmp-plays").hidden = false;
  try {
    const r = await api("GET", "/api/compare/plays?" + new URLSearchParams({ file, pairing, item, deal }));
    $("cmp-head").textContent = "item " + item + ": " + r.agents[0] + " " + r.points[0] + ", " +
      r.agents[1] + " " + r.points[1] + " (the same cards in every play, the agents' seats swapped; " +
      r.plays.length + " plays)";
    const most = Math.max(...r.plays.map((p) => p.records.length));
    if (most > 1) {  // whole games: a deal of the game
      const sel = document.createElement("select");
      for (let d = 0; d < most; d++) {
        const o = document.createElement("option"); o.value = d; o.textContent = "deal " + d; sel.appendChild(o);
      }
      sel.value = deal;
      sel.addEventListener("change", () => openPlays(file, pairing, item, tr, +sel.value));
      $("cmp-head").append(" ", sel);
    }
    // 2 seats or 2 teams: the two plays; otherwise agent a alone in seat 0, then agent b there
    const pair = [0, r.plays.length > 2 ? r.plays.length / 2 : 1];
    for (let k = 0; k < 2; k++) {
      const el = $("cmp-play" + k);
      el.innerHTML = "";
      if (r.plays[pair[k]]) playViewer(el, r.plays, pair[k]);
    }
    document.body.dataset.compared = String(item);
  } catch (e) { $("cmp-head").textContent = ""; show(e.message); }
}

// one play of a duplicate deal, stepped through on its own (a pattern chooser when more)
function playViewer(el, plays, k) {
  const bar = document.createElement("div"); bar.className = "row";
  const pick = document.createElement("select");
  plays.forEach((p, i) => {
    const o = document.createElement("option");
    o.value = i; o.textContent = "play " + i + ": " + p.seats.map((x, s) => s + " " + x).join(", ");
    pick.appendChild(o);
  });
  pick.value = k;
  const range = document.createElement("input"); range.type = "range"; range.min = 0;
  const prev = document.createElement("button"); prev.textContent = "<";
  const next = document.createElement("button"); next.textContent = ">";
  const label = document.createElement("span");
  bar.append(pick, prev, range, next, label);
  const table = document.createElement("div"); table.className = "replay-table";
  el.append(bar, table);
  const steps = () => plays[+pick.value].steps || [];
  function draw() {
    const i = +range.value;
    if (!steps().length) { table.innerHTML = ""; label.textContent = "this play's game ended sooner"; return; }
    const s = steps()[i];
    if (!s.view.labels) s.view.labels = plays[+pick.value].seats;  // who sits where
    label.textContent = "step " + i + "/" + (steps().length - 1) + (s.action ? " \u2014 seat " + s.seat + " " + s.action : "");
    table.innerHTML = "";
    const seats = document.createElement("div"); seats.className = "seats";
    drawSeats(seats, s.view, -1, true);
    const trick = document.createElement("div"); trick.className = "trick";
    const last = document.createElement("div");
    const info = document.createElement("div"); info.className = "info";
    drawCentre(s.view, trick, last, info);
    table.append(seats, trick, last, info);
  }
  function reset() { range.max = Math.max(0, steps().length - 1); range.value = 0; draw(); }
  pick.addEventListener("change", reset);
  range.addEventListener("input", draw);
  prev.addEventListener("click", () => { range.value = Math.max(0, +range.value - 1); draw(); });
  next.addEventListener("click", () => { range.value = Math.max(0, Math.min(steps().length - 1, +range.value + 1)); draw(); });
  reset();
}

// --- leaderboard ------------------------------------------------------------------------
async function loadLadders() {
  const box = $("ladders");
  box.innerHTML = "";
  const r = await api("GET", "/api/leaderboard");
  for (const t of r.tables) {
    const h = document.createElement("h2");
    h.textContent = t.title;
    box.appendChild(h);
    if (!t.ladder) {
      const p = document.createElement("p");
      p.textContent = `Not run yet: cardsim leaderboard --run ${t.table}`;
      box.appendChild(p);
      continue;
    }
    const p = document.createElement("p");
    p.textContent = `${t.ladder.config}: ${t.ladder.deals.toLocaleString("en")} deals a pairing, seed ${t.ladder.seed}, ${t.ladder.date}`;
    box.appendChild(p);
    const table = document.createElement("table");
    table.className = "ladder";
    const head = ["#", "agent", "preset", "points per deal", "− " + t.ladder.reference, "µs per decision"];
    const tr = document.createElement("tr");
    for (const text of head) { const th = document.createElement("th"); th.textContent = text; tr.appendChild(th); }
    table.appendChild(tr);
    t.ladder.rows.forEach((row, i) => {
      const line = document.createElement("tr");
      for (const text of [i + 1, row.spec, row.presets.join(", "), row.points, row.versus, row.us]) {
        const td = document.createElement("td"); td.textContent = text; line.appendChild(td);
      }
      table.appendChild(line);
    });
    box.appendChild(table);
  }
}

async function loadRuns() {
  loadLadders().catch((e) => show(e.message));
  try {
    const r = await api("GET", "/api/runs");
    const list = $("run-list");
    list.innerHTML = "";
    if (!r.runs.length) list.textContent = "No run directories under --runs (cardsim run CONFIG writes one).";
    for (const run of r.runs) {
      const d = document.createElement("div");
      d.className = "run";
      const h = document.createElement("h3");
      h.textContent = run.name;
      d.appendChild(h);
      if (run.table) {
        const pre = document.createElement("pre");
        pre.textContent = run.table;
        d.appendChild(pre);
      }
      for (const p of run.plots) {
        const img = document.createElement("img");
        img.alt = p;
        img.src = "/api/runs/file?" + new URLSearchParams({ path: p });
        d.appendChild(img);
      }
      list.appendChild(d);
    }
  } catch (e) { show(e.message); }
}

// a game left in the browser is dropped on the server (which also frees idle games)
window.addEventListener("pagehide", () => {
  if (GAME) fetch("/api/games/" + GAME.id, { method: "DELETE", keepalive: true, headers: { Authorization: "Bearer " + TOKEN } }).catch(() => {});
});

loadMeta().catch((e) => show(e.message));
