// Users: search by the start of the e-mail and by role, page through, and act on one user:
// see the profile, disable or enable, give or take the admin role, sign out everywhere; invite
// by e-mail.
import { field, h, pager, replace, statusLine, table, when } from "../dom.js";

const kLimit = 20;

export async function render(api, page, context) {
  const search = h("input", { type: "search", name: "search", placeholder: "e-mail starts with…" });
  const role = h("select", { name: "role" }, ["", "admin", "user"].map((r) => h("option", { value: r }, r || "any role")));
  const results = h("div", { id: "user-results" });
  const profile = h("pre", { class: "json", id: "user-profile", hidden: true });
  const { element: message, say, fail } = statusLine();

  function actions(user) {
    const admin = user.roles.includes("admin");
    const key = user._userkey;
    return h("span", { class: "row-actions" },
      h("button", { type: "button", class: "secondary", onclick: async () => {
        try {
          const { data } = await api.call("auth.user.get", { _userkey: key });
          profile.hidden = false;
          profile.textContent = JSON.stringify(data, null, 2);
        } catch (e) {
          fail(e);
        }
      } }, "Profile"),
      h("button", { type: "button", class: "secondary", onclick: () => context.change("auth.user.update", { _userkey: key, data: { disabled: !user.disabled } }, `${user.email} ${user.disabled ? "enabled" : "disabled"}.`) }, user.disabled ? "Enable" : "Disable"),
      h("button", { type: "button", class: "secondary", onclick: () => context.change("auth.user.update", { _userkey: key, data: { roles: admin ? user.roles.filter((r) => r !== "admin") : [...user.roles, "admin"] } }, `${user.email}: roles changed.`) }, admin ? "Remove admin" : "Make admin"),
      h("button", { type: "button", class: "secondary", onclick: () => context.change("auth.user.signout", { _userkey: key }, `${user.email} signed out everywhere.`) }, "Sign out everywhere"));
  }

  async function load(offset = 0) {
    const params = { limit: kLimit, offset };
    if (search.value.trim()) params.search = search.value.trim();
    if (role.value) params.role = role.value;
    try {
      const { data, meta } = await api.call("auth.user.list", params);
      replace(results,
        table([
          { title: "e-mail", value: (u) => u.email },
          { title: "name", value: (u) => u.display_name },
          { title: "roles", value: (u) => u.roles.join(", ") },
          { title: "state", value: (u) => (u.disabled ? "disabled" : "active") },
          { title: "signed up", value: (u) => when(u._created_at) },
          { title: "", value: actions },
        ], data, { empty: "No user matches." }),
        pager(offset, kLimit, meta.total, load));
    } catch (e) {
      fail(e);
    }
  }

  const inviteEmail = h("input", { type: "email", name: "invite_email", placeholder: "new.person@example.com" });
  const invite = h("form", { class: "inline", onsubmit: async (event) => {
    event.preventDefault();
    try {
      await api.call("auth.send_otp", { email: inviteEmail.value.trim(), intent: "invite" });
      say(`Invitation sent to ${inviteEmail.value.trim()}.`, "info");
      inviteEmail.value = "";
    } catch (e) {
      fail(e);
    }
  } }, field("Invite", inviteEmail), h("button", { type: "submit" }, "Send invitation"));

  const filters = h("form", { class: "inline", role: "search", onsubmit: (event) => {
    event.preventDefault();
    load(0);
  } }, field("Search", search), field("Role", role), h("button", { type: "submit" }, "Search"));

  page.append(filters, message, results, profile, invite);
  await load(0);
}
