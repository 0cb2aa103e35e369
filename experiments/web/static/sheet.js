// The score sheet of the game (Barbu: the match) and each deal's result in words. A new
// game starts with an empty sheet.

import { $, api } from "./api.js";
import { SUIT_NAMES } from "./cards.js";

export function clearSheet() {
  $("sheet").innerHTML = "";
  $("deal-result").textContent = "";
  $("compare-result").textContent = "";
}

function seatWords(seat, me) { return seat === me ? "you" : "seat " + seat; }

// a deal's result: who played in what, made or beaten (a byte), the points
export function dealWords(rec, number, sideNames, sides, me) {
  const head = "Deal " + number + ": ";
  if (rec.contract) {  // Barbu
    return head + rec.contract.replace(/_/g, " ") + (rec.trump ? " (" + SUIT_NAMES[rec.trump] + " trump)" : "") +
      ", declared by " + seatWords(rec.declarer, me) + "; points " +
      rec.deal_scores.map((p, k) => seatWords(k, me) + " " + (p > 0 ? "+" : "") + p).join(", ") + ".";
  }
  if (rec.void) return head + "void (" + (rec.void === "four_sevens" ? "four sevens dealt" : "everybody passed") + "), dealt again.";
  const side = sides[rec.bidder];
  const got = rec.round_points;
  const other = Math.max(...got.filter((_, k) => k !== side));
  let verdict = "made it: " + got[side] + " card points to " + other;
  if (rec.end === "debertz") verdict = "the game ends with a debertz";
  else if (rec.byte === "byte") verdict = "was beaten, a byte: " + got[side] + " card points to " + other;
  else if (rec.byte === "hanging") verdict = "was held level, a hanging byte: " + got[side] + " card points each";
  return head + seatWords(rec.bidder, me) + " played in " + SUIT_NAMES[rec.trump] + " and " + verdict +
    "; recorded " + sideNames.map((n, k) => n + " " + (rec.recorded[k] > 0 ? "+" : "") + rec.recorded[k]).join(", ") + ".";
}

export async function drawSheet(game) {
  const r = await api("GET", "/api/games/" + game.id + "/sheet");
  const t = $("sheet");
  t.innerHTML = "";
  const head = document.createElement("tr");
  for (const text of ["deal", ...game.view.seats.map((s) => s.seat === game.seat ? "you" : "seat " + s.seat)]) {
    const th = document.createElement("th"); th.textContent = text; head.appendChild(th);
  }
  t.appendChild(head);
  r.points.forEach((pts, k) => {
    const tr = document.createElement("tr");
    for (const text of [k + 1, ...pts]) {
      const td = document.createElement("td"); td.textContent = text; tr.appendChild(td);
    }
    t.appendChild(tr);
  });
  const last = r.records[r.records.length - 1];
  if (last) {
    $("deal-result").textContent = dealWords(last, r.records.length, r.side_names,
      game.view.seats.map((s) => s.side), game.seat);
  }
}
