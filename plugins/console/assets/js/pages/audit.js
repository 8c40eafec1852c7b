// Audit log: every change an administrator made, newest first: who, what and when.
import { h, pager, replace, table, when } from "../dom.js";

const kLimit = 25;

function who(actor) {
  if (actor?.admin_key) return "the server admin key";
  return actor?.user ?? "";
}

export async function render(api, page) {
  const box = h("div", { id: "audit-entries" });
  async function load(offset = 0) {
    const { data, meta } = await api.call("console.audit.list", { limit: kLimit, offset });
    replace(box, table([
      { title: "when", value: (e) => when(e.at) },
      { title: "who", value: (e) => who(e.actor) },
      { title: "op", value: (e) => e.op },
      { title: "what", value: (e) => h("code", {}, JSON.stringify(e.params)) },
      { title: "from", value: (e) => e.client_address },
    ], data, { empty: "No change yet." }), pager(offset, kLimit, meta.total, load));
  }
  page.append(box);
  await load(0);
}
