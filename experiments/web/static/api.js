// The JSON API of experiments/web/app.py. A game answers only the token its creation gave:
// it is kept here and sent with every request about that game.

export const $ = (id) => document.getElementById(id);

let token = null;

export function setToken(value) { token = value; }

export function show(msg) {
  const m = $("message");
  m.textContent = msg || "";
  m.hidden = !msg;
}

export async function api(method, url, body) {
  const opts = { method, headers: {} };
  if (token && url.startsWith("/api/games/")) opts.headers.Authorization = "Bearer " + token;
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
