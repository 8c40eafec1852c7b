// Data: every collection with its counts, and a browser over every user's documents with the
// API's match syntax, a sort and pages; a document's JSON; delete, and restore by `_ref`. The
// page follows the collection it shows (a live query of every user's documents, when the daemon
// loads the realtime plugin): a change made anywhere shows within a moment, without a reload.
import { field, h, pager, replace, statusLine, table, when } from "../dom.js";

const kLimit = 20;

export async function render(api, page) {
  let { data: collections } = await api.call("collection.admin.list");
  const counts = h("div", { id: "collection-counts" });
  const drawCounts = () => replace(counts, table([
    { title: "collection", value: (c) => c.name },
    { title: "active", value: (c) => c.active },
    { title: "archived", value: (c) => c.archived },
    { title: "deleted", value: (c) => c.deleted },
  ], collections, { empty: "No collection yet: nothing was inserted." }));
  const { element: message, say, fail } = statusLine();
  const results = h("div", { id: "documents" });
  const detail = h("pre", { class: "json", id: "document-json", hidden: true });
  const collection = h("select", { name: "collection" }, collections.map((c) => h("option", { value: c.name }, c.name)));
  const match = h("textarea", { name: "match", rows: 2, spellcheck: "false" }, "{}");
  const sort = h("input", { name: "sort", value: "_created_at desc" });
  const ref = h("input", { name: "ref", placeholder: "_ref from a delete" });
  const live = h("p", { class: "hint", id: "live-status" });
  let shownOffset = 0;

  async function restore(refValue) {
    try {
      const { data } = await api.call("collection.admin.restore", { collection: collection.value, match: { _ref: refValue } });
      say(data.data ? `Restored the documents of ${refValue}.` : `Nothing to restore for ${refValue}.`, data.data ? "info" : "error");
      await load(0);
    } catch (e) {
      fail(e);
    }
  }

  async function remove(doc) {
    try {
      const { data } = await api.call("collection.admin.delete", { collection: collection.value, match: { _key: doc._key } });
      replace(message, `Deleted ${doc._key} (_ref ${data._ref}). `,
        h("button", { type: "button", class: "link", id: "undo-delete", onclick: () => restore(data._ref) }, "Restore it"));
      message.className = "message info";
      await load(0);
    } catch (e) {
      fail(e);
    }
  }

  async function load(offset = 0) {
    shownOffset = offset;
    detail.hidden = true;
    collections = (await api.call("collection.admin.list")).data;
    drawCounts();
    let parsed;
    try {
      parsed = JSON.parse(match.value || "{}");
    } catch (e) {
      say(`match is not JSON: ${e.message}`, "error");
      return;
    }
    try {
      const { data, meta } = await api.call("collection.admin.find", { collection: collection.value, match: parsed, sort: sort.value, limit: kLimit, offset });
      const total = meta.pagination?.size ?? data.length;
      replace(results,
        table([
          { title: "_key", value: (d) => d._key },
          { title: "owner", value: (d) => d._userkey ?? "(anonymous)" },
          { title: "created", value: (d) => when(d._created_at) },
          { title: "fields", value: (d) => Object.keys(d).filter((k) => !k.startsWith("_")).join(", ") },
          { title: "", value: (d) => h("span", { class: "row-actions" },
            h("button", { type: "button", class: "secondary", onclick: () => {
              detail.hidden = false;
              detail.textContent = JSON.stringify(d, null, 2);
            } }, "View"),
            h("button", { type: "button", class: "danger", onclick: () => remove(d) }, "Delete")) },
        ], data, { empty: "No document matches." }),
        pager(offset, kLimit, total, load));
    } catch (e) {
      fail(e);
    }
  }

  // ---- following the collection shown ----
  let stream = null;
  let subscription = null;
  let followed = null;
  let wasShown = false;
  let pending = null;
  async function follow(name) {
    if (followed === name && subscription) return;
    followed = name;
    try {
      stream ??= await api.liveStream(onLiveEvent, () => {
        subscription = null;
        follow(followed);
      });
      if (subscription) {
        await api.call("realtime.unsubscribe", { client_id: stream.clientId, subscription_id: subscription }).catch(() => {});
        subscription = null;
      }
      const { data } = await api.call("realtime.subscribe",
        { client_id: stream.clientId, collection: name, match: {}, all_users: true, keys_only: true });
      subscription = data.subscription_id;
      live.textContent = `Live: changes to ${name} show as they happen.`;
    } catch (e) {
      live.textContent = e.code === "UNKNOWN_OPERATION"
        ? "Not live: this daemon does not load the realtime plugin."
        : `Not live: ${e.message}`;
    }
  }
  function onLiveEvent(name, data) {
    if (page.isConnected) wasShown = true;
    else if (wasShown) return stream?.close();  // another page is shown now
    if (data.subscription_id !== subscription) return;
    // A burst of writes is one reload.
    clearTimeout(pending);
    pending = setTimeout(() => load(shownOffset), 150);
  }

  drawCounts();
  page.append(counts);
  if (collections.length === 0) return;
  page.append(
    h("form", { class: "query", onsubmit: (event) => {
      event.preventDefault();
      load(0);
      follow(collection.value);
    } }, field("Collection", collection), field("Match", match), field("Sort", sort), h("button", { type: "submit" }, "Find")),
    live, message, results, detail,
    h("form", { class: "inline", onsubmit: (event) => {
      event.preventDefault();
      restore(ref.value.trim());
    } }, field("Restore by _ref", ref), h("button", { type: "submit" }, "Restore")));
  await load(0);
  follow(collection.value);  // not awaited: the page shows now, live a moment later
}
