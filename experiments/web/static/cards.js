// Cards as the page draws them: faces (rank then suit, "TH" is the ten of hearts) and backs.

export const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
export const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };

export function isCard(name) { return /^[2-9TJQKA][SHDC]$/.test(name); }

export function cardLabel(c) {
  return (c[0] === "T" ? "10" : c[0]) + (SUITS[c[1]] || c[1]);
}

export function cardEl(c, tag, small) {
  const el = document.createElement(tag || "span");
  el.className = "card" + (small ? " small" : "") + ("HD".includes(c[1]) ? " red" : "");
  el.textContent = cardLabel(c);
  el.dataset.card = c;
  el.setAttribute("aria-label", cardWords(c));
  return el;
}

export function cardWords(c) {
  const ranks = { T: "ten", J: "jack", Q: "queen", K: "king", A: "ace" };
  return (ranks[c[0]] || c[0]) + " of " + SUIT_NAMES[c[1]];
}

// a hidden hand: one back per card, and the count
export function backsEl(count) {
  const el = document.createElement("div");
  el.className = "backs";
  el.setAttribute("aria-label", count + " hidden cards");
  for (let k = 0; k < count; k++) {
    const b = document.createElement("span");
    b.className = "back";
    el.appendChild(b);
  }
  const n = document.createElement("span");
  n.className = "count";
  n.textContent = count + (count === 1 ? " card" : " cards");
  el.appendChild(n);
  return el;
}

export function suitEl(s) {
  const el = document.createElement("span");
  el.className = "suit" + ("HD".includes(s) ? " red" : "");
  el.textContent = SUITS[s] + " " + SUIT_NAMES[s];
  return el;
}
