// Files: what each user keeps (as counted against the quota) and every user's files.
import { bytes, h, pager, replace, table, when } from "../dom.js";

const kLimit = 20;

export async function render(api, page) {
  const usageBox = h("div", { id: "file-usage" });
  const filesBox = h("div", { id: "file-list" });

  async function loadUsage(offset = 0) {
    const { data, meta } = await api.call("file.usage.list", { limit: kLimit, offset });
    replace(usageBox, table([
      { title: "user", value: (u) => u._userkey },
      { title: "kept", value: (u) => bytes(u.bytes) },
      { title: "files", value: (u) => u.files },
    ], data, { empty: "No file yet." }), pager(offset, kLimit, meta.total, loadUsage));
  }

  async function loadFiles(offset = 0) {
    const { data, meta } = await api.call("file.admin.list", { limit: kLimit, offset });
    replace(filesBox, table([
      { title: "name", value: (f) => f.name },
      { title: "owner", value: (f) => f._userkey },
      { title: "type", value: (f) => f.content_type },
      { title: "size", value: (f) => bytes(f.size) },
      { title: "state", value: (f) => f.state },
      { title: "public", value: (f) => (f.public ? "yes" : "no") },
      { title: "created", value: (f) => when(f._created_at) },
    ], data, { empty: "No file yet." }), pager(offset, kLimit, meta.total, loadFiles));
  }

  page.append(h("h3", {}, "Usage per user"), usageBox, h("h3", {}, "Files"), filesBox);
  await Promise.all([loadUsage(0), loadFiles(0)]);
}
