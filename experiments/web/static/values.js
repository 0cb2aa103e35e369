// Action values (the solver's, pimc's, a network's) painted on the cards and buttons they
// are for, and the network menu: the shipped networks of the table, strongest first.

import { isCard } from "./cards.js";

export function paintValues(r, handEl, actionsEl, played) {
  handEl.querySelectorAll(".value").forEach((x) => x.remove());
  actionsEl.querySelectorAll(".action-value").forEach((x) => x.remove());
  handEl.querySelectorAll(".best, .played-choice").forEach((x) => x.classList.remove("best", "played-choice"));
  for (const [name, v] of Object.entries(r.values)) {
    if (v === null) continue;
    const el = handEl.querySelector('[data-card="' + name + '"]') || actionsEl.querySelector('[data-action="' + name + '"]');
    if (!el) continue;
    const badge = document.createElement("span");
    badge.className = isCard(name) ? "value" : "action-value";
    badge.textContent = (Math.round(v * 10) / 10).toString();
    el.appendChild(badge);
    if (name === r.best) el.classList.add("best");
  }
  if (played) {
    const el = handEl.querySelector('[data-card="' + played + '"]') || actionsEl.querySelector('[data-action="' + played + '"]');
    if (el) el.classList.add("played-choice");
  }
}

// the table a game's rules are for (agents/presets: debertz-2p ... barbu)
export function tableOf(game, players, teams) {
  if (game !== "debertz") return game;
  return teams ? "debertz-2v2" : "debertz-" + players + "p";
}

function modelText(m) {
  const strength = m.over_heuristic === null ? "not measured on the ladder"
    : (m.over_heuristic > 0 ? "+" : "") + m.over_heuristic.toFixed(2) + " \u00b1 " + m.ci95.toFixed(2) +
      " points a deal over the heuristic (" + m.deals + " deals)";
  return m.name + " (" + m.kind + "): " + strength;
}

// the networks of ``table`` in ``sel``, each with its card; the strongest chosen
export function fillNetworkMenu(sel, models, table) {
  const keep = sel.value;
  sel.innerHTML = "";
  const mine = models.filter((m) => m.table === table);
  for (const m of mine) {
    const o = document.createElement("option");
    o.value = m.name;
    o.textContent = m.name + (m.over_heuristic === null ? "" : " (" + (m.over_heuristic > 0 ? "+" : "") + m.over_heuristic.toFixed(1) + " over heuristic)");
    o.title = modelText(m) + ". " + m.summary;
    sel.appendChild(o);
  }
  if (!mine.length) {
    const o = document.createElement("option");
    o.value = ""; o.textContent = "no network for this table";
    sel.appendChild(o);
  }
  sel.value = mine.some((m) => m.name === keep) ? keep : (mine.length ? mine[0].name : "");
  sel.title = sel.selectedOptions[0] ? sel.selectedOptions[0].title : "";
  return mine.length > 0;
}

export function modelCard(models, name) {
  const m = models.find((x) => x.name === name);
  return m ? modelText(m) + ". " + m.summary : "";
}
