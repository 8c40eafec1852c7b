// Settings: the project's settings an administrator may change (auth, file limits, the AI
// provider). A changed setting wins over the configuration file until reset; each form sends
// only what changed.
import { h, statusLine } from "../dom.js";

function checkbox(value) {
  return h("input", { type: "checkbox", checked: value });
}

function select(options, value) {
  return h("select", {}, options.map((o) => h("option", { value: o, selected: o === value }, o)));
}

// One form over one area's settings: `inputs` by name, each with read() giving its value.
function settingsForm(api, context, area, title, view, inputs) {
  const { element: message, say, fail } = statusLine();
  const rows = Object.entries(inputs).map(([name, input]) => {
    const changed = view.changed.includes(name);
    input.element.id = `${area}-${name}`;
    input.element.name = name;
    const reset = changed
      ? h("button", { type: "button", class: "link", onclick: () => save({ [name]: null }) }, "use the configuration's value")
      : null;
    return h("div", { class: "setting" },
      h("label", { for: input.element.id }, name),
      input.element,
      h("span", { class: "origin" }, changed ? "changed here" : "from the configuration", reset ? " · " : "", reset));
  });
  async function save(changes) {
    try {
      await api.call(`${area}.settings.update`, { data: changes });
      context.reload(`Saved ${Object.keys(changes).join(", ")}: in force now.`);
    } catch (e) {
      fail(e);
    }
  }
  const form = h("form", { class: "settings", id: `settings-${area}`, onsubmit: (event) => {
    event.preventDefault();
    const changes = {};
    for (const [name, input] of Object.entries(inputs)) {
      const value = input.read();
      if (JSON.stringify(value) !== JSON.stringify(view.settings[name])) changes[name] = value;
    }
    if (Object.keys(changes).length === 0) {
      say("Nothing changed.");
      return;
    }
    save(changes);
  } }, h("h3", {}, title), rows, h("button", { type: "submit" }, "Save"), message);
  return form;
}

export async function render(api, page, context) {
  // An area whose plugin this daemon does not load has no form.
  const [auth, file, ai] = await Promise.all(["auth", "file", "ai"].map(async (area) =>
    (await api.optional(`${area}.settings.get`))?.data));
  if (auth) {
    const s = auth.settings;
    const signup = checkbox(s.allow_email_signup);
    const verify = checkbox(s.verify_email_on_signup);
    const method = select(["password", "otp"], s.authentication_method);
    const policyNames = ["LOW", "MEDIUM", "HIGH"].concat(s.password_policy_name === "CUSTOM" ? ["CUSTOM"] : []);
    const policy = select(policyNames, s.password_policy_name);
    const idTtl = h("input", { type: "number", min: 60, value: s.id_token_ttl_s });
    const refreshTtl = h("input", { type: "number", min: 300, value: s.refresh_token_ttl_s });
    const otpRate = h("input", { value: s.send_otp_per_email });
    const signupRate = h("input", { value: s.signup_per_address });
    const form = settingsForm(api, context, "auth", "Sign-up and sign-in", auth, {
      allow_email_signup: { element: signup, read: () => signup.checked },
      verify_email_on_signup: { element: verify, read: () => verify.checked },
      authentication_method: { element: method, read: () => method.value },
      // The policy is sent by its name; CUSTOM stays as it is unless another name is chosen.
      password_policy: { element: policy, read: () => (policy.value === "CUSTOM" ? s.password_policy : policy.value) },
      send_otp_per_email: { element: otpRate, read: () => otpRate.value.trim() },
      signup_per_address: { element: signupRate, read: () => signupRate.value.trim() },
      id_token_ttl_s: { element: idTtl, read: () => Number(idTtl.value) },
      refresh_token_ttl_s: { element: refreshTtl, read: () => Number(refreshTtl.value) },
    });
    page.append(form, h("p", { class: "hint" }, `Password policy in force: ${JSON.stringify(s.password_policy)}`));
  }
  if (file) {
    const s = file.settings;
    const numberInput = (value) => h("input", { type: "number", min: 1, value });
    const maxSize = numberInput(s.max_size);
    const quotaBytes = numberInput(s.quota_bytes_per_user);
    const quotaFiles = numberInput(s.quota_files_per_user);
    page.append(settingsForm(api, context, "file", "File limits", file, {
      max_size: { element: maxSize, read: () => Number(maxSize.value) },
      quota_bytes_per_user: { element: quotaBytes, read: () => Number(quotaBytes.value) },
      quota_files_per_user: { element: quotaFiles, read: () => Number(quotaFiles.value) },
    }));
  }
  if (ai) {
    const provider = select(["(the configuration's routes)"].concat(ai.providers), ai.settings.provider ?? "(the configuration's routes)");
    page.append(settingsForm(api, context, "ai", "AI provider", ai, {
      provider: { element: provider, read: () => (provider.selectedIndex === 0 ? null : provider.value) },
    }));
  }
  page.append(h("p", { class: "hint" }, "Webhook endpoints are on the Webhooks page."));
}
