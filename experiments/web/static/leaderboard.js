// The kept ladders of every table (experiments.tournaments.leaderboard) and the runs under --runs.

import { $, api, show } from "./api.js";

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
    const head = ["#", "agent", "preset", "points per deal", "\u2212 " + t.ladder.reference, "\u00b5s per decision"];
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

export async function loadRuns() {
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
