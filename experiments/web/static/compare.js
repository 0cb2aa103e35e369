// Where two agents of a tournament differed most: the deals of a per-deal file, and both
// plays of one duplicate deal side by side.

import { $, api, show } from "./api.js";
import { renderTable } from "./table.js";

export async function loadPerDealFiles() {
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

async function listDeals() {
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
}

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
    label.textContent = "step " + i + "/" + (steps().length - 1) + (s.action ? " \u2014 seat " + s.seat + " " + s.action : "");
    renderTable(table, s.view, { me: -1, handInFelt: true, labels: plays[+pick.value].seats });
  }
  function reset() { range.max = Math.max(0, steps().length - 1); range.value = 0; draw(); }
  pick.addEventListener("change", reset);
  range.addEventListener("input", draw);
  prev.addEventListener("click", () => { range.value = Math.max(0, +range.value - 1); draw(); });
  next.addEventListener("click", () => { range.value = Math.max(0, Math.min(steps().length - 1, +range.value + 1)); draw(); });
  reset();
}

export function wireCompare() {
  $("cmp-list").addEventListener("click", listDeals);
}
