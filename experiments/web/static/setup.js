// Setting up a game: the game, the table, your seat, who sits in each other seat (the
// table's named players first, "strongest" chosen), a seed and conventions; and taking up
// again the game this browser was playing before a reload.

import { $, api, setToken, show } from "./api.js";
import { begin, currentGame, forget, remember, stored } from "./play.js";
import { fillNetworkMenu, modelCard, tableOf } from "./values.js";

let META = null;
const DEFAULT_PLAYER = "strongest";

export function meta() { return META; }

function tableSize() {
  const info = META.games[$("game").value];
  if (info.player_counts.length === 1) return { players: info.player_counts[0], teams: false };
  const v = $("players").value;
  return v === "2v2" ? { players: 4, teams: true } : { players: +v, teams: false };
}

export function currentTable() {
  const size = tableSize();
  return tableOf($("game").value, size.players, size.teams);
}

// an example of the game's conventions for the field's placeholder: two of its own
function conventionsExample(game) {
  const conv = META.games[game].conventions;
  return Object.entries(conv).filter(([k]) => k !== "players" && k !== "teams").slice(0, 2)
    .map(([k, v]) => k + "=" + v).join(" ");
}

// one menu per other seat: the table's named players (each with what it is), then every
// agent of the game, then "other..." for any spec
function seatMenus() {
  const game = $("game").value, n = tableSize().players, me = +$("seat").value;
  const table = currentTable();
  const box = $("seat-agents");
  const kept = {};
  box.querySelectorAll("select").forEach((s) => { kept[s.dataset.seat] = s.value; });
  box.innerHTML = "";
  const presets = META.presets[table] || [];
  const about = META.preset_about[table] || {};
  const names = [...new Set([...presets, ...META.games[game].agents])];
  for (let s = 0; s < n; s++) {
    if (s === me) continue;
    const label = document.createElement("label");
    label.textContent = "Seat " + s + " ";
    const sel = document.createElement("select");
    sel.dataset.seat = s;
    for (const name of names) {
      const o = document.createElement("option");
      o.value = name;
      o.textContent = presets.includes(name) && about[name] ? name + " \u2014 " + about[name] : name;
      sel.appendChild(o);
    }
    const other = document.createElement("option");
    other.value = "other"; other.textContent = "other spec\u2026";
    sel.appendChild(other);
    sel.value = names.includes(kept[s]) ? kept[s] : (names.includes(DEFAULT_PLAYER) ? DEFAULT_PLAYER : names[0]);
    const spec = document.createElement("input");
    spec.className = "other-spec";
    spec.placeholder = "pimc:samples=16";
    spec.hidden = true;
    sel.addEventListener("change", () => { spec.hidden = sel.value !== "other"; });
    label.append(sel, spec);
    box.appendChild(label);
  }
}

function setupSeats() {
  const game = $("game").value;
  const info = META.games[game];
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
  seatMenus();
  const menu = $("agent-menu");
  menu.innerHTML = "";
  for (const name of [...new Set([...(META.presets[currentTable()] || []), ...info.agents])]) {
    const o = document.createElement("option"); o.value = name; menu.appendChild(o);
  }
  $("conventions").placeholder = conventionsExample(game);
  const any = fillNetworkMenu($("checkpoint"), META.models, currentTable());
  $("an-network").disabled = !any;
  $("network-card").textContent = modelCard(META.models, $("checkpoint").value);
}

function seatSpecs() {
  const specs = [];
  for (const sel of $("seat-agents").querySelectorAll("select")) {
    const spec = sel.value === "other" ? sel.parentElement.querySelector(".other-spec").value.trim() : sel.value;
    if (!spec) throw new Error("seat " + sel.dataset.seat + ": give the agent's spec (or choose a named player)");
    specs.push(spec);
  }
  return specs;
}

async function start(ev) {
  ev.preventDefault();
  show("");
  const size = tableSize();
  const rules = {};
  for (const pair of $("conventions").value.split(/[\s,]+/).filter(Boolean)) {
    const [k, v] = pair.split("=");
    rules[k] = v === undefined ? "" : v;
  }
  try {
    const body = {
      game: $("game").value, players: size.players, teams: size.teams, seat: +$("seat").value,
      agents: seatSpecs(), seed: +$("seed").value || 0, rules,
    };
    if ($("duplicate").value.trim()) body.duplicate = $("duplicate").value.trim();
    const old = currentGame();
    if (old) api("DELETE", "/api/games/" + old.id).catch(() => {});
    forget();
    $("start").disabled = true;
    const state = await api("POST", "/api/games", body);
    setToken(state.token);
    remember(state.id, state.token);
    await begin(state);
  } catch (e) {
    show(e.message);
  } finally {
    $("start").disabled = false;
  }
}

// the game this browser played before a reload (or a restart of the server): taken up again
async function resume() {
  const kept = stored();
  if (!kept) return;
  setToken(kept.token);
  try {
    const state = await api("GET", "/api/games/" + kept.id);
    await begin(state);
  } catch (e) {
    forget();
    setToken(null);
  }
}

export async function loadMeta() {
  META = await api("GET", "/api/meta");
  const g = $("game");
  for (const [name, info] of Object.entries(META.games)) {
    const o = document.createElement("option");
    o.value = name; o.textContent = info.title;
    g.appendChild(o);
  }
  const params = new URLSearchParams(location.search);
  if (params.get("game")) g.value = params.get("game");
  if (params.get("pace") !== null) $("pace").value = params.get("pace");
  g.addEventListener("change", setupSeats);
  $("players").addEventListener("change", setupSeats);
  $("seat").addEventListener("change", seatMenus);
  $("checkpoint").addEventListener("change", () => {
    $("network-card").textContent = modelCard(META.models, $("checkpoint").value);
  });
  $("setup").addEventListener("submit", start);
  setupSeats();
  await resume();
  document.body.dataset.meta = "1";
}
