// The console once signed in: the navigation, who is signed in, and the page of the fragment.
import { errorText, h, replace } from "./dom.js";
import * as overview from "./pages/overview.js";
import * as settings from "./pages/settings.js";
import * as users from "./pages/users.js";
import * as data from "./pages/data.js";
import * as rules from "./pages/rules.js";
import * as webhooks from "./pages/webhooks.js";
import * as files from "./pages/files.js";
import * as vectors from "./pages/vectors.js";
import * as audit from "./pages/audit.js";

const pages = [
  ["overview", "Overview", overview],
  ["settings", "Settings", settings],
  ["users", "Users", users],
  ["data", "Data", data],
  ["rules", "Rules", rules],
  ["webhooks", "Webhooks", webhooks],
  ["files", "Files", files],
  ["vectors", "Vectors", vectors],
  ["audit", "Audit log", audit],
];

// Answers that mean the administrator's session is over (signed out elsewhere, disabled, no
// longer an admin, expired): the console goes back to the sign-in form.
const kSessionOver = ["TOKEN_INVALID", "TOKEN_EXPIRED", "AUTHENTICATION_FAILED", "FORBIDDEN"];

export function shellView(app, api, signedOut) {
  const content = h("section", { class: "content", id: "content" });
  const links = pages.map(([id, title]) => h("a", { href: `#/${id}`, dataset: { page: id } }, title));
  const signOut = h("button", { type: "button", class: "secondary", onclick: async () => {
    window.removeEventListener("hashchange", onHashChange);
    await api.signOut();
    signedOut();
  } }, "Sign out");
  replace(app,
    h("header", { class: "bar" },
      h("strong", {}, "opbase console"),
      h("span", { class: "who" }, `${api.profile.email} · project ${api.profile.aud}`),
      signOut),
    h("div", { class: "layout" }, h("nav", { "aria-label": "Pages" }, links), content));

  // Draws the page of the fragment again; `notice` (the outcome of a change) above it.
  async function show(notice, kind = "info") {
    const id = location.hash.replace(/^#\//, "") || "overview";
    const page = pages.find(([p]) => p === id) || pages[0];
    for (const link of links) link.classList.toggle("current", link.dataset.page === page[0]);
    replace(content, h("h2", {}, page[1]), h("p", { class: "loading" }, "Loading…"));
    const body = h("div", { class: "page", id: `page-${page[0]}` });
    const shown = typeof notice === "string" ? h("p", { class: `message ${kind}`, role: "status" }, notice) : null;
    // What a page's buttons do: one op, then the page again with the outcome above it.
    const change = async (op, params, done) => {
      try {
        await api.call(op, params);
        await show(done);
      } catch (e) {
        if (!sessionOver(e)) await show(errorText(e), "error");
      }
    };
    try {
      await page[2].render(api, body, { reload: (text) => show(text), change });
      replace(content, h("h2", {}, page[1]), shown, body);
    } catch (e) {
      if (sessionOver(e)) return;
      // A page of an area this daemon does not load (webhooks, file, vdb) says so plainly.
      const text = e.code === "UNKNOWN_OPERATION"
        ? `This page needs a plugin this daemon does not load: ${e.message}`
        : errorText(e);
      replace(content, h("h2", {}, page[1]), h("p", { class: "message error", role: "alert" }, text));
    }
  }
  function sessionOver(error) {
    if (!kSessionOver.includes(error.code)) return false;
    window.removeEventListener("hashchange", onHashChange);
    api.forget();
    signedOut(`Your session ended (${error.code}): sign in again.`);
    return true;
  }
  const onHashChange = () => show();
  window.addEventListener("hashchange", onHashChange);
  if (!location.hash.startsWith("#/")) history.replaceState(null, "", "#/overview");
  show();
}
