// The sign-in form: the project's endpoint key and API key (those its apps use), then an
// administrator's e-mail and password, and a mailed code when the project signs in with codes
// (its authentication_method is otp) or the administrator asks for one as a second factor.
// A signed-in account without the admin role is told so and signed out again.
import { Api } from "./api.js";
import { errorText, field, h, replace } from "./dom.js";

// `notice`: why the console came back here (a session that ended), shown above the form.
export function signInView(app, keys, signedIn, notice) {
  const endpointKey = h("input", { name: "endpoint_key", required: true, autocomplete: "off", value: keys.endpointKey, spellcheck: "false" });
  const apiKey = h("input", { name: "api_key", required: true, autocomplete: "off", type: "password", value: keys.apiKey });
  const email = h("input", { name: "email", type: "email", required: true, autocomplete: "username" });
  const password = h("input", { name: "password", type: "password", autocomplete: "current-password" });
  const code = h("input", { name: "otp", inputmode: "numeric", autocomplete: "one-time-code" });
  const codeField = field("Code from the e-mail", code);
  codeField.hidden = true;
  const message = h("p", { class: "message", role: "alert" });
  const submit = h("button", { type: "submit" }, "Sign in");

  const api = () => new Api(endpointKey.value.trim(), apiKey.value.trim());
  const say = (text, kind = "error") => {
    message.className = `message ${kind}`;
    message.textContent = text;
  };

  const sendCode = h("button", { type: "button", class: "secondary", onclick: async () => {
    try {
      await api().sendCode(email.value.trim());
      codeField.hidden = false;
      say("A code is on its way to that address, if it has an account.", "info");
      code.focus();
    } catch (e) {
      say(errorText(e));
    }
  } }, "E-mail me a code");

  const form = h("form", { class: "signin", novalidate: true, onsubmit: async (event) => {
    event.preventDefault();
    submit.disabled = true;
    const client = api();
    try {
      await client.signIn(email.value.trim(), password.value, code.value.trim());
      if (!client.isAdmin()) {
        await client.signOut();
        say("This account is not an administrator of the project: the console is for administrators only.");
        return;
      }
      password.value = "";
      signedIn(client);
    } catch (e) {
      say(errorText(e));
    } finally {
      submit.disabled = false;
    }
  } },
  h("h1", {}, "opbase console"),
  field("Endpoint key", endpointKey),
  field("API key", apiKey),
  field("E-mail", email),
  field("Password", password),
  codeField,
  h("div", { class: "actions" }, submit, sendCode),
  message);

  // A project that signs in with codes shows the code field from the start.
  const showCodeIfOtp = async () => {
    if (!endpointKey.value || !apiKey.value) return;
    try {
      const settings = await api().settings();
      if (settings?.email_settings?.authentication_method === "otp") codeField.hidden = false;
    } catch {
      // Wrong keys are reported when the form is sent.
    }
  };
  apiKey.addEventListener("change", showCodeIfOtp);
  if (notice) say(notice, "error");
  replace(app, h("main", { class: "signin-page" }, form));
  showCodeIfOtp();
  (keys.endpointKey ? email : endpointKey).focus();
}
