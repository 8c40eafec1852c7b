// The management console's start: the sign-in, then the pages, chosen by the address's fragment
// (#/users). A bookmark may carry the project's keys (#endpoint_key=...&api_key=...): they fill
// the sign-in form and leave the address at once; nothing is stored in the browser.
import { signInView } from "./signin.js";
import { shellView } from "./shell.js";

const app = document.getElementById("app");

function keysFromFragment() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const keys = { endpointKey: fragment.get("endpoint_key") || "", apiKey: fragment.get("api_key") || "" };
  if (keys.endpointKey || keys.apiKey) history.replaceState(null, "", `${location.pathname}#/overview`);
  return keys;
}

function showSignIn(keys, notice) {
  signInView(app, keys, (api) => shellView(app, api, (text) => showSignIn({ endpointKey: api.endpointKey, apiKey: api.apiKey }, text)), notice);
}

showSignIn(keysFromFragment());
