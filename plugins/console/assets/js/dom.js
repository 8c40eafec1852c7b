// Building the page from data without HTML strings: every text goes in as a text node, so
// nothing a user stored (a document, an e-mail, a file name) can become markup or script.

export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (name === "dataset") Object.assign(element.dataset, value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function replace(element, ...children) {
  element.replaceChildren();
  append(element, children);
}

// A table of `rows`, each `columns[i].value(row)` (a Node or a text).
export function table(columns, rows, { empty = "Nothing here yet." } = {}) {
  if (rows.length === 0) return h("p", { class: "empty" }, empty);
  return h("table", {},
    h("thead", {}, h("tr", {}, columns.map((c) => h("th", { scope: "col" }, c.title)))),
    h("tbody", {}, rows.map((row) => h("tr", {}, columns.map((c) => h("td", {}, c.value(row)))))));
}

// "Page 2 of 5" with previous and next buttons; `go(offset)` loads another page.
export function pager(offset, limit, total, go) {
  const page = Math.floor(offset / limit) + 1;
  const pages = Math.max(1, Math.ceil(total / limit));
  return h("div", { class: "pager" },
    h("button", { type: "button", disabled: offset === 0, onclick: () => go(Math.max(0, offset - limit)) }, "Previous"),
    h("span", {}, `Page ${page} of ${pages} · ${total} in all`),
    h("button", { type: "button", disabled: offset + limit >= total, onclick: () => go(offset + limit) }, "Next"));
}

// A line under a page's controls that tells the outcome of what was done there.
export function statusLine() {
  const element = h("p", { class: "message", role: "status" });
  const say = (text, kind = "info") => {
    element.className = `message ${kind}`;
    element.textContent = text;
  };
  return { element, say, fail: (error) => say(errorText(error), "error") };
}

export function field(label, input) {
  return h("label", { class: "field" }, h("span", {}, label), input);
}

// The error an op answered, as people read it: message, code and the field it names.
export function errorText(error) {
  const where = error.details?.field ? ` (${error.details.field})` : "";
  return `${error.message}${where} — ${error.code}`;
}

export function when(iso) {
  if (!iso) return "";
  const date = typeof iso === "number" ? new Date(iso) : new Date(iso);
  return Number.isNaN(date.getTime()) ? String(iso) : date.toISOString().replace("T", " ").slice(0, 19);
}

export function bytes(n) {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = Number(n) || 0;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}
