// The cardsim table: plain JavaScript modules over the JSON API of experiments/web/app.py.
// api.js talks to the server; cards.js and table.js draw; setup.js, play.js and sheet.js
// are the game; replay.js, compare.js and leaderboard.js the other tabs.

import { show } from "./api.js";
import { loadPerDealFiles, wireCompare } from "./compare.js";
import { loadRuns } from "./leaderboard.js";
import { wirePlay } from "./play.js";
import { loadRecordFiles, wireReplay } from "./replay.js";
import { loadMeta, meta } from "./setup.js";

document.querySelectorAll("button.tab").forEach((b) => b.addEventListener("click", () => {
  document.querySelectorAll("button.tab").forEach((x) => x.classList.toggle("active", x === b));
  document.querySelectorAll("section.panel").forEach((s) => { s.hidden = s.id !== b.dataset.tab; });
  show("");
  if (b.dataset.tab === "replay") loadRecordFiles();
  if (b.dataset.tab === "runs") loadRuns();
  if (b.dataset.tab === "compare") loadPerDealFiles();
}));

wirePlay();
wireCompare();
loadMeta().then(() => wireReplay(meta().models)).catch((e) => show(e.message));
