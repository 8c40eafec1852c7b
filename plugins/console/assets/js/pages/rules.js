// Rules: who may read, create, update and delete the documents of a collection
// (docs/api.md#collection-rules). One row per action: the entries as checkboxes and the roles as
// a list; saving sets all four, "Default" puts one action back to its default.
import { errorText, field, h, replace, statusLine, table } from "../dom.js";

const kActions = ["read", "create", "update", "delete"];
const kEntries = ["owner", "users", "anyone", "shared"];
// A new document has no owner nor sharing lists yet: create takes neither.
const kNotForCreate = ["owner", "shared"];

export async function render(api, page) {
  const { data: collections } = await api.call("collection.admin.list");
  const name = h("input", { name: "collection", list: "rule-collections", placeholder: "a collection name", value: collections[0]?.name ?? "" });
  const known = h("datalist", { id: "rule-collections" }, collections.map((c) => h("option", { value: c.name })));
  const { element: message, say, fail } = statusLine();
  const editor = h("div", { id: "rules-editor" });
  let rows = {};

  // The controls of one action, filled with its entries.
  function actionRow(action, entries) {
    const boxes = kEntries.map((entry) => h("input", {
      type: "checkbox", name: `${action}-${entry}`, checked: entries.includes(entry),
      disabled: action === "create" && kNotForCreate.includes(entry),
    }));
    const roles = h("input", { name: `${action}-roles`, placeholder: "staff, editor",
      value: entries.filter((e) => e.startsWith("role:")).map((e) => e.slice(5)).join(", ") });
    rows[action] = { boxes, roles };
    return { action, boxes, roles };
  }

  function entriesOf(action) {
    const { boxes, roles } = rows[action];
    const chosen = kEntries.filter((_, i) => boxes[i].checked && !boxes[i].disabled);
    const named = roles.value.split(",").map((r) => r.trim()).filter(Boolean).map((r) => `role:${r}`);
    return [...chosen, ...named];
  }

  async function save(changes, done) {
    try {
      const { data } = await api.call("collection.rules.update", { collection: name.value.trim(), rules: changes });
      draw(data.rules);
      say(done, "info");
    } catch (e) {
      fail(e);
    }
  }

  function draw(rules) {
    rows = {};
    const actions = kActions.map((action) => actionRow(action, rules[action]));
    replace(editor,
      table([
        { title: "action", value: (r) => r.action },
        ...kEntries.map((entry, i) => ({ title: entry, value: (r) => h("label", { class: "check" }, r.boxes[i]) })),
        { title: "roles", value: (r) => r.roles },
        { title: "", value: (r) => h("button", { type: "button", class: "secondary", onclick: () =>
          save({ [r.action]: null }, `The ${r.action} rule of ${name.value.trim()} is back to its default.`) }, "Default") },
      ], actions),
      h("p", { class: "hint" },
        "owner: the document's creator · users: anyone signed in · anyone: also without a token (create: with a captcha) · shared: those its _readers and _writers name · no entry: administrators only"),
      h("button", { type: "button", id: "save-rules", onclick: () => {
        const changes = Object.fromEntries(kActions.map((action) => [action, entriesOf(action)]));
        save(changes, `Saved the rules of ${name.value.trim()}.`);
      } }, "Save rules"));
  }

  async function load() {
    try {
      const { data } = await api.call("collection.rules.get", { collection: name.value.trim() });
      draw(data.rules);
      say(`The rules of ${data.collection}.`, "info");
    } catch (e) {
      replace(editor);
      say(errorText(e), "error");
    }
  }

  page.append(
    h("form", { class: "inline", onsubmit: (event) => {
      event.preventDefault();
      load();
    } }, field("Collection", name), known, h("button", { type: "submit" }, "Show rules")),
    message, editor);
  if (name.value) await load();
}
