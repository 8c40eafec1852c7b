// Vectors: every user's vector collections, with their records, dimensions and model.
import { h, pager, replace, table, when } from "../dom.js";

const kLimit = 20;

export async function render(api, page) {
  const box = h("div", { id: "vector-collections" });
  async function load(offset = 0) {
    const { data, meta } = await api.call("vdb.admin.list", { limit: kLimit, offset });
    replace(box, table([
      { title: "collection", value: (c) => c.name },
      { title: "owner", value: (c) => c._userkey },
      { title: "records", value: (c) => c.records },
      { title: "dimensions", value: (c) => c.dimensions },
      { title: "model", value: (c) => c.model_version ?? "(vectors as given)" },
      { title: "created", value: (c) => when(c._created_at) },
    ], data, { empty: "No vector collection yet." }), pager(offset, kLimit, meta.total, load));
  }
  page.append(box);
  await load(0);
}
