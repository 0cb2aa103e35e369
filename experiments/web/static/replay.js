// Replaying hand records (files under the server's directories, and the finished games of
// this table) step by step, every hand face up, with the values of each decision.

import { $, api, show } from "./api.js";
import { renderTable } from "./table.js";
import { fillNetworkMenu, paintValues, tableOf } from "./values.js";

let REPLAY = null;      // {root, path, deal, steps, game}
let MODELS = [];

function fileLabel(f) {
  if (f.root !== "games") return f.root + "/" + f.path;
  const when = new Date(f.finished * 1000).toLocaleString();
  return "game " + f.path + " (" + f.game + ", " + f.deals + " deals, " + when + ")";
}

export async function loadRecordFiles() {
  try {
    const r = await api("GET", "/api/records");
    const sel = $("record-file");
    sel.innerHTML = "";
    for (const f of r.files) {
      const o = document.createElement("option");
      o.value = JSON.stringify([f.root, f.path]);
      o.textContent = fileLabel(f);
      sel.appendChild(o);
    }
    if (!r.files.length) show("No hand records yet: finish a game here, or write some with cardsim simulate --history FILE under " + r.roots.slice(1).join(", ") + ".");
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

function drawStep() {
  const k = +$("step").value;
  const s = REPLAY.steps[k];
  const next = REPLAY.steps[k + 1];
  $("step-label").textContent = "step " + k + " of " + (REPLAY.steps.length - 1) +
    (s.action ? " \u2014 seat " + s.seat + " played " + s.action : " \u2014 the deal") +
    (next ? "; next: seat " + next.seat + " " + next.action : "");
  renderTable($("replay-table"), s.view, { me: -1, handInFelt: true });
  $("ranalysis").textContent = "";
}

export function wireReplay(models) {
  MODELS = models;
  $("record-file").addEventListener("change", () => loadDeals(0).catch((e) => show(e.message)));
  $("open-record").addEventListener("click", async () => {
    show("");
    try {
      const [root, path] = JSON.parse($("record-file").value);
      const deal = +$("record-deal").value || 0;
      const r = await api("GET", "/api/replay?" + new URLSearchParams({ root, path, deal }));
      REPLAY = { root, path, deal, steps: r.steps, game: r.game };
      const rules = r.record.rules || {};
      fillNetworkMenu($("rcheckpoint"), MODELS, tableOf(r.game, rules.players || 2, !!rules.teams));
      $("replay-view").hidden = false;
      $("step").max = r.steps.length - 1;
      $("step").value = 0;
      $("record-json").textContent = JSON.stringify(r.record);
      drawStep();
    } catch (e) { show(e.message); }
  });
  $("step").addEventListener("input", drawStep);
  for (const [id, f] of [["first-step", () => 0], ["prev-step", (k) => k - 1], ["next-step", (k) => k + 1],
    ["last-step", () => REPLAY.steps.length - 1]]) {
    $(id).addEventListener("click", () => {
      if (!REPLAY) return;
      $("step").value = Math.max(0, Math.min(REPLAY.steps.length - 1, f(+$("step").value)));
      drawStep();
    });
  }
  document.querySelectorAll("button.ranalyse").forEach((b) => b.addEventListener("click", async () => {
    if (!REPLAY) return;
    $("ranalysis").textContent = "computing\u2026";
    try {
      const r = await api("POST", "/api/replay/analyse", {
        root: REPLAY.root, path: REPLAY.path, deal: REPLAY.deal, step: +$("step").value,
        method: b.dataset.method, samples: 8, checkpoint: $("rcheckpoint").value || null });
      const turn = REPLAY.steps[+$("step").value].view.turn;
      const seatEl = document.querySelector('#replay-table .seat[data-seat="' + turn + '"] .hand') || document.createElement("div");
      paintValues(r, seatEl, document.createElement("div"), r.played);
      const vals = Object.entries(r.values).map(([n, v]) => n + " " + (v === null ? "\u2013" : v)).join(", ");
      $("ranalysis").textContent = r.method + ": " + vals + (r.played ? "; played " + r.played : "") + (r.note ? " (" + r.note + ")" : "");
      $("ranalysis").dataset.done = r.method;
    } catch (e) { $("ranalysis").textContent = ""; show(e.message); }
  }));
}
