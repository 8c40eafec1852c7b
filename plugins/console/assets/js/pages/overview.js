// Overview: is the daemon ready, what each op served and failed since it started (from
// /metrics), and how much the project holds: users, collections, documents and the store's
// size on disk (sqlite; MongoDB does not report one).
import { bytes, h, table } from "../dom.js";

// opbase_requests_total{op="...",code="..."} N → {op: {requests, errors}}.
function requestsByOp(metricsText) {
  const byOp = {};
  const line = /^opbase_requests_total\{op="([^"]*)",code="([^"]*)"\} ([0-9.e+]+)$/;
  for (const text of metricsText.split("\n")) {
    const match = line.exec(text);
    if (!match) continue;
    const entry = (byOp[match[1]] ??= { requests: 0, errors: 0 });
    const n = Number(match[3]);
    entry.requests += n;
    if (match[2] !== "OK") entry.errors += n;
  }
  return byOp;
}

// opbase_store_size_bytes{project="<id>"} N → N, or null when the store does not say.
function storeSize(metricsText, project) {
  const prefix = `opbase_store_size_bytes{project="${project}"} `;
  const found = metricsText.split("\n").find((line) => line.startsWith(prefix));
  return found ? Number(found.slice(prefix.length)) : null;
}

async function fetchText(path) {
  const response = await fetch(path, { cache: "no-store", credentials: "omit" });
  return { ok: response.ok, text: await response.text() };
}

export async function render(api, page) {
  const [ready, metrics, users, collections] = await Promise.all([
    fetchText("/readyz"),
    fetchText("/metrics"),
    api.call("auth.user.list", { limit: 1 }),
    api.optional("collection.admin.list").then((answer) => answer ?? { data: [] }),
  ]);
  const readiness = JSON.parse(ready.text || "{}");
  const documents = collections.data.reduce((sum, c) => sum + c.active, 0);
  const size = storeSize(metrics.text, api.profile.aud);
  const byOp = Object.entries(requestsByOp(metrics.text)).sort((a, b) => b[1].requests - a[1].requests);
  page.append(
    h("div", { class: "cards" },
      h("div", { class: `card ${ready.ok ? "good" : "bad"}` }, h("span", {}, "Daemon"), h("strong", { id: "health" }, ready.ok ? "ready" : "not ready")),
      h("div", { class: "card" }, h("span", {}, "Users"), h("strong", { id: "user-total" }, users.meta.total)),
      h("div", { class: "card" }, h("span", {}, "Collections"), h("strong", {}, collections.data.length)),
      h("div", { class: "card" }, h("span", {}, "Documents"), h("strong", {}, documents)),
      h("div", { class: "card" }, h("span", {}, "Store size"), h("strong", { id: "store-size" }, size === null ? "not reported" : bytes(size))),
      h("div", { class: "card" }, h("span", {}, "Plugins"), h("strong", {}, Object.keys(readiness.checks?.plugins || {}).length))),
    h("h3", {}, "Requests per op since the daemon started"),
    table([
      { title: "op", value: ([op]) => op },
      { title: "requests", value: ([, n]) => n.requests },
      { title: "errors", value: ([, n]) => n.errors },
    ], byOp, { empty: "No request yet." }));
}
